"""The passages a verdict may be read from: the first kb ask ranks for the question, of its
game (and of the year or version it names), machine translations read in their source, and
saying every content word of the question but perhaps one of a long question.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.sentences import split_sentences

from ...store.db import first, run
from ..question import Understood
from . import words
from .common import Asked, threshold
from .words import stems


def original(conn: sqlite3.Connection, passage: dict[str, Any]) -> dict[str, Any]:
    """The rule a machine-translated passage translates, when the alignments know it: a
    verdict cites the source, not its machine translation."""
    if passage["provenance"] != "machine" or not passage["translation_of"]:
        return passage
    ids = [t["id"] for t in run(conn, "rule_translations", id=passage["id"])
           if t["id"].startswith(f"{passage['translation_of']}:")]  # fmt: skip
    rows = run(conn, "passages", ids=ids[:1]) if ids else []
    return {**rows[0], "features": passage["features"]} if rows else passage


def top(asked: Asked) -> list[dict[str, Any]]:
    """The first ranked passages covering enough of the question (tuned thresholds), each once."""
    found = [
        original(asked.conn, p) for p in asked.passages[: int(threshold("passages"))]
        if p["features"]["coverage"] >= threshold("min_coverage")
    ]  # fmt: skip
    return list({p["id"]: p for p in found}.values())


def context(conn: sqlite3.Connection, passage: dict[str, Any]) -> list[str]:
    """What a passage is said under: its title, section path, document title and the English
    names of its moments (a Vietnamese heading "Bước Chiến đấu" is the Battle Step)."""
    nodes = (passage.get("nodes") or "").split()
    names = [row["en"] for n in nodes if (row := first(conn, "timing_node", id=n))]
    title = passage.get("document_title") or ""
    return [passage.get("title") or "", passage.get("section_path") or "", title, *names]


def sentences(conn: sqlite3.Connection, passage: dict[str, Any]) -> list[str]:
    """The sentences of the passage, of its reading in official terms and of its English gloss."""
    glosses = [g["text"] for g in run(conn, "rule_glosses", id=passage["id"])]
    texts = [passage["text"], passage.get("reading") or "", *glosses]
    return [s for text in dict.fromkeys(t for t in texts if t) for s in split_sentences(text)]


def clauses(conn: sqlite3.Connection, p: dict[str, Any]) -> tuple[list[dict], set[str]]:
    """The passage's statement facts, and the stems said around them (its context, its
    sentences): where a clause's missing words may be said."""
    facts = run(conn, "verdict_rule_statements", ids=[p["id"]])
    said = " ".join(dict.fromkeys(f["quote"] for f in facts))
    return facts, stems(" ".join([*context(conn, p), said]))


def says_all(conn: sqlite3.Connection, passage: dict[str, Any], required: list[set[str]]) -> bool:
    """The passage holds every content word of the question; of a long question, one may be
    missing, but not one narrowing what it names ("master rune cards")."""
    said = stems(" ".join([*context(conn, passage), *sentences(conn, passage)]))
    missing = [r for r in required if not words.holds_all(said, [r])]
    return words.all_but_one(missing, required, threshold("slack_passage_from"))


def best(u: Understood, asked: Asked) -> list[dict[str, Any]]:
    """The passages a verdict may be read from (see the module docstring); none for a question
    of no known game."""
    game = u.game or u.game_hint or ""
    if not game:
        return []
    required = words.required_words(asked.conn, u)
    found = [_in_edition(asked.conn, p, u) for p in top(asked) if p["game"] == game]
    return [p for p in found if p and says_all(asked.conn, p, required)]


def _in_edition(conn: sqlite3.Connection, p: dict[str, Any], u: Understood) -> dict | None:
    """The passage, or the same text in the version the question names ("CR 7.0"), or None."""
    if _of_edition(p, u):
        return p
    for other in run(conn, "passages", ids=p.get("also", [])):
        if _of_edition(other, u):
            return {**other, "features": p["features"], "score": p["score"]}
    return None


def _of_edition(passage: dict[str, Any], u: Understood) -> bool:
    """The passage's document is of the year and the version the question names, if any."""
    named = f"{passage.get('era') or ''} {passage.get('document_title') or ''}"
    said = set(re.findall(r"\d{4}", named))
    if u.years and not said & {str(y) for y in u.years}:
        return False
    versions = named_versions(u.text)
    return not (versions and passage.get("version") and passage["version"] not in versions)


def named_versions(text: str) -> set[str]:
    """The versions of a rulebook a question names ("CR 7.0", "8.01")."""
    return set(re.findall(r"\d+\.\d+", text))
