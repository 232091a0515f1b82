"""The glossary as stored: terms (curated, and the rulebooks' own with their definition, the
rule stating it and the rules it cites), renderings per language, and counts per document."""

from __future__ import annotations

import sqlite3

from ..store.db import KbError, column, run
from ..types import Term, TermRendering


def terms(conn: sqlite3.Connection, term: str = "") -> list[Term]:
    """Terms with their renderings and counts; ``term`` is an id, English term or any rendering."""
    key = term.strip()
    if key:
        ids = column(conn, "term_ids", key=key)
        if not ids:
            raise KbError(f"no glossary term {term!r} (kb terms lists them all)")
    else:
        ids = [""]
    out: dict[str, Term] = {}
    renderings: dict[str, dict[tuple[str, str, str], TermRendering]] = {}
    for tid in ids:
        for row in run(conn, "terms", term=tid):
            entry = out.setdefault(
                row["term"],
                {
                    "term": row["term"],
                    "game": row["game"],
                    "en": row["en"],
                    "definition": row["definition"] or "",
                    "rule": row["rule"],
                    "cites": run(conn, "term_cites", term=row["term"]) if row["rule"] else [],
                    "renderings": [],
                },
            )
            rendering = renderings.setdefault(entry["term"], {}).setdefault(
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
    for entry in out.values():
        entry["renderings"] = list(renderings.get(entry["term"], {}).values())
    return list(out.values())
