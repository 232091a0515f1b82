"""Limits on every SQLite connection the website opens: what arbitrary SQL may cost or reach.

Datasette's SQL editor and table pages run SQL that anyone can write. The database is opened
immutable (no write can succeed), and each connection gets, from kb/data/limits.toml:

* ``Connection.setlimit`` bounds: a string or blob longer than ``max_length`` fails at once
  ("string or blob too big"), so ``select randomblob(200000000)`` or ``zeroblob(1e9)`` never
  allocates (the SQL time limit cannot stop a single function call); no ATTACH at all;
* an authorizer: reads and the read-only pragmas Datasette needs are allowed; writes, schema
  changes, ATTACH, setting a pragma and the functions of ``refused_functions``
  (``fts3_tokenizer`` can read and overwrite a pointer with the system SQLite; file access;
  allocators of any size) are refused with "not authorized".

The row budget (``max_returned_rows``) and time budget (``sql_time_limit_ms``) are Datasette
settings: site/settings.json, and [public_settings] of limits.toml for ``kb serve --public``.
The time budget is counted in CPU time of the thread running the query (``cpu_time_limit``),
not wall-clock time: on a busy machine, or in a server frozen for a while, a query is not
cut for waiting its turn (a wall-clock limit of 250 ms failed ordinary pages under load).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..limits import limits

# Setting name in limits.toml [sql] -> sqlite3 constant.
_LIMITS = {
    "max_length": sqlite3.SQLITE_LIMIT_LENGTH,
    "max_sql_length": sqlite3.SQLITE_LIMIT_SQL_LENGTH,
    "max_columns": sqlite3.SQLITE_LIMIT_COLUMN,
    "max_expr_depth": sqlite3.SQLITE_LIMIT_EXPR_DEPTH,
    "max_compound_select": sqlite3.SQLITE_LIMIT_COMPOUND_SELECT,
    "max_like_pattern_length": sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH,
    "max_variable_number": sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER,
    "max_function_arg": sqlite3.SQLITE_LIMIT_FUNCTION_ARG,
    "max_attached": sqlite3.SQLITE_LIMIT_ATTACHED,
    "max_trigger_depth": sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH,
}
# Actions a read-only site needs. Everything else (INSERT, UPDATE, DELETE, CREATE, DROP,
# ALTER, ATTACH, DETACH, ANALYZE, REINDEX, CREATE VTABLE...) is refused.
_ALLOWED = {
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    sqlite3.SQLITE_FUNCTION,
    sqlite3.SQLITE_PRAGMA,
    sqlite3.SQLITE_TRANSACTION,
    sqlite3.SQLITE_SAVEPOINT,
    sqlite3.SQLITE_RECURSIVE,
}
# Pragmas whose argument names a table or an index (Datasette reads the schema with them);
# any other pragma may only be read, never given a value.
_SCHEMA_PRAGMAS = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list",
}  # fmt: skip


def authorizer(refused: frozenset[str]) -> Any:
    """The authorizer callback: ``refused`` are lower-case function names."""

    def check(action: int, arg1: str | None, arg2: str | None, _db: Any, _trigger: Any) -> int:
        if action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master":
            # SQLite asks this while it constructs an FTS5 table to read it; the database is
            # opened immutable, so no write to the schema can happen anyway.
            return sqlite3.SQLITE_OK
        if action not in _ALLOWED:
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in refused:
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_PRAGMA and arg2 is not None:
            return (
                sqlite3.SQLITE_OK
                if (arg1 or "").lower() in _SCHEMA_PRAGMAS
                else sqlite3.SQLITE_DENY
            )
        return sqlite3.SQLITE_OK

    return check


def guard(conn: sqlite3.Connection) -> None:
    """Apply the limits and the authorizer of kb/data/limits.toml [sql] to ``conn``."""
    bounds = limits()["sql"]
    for name, category in _LIMITS.items():
        conn.setlimit(category, bounds[name])
    conn.set_authorizer(authorizer(frozenset(f.lower() for f in bounds["refused_functions"])))


class CpuDeadline:
    """A progress handler: 1 (interrupt) once this thread has used ``seconds`` of CPU time
    since ``start``. The thread's CPU clock is a system call (about 1 µs here, ten times the
    wall clock's), so it is read only when wall-clock time says the deadline could have been
    reached: CPU time never runs faster than wall-clock time."""

    def __init__(self) -> None:
        self.stop()

    def start(self, seconds: float) -> None:
        self.cpu_deadline = time.thread_time() + seconds
        self.next_check = time.perf_counter() + seconds

    def stop(self) -> None:
        self.cpu_deadline = self.next_check = float("inf")

    def __call__(self) -> int:
        now = time.perf_counter()
        if now < self.next_check:
            return 0
        left = self.cpu_deadline - time.thread_time()
        if left <= 0:
            return 1
        self.next_check = now + left
        return 0


@contextmanager
def cpu_time_limit(conn: sqlite3.Connection, ms: float) -> Iterator[None]:
    """Interrupt what ``conn`` runs in this block once this thread has used ``ms`` of CPU
    time ("interrupted", as Datasette's wall-clock ``sqlite_timelimit`` does)."""
    deadline = CpuDeadline()
    deadline.start(ms / 1000)
    # Checked every 1000 SQLite VM instructions (about 0.1 ms); every one for tiny limits.
    conn.set_progress_handler(deadline, 1 if ms <= 20 else 1000)
    try:
        yield
    finally:
        conn.set_progress_handler(None, 1000)
