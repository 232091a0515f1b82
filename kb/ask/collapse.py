"""One hit per piece of rules text: versions of a document and aligned translations of a
rule count once.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ingest.text import fold, words

from ..db import run


def _aligned(conn: sqlite3.Connection, ids: list[str]) -> dict[str, set[str]]:
    """For each rule, the rules aligned with it (its translations, or its source)."""
    out: dict[str, set[str]] = {}
    for row in run(conn, "ask_aligned", ids=ids) if ids else []:
        out.setdefault(row["rule"], set()).add(row["other"])
    return out


def collapse(
    rows: list[dict[str, Any]], conn: sqlite3.Connection | None = None, lang: str = ""
) -> list[dict[str, Any]]:
    """One hit per piece of rules text: the same text in several versions of a document (7.0
    and 8.01), and a rule with its aligned translations, count once. A translation found first
    gives its place to its source when the question is not in the translation's language."""
    aligned = _aligned(conn, [r["id"] for r in rows[:200]]) if conn is not None else {}
    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    owner: dict[str, dict[str, Any]] = {}
    by_id = {r["id"]: r for r in rows}
    for row in rows:
        key = (row["game"], " ".join(words(fold(row["text"]))))
        kept = seen.get(key) or owner.get(row["id"])
        if kept is not None:
            kept.setdefault("also", []).append(row["id"])
            continue
        if row["translation_of"] and row["lang"] != lang:
            source = next(
                (by_id[i] for i in sorted(aligned.get(row["id"], ())) if i in by_id), None
            )
            if source is not None and source["id"] not in owner:
                row = {**source, "score": row["score"], "also": [row["id"]]}
        seen[key] = row
        out.append(row)
        owner[row["id"]] = row
        for other in aligned.get(row["id"], ()):
            owner.setdefault(other, row)
        for other in row.get("also", []):
            owner.setdefault(other, row)
    return out
