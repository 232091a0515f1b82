"""Write the knowledge base: one SQLite file, built in a temporary file and swapped in whole.

A failed build leaves the previous database untouched: rows go to ``.<name>.tmp-<pid>`` next
to the target (the same folder, so the rename is atomic), which is flushed to disk and
replaces the target with ``os.replace`` only once it is complete. The build holds an
exclusive ``flock`` on its temporary file while it writes, so a temporary file nobody holds
is the leftover of a build that died (kill -9, power loss): ``prepare_target`` removes those
at the next build and says so. It also checks, before the pipeline runs, that the target's
folder exists (a build never creates folders) and can be written.
Everything is inserted in a fixed order with explicit keys, and nothing time-dependent is
stored, so the same corpus always gives the same database content.

Each step below writes a few tables; ``kb.store.schema`` says what their rows hold.
"""

from __future__ import annotations

import fcntl
import functools
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from ingest.pipeline import PipelineResult

from .. import embed
from . import corpus, datafiles, dictionary, knowledge, links, schema, vectors
from .db import KbError
from .marks import store_marks
from .rows import create_tables
from .translations import store_translations
from .vocabulary import store_vocabulary

Progress = Callable[[str], None]
_Step = Callable[[sqlite_utils.Database, PipelineResult], None]

# (progress message, the steps it covers), in the order they run: a row is written after
# every row it refers to.
STEPS: list[tuple[str, list[_Step]]] = [
    (
        "write games, documents, sections",
        [corpus.write_meta, corpus.write_languages, corpus.write_documents],
    ),
    (
        "write rules and the full-text index",
        [
            corpus.write_rules,
            corpus.write_search_vocab,
            corpus.write_common_words,
            dictionary.write_dictionaries,
        ],
    ),
    ("write repairs and duplicates", [corpus.write_cleaning]),
    ("write alignments, checks and version changes", [links.write_links]),
    (
        "write timing graph, cards, rulings, restriction lists, glossary",
        [
            knowledge.write_timing,
            knowledge.write_cards,
            knowledge.write_glossary,
            knowledge.write_facts,
            knowledge.write_infractions,
        ],
    ),
]


def _temp_files(db_path: Path) -> list[Path]:
    return sorted(db_path.parent.glob(f".{db_path.name}.tmp-*"))


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def remove_stale_temp_files(db_path: Path) -> list[str]:
    """Remove the temporary files of builds of ``db_path`` that died; one note for each.

    A file whose ``flock`` is held belongs to a build that is still running and is kept."""
    notes = []
    for tmp in _temp_files(db_path):
        try:
            fd = os.open(tmp, os.O_RDONLY)
        except OSError:
            continue
        try:
            if not _try_lock(fd):
                continue
            size = os.fstat(fd).st_size
            tmp.unlink(missing_ok=True)
            notes.append(
                f"removed {tmp.name} ({size / 1e6:.1f} MB), left by a build that did not finish"
            )
        finally:
            os.close(fd)
    return notes


def _check_replaceable(db_path: Path) -> None:
    """The build replaces ``db_path`` whole (a rename): refuse anything but a regular file
    (or nothing), which would be replaced by one: a FIFO, a device, a folder, a symbolic
    link (the link itself would become a file, its target left as it was)."""
    try:
        mode = os.lstat(db_path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise KbError(f"{db_path}: cannot check the database file ({exc.strerror})") from None
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise KbError(f"{db_path}: is a folder, not a database file")
    if stat.S_ISLNK(mode):
        raise KbError(
            f"{db_path}: is a symbolic link (to {os.readlink(db_path)}); kb build would "
            "replace the link, not its target: pass the file itself"
        )
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    raise KbError(f"{db_path}: is {kind}, not a database file; kb build will not replace it")


def prepare_target(db_path: Path) -> list[str]:
    """Check that ``db_path`` can be written, before any work; remove stale temporary files.

    Raises KbError naming the path and the cause; returns what was cleaned up."""
    db_path = Path(os.path.abspath(db_path))
    folder = db_path.parent
    _check_replaceable(db_path)
    if not folder.is_dir():
        raise KbError(
            f"{db_path}: folder {folder} does not exist (kb build does not create folders)"
        )
    probe = folder / f".{db_path.name}.probe-{os.getpid()}"
    try:
        probe.touch(exist_ok=False)
        probe.unlink()
    except OSError as exc:
        raise KbError(f"{db_path}: cannot write in {folder} ({exc.strerror or exc})") from None
    return remove_stale_temp_files(db_path)


@contextmanager
def _locked_temp(db_path: Path) -> Iterator[tuple[Path, int]]:
    """A new temporary file beside ``db_path``, held under an exclusive flock until the end."""
    tmp = db_path.with_name(f".{db_path.name}.tmp-{os.getpid()}")
    while True:
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if not remove_stale_temp_files(db_path):
                raise
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_nlink:  # not removed as stale between its creation and the lock
            break
        os.close(fd)
    try:
        yield tmp, fd
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_database(
    result: PipelineResult,
    db_path: Path,
    progress: Progress | None = None,
    embedder: str = "none",
) -> dict[str, int]:
    """Write ``result`` to ``db_path`` atomically; return row counts per table. ``embedder``
    (kb.embed) embeds every rule into ``vectors``; "none" writes none."""
    say = progress or (lambda _msg: None)
    db_path = Path(os.path.abspath(db_path))
    prepare_target(db_path)
    with _locked_temp(db_path) as (tmp, fd):
        try:
            counts = _write(result, tmp, say, embedder, db_path)
            os.fsync(fd)  # the new file is on disk before its name replaces the old one
            _check_replaceable(db_path)  # not made a link or a FIFO while the build ran
            os.replace(tmp, db_path)
        except sqlite3.OperationalError as exc:
            tmp.unlink(missing_ok=True)
            # A full disk (or a file size limit) while writing: SQLITE_FULL or SQLITE_IOERR
            # ("database or disk is full", "disk I/O error"); anything else is a bug to see.
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in (
                sqlite3.SQLITE_FULL,
                sqlite3.SQLITE_IOERR,
            ):
                raise
            raise KbError(
                f"{db_path}: cannot write the database ({exc}; is the disk full?)"
            ) from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    _fsync_folder(db_path.parent)
    return counts


def _write(
    result: PipelineResult, path: Path, say: Progress, embedder: str, previous: Path
) -> dict[str, int]:
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
    _embed(conn, embedder, previous, say)
    corpus.write_warnings(db, result)
    return _finish(conn)


def _store_ask_data(conn: sqlite3.Connection) -> None:
    """What ``kb ask`` would otherwise compute per question, precomputed into ``meta``."""
    conn.row_factory = sqlite3.Row
    store_vocabulary(conn)
    store_marks(conn)
    store_translations(conn)
    datafiles.store(conn)
    conn.row_factory = None


def _embed(conn: sqlite3.Connection, spec: str, previous: Path, say: Progress) -> None:
    """Every rule's embedding (kb/store/vectors.py), unless the build asked for none."""
    model = embed.model_name(spec)
    if model is None:
        return
    loaded = functools.cache(lambda: _loaded(spec))  # loaded once, when some text is new
    kinds = [(model, vectors.VECTORS)]
    latent = embed.latent_model_name(spec)
    if latent is not None:
        kinds.append((latent, vectors.LATENTS))
    for name, kind in kinds:
        say(f"write passage {kind.table} ({name})")
        counts = vectors.write_vectors(conn, name, loaded, previous=previous, say=say, kind=kind)
        say(
            f"  {kind.table}: {counts['previous']} kept, {counts['shipped']} from the shipped "
            f"cache, {counts['embedded']} embedded"
        )


def _loaded(spec: str) -> embed.Embedder:
    """The build's embedder, on every core (a question at a table gets one thread)."""
    model = embed.load(spec, threads=os.cpu_count() or 1)
    if model is None:
        raise KbError(f"embedder {spec!r} embeds nothing")
    return model


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
