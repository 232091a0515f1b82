"""What connects documents: translation alignments with the rules on each side, the
translation checks found on them, and how rules changed between versions of a rulebook."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import sqlite_utils

from ingest.pipeline import PipelineResult
from ingest.records import Link

from .rows import insert_records, insert_rows


def write_links(db: sqlite_utils.Database, result: PipelineResult) -> None:
    insert_records(db, "alignments", result.links)
    insert_rows(db, "alignment_rules", _alignment_rule_rows(result.links))
    # Checks point at their link by index; the link's alignment id is that index + 1.
    insert_records(db, "translation_checks", result.checks)
    insert_records(db, "rule_changes", result.changes)


def _alignment_rule_rows(links: Iterable[Link]) -> Iterator[dict[str, Any]]:
    """One row per rule on either side of each link, so a rule finds its links by index."""
    n = 0
    for alignment, link in enumerate(links, start=1):
        for side, ids in (("source", link.source_ids), ("target", link.target_ids)):
            for rule in ids:
                n += 1
                yield {"id": n, "alignment": alignment, "rule": rule, "side": side}
