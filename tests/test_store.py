"""The store writes a temporary file beside the target and renames it over the old database
only when complete: a write that fails halfway leaves the previous database as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ingest.pipeline import PipelineResult
from ingest.records import DocText, DocumentResult, DocumentSpec, Game, RawText
from kb.store.write import write_database


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


def test_temp_files_of_dead_builds_are_removed_and_reported_and_live_ones_kept(
    tmp_path: Path,
) -> None:
    """A temporary file nobody holds a lock on was left by a build that died (kill -9): the
    next build removes it and says so. One still locked by a running build is kept."""
    import fcntl
    import os

    from kb.store.write import prepare_target

    target = tmp_path / "kb.sqlite"
    dead = tmp_path / ".kb.sqlite.tmp-4000001"
    dead.write_bytes(b"\0" * 2_000_000)
    live = tmp_path / ".kb.sqlite.tmp-4000002"
    live.write_bytes(b"")
    other = tmp_path / ".other.sqlite.tmp-4000003"  # another database's: not ours to touch
    other.write_bytes(b"")
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # held as a running build holds its own
    try:
        notes = prepare_target(target)
        # This process holds the lock through another open file: a second build's view.
        assert notes == [
            "removed .kb.sqlite.tmp-4000001 (2.0 MB), left by a build that did not finish"
        ]
        assert not dead.exists() and live.exists() and other.exists()
        write_database(_result(tmp_path, "fow"), target)
        assert live.exists(), "a running build's temporary file was removed"
    finally:
        os.close(fd)
    write_database(_result(tmp_path, "fow"), target)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.sqlite.tmp-4000003", "kb.sqlite"]
