"""A card and the restriction lists ("is Raigeki limited", "闪电 限制"): where the named cards
stand on the lists the corpus has.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import CJK_RUN, fold

from ...lexicon.words import query_data
from ...store.db import run
from ..question import Understood
from .common import answer, source


def asks_restriction(u: Understood) -> bool:
    """The question has a restriction cue of kb/data/query.toml [restriction]."""
    folded = fold(u.text)
    return any(
        re.search(rf"(?<!\w){re.escape(fold(c))}(?!\w)", folded)
        or (CJK_RUN.search(c) and c in u.text)
        for c in query_data()["restriction"]["cues"]
    )


def restriction_answer(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    parts, sources, cards = [], [], []
    for card in u.cards:
        rows = run(conn, "card_restrictions", card=card["id"])
        if not rows:
            continue
        cards.append(card["id"])
        listed = "; ".join(
            f"{r['status']} on list {r['list']}"
            + (f" (listed as {r['name']})" if fold(r["name"]) != fold(card["name"]) else "")
            for r in rows
        )
        parts.append(f"{card['name']}: {listed}.")
        sources += [source(conn, r["rule"]) for r in rows]
    if not parts:
        return None
    return answer(conn, "restriction", " ".join(parts), sources=sources, card_ids=cards)
