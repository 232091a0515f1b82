"""How many: the number a rule sets for what the question counts.

A quantity fact counts a concept (the term named right after its number: "50 cards", "four
copies") in the context of the concepts of its sentence and section ("Main Deck"). A fact
answers when it names every concept the question names; of those, the ones counting what the
question counts, and the most specific. Facts that still disagree give no verdict.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import CJK_RUN, fold

from ...db import run
from ..question import Understood, query_data
from .asked import Asked, lexicon
from .common import Verdict, because

Fact = dict[str, Any]
# Concepts too general to tell two counts apart when they are all a question names.
_GENERIC = {"term:card", "term:player", "term:turn", "term:game", "term:field"}


def _concepts(u: Understood, asked: Asked) -> list[tuple[int, str]]:
    """(position, concept) of what the question names."""
    found = [(t.get("start", 10**6), f"term:{t['term']}") for t in u.terms]
    found += [(c["start"], f"card:{c['id']}") for c in u.cards]
    found += [(c["start"], f"class:{c['class']}") for c in asked.classes]
    return sorted(found)


def _counted(u: Understood, found: list[tuple[int, str]]) -> str:
    """The concept the question counts: the first one named after its "how many" cue."""
    folded = fold(u.text)
    at = min(
        (m.end() for c in query_data()["quantity"]["cues"]
         if (m := re.search(re.escape(fold(c)), folded))),
        default=-1,
    )  # fmt: skip
    return next((c for pos, c in found if pos >= at >= 0), "")


def _bound_asked(text: str) -> str:
    """at_least or at_most when the question asks for a minimum or a maximum (kb/data/
    query.toml [quantity.asks])."""
    folded = fold(text)
    for bound, cues in query_data()["quantity"]["asks"].items():
        for cue in cues:
            c = fold(cue)
            if (
                (c in folded)
                if CJK_RUN.search(c)
                else re.search(rf"(?<!\w){re.escape(c)}(?!\w)", folded)
            ):
                return bound
    return ""


def _value(fact: Fact, bound: str) -> str:
    low, high = fact["low"], fact["high"]
    if low is not None and high is not None and low != high:
        if bound == "at_most":
            return f"{high:g}"
        if bound == "at_least":
            return f"{low:g}"
        return f"{low:g}-{high:g}"
    return f"{(low if low is not None else high):g}"


def _newest(facts: list[Fact]) -> list[Fact]:
    """Of the same rulebook in several versions, the newest version's facts."""
    from ingest.versiondiff import version_key

    versions = [f["version"] for f in facts if f["version"]]
    if len(set(versions)) < 2:
        return facts
    newest = max(versions, key=version_key)
    return [f for f in facts if not f["version"] or f["version"] == newest]


def how_many(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    game = u.game or u.game_hint or ""
    found = _concepts(u, asked)
    wanted = {c for _, c in found} - _GENERIC
    if not game or not wanted:
        return None
    counted = _counted(u, found)
    facts = [
        f for f in run(conn, "verdict_quantities", game=game)
        if wanted <= set(f["concepts"].split()) | {f["unit"]}
    ]  # fmt: skip
    if counted and counted not in _GENERIC:
        facts = [f for f in facts if f["unit"] == counted]
    else:
        facts = [f for f in facts if f["unit"] in ("", *_GENERIC) or f["unit"] in wanted]
    versions = [v for v in re.findall(r"\d+\.\d+", u.text)]
    if versions:
        facts = [f for f in facts if f["version"] in versions]
    facts = _newest(facts)
    if not facts:
        return None
    extra = min(len(set(f["concepts"].split()) - wanted) for f in facts)
    best = [f for f in facts if len(set(f["concepts"].split()) - wanted) == extra]
    bound = _bound_asked(u.text)
    values = {_value(f, bound) for f in best}
    if len(values) != 1:
        return None
    value = values.pop()
    lead = best[0]
    return Verdict(value, f"{value}: {lead['quote']}", [because(conn, f) for f in best],
                   kind="quantity")  # fmt: skip


__all__ = ["how_many", "lexicon"]
