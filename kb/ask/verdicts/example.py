"""Which first and what happens, read from the worked example naming the question's cards:
its typed steps (activate, chain to it, result) and its moment's Chain order say which card
resolves first and how the example ends ("honest vs honest, whose resolves first": Player
B's Honest, chained last).

The example must name every card the question names (one card named alone must be
activated twice in it), sit at a moment the question names (if it names one) and in a
ruleset it names; which first is answered only for a question about resolving, from an
example with two Chain Links at least.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ingest.text import fold

from ...lexicon.words import has_cue, query_data
from ...lookups.labels import narrate
from ...store.db import run
from ..answers.vs import ExampleReading, example_reading, player_name
from ..question import Understood
from .asked import Asked
from .common import Verdict, because


def _reading(conn: sqlite3.Connection, u: Understood, asked: Asked) -> ExampleReading | None:
    cards = list(dict.fromkeys(c["id"] for c in (u.vs or u.cards)))
    if not cards or len(cards) > 3:
        return None
    reading = example_reading(conn, cards[0], cards[1] if len(cards) > 1 else cards[0])
    if reading is None:
        return None
    ruling = reading.ruling
    named = {r["card"] for r in run(conn, "ruling_card_ids", id=ruling["id"])}
    if not set(cards) <= named:
        return None
    moment = ruling["timing"] or ""
    asked_moments = [t["node"] for t in u.timing]
    if asked_moments and moment not in asked_moments:
        return None  # the example is at another moment than the question's
    if moment and not asked.of_rulesets(conn, [moment]):
        return None  # ... or of another ruleset
    return reading


def _cited(conn: sqlite3.Connection, reading: ExampleReading, step: str) -> list[dict[str, Any]]:
    """The example's sentence that decides (the last Chain Link, or the result)."""
    ruling = reading.ruling
    fact = {"id": f"{ruling['id']}#{step}", "rule": ruling["id"], "quote": reading.steps[step]}
    return [because(conn, fact)]


def resolves_first(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """The card of the example's last Chain Link resolves first (the Chain resolves in
    reverse order)."""
    if not has_cue(fold(u.text), query_data()["kinds"]["resolves"]):
        return None  # "which can activate first" is not which resolves first
    reading = _reading(conn, u, asked)
    if reading is None or len(reading.links) < 2:
        return None
    actor, card = reading.links[-1]
    verdict = narrate("resolves_first", who=player_name(actor), card=card)
    order = reading.order or narrate("reverse_order")
    text = narrate("last_link", verdict=verdict, order=order)
    return Verdict(verdict, text, _cited(conn, reading, "link"), kind="example",
                   moment=reading.ruling["timing"] or None)  # fmt: skip


def result(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """How the example naming the question's cards ends, as its source states it."""
    reading = _reading(conn, u, asked)
    if reading is None or not reading.result:
        return None
    text = f"{reading.result[0].upper()}{reading.result[1:]}."
    return Verdict(reading.result, text, _cited(conn, reading, "result"), kind="example",
                   moment=reading.ruling["timing"] or None)  # fmt: skip


__all__ = ["resolves_first", "result"]
