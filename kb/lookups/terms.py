"""The glossary as a reader meets it: the curated terms and the rulebooks' glossaries as stored
(renderings per language, counts per document), merged with the terms the rulebooks define in
their own sections (kb.lookups.definitions), each with its definitions.

``terms`` answers ``kb terms``: an id, an English term, a rendering, or a name typed with a
typo, in one game or all; the closest kind of match wins (a term's own name before another
term's rendering, an official rendering before a machine translation's, an exact name before a
typo), and ``match`` says which it was.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ingest.text import fold

from ..store.db import KbError, column, run
from ..types import Term, TermRendering
from .definitions import (
    database_key,
    defined_terms,
    definitions_of,
    first_sentence,
    phrase_expression,
)
from .timing import game_id

# A name typed with a typo matches a term's name at this score (rapidfuzz ratio) or above.
TYPO_SCORE = 85.0
MACHINE = "en_mt"


def _key(text: str) -> str:
    return " ".join(fold(text).lower().strip("[]").split())


def _in_game(term_game: str, game: str) -> bool:
    return not game or term_game in ("*", game)


def glossary_entries(conn: sqlite3.Connection, game: str = "") -> list[dict[str, Any]]:
    """Every term of ``game`` (every game: ""), as a list of the glossary shows it: the stored
    terms (``source`` "glossary") and, for the terms a rulebook defines in a section of its own
    that no stored term names, those (``source`` "rulebook"). ``defined``: a rulebook defines
    it."""
    entries = []
    names: dict[tuple[str, str], dict[str, Any]] = {}
    defined = _defined_ids(conn)
    for row in run(conn, "glossary_terms", game=game):
        entry = {
            **row,
            "forms": json.loads(row["forms"] or "[]"),
            "source": "glossary",
            "defined": row["id"] in defined,
        }
        entries.append(entry)
        for name in [row["en"], *entry["forms"]]:
            names.setdefault((row["game"], _key(name)), entry)
    for d in defined_terms(conn):
        if game and d["game"] != game:
            continue
        known = names.get((d["game"], _key(d["en"]))) or names.get(("*", _key(d["en"])))
        if known is not None:
            known["defined"] = True
            continue
        entries.append(
            {
                "id": d["term"],
                "game": d["game"],
                "en": d["en"],
                "forms": [],
                "uses": 0,
                "renderings": 1,
                "source": "rulebook",
                "defined": True,
            }
        )
    return sorted(entries, key=lambda e: (e["en"].lower(), e["id"]))


_DEFINED_IDS: dict[tuple[str, float], set[str]] = {}


def _defined_ids(conn: sqlite3.Connection) -> set[str]:
    """The stored terms some current document defines (``definitions``), worked out once per
    database file (it is read-only)."""
    key = database_key(conn)
    if key in _DEFINED_IDS:
        return _DEFINED_IDS[key]
    rows = run(conn, "glossary_terms", game="")
    names = {r["id"]: [r["en"], *json.loads(r["forms"] or "[]")] for r in rows}
    every = sorted({n.lower() for ns in names.values() for n in ns})
    titled: dict[str, set[str]] = {}  # a lower-case title -> the games whose documents have it
    for d in run(conn, "term_definitions", names=json.dumps(every), game=""):
        titled.setdefault(d["title"].lower(), set()).add(d["game"])
    found = set()
    for row in rows:
        games = set().union(*(titled.get(n.lower(), set()) for n in names[row["id"]]))
        in_game = games if row["game"] == "*" else games & {row["game"]}
        if row["definition"] or in_game or definitions_of(conn, names[row["id"]], row["game"]):
            found.add(row["id"])
    if key[0]:
        if len(_DEFINED_IDS) >= 4:
            _DEFINED_IDS.pop(next(iter(_DEFINED_IDS)))
        _DEFINED_IDS[key] = found
    return found


def rulebook_term(conn: sqlite3.Connection, term_id: str) -> dict[str, Any] | None:
    """A term a rulebook defines (``<game>:<slug>``, kb.lookups.definitions), or None."""
    return next((d for d in defined_terms(conn) if d["term"] == term_id), None)


def definitions(conn: sqlite3.Connection, names: list[str], game: str = "") -> list[dict[str, Any]]:
    """Where current documents define a term known by ``names``: a rule or section titled with
    it ("Player: One who plays the game", "309 Graveyard"), or a rule that opens by saying what
    it is ("A main deck is a pile of cards ...", kb.lookups.definitions). Each with ``kind``
    (rule or section), ``id`` (the rule), ``document``, ``number``, ``title``, ``text`` and
    ``slug``; the same rule once."""
    game = "" if game in ("", "*") else game
    lowered = sorted({n.lower() for n in names})
    out: dict[str, dict[str, Any]] = {}
    for row in run(conn, "term_definitions", names=json.dumps(lowered), game=game):
        out.setdefault(row["id"], row)
    for d in definitions_of(conn, names, game):
        out.setdefault(d["rule"], {**d, "id": d["rule"]})
    return list(out.values())


def rendering_uses(
    conn: sqlite3.Connection, text: str, lang: str, game: str = ""
) -> list[dict[str, Any]]:
    """How many rules of each document hold ``text`` in ``lang`` (an English sentence of a
    Vietnamese article counts for an English rendering), of ``game`` or any."""
    expression = phrase_expression(text, "body")
    if expression is None:
        return []
    game = "" if game in ("", "*") else game
    return run(conn, "rendering_uses", expression=expression, lang=lang, game=game)


# ---------------------------------------------------------------------------------------------
# kb terms


def terms(conn: sqlite3.Connection, term: str = "", game: str = "") -> list[Term]:
    """Terms with their definition, renderings and counts. ``term``: an id, English term or
    any rendering, or one of those with a typo (the closest kind of match wins, ``match`` says
    which); ``game``: an id or alias, only its terms and those every game shares."""
    game = game_id(conn, game) if game.strip() else ""
    key = term.strip()
    if not key:
        ids = [e["id"] for e in glossary_entries(conn, game)]
        return [t for t in (_entry(conn, i, "") for i in ids) if t is not None]
    for match, found in _matches(conn, key, game):
        entries = [t for t in (_entry(conn, i, match) for i in found) if t is not None]
        if entries:
            return entries
    where = f" in {game}" if game else ""
    raise KbError(f"no glossary term {term!r}{where} (kb terms lists them all)")


def _matches(conn: sqlite3.Connection, key: str, game: str) -> list[tuple[str, list[str]]]:
    """Term ids ``key`` names, by kind of match, closest kind first."""
    entries = glossary_entries(conn, game)
    in_game = {e["id"] for e in entries}
    folded = _key(key)
    own = [e["id"] for e in entries if folded in {_key(e["id"]), _key(e["en"])}]
    form = [e["id"] for e in entries if folded in {_key(f) for f in e["forms"]}]
    official: list[str] = []
    machine: list[str] = []
    for row in run(conn, "term_rendering_matches", key=key):
        if row["term"] in in_game:
            (machine if row["source"] == MACHINE else official).append(row["term"])
    return [
        ("name", own),
        ("form", form),
        ("rendering", list(dict.fromkeys(official))),
        ("machine translation's rendering", list(dict.fromkeys(machine))),
        ("close spelling", _typo(conn, folded, entries)),
    ]


def _typo(conn: sqlite3.Connection, folded: str, entries: list[dict[str, Any]]) -> list[str]:
    """The terms whose name or rendering is spelt closest to ``folded`` (TYPO_SCORE or more)."""
    from rapidfuzz import fuzz  # slow to import: only for a name no term has

    by_id = {e["id"]: e for e in entries}
    names: list[tuple[str, str]] = []
    for e in entries:
        names += [(e["id"], _key(n)) for n in [e["en"], *e["forms"]]]
    names += [
        (r["term"], _key(r["text"]))
        for r in run(conn, "term_rendering_texts")
        if r["term"] in by_id and r["source"] != MACHINE
    ]
    own = {(e["id"], _key(n)) for e in entries for n in [e["en"], *e["forms"]]}
    # The best score, a term's own name before another's rendering at the same score.
    scored = sorted(
        ((fuzz.ratio(folded, name), (tid, name) in own, tid) for tid, name in names if name),
        reverse=True,
    )
    if not scored or scored[0][0] < TYPO_SCORE:
        return []
    return list(dict.fromkeys(tid for s, _, tid in scored if s == scored[0][0]))


def _entry(conn: sqlite3.Connection, term_id: str, match: str) -> Term | None:
    rows = run(conn, "terms", term=term_id)
    if rows:
        return _stored(conn, rows, match)
    d = rulebook_term(conn, term_id)
    if d is None:
        return None
    rendering: TermRendering = {
        "lang": d["lang"],
        "source": d["lang"],
        "text": d["written"],
        "preferred": True,
        "note": "",
        "counts": {u["document"]: u["count"] for u in rendering_uses(conn, d["en"], d["lang"])},
        "total": 0,
    }
    rendering["total"] = sum(rendering["counts"].values())
    return {
        "term": d["term"],
        "game": d["game"],
        "en": d["en"],
        "definition": d["definition"],
        "rule": d["rule"],
        "cites": [],
        "renderings": [rendering],
        "match": match,
    }


def _stored(conn: sqlite3.Connection, rows: list[dict[str, Any]], match: str) -> Term:
    """A stored term (curated, or a rulebook glossary's entry) with its renderings and counts;
    a curated term without a definition gets the one a rulebook gives, if any."""
    first = rows[0]
    entry: Term = {
        "term": first["term"],
        "game": first["game"],
        "en": first["en"],
        "definition": first["definition"] or "",
        "rule": first["rule"],
        "cites": run(conn, "term_cites", term=first["term"]) if first["rule"] else [],
        "renderings": [],
        "match": match,
    }
    renderings: dict[tuple[str, str, str], TermRendering] = {}
    for row in rows:
        rendering = renderings.setdefault(
            (row["lang"], row["source"], row["text"]),
            {
                "lang": row["lang"],
                "source": row["source"],
                "text": row["text"],
                "preferred": bool(row["preferred"]),
                "note": row["note"],
                "counts": {},
                "total": 0,
            },
        )
        if row["document"]:
            rendering["counts"][row["document"]] = row["count"]
            rendering["total"] += row["count"]
    entry["renderings"] = list(renderings.values())
    if not entry["definition"]:
        forms = json.loads(column(conn, "term_forms", term=first["term"])[0] or "[]")
        found = definitions(conn, [first["en"], *forms], first["game"])
        if found:
            entry["definition"] = first_sentence(found[0]["text"])
            entry["rule"] = found[0]["id"]
    return entry
