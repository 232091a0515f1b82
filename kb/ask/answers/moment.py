"""A moment ("how many chains during damage calculation"): what the moment's rules say may
happen there, the properties the question asks about first, and where the moment stands
among its siblings.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...store.db import run
from ..question import Understood
from .common import answer, lower_first, node, ruleset, source

# Which properties to state first, by what the question asks about.
_PROPERTY_ORDER = (
    "chains",
    "responses",
    "priority",
    "can_activate",
    "cannot_activate",
    "damage_calculation",
)
_ASKS_ABOUT = {"chain": ("chains", "responses"), "activate": ("can_activate", "cannot_activate")}


def _order(u: Understood) -> list[str]:
    first = [k for term in u.terms for k in _ASKS_ABOUT.get(term["term"], ())]
    first += [
        k for w in u.words for key, ks in _ASKS_ABOUT.items() if w.startswith(key) for k in ks
    ]
    return list(dict.fromkeys([*first, *_PROPERTY_ORDER]))


def _statement(moment: dict[str, Any], order: list[str]) -> tuple[str, list[dict[str, Any]]]:
    """One sentence of what may happen at the moment, and the properties it states."""
    shown: dict[tuple[str, str], dict[str, Any]] = {}
    for p in sorted(
        moment["properties"], key=lambda p: order.index(p["key"]) if p["key"] in order else 99
    ):
        shown.setdefault((p["key"], p["value"]), p)
    rs = f" ({ruleset(moment)})" if ruleset(moment) else ""
    said = "; ".join(lower_first(p["display"]) for p in shown.values())
    return f"{moment['en']}{rs}: {said}.", list(shown.values())


def moment_answer(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    moments = [node(conn, n) for n in dict.fromkeys(t["node"] for t in u.timing)]
    moments = [m for m in moments if m["properties"]]
    if not moments:
        return None
    order = _order(u)
    parts, sources = [], []
    for moment in moments:
        text, props = _statement(moment, order)
        parts.append(text)
        sources += [source(conn, p["rule"]) for p in props]
    here = moments[0]
    siblings = run(conn, "timing_siblings", parent=here["parent"], tree=here["tree"])
    # The steps in order, without the source's own numbers: every renderer numbers a
    # sequence itself (the CLI printed "1. 1. Start of the Damage Step").
    sequence = [s["en"] + ("  ← this moment" if s["id"] == here["id"] else "") for s in siblings]
    return answer(conn, "timing", " ".join(parts), sequence=sequence, sources=sources, moment=here)
