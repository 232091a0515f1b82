"""The passages a verdict may be read from: the first ones kb ask ranks for the question, of
the question's game (and of the year it names), covering enough of it, and saying every
content word of it (in one of its ways of writing) but perhaps one of four or more.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ...store.db import run
from ..question import Understood
from . import statement, words
from .asked import Asked
from .common import threshold
from .named import stems
from .originals import top


def says_all(conn: sqlite3.Connection, passage: dict[str, Any], required: list[set[str]]) -> bool:
    """The passage holds every content word of the question, in one of its ways of writing
    (a passage about the Flash Deck does not answer "cards in the starting hand")."""
    said = stems(" ".join([*statement.context(conn, passage), *statement.sentences(conn, passage)]))
    missing = [r for r in required if not words.holds(said, [r])]
    # With enough content words, one may be the question's own ("can be made"), but not one
    # narrowing what it names ("master rune cards": a passage on rune deck cards is not it).
    return not missing or (
        len(missing) == 1
        and len(required) >= threshold("slack_passage_from")
        and not words.narrowed(missing)
    )


def best(u: Understood, asked: Asked) -> list[dict[str, Any]]:
    """The passages a verdict may be read from (see the module docstring), machine
    translations read in their source; none for a question of no known game ("speed duel
    starting LP": no game's rules answer it)."""
    game = u.game or u.game_hint or ""
    if asked.unknown or not game:
        return []
    required = words.required_words(asked.conn, u)
    found = [_in_edition(asked.conn, p, u) for p in top(asked) if p["game"] == game]
    return [p for p in found if p and says_all(asked.conn, p, required)]


def _in_edition(conn: sqlite3.Connection, p: dict[str, Any], u: Understood) -> dict | None:
    """The passage, or the same text in the version the question names ("CR 7.0": the 7.0
    rule that 8.01 repeats word for word, ranked as one passage), or None."""
    if _of_edition(p, u):
        return p
    for other in run(conn, "passages", ids=p.get("also", [])):
        if _of_edition(other, u):
            return {**other, "features": p["features"], "score": p["score"]}
    return None


def _of_edition(passage: dict[str, Any], u: Understood) -> bool:
    """The passage's document is of a year the question names ("2005 rules": not the Force of
    Will basic rules of about 2016-2017) and of a version it names ("CR 7.0": not 8.01), if it
    names one."""
    named = f"{passage.get('era') or ''} {passage.get('document_title') or ''}"
    said = set(re.findall(r"\d{4}", named))
    if u.years and not said & {str(y) for y in u.years}:
        return False
    versions = named_versions(u.text)
    return not (versions and passage.get("version") and passage["version"] not in versions)


def named_versions(text: str) -> set[str]:
    """The versions of a rulebook a question names ("CR 7.0", "8.01")."""
    return set(re.findall(r"\d+\.\d+", text))
