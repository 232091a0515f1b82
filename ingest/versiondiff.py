"""Stage 9, version diff: how each rule changed between two versions of a rulebook.

Placeholder until the differ lands: returns no changes.
"""

from __future__ import annotations

from .records import Change, DocumentResult


def diff_corpus(documents: list[DocumentResult]) -> list[Change]:
    """Changes between consecutive versions of every document that has several versions."""
    return []
