"""The store writes a temporary file beside the target and renames it over the old database
only when complete: a write that fails halfway leaves the previous database as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ingest.pipeline import PipelineResult
from ingest.records import DocText, DocumentResult, DocumentSpec, Game, RawText
from kb.store import write_database


def _result(tmp_path: Path, game: str) -> PipelineResult:
    """One empty document of ``game``, in a corpus that describes only Force of Will."""
    spec = DocumentSpec(
        file="a.txt", id="a", game=game, ruleset="cr", title="A", lang="en",
        provenance="official", era="",
    )  # fmt: skip
    doc = DocText(
        spec=spec, doc_id="a", variant="original", lang="en", provenance="official",
        preset="clean", title="A", translation_of=None, lines=[],
        raw=RawText("a.txt", "a.txt", "utf-8", "0" * 64, 0, ""),
    )  # fmt: skip
    return PipelineResult(
        corpus=tmp_path, games=[Game("fow", "Force of Will")], documents=[DocumentResult(doc)]
    )


def test_a_failed_write_leaves_the_previous_database_and_no_temporary_file(
    tmp_path: Path,
) -> None:
    target = tmp_path / "kb.sqlite"
    counts = write_database(_result(tmp_path, "fow"), target)
    assert counts["documents"] == 1 and counts["games"] == 1
    before = target.read_bytes()
    # A document of a game the corpus does not describe breaks a foreign key mid-write.
    with pytest.raises(sqlite3.IntegrityError):
        write_database(_result(tmp_path, "nope"), target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["kb.sqlite"]
