"""Glue between Datasette and the page functions of ``kb.pages``, for site/plugins/routes.py.

A route asks for one page: the page function runs on Datasette's read-only connection, in
Datasette's SQL thread and under its SQL time limit, and the result is answered as JSON (the
dict as it is) or as HTML (a template of site/templates/). Keeping this here leaves each route a
few lines long, and the same for every page.

Errors go through Datasette's own handler: raising ``NotFound`` answers 404, as JSON when the
path ends in ``.json`` and with site/templates/error.html otherwise.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import unquote

from datasette.utils import tilde_decode
from datasette.utils.asgi import Request, Response
from datasette.views.base import DatasetteError

from .delivery import cached_response
from .sqlguard import cpu_time_limit
from .urls import json_url

if TYPE_CHECKING:  # datasette.app imports the plugins: importing it here would be circular
    from datasette.app import Datasette
    from datasette.database import Database

# The name the knowledge base is published under (/kb, /kb/rules), whatever its file is called.
DB_NAME = "kb"

T = TypeVar("T")


def kb_database(datasette: Datasette) -> Database:
    """The knowledge base: the database named ``kb`` (as ``kb serve`` names it), else the first
    one attached, so ``datasette site/ -i other.sqlite`` works too."""
    return datasette.databases.get(DB_NAME) or datasette.get_database()


def arg(request: Request, name: str) -> str:
    """A part of the path, percent-decoded (Datasette routes on the raw path).

    Datasette redirects a path with percent escapes to its tilde-encoded form (``%3C`` ->
    ``~3C``), so tilde escapes are decoded too; a ``~`` that starts no escape is a ``~`` of
    the id itself (``fow-cr-7.0:1416.1~2``), kept as it is. The site writes a ``~`` of an id
    as ``~7E`` (kb.web.urls), which decodes back to it.
    """
    value = unquote(request.url_vars.get(name) or "")
    return _TILDE_ESCAPE.sub(lambda m: tilde_decode(m.group()), value) if "~" in value else value


# A tilde escape of Datasette's: ~ and two upper-case hex digits.
_TILDE_ESCAPE = re.compile(r"(?:~[0-9A-F]{2})+")


def int_arg(request: Request, name: str, default: int) -> int:
    """A whole number from the query string; the default when missing or not a number."""
    try:
        return int(request.args.get(name) or default)
    except ValueError:
        return default


def wants_json(request: Request) -> bool:
    """True when the page was asked for with ``.json`` after its last path segment."""
    return request.url_vars.get("format") == ".json"


async def query(datasette: Datasette, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(kb, *args, **kwargs)`` on the knowledge base (a ``KnowledgeBase`` over the
    served connection) under the SQL time limit (CPU time: kb.web.sqlguard)."""
    from ..api import KnowledgeBase

    limit_ms = datasette.setting("sql_time_limit_ms")

    def work(conn: sqlite3.Connection) -> T:
        with cpu_time_limit(conn, limit_ms):
            return fn(KnowledgeBase.over(conn), *args, **kwargs)

    try:
        return await kb_database(datasette).execute_fn(work)
    except sqlite3.OperationalError as exc:
        if exc.args == ("interrupted",):
            # 504, not 503: the page was tried and used its budget; a 503 says nothing was
            # started, which a load balancer may retry elsewhere (docs/deploy.md).
            raise DatasetteError(
                f"This page took longer than the {limit_ms} ms time limit.",
                title="Too slow",
                status=504,
            ) from None
        raise


def _json(data: Any, status: int = 200) -> Response:
    body = json.dumps(data, ensure_ascii=False, indent=2)
    return Response(body, status=status, content_type="application/json; charset=utf-8")


def render_json(request: Request, data: Any, status: int = 200) -> Response:
    """``data`` as JSON, whatever the URL asks for (data-only endpoints)."""
    return cached_response(request, _json(data, status))


async def render(
    datasette: Datasette,
    request: Request,
    template: str,
    data: dict[str, Any],
    *,
    html: dict[str, Any] | None = None,
    status: int = 200,
) -> Response:
    """Answer a page: ``data`` as JSON, or ``template`` rendered with ``page=data``.

    ``html`` holds what only the HTML needs (rendered rule text); it never reaches the JSON.
    """
    if wants_json(request):
        return cached_response(request, _json(data, status))
    context = {
        "page": data,
        "json_url": json_url(request.path, request.query_string),
        **(html or {}),
    }
    body = await datasette.render_template(template, context, request=request)
    return cached_response(request, Response.html(body, status=status))
