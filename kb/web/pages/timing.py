"""Timing charts: ``/timing`` (every game), ``/timing/<game>`` (its rulesets, or its only chart)
and ``/timing/<game>/<ruleset>`` (the phase -> step -> sub-step chart of one ruleset).

Built on kb.lookups.timing (``timing_tree``: nodes with their names in every language, the
properties the rules state about each moment and the rules citing them; ``node_rules``). Each
node's box on the chart has its id as anchor, so a card ruling or an answer can point at
"During damage calculation" on the right chart. The rules of each moment are listed under the
chart. A game whose corpus describes no timing (Vanguard) gets a page that says so. Re-exported
by kb.pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...lookups.timing import node_rules
from ...store.db import KbError
from ..urls import (
    anchor,
    game_url,
    language_name,
    rule_sources,
    rule_url,
    search_form,
    timing_url,
    unknown_rule,
)
from .extras import notes_of, rule_extras

if TYPE_CHECKING:
    from ...api import KnowledgeBase

# What a ruleset id means, for a reader ("*": the game has one set of rules).
RULESET_NAMES = {"tcg": "TCG", "ocg": "OCG (Japan and Asia)", "*": "All formats"}


def ruleset_name(tree: str | None) -> str:
    """ "yugioh/tcg" -> "TCG": the format a timing tree is for, as a reader names it."""
    ruleset = (tree or "").partition("/")[2]
    return RULESET_NAMES.get(ruleset, ruleset.upper())


def _tree(row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "ruleset_name": RULESET_NAMES.get(row["ruleset"], row["ruleset"].upper()),
        "url": timing_url(row["game"], row["ruleset"]),
    }


def trees(kb: KnowledgeBase, game: str = "") -> list[dict[str, Any]]:
    """The timing charts there are (of one game, or all), each with its URL."""
    return [_tree(row) for row in kb.rows("timing_charts", game=game)]


def timing_index(kb: KnowledgeBase) -> dict[str, Any]:
    """Every game and its charts; a game without one is listed as such."""
    charts = trees(kb)
    games = []
    for g in search_form(kb)["games"]:
        games.append(
            {
                **g,
                "url": timing_url(g["id"]),
                "game_url": game_url(g["id"]),
                "trees": [t for t in charts if t["game"] == g["id"]],
            }
        )
    return {"games": games}


def _resolve_game(kb: KnowledgeBase, game: str) -> dict[str, Any] | None:
    try:
        row = kb.row("game", game=kb.game_id(game))
    except KbError:
        return None
    if row is None:
        return None
    gid = row["id"]
    return {"id": gid, "name": row["name"], "url": game_url(gid), "timing_url": timing_url(gid)}


def timing_game(kb: KnowledgeBase, game: str) -> dict[str, Any] | None:
    """A game's charts: ``trees`` (none for a game whose corpus describes no timing)."""
    g = _resolve_game(kb, game)
    if g is None:
        return None
    return {"game": g, "trees": trees(kb, g["id"])}


def _names(node: Mapping[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """A node's other English names, and its names in other languages, without repeats."""
    english = list(dict.fromkeys(n["text"] for n in node["names"].get("en", [])))
    other = [
        {
            "lang": lang,
            "language_name": language_name(lang),
            "texts": list(dict.fromkeys(n["text"] for n in names)),
        }
        for lang, names in sorted(node["names"].items())
        if lang != "en"
    ]
    return [t for t in english if t.casefold() != node["en"].casefold()], other


def _property(prop: dict[str, Any]) -> dict[str, Any]:
    seen = dict.fromkeys(s["rule"] for s in prop["sources"])
    by_rule = {s["rule"]: s for s in prop["sources"]}
    return {
        "key": prop["key"],
        "value": prop["value"],
        "display": prop["display"],
        "sources": [
            {**by_rule[r], "url": rule_url(r), "label": _cite_label(by_rule[r])}
            | {"label_lang": _cite_lang(by_rule[r])}
            for r in seen
        ],
    }


def _cite_label(source: dict[str, Any]) -> str:
    """How a citing rule reads next to a property until its citation is known (``_label``):
    its number, or its place in its document."""
    return anchor(source["rule"], source["document"])


def _cite_lang(source: dict[str, Any]) -> str:
    return "en" if anchor(source["rule"], source["document"])[:1].isdigit() else source["lang"]


def _label(kb: KnowledgeBase, nodes: list[dict[str, Any]]) -> None:
    """Each property's citing rules labelled as a reader knows them: the rule number, or the
    section and paragraph (kb.web.urls.cite), never the rule's id."""
    sources = [s for n, _ in _walk(nodes) for p in n["properties"] for s in p["sources"]]
    cites = rule_sources(kb, (s["rule"] for s in sources))
    for s in sources:
        if s["rule"] in cites:
            s["label"] = cites[s["rule"]]["label"]
            s["label_lang"] = cites[s["rule"]]["label_lang"]
            s["document_title"] = cites[s["rule"]]["document_title"]


def _node(node: Mapping[str, Any], game: str, ruleset: str) -> dict[str, Any]:
    """A box of the chart: names, properties with their citing rules, children in order."""
    also, other = _names(node)
    return {
        "id": node["id"],
        "en": node["en"],
        "label": node["label"],
        "kind": node["kind"],
        "depth": node["depth"],
        "rules": node["rules"],
        "url": timing_url(game, ruleset, node["id"]),
        "also": also,
        "names": other,
        "properties": [_property(p) for p in node["properties"]],
        "children": [_node(c, game, ruleset) for c in node["children"]],
    }


def _walk(nodes: list[dict[str, Any]], path: tuple[str, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node in reading order with the English names above it."""
    out: list[tuple[Any, ...]] = []
    for n in nodes:
        out.append((n, (*path, n["en"])))
        out += _walk(n["children"], (*path, n["en"]))
    return out


def _moments(kb: KnowledgeBase, nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each node's rules, in the chart's order, each with where it comes from."""
    walked = [(n, path, node_rules(kb.conn, n["id"])) for n, path in _walk(nodes)]
    sources = rule_sources(kb, (r["id"] for _, _, rules in walked for r in rules))
    return [
        {
            "id": n["id"],
            "en": n["en"],
            "label": n["label"],
            "path": " › ".join(path),
            "rules": [
                {"id": r["id"], "kind": r["kind"], "text": r["text"], "lang": r["lang"]}
                | {"cite": sources.get(r["id"]) or unknown_rule(r["id"])}
                for r in rules
            ],
        }
        for n, path, rules in walked
    ]


def timing(kb: KnowledgeBase, game: str, ruleset: str) -> dict[str, Any] | None:
    """One chart: its boxes (``nodes``, nested) and the rules of each moment (``moments``)."""
    g = _resolve_game(kb, game)
    if g is None:
        return None
    tree = next((t for t in trees(kb, g["id"]) if t["ruleset"] == ruleset.lower()), None)
    if tree is None:
        return None
    roots = [r for r in kb.timing(g["id"], ruleset) if r["tree"] == tree["id"]]
    nodes = [_node(r, g["id"], ruleset) for r in roots]
    _label(kb, nodes)
    moments = _moments(kb, nodes)
    extras = rule_extras(kb, [r["id"] for m in moments for r in m["rules"]])
    return {
        "extras": extras,
        "notes": notes_of(extras),
        "game": g,
        "tree": tree,
        "rulesets": trees(kb, g["id"]),
        "nodes": nodes,
        "moments": moments,
    }
