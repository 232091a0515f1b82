"""The Datasette plugin hooks of the rules website.

Registered through the ``datasette`` entry point of the package (``kb = "kb.web"``), so
``datasette kb.sqlite`` with the package installed serves the same pages as ``kb serve``; the
templates (kb/web/templates/) are found by Datasette as the plugin's package data. This module
only wires things together: pages are in kb/web/pages/, routes in kb/web/routes.py.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from datasette import hookimpl

import queries

from ..db import register_functions
from ..labels import authority, language_name
from ..phrasebook import text_language
from . import delivery, routes
from .html import quoted_lang, segments_html
from .site_config import site_metadata
from .urls import (
    ask_url,
    card_search_url,
    compare_url,
    diff_url,
    glossary_url,
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
    {"label": "Timing", "url": timing_url()},
    {"label": "Translations", "url": compare_url()},
    {"label": "Versions", "url": diff_url()},
    {"label": "Tables", "url": "/kb"},
]


@hookimpl
def register_routes(datasette: Datasette) -> list[tuple[str, Any]]:
    static = (rf"^{delivery.STATIC_PREFIX}(?P<path>.*)$", delivery.static_file)
    return [static, *routes.routes()]


@hookimpl
def asgi_wrapper(datasette: Datasette) -> Any:
    """gzip for every page (kb.web.delivery)."""
    return delivery.gzip_wrapper


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    """``kb_match(:q, :mode)`` on every connection: the canned queries and the SQL editor
    search like the CLI."""
    register_functions(conn)


@hookimpl
def canned_queries(datasette: Datasette, database: str) -> dict[str, Any] | None:
    """Every queries/*.sql file is /kb/<name> (title, description, named parameters as form
    fields), so the website asks the same SQL as the CLI."""
    if database != kb_database(datasette).name:
        return None
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
    """``segs|wdiff_html``: a word diff of page data as escaped HTML (kb.web.html);
    ``text|text_lang``: the language a glossary rendering is written in (kb.phrasebook)."""
    env.filters["wdiff_html"] = segments_html
    env.filters["text_lang"] = text_language
    env.filters["quoted_lang"] = lambda text: quoted_lang(text, text_language)
    # Globals too: Datasette's error pages get no extra_template_vars.
    env.globals.update(
        kb_nav=NAV,
        kb_css_url=delivery.static_url("site.css"),
        kb_js_url=delivery.static_url("site.js"),
    )


@hookimpl
def extra_template_vars(datasette: Datasette) -> dict[str, Any]:
    return {
        "kb_site_title": datasette.metadata("title") or "Rules",
        "kb_nav": NAV,
        "kb_css_url": delivery.static_url("site.css"),
        "kb_js_url": delivery.static_url("site.js"),
        "provenance_label": authority,
        "language_name": language_name,
    }
