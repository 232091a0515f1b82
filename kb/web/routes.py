"""Routes of the rules pages (registered by the plugin, kb.web.hooks).

The pattern, for every page: one route function here, one template in kb/web/templates/, one
function in a kb/web/pages/ module that returns the page's data as a dict. The same
URL with ``.json`` after its last path segment answers that dict as JSON (the ``format`` group
of each pattern).
Route patterns are tried before Datasette's own, so the prefixes below (/g, /doc, /rule,
/search, /suggest, /card, /timing, /ask, /compare, /diff, /history, /glossary, /read,
/penalty) cannot
be database names.

A page whose data needs its rule texts rendered (with links to the rules and cards they cite)
renders them in the SQL thread, in a ``_<page>_page`` helper next to its route; the rendered
HTML reaches the template only, never the JSON. Pages reached by a name rather than an id
(``/card?q=``, ``/diff/7.0/8.01``, ``/timing/ygo``) redirect to their canonical URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from datasette.utils.asgi import BadRequest, NotFound, Request, Response

from ..lexicon.phrasebook import database_file
from ..store.db import KbError
from .html import article_openings, card_names, rules_html
from .offload import offload, text_arg
from .pages import ask as ask_pages
from .pages import cards as card_pages
from .pages import compare as compare_pages
from .pages import glossary as glossary_pages
from .pages import history as history_pages
from .pages import penalties as penalty_pages
from .pages import rules as rule_pages
from .pages import suggest as suggest_pages
from .pages import timing as timing_pages
from .pages import whole as whole_pages
from .pages.glossary import term_links
from .urls import diff_url, history_url, json_url
from .views import arg, int_arg, query, render, render_json, wants_json

if TYPE_CHECKING:  # datasette.app imports the plugins: importing it here would be circular
    from datasette.app import Datasette

    from ..api import KnowledgeBase

# Optional ".json" after the last path segment. Ids may contain dots (fow-cr-8.01), so the part
# before it is matched lazily.
JSON = r"(?P<format>\.json)?$"
PART = r"[^/]+?"

# A page's data (None: not found) and what only its HTML needs (rendered rule texts).
Rendered = tuple[dict[str, Any] | None, dict[str, Any]]


async def home(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, rule_pages.home)
    return await render(datasette, request, "kb_home.html", data)


async def game(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, rule_pages.game, arg(request, "game"))
    if data is None:
        raise NotFound(f"No game {arg(request, 'game')!r} in the knowledge base")
    return await render(datasette, request, "kb_game.html", data)


async def document(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, rule_pages.document, arg(request, "document"))
    if data is None:
        raise NotFound(f"No document {arg(request, 'document')!r} in the knowledge base")
    return await render(datasette, request, "kb_document.html", data)


def _section_page(kb: KnowledgeBase, document: str, slug: str, as_json: bool) -> Rendered:
    """The section's data, and (for HTML) its rules rendered, in the SQL thread."""
    data = rule_pages.section(kb, document, slug)
    if data is None or as_json:
        return data, {}
    cards = card_names(data["cards"])
    terms = term_links(kb, [data["game"]["id"]])
    return data, {"rule_html": rules_html(data["rules"], data["references"], cards, terms)}


async def section(datasette: Datasette, request: Request) -> Response:
    document, slug = arg(request, "document"), arg(request, "slug")
    data, html = await query(datasette, _section_page, document, slug, wants_json(request))
    if data is None:
        raise NotFound(f"No section {slug!r} in document {document!r}")
    return await render(datasette, request, "kb_section.html", data, html=html)


async def rule(datasette: Datasette, request: Request) -> Response:
    """A rule's permalink: redirects to its place on its section page (JSON: the rule)."""
    ref = arg(request, "rule_id")
    data = await query(datasette, rule_pages.rule, ref)
    if data is None:
        raise NotFound(f"No rule with id or number {ref!r}")
    if data["place"] and not wants_json(request):
        return Response.redirect(data["place"])
    return await render(datasette, request, "kb_rule_choices.html", data)


def _search_page(kb: KnowledgeBase, as_json: bool, **kwargs: Any) -> Rendered:
    data = rule_pages.search(kb, **kwargs)
    if as_json:
        return data, {}
    shown = data["hits"]
    cards = card_names(card_pages.card_links(kb, [h["id"] for h in shown]))
    terms = term_links(kb, [h["game"] for h in shown])
    return data, {"rule_html": rules_html(shown, cards=cards, terms=terms)}


async def _offload_checked(datasette: Datasette, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``offload`` for a page whose arguments name a game or a language: an unknown one is a
    400 saying so, as the CLI says it (not a 500)."""
    try:
        return await offload(datasette, fn, *args, **kwargs)
    except KbError as exc:
        raise BadRequest(str(exc)) from None


async def search(datasette: Datasette, request: Request) -> Response:
    """Full-text search; a text that names one thing exactly (a rule id or number, a card, a
    moment) opens its page instead, unless ``all=1`` asks for the list. A glossary term is the
    exception: its rules are listed, its card beside them."""
    args = request.args
    data, html = await _offload_checked(
        datasette,
        _search_page,
        wants_json(request),
        q=text_arg(request, "q", "search"),
        game=args.get("game") or "",
        lang=args.get("lang") or "",
        limit=int_arg(request, "limit", rule_pages.SEARCH_LIMIT),
        versions=args.get("versions") or "current",
    )
    target = data["target"]
    if target and target["kind"] != "term" and not args.get("all") and not wants_json(request):
        return Response.redirect(target["url"])
    return await render(datasette, request, "kb_search.html", data, html=html)


async def suggest(datasette: Datasette, request: Request) -> Response:
    """Suggestions while typing (JSON only, for kb/web/static/site.js)."""
    data = await query(datasette, suggest_pages.suggest, request.args.get("q") or "")
    return render_json(request, data)


# ---------------------------------------------------------------------------------------------
# Glossary and whole documents


async def glossary_index(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, glossary_pages.glossary_index)
    return await render(datasette, request, "kb_glossary_index.html", data)


async def glossary_game(datasette: Datasette, request: Request) -> Response:
    game = arg(request, "game")
    data = await query(datasette, glossary_pages.glossary_game, game)
    if data is None:
        raise NotFound(f"No game {game!r} in the knowledge base (/glossary lists them)")
    return await render(datasette, request, "kb_glossary_game.html", data)


def _term_page(kb: KnowledgeBase, game: str, term: str, as_json: bool) -> Rendered:
    data = glossary_pages.glossary_term(kb, game, term)
    if data is None or as_json:
        return data, {}
    cards = card_names(card_pages.card_links(kb, [r["id"] for r in data["rules"]]))
    terms = term_links(kb, [r["game"] for r in data["rules"]])
    return data, {"rule_html": rules_html(data["rules"], cards=cards, terms=terms)}


async def glossary_term(datasette: Datasette, request: Request) -> Response:
    game, term = arg(request, "game"), arg(request, "term")
    data, html = await query(datasette, _term_page, game, term, wants_json(request))
    if data is None:
        raise NotFound(f"No glossary term {term!r} for game {game!r} (/glossary lists them)")
    return await render(datasette, request, "kb_glossary_term.html", data, html=html)


# Penalties


async def penalty_index(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, penalty_pages.penalty_index, request.args.get("lang") or "")
    return await render(datasette, request, "kb_penalty_index.html", data)


async def penalty(datasette: Datasette, request: Request) -> Response:
    rule_id = arg(request, "rule_id")
    data = await query(datasette, penalty_pages.penalty, rule_id)
    if data is None:
        raise NotFound(f"No infraction {rule_id!r} (/penalty lists them)")
    return await render(datasette, request, "kb_penalty.html", data)


# Whole documents already rendered, by database file and document: the biggest pages of the
# site, and the database cannot change under a running server (it is opened immutable; a
# rebuilt file has another modification time, so another key).
_WHOLE: dict[tuple[str, float, str], Rendered] = {}
WHOLE_CACHED = 4


def _whole_page(kb: KnowledgeBase, document: str, as_json: bool) -> Rendered:
    key = (*database_file(kb.conn), document)
    if not as_json and key in _WHOLE:
        return _WHOLE[key]
    data = whole_pages.whole_document(kb, document)
    if data is None or as_json:
        return data, {}
    rules = [r for s in data["sections"] for r in s["rules"]]
    numbers = {r["number"]: "#" + r["anchor"] for r in rules if r["number"]}
    cards = card_names(card_pages.card_links(kb, [r["id"] for r in rules]))
    terms = term_links(kb, [data["game"]["id"]])
    html = {"articles": article_openings(rules, rules_html(rules, numbers, cards, terms))}
    if key[0]:
        if len(_WHOLE) >= WHOLE_CACHED:
            _WHOLE.pop(next(iter(_WHOLE)))
        _WHOLE[key] = (data, html)
    return data, html


async def whole_document(datasette: Datasette, request: Request) -> Response:
    document = arg(request, "document")
    data, html = await query(datasette, _whole_page, document, wants_json(request))
    if data is None:
        raise NotFound(f"No document {document!r} in the knowledge base")
    return await render(datasette, request, "kb_whole.html", data, html=html)


def redirect(request: Request, url: str) -> Response:
    """To a page's canonical URL, keeping to JSON when JSON was asked for."""
    if wants_json(request):
        path, _, query_string = url.partition("?")
        url = json_url(path, query_string)
    return Response.redirect(url)


# ---------------------------------------------------------------------------------------------
# Cards


def _card_page(kb: KnowledgeBase, card_id: str, as_json: bool) -> Rendered:
    data = card_pages.card(kb, card_id)
    if data is None or as_json:
        return data, {}
    rulings = [r for g in data["rulings_by_timing"] for r in g["rulings"]]
    return data, {"rule_html": rules_html(rulings, cards=card_names(data["cards"]))}


async def card(datasette: Datasette, request: Request) -> Response:
    card_id = arg(request, "card")
    data, html = await query(datasette, _card_page, card_id, wants_json(request))
    if data is None:
        raise NotFound(f"No card with id {card_id!r} (look it up by name: /card?q=)")
    html["looked_up"] = request.args.get("q") or ""
    return await render(datasette, request, "kb_card.html", data, html=html)


async def card_search(datasette: Datasette, request: Request) -> Response:
    """The card lookup: one card meant -> its page; several close -> the choices; none -> 404."""
    q, game = request.args.get("q") or "", request.args.get("game") or ""
    data = await query(datasette, card_pages.card_search, q, game)
    match = data["card"]
    if match and not wants_json(request):
        return redirect(
            request, match["url"] + ("" if data["exact"] else f"?{urlencode({'q': q})}")
        )
    status = 404 if data["q"] and not data["found"] else 200
    return await render(datasette, request, "kb_card_search.html", data, status=status)


# ---------------------------------------------------------------------------------------------
# Timing charts


def _timing_page(kb: KnowledgeBase, game: str, ruleset: str, as_json: bool) -> Rendered:
    data = timing_pages.timing(kb, game, ruleset)
    if data is None or as_json:
        return data, {}
    rules = [r for m in data["moments"] for r in m["rules"]]
    cards = card_names(card_pages.card_links(kb, [r["id"] for r in rules]))
    return data, {"rule_html": rules_html(rules, cards=cards)}


async def _chart(datasette: Datasette, request: Request, game: str, ruleset: str) -> Response:
    data, html = await query(datasette, _timing_page, game, ruleset, wants_json(request))
    if data is None:
        raise NotFound(f"No timing chart {ruleset!r} for game {game!r}")
    canonical = data["tree"]["url"]
    if canonical != request.path.removesuffix(".json"):  # "ygo" -> "yugioh", "*" -> the game
        return redirect(request, canonical)
    return await render(datasette, request, "kb_timing.html", data, html=html)


async def timing_index(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, timing_pages.timing_index)
    return await render(datasette, request, "kb_timing_index.html", data)


async def timing_game(datasette: Datasette, request: Request) -> Response:
    """A game's charts: its only chart when it has one for every format (Force of Will), else
    the list of its rulesets, or a page saying the corpus describes no timing (Vanguard)."""
    game = arg(request, "game")
    data = await query(datasette, timing_pages.timing_game, game)
    if data is None:
        raise NotFound(f"No game {game!r} in the knowledge base")
    only = data["trees"][0] if len(data["trees"]) == 1 else None
    if only and only["ruleset"] == "*":
        return await _chart(datasette, request, data["game"]["id"], "*")
    if data["game"]["timing_url"] != request.path.removesuffix(".json"):
        return redirect(request, data["game"]["timing_url"])
    return await render(datasette, request, "kb_timing_game.html", data)


async def timing(datasette: Datasette, request: Request) -> Response:
    return await _chart(datasette, request, arg(request, "game"), arg(request, "ruleset"))


# ---------------------------------------------------------------------------------------------
# Ask


def _ask_page(
    kb: KnowledgeBase, q: str, game: str, lang: str, limit: int, as_json: bool
) -> Rendered:
    data = ask_pages.ask(kb, q, game=game, lang=lang, limit=limit)
    if as_json:
        return data, {}
    shown = data["hits"] + [h["shown_translation"] for h in data["hits"] if h["shown_translation"]]
    cards = card_names(card_pages.card_links(kb, [r["id"] for r in shown]))
    return data, {"rule_html": rules_html(shown, cards=cards)}


async def ask(datasette: Datasette, request: Request) -> Response:
    args = request.args
    data, html = await _offload_checked(
        datasette,
        _ask_page,
        text_arg(request, "q", "question"),
        args.get("game") or "",
        args.get("lang") or "",
        int_arg(request, "limit", ask_pages.ASK_LIMIT),
        wants_json(request),
    )
    return await render(datasette, request, "kb_ask.html", data, html=html)


# ---------------------------------------------------------------------------------------------
# Translations side by side


async def compare_index(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, compare_pages.compare_index)
    return await render(datasette, request, "kb_compare_index.html", data)


def _compare_page(
    kb: KnowledgeBase,
    ref: str,
    variants: list[str],
    section: str,
    checks: bool,
    as_json: bool,
    jump: str = "",
) -> Rendered:
    data = compare_pages.compare(kb, ref, variants, section, checks)
    if data is None or as_json:
        return data, {}
    if jump:  # among every row, whatever the filters show
        full = compare_pages.compare(kb, ref, variants) if section or checks else data
        target = compare_pages.jump_target(full or data, jump)
        if target:
            return data, {"jump_to": target}
    shown = [r for row in data["rows"] for r in (row["source"] or [])]
    shown += [r for row in data["rows"] for cell in row["cells"] for r in cell["rules"]]
    terms = term_links(kb, [r["game"] for r in shown])
    return data, {"rule_html": rules_html(shown, terms=terms)}


async def compare(datasette: Datasette, request: Request) -> Response:
    """The comparison table; ``section=`` and ``checks=1`` filter its rows, ``jump=`` opens the
    row (or section) it names."""
    ref = arg(request, "document")
    args = request.args
    variants = [v.strip() for v in (args.get("variants") or "").split(",") if v.strip()]
    section, checks = args.get("section") or "", bool(args.get("checks"))
    jump = (args.get("jump") or "").strip()
    data, html = await query(
        datasette, _compare_page, ref, variants, section, checks, wants_json(request), jump
    )
    if data is None:
        asked = f" with the translation variants {', '.join(variants)}" if variants else ""
        raise NotFound(f"No source document {ref!r}{asked} (/compare lists them)")
    if data["document"]["document"] != ref:  # a file name, or one translation's id
        return redirect(request, data["url"])
    if html.get("jump_to"):
        return Response.redirect(html["jump_to"])
    if jump and not wants_json(request):
        html["jump_missed"] = jump
    return await render(datasette, request, "kb_compare.html", data, html=html)


async def variant_diff(datasette: Datasette, request: Request) -> Response:
    document, rule_id = arg(request, "document"), arg(request, "rule_id")
    left, right = request.args.get("left") or "", request.args.get("right") or ""
    try:
        data = await query(datasette, compare_pages.variant_diff, document, rule_id, left, right)
    except KbError as exc:
        raise NotFound(str(exc)) from None
    return await render(datasette, request, "kb_variant_diff.html", data)


# ---------------------------------------------------------------------------------------------
# Versions


async def diff_index(datasette: Datasette, request: Request) -> Response:
    data = await query(datasette, history_pages.diff_index)
    return await render(datasette, request, "kb_diff_index.html", data)


async def diff(datasette: Datasette, request: Request) -> Response:
    old, new = arg(request, "old"), arg(request, "new")
    kinds = [k for k in request.args.getlist("kind") if k]
    chapter = request.args.get("chapter") or ""
    try:
        data = await query(datasette, history_pages.diff, old, new, kinds, chapter)
    except KbError as exc:
        raise NotFound(str(exc)) from None
    if (data["old"]["id"], data["new"]["id"]) != (old, new):  # versions given: ids instead
        return redirect(request, data["url"])
    if chapter and not any(c["slug"] == chapter for c in data["chapters"]):
        raise NotFound(f"No change in a chapter {chapter!r} of {old} -> {new}")
    return await render(datasette, request, "kb_diff.html", data)


async def history(datasette: Datasette, request: Request) -> Response:
    ref = arg(request, "ref")
    if not ref:  # the form on /diff, or no rule at all: back to the form
        q = (request.args.get("q") or "").strip()
        return redirect(request, history_url(q) if q else diff_url())
    data = await query(datasette, history_pages.history, ref)
    if data is None:
        raise NotFound(f"No rule {ref!r} in a document with several versions")
    return await render(datasette, request, "kb_history.html", data)


def routes() -> list[tuple[str, Any]]:
    """(path pattern, view) of every rules page, for Datasette's register_routes hook."""
    return [
        (r"^/" + JSON, home),
        (rf"^/g/(?P<game>{PART})" + JSON, game),
        (rf"^/doc/(?P<document>{PART})" + JSON, document),
        (rf"^/doc/(?P<document>[^/]+)/(?P<slug>{PART})" + JSON, section),
        (rf"^/rule/(?P<rule_id>{PART})" + JSON, rule),
        (r"^/search" + JSON, search),
        (r"^/card" + JSON, card_search),
        (rf"^/card/(?P<card>{PART})" + JSON, card),
        (r"^/timing" + JSON, timing_index),
        (rf"^/timing/(?P<game>{PART})" + JSON, timing_game),
        (rf"^/timing/(?P<game>[^/]+)/(?P<ruleset>{PART})" + JSON, timing),
        (r"^/ask" + JSON, ask),
        (r"^/compare" + JSON, compare_index),
        (rf"^/compare/(?P<document>{PART})" + JSON, compare),
        (rf"^/compare/(?P<document>[^/]+)/diff/(?P<rule_id>{PART})" + JSON, variant_diff),
        (r"^/diff" + JSON, diff_index),
        (rf"^/diff/(?P<old>[^/]+)/(?P<new>{PART})" + JSON, diff),
        (r"^/history" + JSON, history),
        (rf"^/history/(?P<ref>{PART})" + JSON, history),
        (r"^/suggest" + JSON, suggest),
        (r"^/glossary" + JSON, glossary_index),
        (rf"^/glossary/(?P<game>{PART})" + JSON, glossary_game),
        (rf"^/glossary/(?P<game>[^/]+)/(?P<term>{PART})" + JSON, glossary_term),
        (rf"^/read/(?P<document>{PART})" + JSON, whole_document),
        (r"^/penalty" + JSON, penalty_index),
        (rf"^/penalty/(?P<rule_id>{PART})" + JSON, penalty),
    ]
