"""The answer of a verdict, its deciding facts cited; or, without one, what is missing.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..answers.common import answer, node
from ..passes_asks import asks_twice
from ..question import Understood
from .common import Asked, Verdict

KIND_WORDS = {
    "yesno": "whether it is allowed",
    "when": "when it happens",
    "which_first": "what comes first",
    "what_happens": "what happens",
    "how_many": "how many",
}


def verdict_answer(conn: sqlite3.Connection, u: Understood, verdict: Verdict) -> dict[str, Any]:
    """The composed answer of a verdict (the README's ``kb ask --json`` shape)."""
    moment = node(conn, verdict.moment) if verdict.moment else None
    sources = [b["source"] for b in verdict.because]
    lead = verdict.because[0] if verdict.because else {}
    out = answer(
        conn,
        "verdict",
        verdict.text,
        sources=sources,
        moment=moment,
        card_ids=verdict.cards or [c["id"] for c in u.cards],
        ruling_id=lead.get("rule"),
        quote=lead.get("quote", ""),
    )
    out["verdict"] = verdict.verdict
    out["basis"] = verdict.kind  # how it was decided: permission, statement, quantity...
    out["because"] = verdict.because
    out["conflicts"] = verdict.conflicts
    return out


def not_covered(u: Understood, asked: Asked) -> str:
    """What the knowledge base lacks to answer, said plainly; or the conflicting rules."""
    if asked.conflicts:
        sides = "; ".join(
            f"{c['rule']} (“{c['quote'][:120]}”)" for group in asked.conflicts for c in group
        )
        return f"No verdict: the rules conflict here: {sides}."
    if asked.unaccounted:
        words = ", ".join(f"“{w}”" for w in asked.unaccounted)
        return f"No verdict: the rules quoted do not speak of {words}."
    if asked.kind == "yesno" and asks_twice(u.text):
        return "No verdict: this asks two yes/no questions at once; ask them one at a time."
    named = [c["name"] for c in u.cards] + [t["text"] for t in u.timing if "start" in t]
    named += [c["text"] for c in u.classes]
    what = KIND_WORDS.get(asked.kind, "this")
    if not u.game and not u.game_hint and not named:
        return (
            f"Not covered: no rule of the knowledge base decides {what} here; the question "
            "names no card, moment or game it knows."
        )
    about = f" for {', '.join(dict.fromkeys(named))}" if named else ""
    unknown = ", ".join(f"“{w}”" for w in dict.fromkeys(u.unknown))
    lacks = f" No rule mentions {unknown}." if unknown else ""
    return f"Not covered: no rule of the knowledge base decides {what}{about}.{lacks}"
