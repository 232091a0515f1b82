"""Cards: lookup by name (exact beats fuzzy, close candidates are ambiguous) and card pages.

On the ``kb ask`` path: standard library, rapidfuzz and sqlite3 only.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from ingest.text import name_key

from .db import run

# A fuzzy match below this score (0-100) is not a match at all.
MIN_SCORE = 80
# Two candidates within this many points of each other are reported as ambiguous.
AMBIGUITY_MARGIN = 3


def name_score(query: str, name: str, **_: Any) -> float:
    """How well a typed name matches a card name (0-100).

    A misspelling scores by edit similarity ("honset" ~ "honest"); a query that is some of the
    name's words scores almost as high as the full name ("breaker" ~ "Breaker the Magical
    Warrior"), a little lower so that the complete name wins when both exist.
    """
    from rapidfuzz import fuzz

    plain = fuzz.ratio(query, name)
    words = query.split()
    if len(set(words)) == len(words) and set(words) <= set(name.split()):
        return max(plain, 0.96 * fuzz.token_set_ratio(query, name))
    return plain


@dataclass
class CardMatch:
    query: str
    card: dict[str, Any] | None = None
    score: float = 0.0
    exact: bool = False
    candidates: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ambiguous(self) -> bool:
        return self.card is None and len(self.candidates) > 1


def aliases(conn: sqlite3.Connection, game: str = "") -> list[dict[str, Any]]:
    return run(conn, "card_aliases", game=game)


def find_card(
    conn: sqlite3.Connection,
    name: str,
    *,
    game: str = "",
    table: list[dict[str, Any]] | None = None,
) -> CardMatch:
    """The card called ``name``: an exact (case-insensitive) name or alias wins; otherwise the
    best fuzzy match, unless a second card scores within AMBIGUITY_MARGIN of it."""
    from rapidfuzz import process

    rows = table if table is not None else aliases(conn, game)
    wanted = name_key(name)
    match = CardMatch(query=name)
    if not wanted:
        return match
    exact = {r["card"]: r for r in rows if name_key(r["alias"]) == wanted}
    if len(exact) == 1:
        row = next(iter(exact.values()))
        match.card, match.score, match.exact = _card(row), 100.0, True
        return match
    if len(exact) > 1:
        match.candidates = [
            {**_card(r), "score": 100.0, "alias": r["alias"]} for r in exact.values()
        ]
        return match
    choices = {i: name_key(r["alias"]) for i, r in enumerate(rows)}
    scored = process.extract(
        wanted, choices, scorer=name_score, limit=12, score_cutoff=MIN_SCORE - 10
    )
    best: dict[str, tuple[float, dict[str, Any]]] = {}
    for _, score, i in scored:
        row = rows[i]
        if row["card"] not in best or score > best[row["card"]][0]:
            best[row["card"]] = (score, row)
    ranked = sorted(best.values(), key=lambda sr: (-sr[0], sr[1]["card"]))
    if not ranked or ranked[0][0] < MIN_SCORE - 10:
        return match
    top_score, top_row = ranked[0]
    close = [sr for sr in ranked if top_score - sr[0] <= AMBIGUITY_MARGIN]
    if len(close) > 1:
        match.candidates = [
            {**_card(r), "score": round(s, 1), "alias": r["alias"]} for s, r in close
        ]
        return match
    match.card, match.score = _card(top_row), round(top_score, 1)
    match.candidates = [
        {**_card(r), "score": round(s, 1), "alias": r["alias"]} for s, r in ranked[1:4]
    ]
    return match


def _card(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["card"], "name": row["name"], "game": row["game"], "kind": row["card_kind"]}


def card_view(conn: sqlite3.Connection, card_id: str) -> dict[str, Any] | None:
    """A card with its aliases, data, restriction-list entries and rulings by timing window."""
    rows = run(conn, "card", id=card_id)
    if not rows:
        return None
    card = rows[0]
    card["aliases"] = [a for a in aliases(conn, card["game"]) if a["card"] == card_id]
    card["facts"] = run(conn, "card_facts", id=card_id)
    card["restrictions"] = run(conn, "restrictions", list="", card=card_id)
    groups: dict[str, dict[str, Any]] = {}
    for ruling in run(conn, "card_rulings", id=card_id):
        if ruling["kind"] == "example":
            ruling["steps"] = run(conn, "ruling_steps", id=ruling["id"])
        key = ruling["timing"] or ""
        group = groups.setdefault(
            key,
            {
                "timing": ruling["timing"],
                "timing_name": ruling["timing_name"],
                "tree": ruling["tree"],
                "rulings": [],
            },
        )
        group["rulings"].append(ruling)
    card["rulings_by_timing"] = list(groups.values())
    return card
