"""The manifest, and files it does not describe: detected with sane defaults and a warning."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ingest.errors import IngestError
from ingest.manifest import load_manifest
from ingest.pipeline import run_pipeline
from kb.store.build import build

USER_DOC = """Force of Will quick reference
Resonators and J-Ruler

The turn player may play a Resonator when the Chase Area is empty.
Magic Stone cards produce Will.

Kết quả (Việt) 1:

Người chơi lượt có thể chơi một cộng hưởng khi khu vực Chase trống.
"""


def test_bundled_manifest_describes_every_file(corpus_dir: Path) -> None:
    manifest = load_manifest(corpus_dir)
    assert manifest.unlisted == [] and manifest.warnings == []
    assert {d.file for d in manifest.documents} == {p.name for p in corpus_dir.glob("*.txt")}
    # Every game described is a game of some document, and the games the house began with stay.
    assert set(manifest.games) == {d.game for d in manifest.documents}
    assert {"fow", "vanguard", "yugioh"} < set(manifest.games)


def test_undescribed_file_is_detected_and_warned(small_corpus: Path, tmp_path: Path) -> None:
    (small_corpus / "my notes.txt").write_text(USER_DOC, encoding="utf-8")
    db = tmp_path / "kb.sqlite"
    summary = build(small_corpus, db)
    assert any(
        w.startswith("my notes.txt: not described in sources.toml") for w in summary["warnings"]
    )
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    docs = {r["id"]: r for r in conn.execute("SELECT * FROM documents WHERE file = 'my notes.txt'")}
    assert set(docs) == {"my-notes", "my-notes-vi-mt1"}
    assert (docs["my-notes"]["game"], docs["my-notes"]["lang"], docs["my-notes"]["provenance"]) == (
        "fow",
        "en",
        "unknown",
    )
    assert docs["my-notes"]["described"] == 0
    assert docs["my-notes-vi-mt1"]["translation_of"] == "my-notes"
    assert docs["my-notes-vi-mt1"]["lang"] == "vi"
    warnings = [r[0] for r in conn.execute("SELECT message FROM build_warnings")]
    assert any("my notes.txt" in w for w in warnings)


def test_corpus_without_manifest_still_builds(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "rules.txt").write_text(
        "Game Rules\nThe player with the most points wins.\n", encoding="utf-8"
    )
    result = run_pipeline(corpus)
    assert result.warnings[0].endswith("sources.toml not found: every file's metadata is detected")
    assert result.documents[0].doc.spec.game == "unknown"
    assert [r.text for r in result.documents[0].rules] == ["The player with the most points wins."]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda t: t.replace('id = "vg-basic"', 'id = "fow-basic"'),
            "document id 'fow-basic' is used twice",
        ),
        (
            lambda t: t.replace('game = "vanguard"', 'game = "magic"', 1),
            "game 'magic' is not defined",
        ),
        (lambda t: t.replace("level = 1\n", "level = 9\n", 1), "level must be between 1 and 6"),
        (
            lambda t: t.replace("pattern = '^(Main Deck", "pattern = '^((Main Deck", 1),
            "invalid regular expression",
        ),
        (lambda t: t + "\n[unexpected]\nx = 1\n", "unknown top-level key(s) unexpected"),
        (
            lambda t: t.replace('preset = "pdf_extraction"', 'preset = "ocr"'),
            "preset must be one of",
        ),
    ],
    ids=["duplicate id", "unknown game", "bad level", "bad regex", "unknown key", "unknown preset"],
)
def test_invalid_manifest_is_named(corpus_copy: Path, edit, message: str) -> None:  # noqa: ANN001
    manifest = corpus_copy / "sources.toml"
    manifest.write_text(edit(manifest.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(IngestError) as err:
        load_manifest(corpus_copy)
    assert str(err.value).startswith("sources.toml: ")
    assert message in str(err.value)
