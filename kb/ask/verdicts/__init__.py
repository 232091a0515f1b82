"""Verdicts a judge can act on: yes/no, when, which first, what happens, how many, decided by
inference over the typed facts the build derived from the rules (table ``facts``, card
classes), with the deciding facts cited. Where no fact covers the question, no verdict: the
answer says so plainly and shows passages.

``decide`` picks the resolver for the question's kind: permission (kb.ask.verdicts.permission)
for yes/no and when, quantities for how many, outcomes for what happens, a worked example's
Chain for which resolves first. Before a verdict stands it passes the filters of
kb.ask.verdicts.filters.

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from importlib import import_module
from typing import Any

from ..question import Understood
from . import filters
from .asked import Asked
from .common import Verdict

# The resolvers of each kind of question, in order, as "module:function": a module is
# imported when a question of its kind is asked (kb ask is a process per question, and most
# questions ask for one kind or none).
RESOLVERS = {
    "yesno": [
        "restriction:status",
        "card_data:has",
        "permission:yes_no",
        "statement:modal_sentence",
        "quantity:within",
    ],
    "when": ["permission:when", "when_passages:in_passages"],
    "which_first": ["example:resolves_first"],
    "what_happens": ["outcome:what_happens", "example:result", "happens:in_passages"],
    "how_many": ["card_data:value", "restriction:copies", "quantity:in_passages"],
}
# Card data fields a question about one card asks a number of (kb/ask/verdicts/card_data.py).
NUMERIC = ("atk", "def", "level")


def _resolver(name: str) -> Callable[[sqlite3.Connection, Understood, Asked], Verdict | None]:
    module, _, function = name.partition(":")
    return getattr(import_module(f"{__name__}.{module}"), function)


def decide(
    conn: sqlite3.Connection, u: Understood, passages: list[dict[str, Any]] | None = None
) -> tuple[Asked, Verdict | None]:
    """What the question asks for, and the verdict when a fact covers it. ``passages`` are
    the ranked passages of the question (kb.ask.rank): facts of the passages that answer the
    question best may decide it."""
    asked = Asked(conn, u)
    asked.passages = passages or []
    if not asked.kind and u.cards and any(f in NUMERIC for f in u.facts):
        asked.kind = "how_many"  # "Breaker the Magical Warrior ATK?" asks for a number
    resolvers = RESOLVERS.get(asked.kind, [])
    if not resolvers:
        return asked, None
    for name, stops in filters.QUESTION.items():
        if name not in filters.DISABLED and stops(conn, u, asked):
            asked.stopped_by = name
            return asked, None
    for resolver in resolvers:
        verdict = _resolver(resolver)(conn, u, asked)
        if verdict is None:
            continue
        stopped = next(
            (
                name
                for name, stops in filters.VERDICT.items()
                if name not in filters.DISABLED and stops(conn, u, asked, verdict)
            ),
            None,
        )
        if stopped is None:
            return asked, verdict
        asked.stopped_by = asked.stopped_by or stopped
    return asked, None


__all__ = ["Asked", "Verdict", "decide"]
