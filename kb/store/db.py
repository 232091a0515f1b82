"""Open the knowledge base read-only and run named queries on it.

On the ``kb ask`` path: standard library only (sqlite3), no sqlite-utils, no Datasette.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from queries import load

from .fts import fts_query

DEFAULT_DB = "kb.sqlite"
ENV_DB = "KB_DB"
# The game of the event a judge works at, set once (kb ask's default --game).
ENV_GAME = "KB_GAME"


class KbError(Exception):
    """A problem a user can fix (missing database, unknown id); shown as a one-line error."""


def default_db_path() -> Path:
    """``$KB_DB`` if set, else ``kb.sqlite`` in the current directory."""
    return Path(os.environ.get(ENV_DB) or DEFAULT_DB)


def kb_match(text: str | None, mode: str | None = "") -> str:
    """SQL function ``kb_match(:q, :mode)``: user text to a safe FTS5 expression."""
    expression = fts_query(text or "", operator="OR" if (mode or "").lower() == "any" else "AND")
    # The empty phrase matches nothing: no rows, rather than an FTS syntax error, for empty input.
    return expression or '""'


def register_functions(conn: sqlite3.Connection) -> None:
    conn.create_function("kb_match", 2, kb_match, deterministic=True)
    conn.create_function("kb_match", 1, kb_match, deterministic=True)


class Connection(sqlite3.Connection):
    """A connection that values read once per database can be cached against (a plain
    sqlite3.Connection takes no weak reference)."""


def connect(path: Path | str) -> sqlite3.Connection:
    """Open an existing knowledge base read-only; raise KbError if it is missing or not one."""
    path = Path(path)
    if not path.is_file():
        raise KbError(f"{path}: no knowledge base here (run `kb build` first, or pass --db)")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, factory=Connection)
    conn.row_factory = sqlite3.Row
    register_functions(conn)
    try:
        conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise KbError(f"{path}: not a knowledge base ({exc})") from None
    return conn


def execute(conn: sqlite3.Connection, name: str, /, **params: Any) -> sqlite3.Cursor:
    """Execute ``queries/<name>.sql`` with named parameters; missing ones default to ''.

    Lists and dicts are passed as JSON (the SQL reads them with ``json_each``). ``conn`` and
    ``name`` are positional-only, so a query may have a ``:name`` parameter too."""
    query = load(name)
    values = {
        p: json.dumps(v, ensure_ascii=False) if isinstance(v, list | dict | tuple) else v
        for p in query.params
        for v in [params.get(p, "")]
    }
    return conn.execute(query.sql, values)


def run(conn: sqlite3.Connection, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """The rows of ``queries/<name>.sql`` as dicts (the one row helper of the library)."""
    cursor = execute(conn, name, **params)
    columns = [d[0] for d in cursor.description or ()]
    return [dict(zip(columns, row, strict=True)) for row in cursor]


def first(conn: sqlite3.Connection, name: str, /, **params: Any) -> dict[str, Any] | None:
    """The first row of ``queries/<name>.sql``, or None."""
    rows = run(conn, name, **params)
    return rows[0] if rows else None


def stored_json(conn: sqlite3.Connection, key: str) -> Any | None:
    """A value ``kb build`` precomputed into ``meta`` as JSON, or None for a database built
    without it."""
    try:
        row = first(conn, "meta_value", key=key)
    except sqlite3.OperationalError:
        return None
    return json.loads(row["value"]) if row is not None else None


def column(conn: sqlite3.Connection, name: str, /, **params: Any) -> list[Any]:
    """The first column of ``queries/<name>.sql``'s rows."""
    return [row[0] for row in execute(conn, name, **params)]
