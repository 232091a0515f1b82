"""SQL functions on every connection Datasette opens: ``kb_match(:q, :mode)`` turns user text
into a safe FTS5 expression, so the canned queries and the SQL editor search like the CLI.

Datasette loads this file itself (site/ is not a package).
"""

from __future__ import annotations

import sqlite3

from datasette import hookimpl

from kb.db import register_functions


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    register_functions(conn)
