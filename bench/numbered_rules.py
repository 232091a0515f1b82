"""How many of the rule numbers written in each source file the outline holds.

A numbered rulebook that a PDF extraction mangled loses rules silently: a number glued to its
text (``1.10.2.多人游戏``), a cross-reference wrapped onto a line of its own, a page footer in
the middle of a rule. This counts, per numbered document, the distinct numbers of two or more
parts that start a line of the source file (``1.9.1.1.``, ``2.1 Missed Trigger``, ``105.3a``;
a number followed by a letter counts, one followed by a comma or bracket is a wrapped
reference and does not), and how many of them the built outline holds as a rule or a section.

    .venv/bin/python bench/numbered_rules.py [--db kb.sqlite] [--missing]
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# A number of two or more parts at the start of a line, followed by a space or a letter.
_NUMBER = re.compile(r"^[\s_]*(\d{1,4}(?:\.\d{1,3})+[a-z]?(?:-[ivxl]+)?)\.?(?=\s|[^\W\d_])")


def numbers_in_text(text: str) -> set[str]:
    """The distinct rule numbers that start a line of ``text``."""
    found = set()
    for line in text.split("\n"):
        m = _NUMBER.match(line)
        if m:
            found.add(m.group(1))
    return found


def coverage(conn: sqlite3.Connection, corpus: Path) -> list[dict[str, Any]]:
    """Per numbered document: numbers in its file, numbers in its outline, those missing."""
    from kb.store.db import run

    out = []
    for doc in run(conn, "numbered_documents"):
        numbering = doc["numbering"]
        path = corpus / doc["file"]
        written = numbers_in_text(path.read_text(encoding="utf-8", errors="replace"))
        outline = run(conn, "document_numbers", document=doc["id"])
        parsed = {row["number"] for row in outline}
        missing = sorted(written - parsed)
        out.append(
            {
                "document": doc["id"],
                "numbering": numbering,
                "written": len(written),
                "parsed": len(written & parsed),
                "share": round(len(written & parsed) / len(written), 4) if written else 1.0,
                "rules": sum(1 for row in outline if row["kind"] == "rule"),
                "missing": missing,
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument("--corpus", type=Path, default=REPO / "corpus")
    parser.add_argument("--missing", action="store_true", help="list the numbers not parsed")
    args = parser.parse_args(argv)
    if not args.db.exists():
        from kb.store.build import build

        build(args.corpus, args.db)
    from kb.store.db import connect

    conn = connect(args.db)
    rows = coverage(conn, args.corpus)
    print(f"{'document':<28} {'scheme':<7} {'in file':>7} {'parsed':>7} {'share':>7} {'rules':>6}")
    for row in rows:
        print(
            f"{row['document']:<28} {row['numbering']:<7} {row['written']:>7} {row['parsed']:>7} "
            f"{row['share']:>7.1%} {row['rules']:>6}"
        )
        if args.missing and row["missing"]:
            print(f"  missing: {' '.join(row['missing'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
