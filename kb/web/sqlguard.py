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
"""

from __future__ import annotations

import sqlite3
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
