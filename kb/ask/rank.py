"""Ranking: the candidate lists fused by reciprocal rank, then every passage scored by the
features of kb.ask.features weighed by kb/data/ask_weights.toml.

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..lexicon.forms import QuestionForms
from ..store import datafiles
from ..store.db import column, run
from .features import FEATURES, Ranking
from .groups import query_groups
from .question import Understood, typed_spans
from .retrieve import Candidates, forms_of

# The reciprocal-rank constant: a passage at rank k of a list scores weight / (RRF_K + k).
RRF_K = 20


def weights() -> dict[str, float]:
    """kb/data/ask_weights.toml [weights] (written by bench/tune_ask.py), one per feature, in
    the order of FEATURES; a feature the file does not weigh yet (a new one, before tuning)
    weighs 0."""
    written = datafiles.load("ask_weights")["weights"]
    return {name: written.get(name, 0.0) for name in FEATURES}


def fuse(candidates: Candidates) -> dict[int, float]:
    """Reciprocal-rank fusion of the candidate lists: passage (rules.seq) -> score."""
    fused: dict[int, float] = {}
    for weight, seqs in candidates.lists:
        for k, seq in enumerate(seqs):
            fused[seq] = fused.get(seq, 0.0) + weight / (RRF_K + k)
    return fused


def neighbours(conn: sqlite3.Connection, nodes: set[str]) -> set[str]:
    """Parents and children of the named timing nodes."""
    out: set[str] = set()
    for node in sorted(nodes):
        out.update(column(conn, "ask_timing_neighbours", node=node))
    return out - nodes


def rank(
    conn: sqlite3.Connection,
    u: Understood,
    candidates: Candidates,
    *,
    lang: str = "",
    forms: QuestionForms | None = None,
) -> list[dict[str, Any]]:
    """The candidate passages, best first, each with its ``features`` and ``score``."""
    fused = fuse(candidates)
    if not fused:
        return []
    ranking = Ranking(
        u=u,
        groups=query_groups(forms or forms_of(conn, u)),
        typed=typed_spans(u),
        fused=fused,
        near=neighbours(conn, {t["node"] for t in u.timing} | set(u.qualified_from)),
        lang=lang or u.lang,
    )
    w = weights()
    rows = run(conn, "passages", seqs=sorted(fused))
    for row in rows:
        features = {name: fn(row, ranking) for name, fn in FEATURES.items()}
        row["features"] = {k: round(v, 3) for k, v in features.items()}
        row["score"] = round(sum(w[k] * v for k, v in features.items()), 4)
    rows.sort(key=lambda r: (-r["score"], r["seq"]))
    return rows
