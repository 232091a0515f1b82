"""Which first, from a clause of the best passages that puts one of the two cards asked about
before the other, or before any other ("Immediately after battle damage is inflicted,
"Flashbang" can be activated before any other effect is activated": Flashbang first, of
Flashbang and Don Zaloog). The clause names the card before the word that puts it first
(kb/data/query.toml [kinds] before) and, after it, the other card or every other one; it
says the card can or does (not that it cannot). Clauses that put different cards first give
no verdict.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import fold

from ...lexicon.words import cue_pattern, query_data
from ...store.db import run
from ..question import Understood
from . import originals
from .asked import Asked
from .common import Verdict, because
from .named import Forms, stems


def _first_of(fact: dict[str, Any], a: str, b: str, forms: Forms) -> bool:
    """The clause puts card ``a`` before card ``b`` or before any other."""
    cues = query_data()["kinds"]["before"]
    folded = fold(fact["outcome"])
    m = cue_pattern(tuple(cues["words"])).search(folded)
    if not m or fact["modality"] not in ("can", "does", "must", "only"):
        return False
    left, right = stems(folded[: m.start()]), folded[m.end() :]
    if not forms.named(f"card:{a}", left) or forms.named(f"card:{b}", left):
        return False
    others = cue_pattern(tuple(cues["others"])).search(right) is not None
    return others or forms.named(f"card:{b}", stems(right))


def named_first(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Which of two cards first, from a clause that puts one before the other."""
    cards = list(dict.fromkeys(c["id"] for c in u.cards))
    if len(cards) != 2:
        return None
    names = {c["id"]: c["name"] for c in u.cards}
    forms = Forms(conn)
    found: list[tuple[str, dict[str, Any]]] = []
    # The passages kb ask ranks first, of the question's game: one saying a card comes
    # "before any other" need not name the other card.
    game = u.game or u.game_hint or ""
    if asked.unknown or not game:
        return None
    for p in [p for p in originals.top(asked) if p["game"] == game]:
        facts = run(conn, "verdict_rule_statements", ids=[p["id"]])
        for fact in sorted(facts, key=lambda f: f["lang"] != "en"):  # English quoted first
            for a, b in (cards, cards[::-1]):
                if re.search(rf"\bcard:{re.escape(a)}\b", fact["concepts"]) and _first_of(
                    fact, a, b, forms
                ):
                    found.append((a, fact))
    if not found or len({a for a, _ in found}) != 1:
        return None
    first, fact = found[0]
    return Verdict(f"{names[first]} first", f"{names[first]} first: {fact['quote']}",
                   [because(conn, f) for _, f in found], kind="order")  # fmt: skip


__all__ = ["named_first"]
