"""Write the knowledge base: one SQLite file, built in a temporary file and swapped in whole.

A failed build leaves the previous database untouched: rows go to ``.<name>.tmp-<pid>`` next
to the target, which replaces the target with ``os.replace`` only once it is complete.
Everything is inserted in a fixed order with explicit keys, and nothing time-dependent is
stored, so the same corpus always gives the same database content.

Each step below writes a few tables; ``kb.schema`` says what their rows hold.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from ingest.pipeline import PipelineResult

from .. import datafiles, schema
from ..vocabulary import store_vocabulary
from . import corpus, knowledge, links
from .rows import create_tables

Progress = Callable[[str], None]
_Step = Callable[[sqlite_utils.Database, PipelineResult], None]

# (progress message, the steps it covers), in the order they run: a row is written after
# every row it refers to.
STEPS: list[tuple[str, list[_Step]]] = [
    ("write games, documents, sections", [corpus.write_meta, corpus.write_documents]),
    ("write rules and the full-text index", [corpus.write_rules, corpus.write_search_vocab]),
    ("write repairs and duplicates", [corpus.write_cleaning]),
    ("write alignments, checks and version changes", [links.write_links]),
    (
        "write timing graph, cards, rulings, restriction lists, glossary",
        [
            knowledge.write_timing,
            knowledge.write_cards,
            knowledge.write_glossary,
            knowledge.write_facts,
        ],
    ),
]


def write_database(
    result: PipelineResult, db_path: Path, progress: Progress | None = None
) -> dict[str, int]:
    """Write ``result`` to ``db_path`` atomically; return row counts per table."""
    say = progress or (lambda _msg: None)
    db_path = db_path.resolve()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.tmp-{os.getpid()}")
    if tmp.exists():
        tmp.unlink()
    try:
        counts = _write(result, tmp, say)
        os.replace(tmp, db_path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return counts


def _write(result: PipelineResult, path: Path, say: Progress) -> dict[str, int]:
    conn = sqlite3.connect(path)
    # Nothing to recover from a crash (the file is thrown away), so no journal and no syncs.
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    db = sqlite_utils.Database(conn)
    create_tables(db)
    for message, steps in STEPS:
        say(message)
        for step in steps:
            step(db, result)
    _store_ask_data(conn)
    corpus.write_warnings(db, result)
    return _finish(conn)


def _store_ask_data(conn: sqlite3.Connection) -> None:
    """What ``kb ask`` would otherwise compute per question, precomputed into ``meta``."""
    conn.row_factory = sqlite3.Row
    store_vocabulary(conn)
    datafiles.store(conn)
    conn.row_factory = None


def _finish(conn: sqlite3.Connection) -> dict[str, int]:
    """Merge the full-text index, check every reference, count rows, compact; close."""
    conn.execute("INSERT INTO rules_fts(rules_fts) VALUES ('optimize')")
    conn.commit()
    problems = conn.execute("PRAGMA foreign_key_check").fetchall()
    if problems:
        raise RuntimeError(f"foreign key check failed: {problems[:3]}")
    counts = {
        name: conn.execute(f"SELECT count(*) FROM [{name}]").fetchone()[0] for name in schema.TABLES
    }
    conn.execute("VACUUM")
    conn.close()
    return counts
