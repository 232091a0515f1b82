"""Home, game, document, section and rule pages, and full-text search, as plain data.

One function per page: it takes an open read-only connection and returns a dict (the page's
JSON, rendered to HTML by a template), or None when the thing asked for does not exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...lexicon.phrasebook import named_phrases
from ...lookups.cards import find_card
from ...lookups.definitions import defined_terms
from ...lookups.labels import authority, lines_label
from ...lookups.rules import rule_view
from ...search import exact_rules, expansions
from ..html import cited_numbers
from ..urls import (
    anchor,
    ask_url,
    card_search_url,
    card_url,
    compare_url,
    diff_url,
    document_url,
    game_url,
    history_url,
    language_name,
    rule_url,
    search_form,
    section_url,
    term_url,
    timing_url,
    tree_url,
    whole_document_url,
)
from .cards import card_links
from .compare import compare_index
from .extras import notes_of, rule_extras
from .glossary import term_card
from .history import diff_index
from .timing import trees as timing_trees

if TYPE_CHECKING:
    from ...api import KnowledgeBase

SEARCH_LIMIT = 20
SEARCH_MAX = 100


def _section_ref(document: str, row: dict[str, Any] | None) -> dict[str, Any] | None:
    """A link to a section: its number, title, language and URL."""
    if row is None:
        return None
    return {
        "number": row["number"],
        "title": row["title"],
        "lang": row["lang"],
        "url": section_url(document, row["slug"]),
        **({"rules": row["rules"]} if "rules" in row else {}),
    }


# ---------------------------------------------------------------------------------------------
# Pages


def home(kb: KnowledgeBase) -> dict[str, Any]:
    """Home: the games that have documents (each with its timing charts), what the corpus
    holds (documents, languages, rules), search, ask and the card lookup, and the translations
    and versions that can be compared."""
    games = kb.rows("games_overview")
    charts = timing_trees(kb)
    for g in games:
        g["languages"] = sorted((g.pop("langs") or "").split(","))
        g["url"] = game_url(g["id"])
        g["timing"] = [t for t in charts if t["game"] == g["id"]]
    languages = kb.rows("languages")
    for lang in languages:
        lang["name"] = language_name(lang["lang"])
    return {
        "totals": kb.row("totals"),
        "games": games,
        "languages": languages,
        "by_game_language": kb.rows("stats"),
        "search": search_form(kb),
        "links": {
            "ask": ask_url(),
            "cards": card_search_url(),
            "timing": timing_url(),
            "compare": compare_url(),
            "diff": diff_url(),
        },
        "compare": compare_index(kb)["documents"],
        "diffs": diff_index(kb)["pairs"],
    }


def _toc(kb: KnowledgeBase, document: str) -> dict[str, Any]:
    """A document's sections as a tree under its root section (slug ``top``)."""
    nodes: dict[str, dict[str, Any]] = {}
    root: dict[str, Any] | None = None
    for row in kb.rows("toc", document=document):
        node = {
            "number": row["number"],
            "title": row["title"],
            "lang": row["lang"],
            "rules": row["rules"],
            "url": section_url(document, row["slug"]),
            "children": [],
        }
        nodes[row["id"]] = node
        parent = nodes.get(row["parent"] or "")
        if parent is not None:
            parent["children"].append(node)
        elif root is None:
            root = node
    return root or {"number": "", "title": "", "lang": "", "rules": 0, "url": "", "children": []}


def _document_info(row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "provenance_label": authority(row["provenance"]),
        "language_name": language_name(row["lang"]),
        "url": document_url(row["id"]),
        "game_url": game_url(row["game"]),
        "original_url": document_url(row["translation_of"]) if row["translation_of"] else None,
        "whole_url": whole_document_url(row["id"]),
    }


def superseded(kb: KnowledgeBase, doc: dict[str, Any], slug: str = "") -> dict | None:
    """For a document a newer version replaces: that version, and the same section in it
    (same slug) when it has one."""
    newer = doc.get("superseded_by")
    if not newer:
        return None
    row = kb.row("document", document=newer)
    if row is None:
        return None
    same = slug and kb.row("section", id=f"{newer}:{slug}")
    return {
        "document": newer,
        "title": row["title"],
        "version": row["version"],
        "effective": row["effective"],
        "url": document_url(newer),
        "section_url": section_url(newer, slug) if same else None,
    }


def machine_banner(kb: KnowledgeBase, doc: dict[str, Any]) -> dict | None:
    """For a machine-translated document: what it translates (when the corpus has it)."""
    if doc["provenance"] != "machine":
        return None
    original = kb.row("document", document=doc["translation_of"] or "")
    return {
        "label": authority("machine"),
        "original": {"title": original["title"], "url": document_url(original["id"])}
        if original
        else None,
    }


def _variants(kb: KnowledgeBase, doc: dict[str, Any], slug: str = "") -> list[dict[str, Any]]:
    """The document's original and its translation variants, the current one marked.

    With ``slug``, each links to the section with the same slug when that variant has one,
    otherwise to its table of contents (translations are segmented on their own, so their
    sections rarely line up one to one).
    """
    out = []
    original = doc["translation_of"] or doc["id"]
    for row in kb.rows("section_variants", original=original, slug=slug):
        same = bool(slug and row["section_slug"])
        out.append(
            {
                "document": row["id"],
                "title": row["title"],
                "lang": row["lang"],
                "language_name": language_name(row["lang"]),
                "variant": row["variant"],
                "provenance": row["provenance"],
                "provenance_label": authority(row["provenance"]),
                "current": row["id"] == doc["id"],
                "same_section": same,
                "url": section_url(row["id"], slug) if same else document_url(row["id"]),
            }
        )
    return out


def game(kb: KnowledgeBase, game_id: str) -> dict[str, Any] | None:
    """A game: its documents grouped by language, then variant, each with its contents."""
    g = kb.row("game", game=game_id)
    if g is None:
        return None
    g["url"] = game_url(g["id"])
    groups: dict[str, dict[str, Any]] = {}
    for row in kb.rows("documents", game=game_id):
        lang = groups.setdefault(
            row["lang"],
            {"lang": row["lang"], "name": language_name(row["lang"]), "variants": {}},
        )
        variant = lang["variants"].setdefault(
            row["variant"], {"variant": row["variant"], "documents": []}
        )
        doc = _document_info({**row, "game": game_id})
        doc["toc"] = _toc(kb, row["id"])
        variant["documents"].append(doc)
    languages = [{**lang, "variants": list(lang["variants"].values())} for lang in groups.values()]
    return {"game": g, "languages": languages}


def document(kb: KnowledgeBase, document_id: str) -> dict[str, Any] | None:
    """A document's table of contents, with its source, provenance and variants."""
    row = kb.row("document", document=document_id)
    if row is None:
        return None
    doc = _document_info(row)
    return {
        "game": {"id": row["game"], "name": row["game_name"], "url": game_url(row["game"])},
        "document": doc,
        "superseded": superseded(kb, doc),
        "machine": machine_banner(kb, doc),
        "variants": _variants(kb, doc),
        "toc": _toc(kb, document_id),
    }


def _rule_item(rule: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    lines = f"{rule['line_start']}" + (
        f"-{rule['line_end']}" if rule["line_end"] != rule["line_start"] else ""
    )
    return {
        **rule,
        "game": document["game"],
        "anchor": anchor(rule["id"], document["id"]),
        "url": rule_url(rule["id"]),
        "history_url": history_url(rule["id"]),
        "provenance": document["provenance"],
        "provenance_label": document["provenance_label"],
        "source": f"{document['file']}:{lines}",
        "lines": lines_label(rule["line_start"], rule["line_end"]),
    }


def section(kb: KnowledgeBase, document_id: str, slug: str) -> dict[str, Any] | None:
    """A section: its rules (each with anchor, permalink, provenance, era, source line), its
    subsections, breadcrumbs, neighbours, the same section in the other variants, the cards
    each rule names (``cards``: rule id -> cards, see ``card_links``) and whether the document
    has other versions (``versioned``: each rule then links to its history)."""
    row = kb.row("document", document=document_id)
    sec = kb.row("section", id=f"{document_id}:{slug}")
    if row is None or sec is None:
        return None
    doc = _document_info(row)
    rules = [_rule_item(r, doc) for r in kb.rows("section_rules", id=sec["id"])]
    texts = [r["text"] for r in rules]
    numbers = list(dict.fromkeys(n for t in texts for n in cited_numbers(t)))
    references = {
        r["number"]: section_url(document_id, r["slug"], anchor(r["id"], document_id))
        for r in kb.rows("cited_rules", document=document_id, numbers=numbers)
    }
    sec["url"] = section_url(document_id, slug)
    extras = rule_extras(kb, [r["id"] for r in rules])
    return {
        "game": {"id": row["game"], "name": row["game_name"], "url": game_url(row["game"])},
        "document": doc,
        "superseded": superseded(kb, doc, slug),
        "machine": machine_banner(kb, doc),
        "section": sec,
        "extras": extras,
        "notes": notes_of(extras),
        "breadcrumbs": [
            _section_ref(document_id, a)
            for a in kb.rows("section_ancestors", id=sec["id"])
            if a["slug"] != "top"
        ],
        "children": [
            _section_ref(document_id, c) for c in kb.rows("section_children", id=sec["id"])
        ],
        "rules": rules,
        "references": references,
        "cards": card_links(kb, [r["id"] for r in rules]),
        "versioned": bool(kb.values("document_versioned", document=document_id)[0]),
        "variants": _variants(kb, doc, slug),
        "previous": _section_ref(
            document_id, kb.row("section_previous", document=document_id, ord=sec["ord"])
        ),
        "next": _section_ref(
            document_id, kb.row("section_next", document=document_id, ord=sec["ord"])
        ),
    }


def rule_place(kb: KnowledgeBase, rule_id: str) -> str | None:
    """Where a rule's permalink leads: its section page, with the rule's anchor."""
    row = kb.row("rule_place", id=rule_id)
    if row is None:
        return None
    return section_url(row["document"], row["slug"], anchor(row["id"], row["document"]))


def rule(kb: KnowledgeBase, ref: str) -> dict[str, Any] | None:
    """A rule permalink: ``ref`` is a full id (``fow-cr-8.01:105.3a``) or a bare rule number.

    A full id gives that rule (``place`` is where the permalink redirects). A bare number gives
    every rule with that number, one per document and version (``choices``, current versions
    first); when one current rulebook has it (older versions of that rulebook aside), the
    permalink opens it: ``/rule/105.4`` is 8.01's 105.4, not 7.0's. Several current rulebooks
    with the number are a choice to show, not a guess to make.
    """
    place = rule_place(kb, ref)
    if place is not None:
        view: Mapping[str, Any] = rule_view(kb.conn, ref) or {}
        return {"rule": {**view, "url": rule_url(ref)}, "place": place, "choices": []}
    if ":" in ref:
        return None
    choices = kb.rows("rule_choices", number=ref.rstrip("."))
    if not choices:
        return None
    for c in choices:
        c["url"] = section_url(c["document"], c["slug"], anchor(c["id"], c["document"]))
        c["permalink"] = rule_url(c["id"])
        c["provenance_label"] = authority(c["provenance"])
        c["source"] = f"{c['file']}:{c['line_start']}"
        c["lines"] = lines_label(c["line_start"])
    current = [c for c in choices if not c["superseded_by"]]
    place = current[0]["url"] if len(current) == 1 else None
    return {"rule": None, "place": place, "number": ref, "choices": choices}


def search_target(kb: KnowledgeBase, q: str, game: str = "") -> dict[str, Any] | None:
    """The one page a search names exactly: a rule by id, a rule number (its current version;
    several rulebooks have it: the list of them), a card by any of its names, a glossary term
    (or a term a rulebook defines) or a moment of a timing chart by any of theirs. The HTML
    page opens it instead of a list of results, but for a term: a judge searching a term wants
    the rules, so they come first, with the term's card beside them. None when the text names
    no one thing."""
    text = " ".join(q.split())
    if not text:
        return None
    exact = exact_rules(kb.conn, text, game=game)
    current = [r for r in exact if not r["superseded_by"]]
    rules = [r for r in exact if r["id"] == text] or current or exact
    if rules:
        if len(rules) == 1:
            return {"kind": "rule", "id": rules[0]["id"], "url": rule_url(rules[0]["id"])}
        return {"kind": "rules", "id": text, "url": rule_url(text.rstrip("."))}
    match = find_card(kb.conn, text, game=game)
    if match.card and match.exact:
        return {"kind": "card", "id": match.card["id"], "url": card_url(match.card["id"])}
    for phrase in named_phrases(kb.conn, text):
        if phrase["typed"].casefold() != text.casefold():
            continue
        for named in phrase["ids"]:
            if named["kind"] == "term":
                term = kb.row("glossary_term", term=named["id"])
                if term and (not game or term["game"] in ("*", game)):
                    return {
                        "kind": "term",
                        "id": term["id"],
                        "url": term_url(term["id"], term["game"]),
                    }
        for named in phrase["ids"]:
            if named["kind"] == "timing":
                node = kb.row("timing_node_place", id=named["id"])
                if node and (not game or node["game"] == game):
                    url = tree_url(f"{node['game']}/{node['ruleset']}", node["id"])
                    return {"kind": "timing", "id": node["id"], "url": url}
    key = " ".join(text.casefold().strip("[]").split())
    for d in defined_terms(kb.conn):
        if key in (d["en"].casefold(), d["written"].casefold()) and (not game or d["game"] == game):
            return {"kind": "term", "id": d["term"], "url": term_url(d["term"], d["game"])}
    return None


def search(
    kb: KnowledgeBase,
    q: str,
    *,
    game: str = "",
    lang: str = "",
    limit: int = SEARCH_LIMIT,
    versions: str = "current",
) -> dict[str, Any]:
    """Ranked full-text search (kb.search), each hit with the URL of its place on the site,
    its document and version, the older versions that say the same, and what every rule
    shows beside it (card notes, glosses, translations). ``target``: the page the text names
    exactly (search_target), which the HTML page opens."""
    q = q.strip()
    limit = max(1, min(limit, SEARCH_MAX))
    versions = "all" if versions == "all" else "current"
    target = search_target(kb, q, game) if q else None
    found = kb.search(q, game=game, lang=lang, limit=limit, versions=versions) if q else []
    places = {r["id"]: r["slug"] for r in kb.rows("rule_places", ids=[h["id"] for h in found])}
    hits: list[dict[str, Any]] = [
        {
            **h,
            "url": section_url(
                h["document"], places.get(h["id"], "top"), anchor(h["id"], h["document"])
            ),
            "permalink": rule_url(h["id"]),
            "provenance_label": authority(h["provenance"]),
            "source": f"{h['file']}:{h['line_start']}",
            "lines": lines_label(h["line_start"]),
            "document_url": document_url(h["document"]),
            "also_in": [{**a, "url": rule_url(a["id"])} for a in h["also_in"]],
        }
        for h in found
    ]
    extras = rule_extras(kb, [h["id"] for h in hits])
    return {
        "q": q,
        "game": game,
        "lang": lang,
        "limit": limit,
        "versions": versions,
        "hits": hits,
        "only_old": bool(hits) and versions == "current" and all(h["superseded_by"] for h in hits),
        "expanded": [
            {"typed": e["typed"], "as": e["as"], "kind": e["kind"], "id": e["id"]}
            for e in (expansions(kb.conn, q) if q else [])
        ],
        "target": target,
        "glossary": term_card(kb, target["id"]) if target and target["kind"] == "term" else None,
        "extras": extras,
        "notes": notes_of(extras),
        "all_versions_url": search_url_all(q, game, lang),
        "form": search_form(kb),
    }


def search_url_all(q: str, game: str, lang: str) -> str:
    from ..urls import search_url

    return search_url(q, game, lang) + ("&" if q or game or lang else "?") + "all=1&versions=all"
