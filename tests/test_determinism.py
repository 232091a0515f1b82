"""The same corpus gives the same database: two builds in separate processes, under different
hash seeds, are identical in every table, the full-text index included.

Separate processes matter: iterating over a set of strings follows the string hashes, which
change with PYTHONHASHSEED from one process to the next, so an order taken from a set shows
up only across processes (two builds in one process agree with each other).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.system  # whole builds under different hash seeds

REPO = Path(__file__).resolve().parents[1]
SEEDS = (1, 2)


def _start_build(db: Path, seed: int) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "kb", "build", "--corpus", str(REPO / "corpus")]
    return subprocess.Popen(
        [*command, "--db", str(db), "--quiet"],
        cwd=REPO,
        env={**os.environ, "PYTHONHASHSEED": str(seed)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _contents(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in storage order (with their rowids), keyed by table name, in the
    order the tables were created; ``sqlite_master`` holds the schema itself."""
    conn = sqlite3.connect(db)
    try:
        master = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        out: dict[str, list[tuple[Any, ...]]] = {"sqlite_master": master}
        for kind, name, _, _ in master:
            if kind != "table":
                continue
            try:  # rules_fts (virtual) and ordinary tables: by rowid
                sql = f'SELECT rowid, * FROM "{name}" ORDER BY rowid'
                out[name] = conn.execute(sql).fetchall()
            except sqlite3.OperationalError:  # FTS5's WITHOUT ROWID tables: by primary key
                out[name] = conn.execute(f'SELECT * FROM "{name}"').fetchall()
        return out
    finally:
        conn.close()


def _first_difference(a: dict[str, list[tuple]], b: dict[str, list[tuple]]) -> str | None:
    for name in [*a, *(n for n in b if n not in a)]:
        rows_a, rows_b = a.get(name), b.get(name)
        if rows_a == rows_b:
            continue
        if rows_a is None or rows_b is None:
            return f"table {name} exists in only one build"
        for i, (x, y) in enumerate(zip(rows_a, rows_b, strict=False)):
            if x != y:
                return (
                    f"table {name}, row {i + 1} (rowid first where there is one):\n"
                    f"  seed {SEEDS[0]}: {x!r:.400}\n  seed {SEEDS[1]}: {y!r:.400}"
                )
        return f"table {name}: {len(rows_a)} rows vs {len(rows_b)}"
    return None


def test_builds_under_different_hash_seeds_are_identical(tmp_path: Path) -> None:
    dbs = [tmp_path / f"seed{seed}.sqlite" for seed in SEEDS]
    builds = [_start_build(db, seed) for db, seed in zip(dbs, SEEDS, strict=True)]
    for build in builds:
        _, stderr = build.communicate(timeout=300)
        assert build.returncode == 0, stderr
    first, second = (_contents(db) for db in dbs)
    assert first["rules"] and first["rules_fts"], "the corpus built no rules"
    difference = _first_difference(first, second)
    if difference:
        pytest.fail(difference, pytrace=False)
