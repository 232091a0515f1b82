#!/usr/bin/env python3
"""Rewrite the command reference in README.md from the commands' own help
(tests/test_docs.py fails while it is stale)."""

from pathlib import Path

from kb.cli.reference import with_reference

README = Path(__file__).resolve().parents[1] / "README.md"

if __name__ == "__main__":
    README.write_text(with_reference(README.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {README}")
