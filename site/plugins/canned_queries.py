"""Canned queries made from queries/*.sql, so the website asks the same SQL as the CLI.

Each file becomes /kb/<name> (title and description from its header comments, its named
parameters as form fields), and /kb/<name>.json. Datasette loads this file itself (site/ is
not a package).
"""

from __future__ import annotations

from typing import Any

from datasette import hookimpl
from datasette.app import Datasette

import queries
from kb.web_views import kb_database


@hookimpl
def canned_queries(datasette: Datasette, database: str) -> dict[str, Any] | None:
    if database != kb_database(datasette).name:
        return None
    out = {}
    for name in queries.names():
        q = queries.load(name)
        out[name] = {
            "sql": q.sql,
            "title": q.title,
            "description": q.description,
            "params": q.params,
        }
    return out
