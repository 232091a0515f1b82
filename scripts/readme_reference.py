#!/usr/bin/env python3
"""Rewrite the command reference in docs/reference.md from the commands' own help
(tests/test_docs.py fails while it is stale)."""

from pathlib import Path

from kb.cli.reference import with_reference

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "reference.md"

if __name__ == "__main__":
    REFERENCE.write_text(with_reference(REFERENCE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {REFERENCE}")
