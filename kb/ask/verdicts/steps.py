"""Which first, from the steps of a procedure: two cards named in two rules of one section,
the first rule opening with a word of a first step ("First, apply the Continuous Effects of
monsters ..., such as "Steamroid"") and the other with a word of a later one ("Next, activate
the Trigger Effects ..., such as "Neo-Spacian Grand Mole""): the card of the first step comes
first (kb/data/query.toml [kinds] steps). A rule is read in its curated English gloss too.

Every pair of such rules (one per ruleset the question allows) must agree.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import fold

from ...lexicon.words import query_data
from ...store.db import run
from ..question import Understood
from .asked import Asked
from .common import Verdict, because


def _rank(rule: dict[str, Any]) -> int | None:
    """0 for a rule opening a first step, 1 for a later one, None for neither."""
    steps = query_data()["kinds"]["steps"]
    for text in (rule["gloss"] or "", rule["text"]):
        opening = fold(text).lstrip()
        for rank, key in enumerate(("first", "next")):
            if any(re.match(rf"{re.escape(fold(w))}\b\s*,", opening) for w in steps[key]):
                return rank
    return None


def first_step(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    cards = list(dict.fromkeys(c["id"] for c in u.cards))
    if len(cards) != 2:
        return None
    rows = run(conn, "verdict_card_steps", ids=cards)
    if asked.rulesets:
        rows = [r for r in rows if any(s in r["ruleset"].split("+") for s in asked.rulesets)]
    names = {c["id"]: c["name"] for c in u.cards}
    found = []
    for a in (r for r in rows if r["card"] == cards[0]):
        for b in (r for r in rows if r["card"] == cards[1]):
            if a["section"] != b["section"] or a["rule"] == b["rule"]:
                continue
            rank_a, rank_b = _rank(a), _rank(b)
            if rank_a is None or rank_b is None or rank_a == rank_b:
                continue
            found.append((a, b) if rank_a < rank_b else (b, a))
    if not found or len({first["card"] for first, _ in found}) != 1:
        return None
    first, then = found[0]
    said = first["gloss"] or first["text"]
    verdict = f"{names[first['card']]} first"
    text = f"{verdict}: “{said}” comes before “{then['gloss'] or then['text']}”"
    cited = [
        because(
            conn, {"id": f"{r['rule']}#step", "rule": r["rule"], "quote": r["gloss"] or r["text"]}
        )
        for r in (first, then)
    ]
    return Verdict(verdict, text, cited, kind="order")


__all__ = ["first_step"]
