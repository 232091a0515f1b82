"""The Datasette plugin hooks of the rules website.

Registered through the ``datasette`` entry point of the package (``kb = "kb.web"``), so
``datasette kb.sqlite`` with the package installed serves the same pages as ``kb serve``; the
templates (kb/web/templates/) are found by Datasette as the plugin's package data. This module
only wires things together: pages are in kb/web/pages/, routes in kb/web/routes.py.
"""

from __future__ import annotations

import sqlite3
from functools import cache
from typing import TYPE_CHECKING, Any

from datasette import hookimpl

import queries

from ..lexicon.phrasebook import text_language
from ..limits import limits
from ..lookups.labels import authority, language_name
from ..store.db import register_functions
from . import delivery, health, offload, routes
from .asgi import Guard, public_wrapper
from .database import pin_version
from .html import quoted_lang, segments_html
from .site_config import site_metadata
from .sqlguard import guard
from .templates import patch_environment
from .urls import (
    ask_url,
    card_search_url,
    compare_url,
    diff_url,
    glossary_url,
    penalty_url,
    search_url,
    timing_url,
)
from .views import kb_database

if TYPE_CHECKING:  # datasette.app imports the plugins: importing it here would be circular
    from datasette.app import Datasette
    from jinja2 import Environment

# The site's navigation, in order.
NAV: list[dict[str, str]] = [
    {"label": "Home", "url": "/"},
    {"label": "Search", "url": search_url()},
    {"label": "Ask", "url": ask_url()},
    {"label": "Cards", "url": card_search_url()},
    {"label": "Glossary", "url": glossary_url()},
    {"label": "Penalties", "url": penalty_url()},
    {"label": "Timing", "url": timing_url()},
    {"label": "Translations", "url": compare_url()},
    {"label": "Versions", "url": diff_url()},
    {"label": "Tables", "url": "/kb"},
]


@hookimpl
def register_routes(datasette: Datasette) -> list[tuple[str, Any]]:
    static = (rf"^{delivery.STATIC_PREFIX}(?P<path>.*)$", delivery.static_file)
    return [static, (health.PATH, health.health), *routes.routes()]


@hookimpl
def asgi_wrapper(datasette: Datasette) -> Any:
    """The refusals, caps, 400-instead-of-500 and security headers of kb.web.asgi, around
    gzip for every page (kb.web.delivery), around one database version per request
    (kb.web.database). One hook: a module's second function of the same name would replace
    the first."""

    def guard() -> Guard:
        return Guard.from_limits(limits(), public=getattr(datasette, "_kb_public", False))

    return lambda app: public_wrapper(delivery.gzip_wrapper(pin_version(app, datasette)), guard)


@hookimpl
def startup(datasette: Datasette) -> None:
    """``kb serve`` starts the ask/search workers with the server, not with the first
    question (the health check stays red until they answer)."""
    if getattr(datasette, "_kb_start_workers", False):
        offload.start_workers(datasette)


@hookimpl
def prepare_connection(conn: sqlite3.Connection, database: str) -> None:
    """``kb_match(:q, :mode)`` on every connection: the canned queries and the SQL editor
    search like the CLI. The limits and authorizer of kb.web.sqlguard on every connection
    but Datasette's own in-memory ones (``_internal``, which it writes, and the ``_memory``
    connection of /-/versions, which creates tables to test FTS): no visitor's SQL reaches
    them, as ``kb serve`` publishes no in-memory database."""
    register_functions(conn)
    if database not in ("_internal", "_memory"):
        guard(conn)


@hookimpl
def canned_queries(datasette: Datasette, database: str) -> dict[str, Any] | None:
    """Every queries/*.sql file is /kb/<name> (title, description, named parameters as form
    fields), so the website asks the same SQL as the CLI."""
    if database != kb_database(datasette).name:
        return None
    return _canned_queries()


@cache
def _canned_queries() -> dict[str, Any]:
    """Read once: Datasette asks for the canned queries about a hundred times a page (once per
    permission check), and reading the folder each time was a third of /kb's CPU time."""
    out = {}
    for name in queries.published():
        q = queries.load(name)
        out[name] = {
            "sql": q.sql,
            "title": q.title,
            "description": q.description,
            "params": q.params,
        }
    return out


@hookimpl
def get_metadata(datasette: Datasette, key: str, database: str, table: str) -> dict[str, Any]:
    """site/metadata.yaml: titles and descriptions of the site, the database and its tables."""
    return site_metadata()


@hookimpl
def prepare_jinja2_environment(env: Environment) -> None:
    """Datasette's templates patched as they load (kb/web/templates.py); ``segs|wdiff_html``:
    a word diff of page data as escaped HTML (kb.web.html); ``text|text_lang``: the language a
    glossary rendering is written in (kb.lexicon.phrasebook)."""
    patch_environment(env)
    env.filters["wdiff_html"] = segments_html
    env.filters["text_lang"] = text_language
    env.filters["quoted_lang"] = lambda text: quoted_lang(text, text_language)
    # Globals too: Datasette's error pages get no extra_template_vars.
    env.globals.update(
        kb_nav=NAV,
        kb_css_url=delivery.static_url("site.css"),
        kb_js_url=delivery.static_url("site.js"),
        kb_datasette_js_url=delivery.static_url("datasette.js"),
    )


@hookimpl
def extra_template_vars(datasette: Datasette) -> dict[str, Any]:
    return {
        "kb_site_title": datasette.metadata("title") or "Rules",
        "kb_nav": NAV,
        "kb_css_url": delivery.static_url("site.css"),
        "kb_js_url": delivery.static_url("site.js"),
        "kb_datasette_js_url": delivery.static_url("datasette.js"),
        "provenance_label": authority,
        "language_name": language_name,
    }
