"""A card and the restriction lists: is it Limited (Semi-Limited, Forbidden) on a list, and how
many copies of it may a deck hold there.

The status comes from the lists the corpus has (table ``restrictions``); the copies a status
allows from the rule that says so (a quantity fact said of the status).

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import fold

from ...store.db import column, run
from ..question import Understood
from .asked import Asked
from .common import Verdict, because

STATUSES = ("forbidden", "semi-limited", "limited")


def _lists_named(conn: sqlite3.Connection, text: str) -> list[str]:
    folded = fold(text)
    return [
        name
        for name in column(conn, "restriction_lists")
        if re.search(rf"(?<![a-z0-9]){re.escape(fold(name))}(?![a-z0-9])", folded)
    ]


def _entries(
    conn: sqlite3.Connection, card: str, lists: list[str], asked: Asked
) -> list[dict[str, Any]] | None:
    """The card's entries on the lists asked about (every list when none is named); None
    when the question is about a ruleset the lists are not of ("the TCG banlist")."""
    rows = run(conn, "card_restrictions", card=card)
    if asked.rulesets and any(r["ruleset"] not in asked.rulesets for r in rows):
        return None
    return [r for r in rows if not lists or r["list"] in lists]


def _as_fact(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": f"{row['rule']}#restriction",
        "rule": row["rule"],
        "quote": f"{row['list']}: {row['name']} ({row['status']})",
    }


def status(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Is the card asked about on a list with the status asked about?"""
    wanted = [t["term"] for t in u.terms if t["term"] in STATUSES]
    if len(u.cards) != 1 or not wanted:
        return None
    lists = _lists_named(conn, u.text)
    entries = _entries(conn, u.cards[0]["id"], lists, asked)
    if entries is None or asked.unknown:
        return None
    on = {r["list"] for r in entries}
    if not entries or (lists and on != set(lists)):
        return None  # a list that does not name the card says nothing of it
    says = {r["status"] == wanted[0] for r in entries}
    verdict = "yes" if says == {True} else "no" if says == {False} else "depends"
    card = u.cards[0]["name"]
    where = "; ".join(f"{r['status']} on {r['list']}" for r in entries)
    opening = {"yes": "Yes", "no": "No", "depends": "It depends on the list"}[verdict]
    return Verdict(
        verdict,
        f"{opening}: {card} is {where}.",
        [because(conn, _as_fact(r)) for r in entries],
        kind="restriction",
        cards=[u.cards[0]["id"]],
    )


def copies(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """How many copies of the card asked about a deck may hold on the list asked about."""
    lists = _lists_named(conn, u.text)
    if len(u.cards) != 1 or len(lists) != 1:
        return None
    entries = _entries(conn, u.cards[0]["id"], lists, asked)
    if not entries or len(entries) != 1 or asked.unknown:
        return None
    entry = entries[0]
    rules = run(conn, "verdict_copies", status=entry["status"])
    values = {r["high"] if r["high"] is not None else r["low"] for r in rules}
    if len(values) != 1:
        return None
    value = f"{values.pop():g}"
    card = u.cards[0]["name"]
    return Verdict(
        value,
        f"{value}: {card} is {entry['status']} on {entry['list']}; {rules[0]['quote']}",
        [because(conn, _as_fact(entry))] + [because(conn, r) for r in rules],
        kind="restriction",
        cards=[u.cards[0]["id"]],
    )
