"""Verdicts a judge can act on: yes/no, when, which first, what happens, how many, decided by
inference over the typed facts the build derived from the rules (table ``facts``, card
classes), with the deciding facts cited. Where no fact covers the question, no verdict: the
answer says so plainly and shows passages.

``decide`` picks the resolver for the question's kind: permission (kb.ask.verdicts.permission)
for yes/no and when, quantities for how many, outcomes for what happens, orders for which
first.

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..question import Understood
from . import card_data, example, happens, when_passages
from .asked import Asked, asks_twice
from .common import Verdict
from .order import priority
from .outcome import what_happens
from .permission import when, yes_no
from .quantity import in_passages
from .restriction import copies, status
from .statement import modal_sentence

RESOLVERS = {
    "yesno": [status, card_data.has, yes_no, modal_sentence],
    "when": [when, when_passages.in_passages],
    "which_first": [priority, example.resolves_first],
    "what_happens": [what_happens, example.result, happens.in_passages],
    "how_many": [card_data.value, copies, in_passages],
}


def decide(
    conn: sqlite3.Connection, u: Understood, passages: list[dict[str, Any]] | None = None
) -> tuple[Asked, Verdict | None]:
    """What the question asks for, and the verdict when a fact covers it. ``passages`` are
    the ranked passages of the question (kb.ask.rank): facts of the passages that answer the
    question best may decide it."""
    asked = Asked(conn, u)
    asked.passages = passages or []
    if not asked.kind and u.cards and any(f in card_data.NUMERIC for f in u.facts):
        asked.kind = "how_many"  # "Breaker the Magical Warrior ATK?" asks for a number
    resolvers = RESOLVERS.get(asked.kind, [])
    if resolvers and asked.unknown:
        # A word no rule holds ("digimon", an unread Chinese word): whatever the facts say of
        # the rest, they do not cover what the question is about.
        return asked, None
    if asked.kind == "yesno" and asks_twice(u.text):
        return asked, None  # one yes or no cannot answer two questions
    for resolver in resolvers:
        verdict = resolver(conn, u, asked)
        if verdict is not None:
            return asked, verdict
    return asked, None


__all__ = ["Asked", "Verdict", "decide"]
