"""The answer of a verdict, its deciding facts cited; or, without one, what is missing.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...lookups.labels import narrate
from ..answers.common import answer, node
from ..passes_asks import asks_twice
from ..question import Understood
from .common import Asked, Verdict


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
        return narrate("rules_conflict", sides=sides)
    if asked.unaccounted:
        return narrate("words_unsaid", words=", ".join(f"“{w}”" for w in asked.unaccounted))
    if asked.kind == "yesno" and asks_twice(u.text):
        return narrate("asks_twice")
    named = [c["name"] for c in u.cards] + [t["text"] for t in u.timing if "start" in t]
    named += [c["text"] for c in u.classes]
    what = narrate(f"asks_{asked.kind}")
    if not u.game and not u.game_hint and not named:
        return narrate("names_nothing", what=what)
    about = narrate("for_names", names=", ".join(dict.fromkeys(named))) if named else ""
    unknown = ", ".join(f"“{w}”" for w in dict.fromkeys(u.unknown))
    lacks = narrate("no_rule_mentions", words=unknown) if unknown else ""
    return narrate("not_covered", what=what, about=about, lacks=lacks)
