"""The source of a machine-translated passage: a verdict is read from the rule a machine
translation translates, when the alignments know it, and cites that rule.

On the ``kb ask`` path: standard library and sqlite3 only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...db import run


def original(conn: sqlite3.Connection, passage: dict[str, Any]) -> dict[str, Any]:
    """The rule a machine-translated passage translates, when the alignments know it: a
    verdict is read from the source and cites it, not its machine translation."""
    if passage["provenance"] != "machine" or not passage["translation_of"]:
        return passage
    ids = [t["id"] for t in run(conn, "rule_translations", id=passage["id"])
           if t["id"].startswith(f"{passage['translation_of']}:")]  # fmt: skip
    rows = run(conn, "passages", ids=ids[:1]) if ids else []
    return {**rows[0], "features": passage["features"]} if rows else passage
