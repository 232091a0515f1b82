"""Bad input: one line naming the file and the cause, a non-zero exit, the old database intact.

Each case runs the real ``kb build`` command in its own process against a copy of the corpus
with one defect added, after a good build has written the database.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from run_kb import run_kb

BuildCase = Callable[[Path], tuple[Path, str]]


def kb(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_kb(*args, cwd=cwd)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def previous_db(tmp_path_factory: pytest.TempPathFactory, built_db: Path) -> Path:
    path = tmp_path_factory.mktemp("previous") / "kb.sqlite"
    shutil.copy(built_db, path)
    return path


def _empty(corpus: Path) -> tuple[Path, str]:
    (corpus / "empty.txt").write_bytes(b"")
    return corpus, "empty.txt: file is empty"


def _binary(corpus: Path) -> tuple[Path, str]:
    (corpus / "scan.txt").write_bytes(b"%PDF-1.4\n\x00\x00\x01binary" * 100)
    return corpus, "scan.txt: binary file (NUL byte at offset 9)"


def _undecodable(corpus: Path) -> tuple[Path, str]:
    (corpus / "broken.txt").write_bytes(bytes(range(0x80, 0xA0)) * 50)
    return corpus, "broken.txt: cannot decode: not valid UTF-8 (byte 0x80 at offset 0)"


def _huge_line(corpus: Path) -> tuple[Path, str]:
    with (corpus / "huge.txt").open("wb") as f:
        f.write(b"Title\n")
        f.write(b"word " * (10 * 1024 * 1024))  # 50 MB on one line
    return corpus, "huge.txt:2: line is 52,428,800 characters long; the limit is 1,000,000"


def _missing_listed_file(corpus: Path) -> tuple[Path, str]:
    (corpus / "fow-cr-7.0.txt").unlink()
    return corpus, "fow-cr-7.0.txt: listed in sources.toml but not found in"


def _malformed_manifest(corpus: Path) -> tuple[Path, str]:
    manifest = corpus / "sources.toml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "\n[[documents]\nfile = 'x'\n", encoding="utf-8"
    )
    return corpus, "sources.toml: malformed TOML:"


def _invalid_manifest_value(corpus: Path) -> tuple[Path, str]:
    manifest = corpus / "sources.toml"
    text = manifest.read_text(encoding="utf-8").replace(
        'provenance = "official"', 'provenance = "oficial"', 1
    )
    manifest.write_text(text, encoding="utf-8")
    return corpus, "sources.toml: [[documents]] 'fow-cr-7.0.txt': provenance must be one of"


def _missing_folder(corpus: Path) -> tuple[Path, str]:
    shutil.rmtree(corpus)
    return corpus, f"{corpus}: corpus folder does not exist"


CASES: dict[str, BuildCase] = {
    "empty file": _empty,
    "binary file with NUL bytes": _binary,
    "undecodable bytes": _undecodable,
    "50 MB single line": _huge_line,
    "manifest names a missing file": _missing_listed_file,
    "malformed manifest": _malformed_manifest,
    "manifest with an invalid value": _invalid_manifest_value,
    "corpus folder does not exist": _missing_folder,
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_fails_cleanly(case: str, corpus_copy: Path, previous_db: Path) -> None:
    corpus, expected = CASES[case](corpus_copy)
    before = sha(previous_db)
    result = kb("build", "--corpus", str(corpus), "--db", str(previous_db), "--quiet")
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith("Error: ")
    assert expected in errors[0]
    assert "Traceback" not in result.stderr
    assert sha(previous_db) == before, "the previous database was modified"
    assert not list(previous_db.parent.glob(".*.tmp-*")), "a temporary file was left behind"


def test_unknown_rule_and_missing_database_are_one_line_errors(
    tmp_path: Path, built_db: Path
) -> None:
    missing = kb("stats", "--db", str(tmp_path / "nope.sqlite"))
    assert missing.returncode == 1
    assert (
        missing.stderr.strip() == f"Error: {tmp_path / 'nope.sqlite'}: no knowledge base here "
        "(run `kb build` first, or pass --db)"
    )
    unknown = kb("show", "999.9z", "--db", str(built_db))
    assert unknown.returncode == 1
    assert unknown.stderr.strip() == "Error: no rule with id or number '999.9z' (try `kb search`)"


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "kb.sqlite"
    fake.write_text("not sqlite", encoding="utf-8")
    result = kb("stats", "--db", str(fake))
    assert result.returncode == 1
    assert result.stderr.startswith(f"Error: {fake}: not a knowledge base")


def test_strict_build_fails_on_a_warning_and_keeps_the_database(
    corpus_copy: Path, previous_db: Path
) -> None:
    # The bundled corpus warns about 001's two empty headings: a plain build writes the
    # database and reports it, a strict one refuses and leaves the previous file as it was.
    before = sha(previous_db)
    result = kb("build", "--corpus", str(corpus_copy), "--db", str(previous_db), "-q", "--strict")
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert "--strict and the build warns: 001_da597713579df55f.txt: 2 empty section(s)" in line
    assert line.endswith(f"(nothing written; {previous_db} is unchanged)")
    assert sha(previous_db) == before
    plain = kb("build", "--corpus", str(corpus_copy), "--db", str(previous_db), "-q")
    assert plain.returncode == 0 and "1 warnings" in plain.stdout
