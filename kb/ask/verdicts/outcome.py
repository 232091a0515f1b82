"""What happens: the outcome Y of an outcome fact "If X, Y" whose condition names every concept
the question names and holds most of its words; facts that disagree give no verdict.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.text import fold, stem

from ...lexicon.words import stopwords
from ...lookups.labels import narrate
from ...store import datafiles
from ...store.db import run
from ..answers.common import quote_gloss
from ..passes_asks import lexicon
from ..question import Understood
from .common import Asked, Verdict, because, threshold
from .words import content


@cache
def _referring() -> re.Pattern[str]:
    words_ = datafiles.load("statements")["referring"]
    body = "|".join(re.escape(w) for ws in words_.values() for w in ws)
    return re.compile(rf"\s*(?<!\w)(?:{body})(?!\w)", re.IGNORECASE)


def plain(outcome: str) -> str:
    """The outcome without the words tying it to the sentence before ("You also win")."""
    return _referring().sub("", outcome).strip() or outcome


def in_english(conn: sqlite3.Connection, fact: dict[str, Any]) -> dict[str, Any]:
    """The deciding clause read in its rule's English gloss, when it has one (the fact cited
    stays the rule's own)."""
    gloss = quote_gloss(conn, fact["rule"], fact["quote"], fact["lang"])
    parts = lexicon().split_condition(gloss["text"]) if gloss else None
    if not parts or gloss is None:
        return fact
    english = {**fact, "quote": gloss["text"], "condition": parts[0], "outcome": parts[1]}
    if fact.get("next"):
        following = quote_gloss(conn, fact["rule"], fact["next"], fact["lang"])
        english["next"] = following["text"] if following else ""
    return english


def what_happens(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    game = u.game or u.game_hint or ""
    concepts = {f"term:{t['term']}" for t in u.terms} | {f"card:{c['id']}" for c in u.cards}
    asked_words = {stem(w) for w in u.words}
    if not game or not (concepts or asked_words):
        return None
    fits: list[tuple[float, dict[str, Any]]] = []
    for fact in run(conn, "verdict_outcomes", game=game):
        if not concepts <= set(fact["concepts"].split()):
            continue
        held = content(fact["condition"], set(stopwords()))
        share = len(asked_words & held) / len(asked_words) if asked_words else 1.0
        if share >= threshold("min_outcome_share"):
            fits.append((share, fact))
    if not fits:
        return None
    best = max(share for share, _ in fits)
    top = [f for share, f in fits if share == best]
    outcomes = {fold(f["outcome"]).strip(" .") for f in top}
    if len(outcomes) != 1:
        return None
    fact = in_english(conn, top[0])
    outcome = fact["outcome"].rstrip(" .")
    return Verdict(
        plain(outcome),
        narrate("outcome", condition=fact["condition"], outcome=outcome),
        [because(conn, f) for f in top],
        kind="outcome",
    )
