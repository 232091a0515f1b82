"""Retrieval as named stages, each kept for measurement (bench/retrieval.py):

    candidates   lexical lists (the question's words and concepts in FTS5, kb.retrieve.lexical),
                 structure lists (the named moments' and cards' rules), dense (the passages
                 closest to the question's embedding, kb.retrieve.dense)
    fuse         reciprocal-rank fusion of the lists (kb.retrieve.fuse)
    rank         every fused candidate scored by its features and the learned weights
                 (kb.retrieve.rank), among them how far its latent terms meet the
                 question's (kb.retrieve.dense.latent_similarity)
    rerank       the ranked list's head ordered again by boosted trees (kb.retrieve.trees)
    cut          the named version's rules first, a rule before a glossary entry (unless the
                 question asks what something is), one hit per piece of rules text, current
                 versions first (kb.retrieve.cut)

``kb ask`` reads ``hits``; a database without vectors gives no dense list (``dense_used``
False), and everything else works as before.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..lexicon.forms import QuestionForms
from ..store import datafiles
from . import dense as dense_stage
from .cut import collapse, named_era_first, named_version_first, rules_before_glossary
from .features import named_versions
from .fuse import fuse
from .groups import Group, query_groups
from .lexical import forms_of, gather
from .query import Understanding
from .rank import rank
from .trees import accentless, rerank

# How many passages the dense lists contribute.
DENSE_SIZE = 60


class Stages:
    """What each stage produced for one question."""

    def __init__(self) -> None:
        self.lists: list[tuple[str, list[int]]] = []  # (kind, rules.seq best first)
        self.similarity: dict[int, float] = {}  # dense similarity of every passage
        self.dense_used = False
        self.fused: dict[int, float] = {}
        self.linear: list[dict[str, Any]] = []  # ranked by the linear weights alone
        self.ranked: list[dict[str, Any]] = []
        self.hits: list[dict[str, Any]] = []
        self.groups: list[Group] = []  # what the question asks about (kb.retrieve.groups)


def candidates(
    conn: sqlite3.Connection,
    u: Understanding,
    game: str,
    forms: QuestionForms,
    *,
    use_dense: bool = True,
) -> Stages:
    """The candidate lists of the question, of ``game`` (or of any game when "")."""
    stages = Stages()
    stages.lists = gather(conn, u, game, forms).lists
    if use_dense and dense_stage.available(conn):
        similar = dense_stage.similarity(conn, u.text, game=game)
        stages.similarity = similar
        stages.dense_used = bool(similar)
        # One list of the question's language, one of the others (nearest_by_language).
        for nearest in dense_stage.nearest_by_language(conn, similar, u.lang, DENSE_SIZE // 2):
            stages.lists.append(("dense", nearest))
    return stages


def head(fused: dict[int, float], conn: sqlite3.Connection) -> dict[int, float]:
    """The best fused candidates, as many as kb/data/limits.toml lets a question rank."""
    most = datafiles.load("limits", conn)["question"].get("max_ranked_passages", 0)
    if not most or len(fused) <= most:
        return fused
    best = sorted(fused, key=lambda seq: (-fused[seq], seq))[:most]
    return {seq: fused[seq] for seq in best}


def retrieve(
    conn: sqlite3.Connection,
    u: Understanding,
    *,
    game: str = "",
    lang: str = "",
    forms: QuestionForms | None = None,
    use_dense: bool = True,
) -> Stages:
    """Every stage for the understood question; ``hits`` is what a judge is shown."""
    game = game or u.game or ""
    forms = forms or forms_of(conn, u, game)
    stages = candidates(conn, u, game, forms, use_dense=use_dense)
    stages.fused = head(fuse(stages.lists), conn)
    stages.groups = query_groups(forms)
    latent = dense_stage.latent_similarity(conn, u.text, sorted(stages.fused)) if use_dense else {}
    stages.linear = rank(
        conn,
        u,
        stages.fused,
        lang=lang,
        groups=stages.groups,
        dense=stages.similarity,
        latent=latent,
    )
    stages.ranked = rerank(stages.linear, stages.lists, question={"accentless": accentless(u)})
    versions = named_versions(u.text)
    ranked = named_version_first(stages.ranked, conn, versions) if versions else stages.ranked
    ranked = named_era_first(ranked, u.years) if u.years else ranked
    ranked = rules_before_glossary(ranked, asks_definition=u.definition)
    stages.hits = collapse(ranked, conn, lang or u.lang, versions)
    return stages
