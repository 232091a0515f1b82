"""Cards: the one name matcher (exact beats fuzzy, close candidates are ambiguous), used by
the card lookup (``kb card``, ``/card?q=``) and by ``kb ask``, and card pages.

Its numbers (thresholds, the ambiguity margin) are in kb/data/matching.toml.

On the ``kb ask`` path: standard library, rapidfuzz and sqlite3 only.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, cast

from ingest.text import name_key

from ..store import datafiles
from ..store.db import run

if TYPE_CHECKING:  # on kb ask's path: the typed rows' classes cost it 4 ms to build
    from ..types import CardCandidate, CardRef, CardView, RulingGroup


def matching() -> dict[str, float]:
    """kb/data/matching.toml [cards]."""
    return datafiles.load("matching")["cards"]


class Ranked:
    """Cards a typed name may mean: the best per card, best first, and which are too close to
    tell apart."""

    def __init__(
        self,
        cards: list[tuple[float, dict[str, Any]]],  # (score, alias row), best first
        close: list[tuple[float, dict[str, Any]]],  # those within the margin of the best
    ) -> None:
        self.cards, self.close = cards, close

    @property
    def best(self) -> tuple[float, dict[str, Any]] | None:
        """The one card meant, or None (no candidate, or several close ones)."""
        return self.cards[0] if len(self.close) == 1 else None


def index_aliases(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Alias rows (with ``card``, ``alias``) by their name key."""
    by_key: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_key.setdefault(row.get("key") or name_key(row["alias"]), []).append(row)
    return by_key


def _scored(key: str, names: list[str], partial: bool, cutoff: float) -> list[tuple[str, float]]:
    """(name, score 0-100) of the names scoring at least ``cutoff``, best first (ties in the
    names' order).

    A misspelling scores by edit similarity ("honset" ~ "honest"); with ``partial``, a key
    that is some of the name's words scores almost as high as the full name ("breaker" ~
    "Breaker the Magical Warrior"), a little lower so that the complete name wins when both
    exist. The edit similarity of all names is one native call; only names holding every
    word of the key are scored again by their words (a question of forty words tries about
    two hundred windows against every card name: 0.3 s of CPU with a Python scorer).
    """
    from rapidfuzz import fuzz, process

    scores = {
        i: score
        for _, score, i in process.extract(
            key, names, scorer=fuzz.ratio, limit=None, score_cutoff=cutoff
        )
    }
    words = key.split()
    if partial and len(set(words)) == len(words):
        for i, name in enumerate(names):
            if all(w in name for w in words) and set(words) <= set(name.split()):
                by_words = 0.96 * fuzz.token_set_ratio(key, name)
                if by_words >= cutoff:  # an edit similarity below the cutoff is below it too
                    scores[i] = max(scores.get(i, 0.0), by_words)
    kept = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [(names[i], score) for i, score in kept]


def rank_names(
    key: str,
    by_key: dict[str, list[dict[str, Any]]],
    *,
    free_text: bool = False,
    partial: bool = True,
    limit: int = 12,
) -> Ranked:
    """The cards whose names are close to ``key`` (a name key), best first.

    ``free_text``: the key is a run of words inside a longer question (a stricter threshold);
    ``partial``: the key may be some of a longer name's words ("breaker").
    """
    numbers = matching()
    cutoff = numbers["free_text_score"] if free_text else numbers["min_score"]
    exact = {row["card"]: row for row in by_key.get(key, [])}
    if exact:
        found = sorted(((100.0, row) for row in exact.values()), key=lambda sr: sr[1]["card"])
        return Ranked(found, found)
    # Not partial: one word inside free text may misspell a name, not stand for part of it.
    scored = _scored(key, list(by_key), partial, cutoff)[:limit]
    best: dict[str, tuple[float, dict[str, Any]]] = {}
    for alias_key, score in scored:
        for row in by_key[alias_key]:
            if row["card"] not in best or score > best[row["card"]][0]:
                best[row["card"]] = (score, row)
    ranked = sorted(best.values(), key=lambda sr: (-sr[0], sr[1]["card"]))
    close = [sr for sr in ranked if ranked[0][0] - sr[0] <= numbers["ambiguity_margin"]]
    return Ranked(ranked, close)


class CardMatch:
    """What a card lookup found: the card, or the candidates it could not choose between."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.card: CardRef | None = None
        self.score = 0.0
        self.exact = False
        self.candidates: list[CardCandidate] = []

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
    best fuzzy match, unless a second card scores within the ambiguity margin of it."""
    rows = table if table is not None else aliases(conn, game)
    wanted = name_key(name)
    match = CardMatch(query=name)
    if not wanted:
        return match
    ranked = rank_names(wanted, index_aliases(rows))
    if not ranked.cards:
        return match
    top_score, top_row = ranked.cards[0]
    if ranked.best is None:
        match.candidates = [_candidate(s, r) for s, r in ranked.close]
        return match
    match.card, match.score, match.exact = _card(top_row), round(top_score, 1), top_score == 100
    match.candidates = [_candidate(s, r) for s, r in ranked.cards[1:4]]
    return match


def _card(row: dict[str, Any]) -> CardRef:
    return {"id": row["card"], "name": row["name"], "game": row["game"], "kind": row["card_kind"]}


def _candidate(score: float, row: dict[str, Any]) -> CardCandidate:
    return {**_card(row), "score": round(score, 1), "alias": row["alias"]}


def card_view(conn: sqlite3.Connection, card_id: str) -> CardView | None:
    """A card with its aliases, data, restriction-list entries and rulings by timing window,
    each ruling with its curated glosses (``glosses``: English readings of a Vietnamese one)."""
    rows = run(conn, "card", id=card_id)
    if not rows:
        return None
    card = rows[0]
    card["aliases"] = [a for a in aliases(conn, card["game"]) if a["card"] == card_id]
    card["facts"] = run(conn, "card_facts", id=card_id)
    card["restrictions"] = run(conn, "restrictions", list="", card=card_id)
    groups: dict[str, RulingGroup] = {}
    for ruling in run(conn, "card_rulings", id=card_id):
        if ruling["kind"] == "example":
            ruling["steps"] = run(conn, "ruling_steps", id=ruling["id"])
        # A ruling in another language comes with its curated English reading, when it has one
        # (the Vietnamese Damage Step rulings): a community gloss, marked as such.
        ruling["glosses"] = run(conn, "rule_glosses", id=ruling["id"])
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
    return cast("CardView", card)
