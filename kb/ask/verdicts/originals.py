"""The source of a machine-translated passage: a verdict is read from the rule a machine
translation translates, when the alignments know it, and cites that rule.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...store.db import run
from .asked import Asked
from .common import threshold


def original(conn: sqlite3.Connection, passage: dict[str, Any]) -> dict[str, Any]:
    """The rule a machine-translated passage translates, when the alignments know it: a
    verdict is read from the source and cites it, not its machine translation."""
    if passage["provenance"] != "machine" or not passage["translation_of"]:
        return passage
    ids = [t["id"] for t in run(conn, "rule_translations", id=passage["id"])
           if t["id"].startswith(f"{passage['translation_of']}:")]  # fmt: skip
    rows = run(conn, "passages", ids=ids[:1]) if ids else []
    return {**rows[0], "features": passage["features"]} if rows else passage


def top(asked: Asked) -> list[dict[str, Any]]:
    """The first passages kb ask ranks for the question that cover enough of it (tuned
    thresholds), machine translations read in their source, each once."""
    found = [
        original(asked.conn, p) for p in asked.passages[: int(threshold("passages"))]
        if p["features"]["coverage"] >= threshold("min_coverage")
    ]  # fmt: skip
    return list({p["id"]: p for p in found}.values())
