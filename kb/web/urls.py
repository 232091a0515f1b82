"""What every page of the website shares: its URLs, and where a rule it shows comes from.

URLs are stable identifiers (a rule's permalink is ``/rule/<rule id>`` for as long as its id
lives), so they are built in one place and every page dict carries them as data. Ids are quoted
except ':' (rule ids are ``<document>:<number or slug>``), so a URL is readable and a browser
sends it back unchanged.

``rule_sources`` answers, for a page that shows rules found by another library function (card
rulings, timing rules, answers, translations, versions), what the website promises for every
rule it shows: provenance, era and file:line. Plain data, no HTML: the templates and
``kb.web_render`` produce it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from ..lookups.labels import authority, language_name, lines_label, rule_label

if TYPE_CHECKING:
    from ..api import KnowledgeBase


def _q(part: str) -> str:
    # "~" as Datasette's tilde escape: a bare "~" would be read as the start of one.
    return quote(part, safe=":").replace("~", "~7E")


def _with_query(path: str, params: Iterable[tuple[str, str]]) -> str:
    kept = [(k, v) for k, v in params if v]
    return path + (f"?{urlencode(kept)}" if kept else "")


def _with_anchor(url: str, anchor: str) -> str:
    return f"{url}#{quote(anchor, safe=':')}" if anchor else url


def game_url(game: str) -> str:
    return f"/g/{_q(game)}"


def document_url(document: str) -> str:
    return f"/doc/{_q(document)}"


def section_url(document: str, slug: str, anchor: str = "") -> str:
    return _with_anchor(f"/doc/{_q(document)}/{_q(slug)}", anchor)


def rule_url(rule_id: str) -> str:
    """The permalink of a rule; it redirects to the rule's place on its section page."""
    return f"/rule/{_q(rule_id)}"


def search_url(q: str = "", game: str = "", lang: str = "") -> str:
    return _with_query("/search", (("q", q), ("game", game), ("lang", lang)))


def json_url(path: str, query_string: str = "") -> str:
    """A page's JSON twin: ``.json`` appended to the last path segment (``/`` -> ``/.json``)."""
    return path + ".json" + (f"?{query_string}" if query_string else "")


def anchor(rule_id: str, document: str) -> str:
    """The HTML id of a rule on its section page: the id without the document prefix."""
    prefix = document + ":"
    return rule_id[len(prefix) :] if rule_id.startswith(prefix) else rule_id


def card_url(card_id: str) -> str:
    return f"/card/{_q(card_id)}"


def card_search_url(q: str = "", game: str = "") -> str:
    """The fuzzy card lookup: an exact name leads to its card, close names are offered."""
    return _with_query("/card", (("q", q), ("game", game)))


def timing_url(game: str = "", ruleset: str = "", node: str = "") -> str:
    """A timing chart: ``/timing/<game>/<ruleset>``; a game's only chart (ruleset ``*``, as
    Force of Will's) is ``/timing/<game>``. ``node`` is the anchor of a box on the chart.
    Without a game: the list of every chart."""
    if not game:
        return "/timing"
    path = f"/timing/{_q(game)}"
    if ruleset and ruleset != "*":
        path += f"/{_q(ruleset)}"
    return _with_anchor(path, node)


def tree_url(tree: str, node: str = "") -> str:
    """The chart of a timing tree id (``yugioh/tcg``, ``fow/*``)."""
    game, _, ruleset = tree.partition("/")
    return timing_url(game, ruleset, node)


def ask_url(q: str = "", game: str = "", lang: str = "") -> str:
    return _with_query("/ask", (("q", q), ("game", game), ("lang", lang)))


def compare_url(document: str = "", variants: Iterable[str] = ()) -> str:
    if not document:
        return "/compare"
    return _with_query(f"/compare/{_q(document)}", (("variants", ",".join(variants)),))


def variant_diff_url(document: str, rule_id: str, left: str = "", right: str = "") -> str:
    """The word diff of two translations of one source rule (kb.lookups.variantdiff)."""
    return _with_query(
        f"/compare/{_q(document)}/diff/{_q(rule_id)}", (("left", left), ("right", right))
    )


def diff_url(old: str = "", new: str = "", kinds: Iterable[str] = ()) -> str:
    if not (old and new):
        return "/diff"
    return _with_query(f"/diff/{_q(old)}/{_q(new)}", [("kind", k) for k in kinds])


def history_url(ref: str) -> str:
    """What each version of a rulebook says about a rule (id or bare number)."""
    return f"/history/{_q(ref)}"


def lines(start: int | None, end: int | None = None) -> str:
    if start is None:
        return "?"
    return f"{start}-{end}" if end and end != start else f"{start}"


# ---------------------------------------------------------------------------------------------
# Where rules come from


def rule_sources(kb: KnowledgeBase, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Rule id -> where it comes from (``cite`` below), for rules another library found."""
    wanted = list(dict.fromkeys(i for i in ids if i))
    if not wanted:
        return {}
    return {row["id"]: cite(row) for row in kb.rows("rule_sources", ids=wanted)}


def cite(row: dict[str, Any]) -> dict[str, Any]:
    """A rule's citation: permalink, document, language, provenance, era and file:line
    (``source``, for the JSON); ``label`` and ``lines`` are what a page shows of them (the rule's
    number or its place in its section; "line 26"), never an internal id or file name."""
    return {
        "id": row["id"],
        "url": rule_url(row["id"]),
        "label": rule_label(row["id"], row.get("number"), row.get("section_title")),
        # A number reads the same in every language; a section's title is in its own.
        "label_lang": "en" if row.get("number") else (row.get("section_lang") or row["lang"]),
        "lines": lines_label(row["line_start"], row.get("line_end")),
        "document": row["document"],
        "document_title": row.get("document_title") or row["document"],
        "document_url": document_url(row["document"]),
        "lang": row["lang"],
        "era": row["era"] or "",
        "provenance": row["provenance"],
        "provenance_label": authority(row["provenance"]),
        "version": row.get("version") or "",
        "section_lang": row.get("section_lang") or row["lang"],
        "document_lang": row.get("document_lang") or row["lang"],
        "source": f"{row['file']}:{lines(row['line_start'], row.get('line_end'))}",
    }


def search_form(kb: KnowledgeBase) -> dict[str, Any]:
    """The choices of the search and ask forms: games and languages."""
    return {
        "games": kb.rows("form_games"),
        "languages": [
            {"lang": lang, "name": language_name(lang)} for lang in kb.values("form_languages")
        ],
    }


def unknown_rule(rule_id: str) -> dict[str, Any]:
    """The citation of a rule id the database does not have (never expected; shown plainly)."""
    return {
        "id": rule_id,
        "url": rule_url(rule_id),
        "document": "",
        "document_title": "",
        "document_url": "",
        "lang": "",
        "era": "",
        "provenance": "unknown",
        "provenance_label": authority("unknown"),
        "source": "?",
        "label": rule_label(rule_id, None),
        "label_lang": "en",
        "lines": lines_label(None),
        "version": "",
        "section_lang": "",
        "document_lang": "",
    }


def glossary_url(game: str = "", term: str = "") -> str:
    """The glossary: of every game, of one game, or one term (``all`` for a shared term)."""
    if not game:
        return "/glossary"
    return f"/glossary/{_q(game)}" + (f"/{_q(term)}" if term else "")


def term_url(term: str, game: str) -> str:
    """A term's page in the glossary of its game (a term every game shares: ``all``); a term
    of one game whose id is ``<game>:<slug>`` (a rulebook's own) is ``/glossary/<game>/<slug>``."""
    if game and game != "*" and term.startswith(game + ":"):
        term = term[len(game) + 1 :]
    return glossary_url(game if game and game != "*" else "all", term)


def penalty_url(rule_id: str = "", lang: str = "") -> str:
    """An infraction of penalty guidelines (by its rule id), or the list of them."""
    if not rule_id:
        return _with_query("/penalty", (("lang", lang),))
    return f"/penalty/{_q(rule_id)}"


def whole_document_url(document: str) -> str:
    """A whole document on one page, for Ctrl-F, printing and reading offline."""
    return f"/read/{_q(document)}"


def suggest_url(q: str = "") -> str:
    return _with_query("/suggest.json", (("q", q),))
