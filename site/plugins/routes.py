"""Routes of the rules pages. Datasette loads this file itself (site/ is not a package).

The pattern, for every page: one route function here, one template in site/templates/, one
function in kb/pages.py that returns the page's data as a dict. The same URL with ``.json``
after its last path segment answers that dict as JSON (the ``format`` group of each pattern).
Route patterns are tried before Datasette's own, so the prefixes below (/g, /doc, /rule,
/search, /card, /timing, /ask, /compare, /diff) cannot be database names.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from datasette import hookimpl
from datasette.app import Datasette
from datasette.utils.asgi import NotFound, Request, Response

from kb import pages
from kb.web_render import rules_html
from kb.web_views import arg, query, render, wants_json

# Optional ".json" after the last path segment. Ids may contain dots (fow-cr-8.01), so the part
# before it is matched lazily.
JSON = r"(?P<format>\.json)?$"
PART = r"[^/]+?"


async def home(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, pages.home)
    return await render(datasette, request, "kb_home.html", data)


async def game(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, pages.game, arg(request, "game"))
    if data is None:
        raise NotFound(f"No game {arg(request, 'game')!r} in the knowledge base")
    return await render(datasette, request, "kb_game.html", data)


async def document(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, pages.document, arg(request, "document"))
    if data is None:
        raise NotFound(f"No document {arg(request, 'document')!r} in the knowledge base")
    return await render(datasette, request, "kb_document.html", data)


def _section_page(
    conn: sqlite3.Connection, document: str, slug: str, as_json: bool
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The section's data, and (for HTML) its rules rendered, in the SQL thread."""
    data = pages.section(conn, document, slug)
    if data is None or as_json:
        return data, {}
    return data, {"rule_html": rules_html(data["rules"], data["references"], data["cards"])}


async def section(datasette: Datasette, request: Request) -> Response:
    document, slug = arg(request, "document"), arg(request, "slug")
    data, html = await query(datasette, _section_page, document, slug, wants_json(request))
    if data is None:
        raise NotFound(f"No section {slug!r} in document {document!r}")
    return await render(datasette, request, "kb_section.html", data, html=html)


async def rule(datasette: Datasette, request: Request) -> Response:
    """A rule's permalink: redirects to its place on its section page (JSON: the rule)."""
    ref = arg(request, "rule_id")
    data = await query(datasette, pages.rule, ref)
    if data is None:
        raise NotFound(f"No rule with id or number {ref!r}")
    if data["place"] and not wants_json(request):
        return Response.redirect(data["place"])
    return await render(datasette, request, "kb_rule_choices.html", data)


async def search(datasette: Datasette, request: Request) -> Response:
    args = request.args
    try:
        limit = int(args.get("limit") or pages.SEARCH_LIMIT)
    except ValueError:
        limit = pages.SEARCH_LIMIT
    data = await query(
        datasette,
        pages.search,
        args.get("q") or "",
        game=args.get("game") or "",
        lang=args.get("lang") or "",
        limit=limit,
    )
    html = {"rule_html": rules_html(data["hits"])} if not wants_json(request) else {}
    return await render(datasette, request, "kb_search.html", data, html=html)


# EXTENSION POINTS: pages other issues add. Each placeholder answers 404 until its page exists;
# replace it with a route function like the ones above (and add its nav entry in
# template_vars.py).
def placeholder(what: str) -> Callable[[Request], Awaitable[Response]]:
    async def not_yet(request: Request) -> Response:
        raise NotFound(f"{what} are not built yet")

    return not_yet


@hookimpl
def register_routes(datasette: Datasette) -> list[tuple[str, object]]:
    return [
        (r"^/" + JSON, home),
        (rf"^/g/(?P<game>{PART})" + JSON, game),
        (rf"^/doc/(?P<document>{PART})" + JSON, document),
        (rf"^/doc/(?P<document>[^/]+)/(?P<slug>{PART})" + JSON, section),
        (rf"^/rule/(?P<rule_id>{PART})" + JSON, rule),
        (r"^/search" + JSON, search),
        (rf"^/card/(?P<card>{PART})" + JSON, placeholder("Card pages")),
        (rf"^/timing/(?P<game>[^/]+)/(?P<ruleset>{PART})" + JSON, placeholder("Timing pages")),
        (r"^/ask" + JSON, placeholder("Answers to questions (/ask)")),
        (rf"^/compare/(?P<document>{PART})" + JSON, placeholder("Comparison pages")),
        (rf"^/diff/(?P<old>[^/]+)/(?P<new>{PART})" + JSON, placeholder("Version diffs")),
    ]
