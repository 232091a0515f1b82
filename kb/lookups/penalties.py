"""Infractions of penalty guidelines: the list, one whole, and the one a judge types.

``kb penalty "missed trigger"`` and ``/penalty`` read the ``infractions`` table (the build's
ingest/extract/infractions.py). A typed query is matched against every infraction's name in
every language, its number and its id: an exact name wins, a misspelt one ("mised triger")
is the closest name unless another is as close (then both are candidates, none is picked).
The answer is in the language asked for (``lang``), else in the language of the name typed.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, cast

from ingest.text import name_key

from ..store import datafiles
from ..store.db import KbError, run
from ..types import InfractionCandidate, InfractionRow, InfractionView, Penalty, PenaltyLookup


def _penalties(stored: str) -> list[Penalty]:
    return [{"level": level, "action": action} for level, action in json.loads(stored or "[]")]


def infractions(conn: sqlite3.Connection, *, game: str = "", lang: str = "") -> list[InfractionRow]:
    """Every infraction (of one game, in one language), in the guidelines' order."""
    rows = run(conn, "infractions", game=game, lang=lang)
    for row in rows:
        row["penalties"] = _penalties(row["penalties"])
    return cast(list[InfractionRow], rows)


def infraction_view(conn: sqlite3.Connection, rule_id: str) -> InfractionView | None:
    """One infraction with its parts, its source and its other languages; None if none."""
    rows = run(conn, "infraction", id=rule_id)
    if not rows:
        return None
    row = rows[0]
    row["penalties"] = _penalties(row["penalties"])
    row["examples"] = json.loads(row["examples"] or "[]")
    row["languages"] = run(conn, "infraction_family", id=rule_id)
    return cast(InfractionView, row)


def _numbers() -> dict[str, Any]:
    return cast(dict[str, Any], datafiles.load("matching")["cards"])


def find_penalty(
    conn: sqlite3.Connection, query: str, *, game: str = "", lang: str = ""
) -> PenaltyLookup:
    """The infraction ``query`` names (see the module docstring)."""
    from rapidfuzz import fuzz, process

    rows = infractions(conn, game=game)
    found: PenaltyLookup = {
        "query": query,
        "exact": False,
        "score": 0.0,
        "infraction": None,
        "candidates": [],
    }
    wanted = name_key(query)
    if not wanted or not rows:
        return found
    keys: dict[str, list[InfractionRow]] = {}
    for row in rows:
        for key in {name_key(row["name"]), name_key(row["number"]), name_key(row["id"])}:
            keys.setdefault(key, []).append(row)
    numbers = _numbers()
    if wanted in keys:
        scored = [(100.0, row) for row in keys[wanted]]
    else:
        matches = process.extract(
            wanted, list(keys), scorer=fuzz.WRatio, limit=8, score_cutoff=numbers["min_score"]
        )
        scored = [(float(score), row) for key, score, _ in matches for row in keys[key]]
    if not scored:
        return found
    best: dict[str, tuple[float, InfractionRow]] = {}
    for score, row in scored:
        family = row["translation_of"] or row["id"]
        if family not in best or score > best[family][0]:
            best[family] = (score, row)
    ranked = sorted(best.values(), key=lambda sr: (-sr[0], sr[1]["id"]))
    found["candidates"] = [_candidate(score, row) for score, row in ranked[:5]]
    top_score, top = ranked[0]
    close = [sr for sr in ranked if top_score - sr[0] <= numbers["ambiguity_margin"]]
    if len(close) > 1 and top_score < 100:
        return found  # as close to two infractions: say so, pick none
    chosen = _in_language(conn, top, lang) if lang else top
    found["infraction"] = infraction_view(conn, chosen["id"])
    found["exact"], found["score"] = top_score == 100, round(top_score, 1)
    found["candidates"] = found["candidates"][1:]
    return found


def _candidate(score: float, row: InfractionRow) -> InfractionCandidate:
    return {
        "id": row["id"],
        "lang": row["lang"],
        "number": row["number"],
        "name": row["name"],
        "document": row["document"],
        "score": round(score, 1),
    }


def _in_language(conn: sqlite3.Connection, row: InfractionRow, lang: str) -> InfractionRow:
    """The same infraction in ``lang`` (its source or a translation); KbError if there is none."""
    if row["lang"] == lang:
        return row
    for other in run(conn, "infraction_family", id=row["id"]):
        if other["lang"] == lang:
            return cast(InfractionRow, {**row, "id": other["id"]})
    raise KbError(f"{row['name']!r} ({row['id']}) is not written in {lang!r}")
