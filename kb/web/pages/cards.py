"""Card pages: ``/card/<card id>``, the card lookup ``/card?q=<name>``, and the card names in
rule text that link to them.

Built on kb.lookups.cards (``find_card``: an exact name or alias wins, close fuzzy candidates are
ambiguous, gibberish finds nothing; ``card_view``: aliases, data, restriction lists, rulings by
timing window). This module adds the URLs and, for every rule a card page shows, its
provenance, era and file:line. Re-exported by kb.pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...lookups.cards import find_card
from ..urls import (
    card_search_url,
    card_url,
    game_url,
    rule_sources,
    search_url,
    tree_url,
    unknown_rule,
)
from .extras import notes_of, readable, rule_extras
from .timing import ruleset_name

if TYPE_CHECKING:
    from ...api import KnowledgeBase

# How a card's data fields (card_facts.field) read on its page.
FIELD_LABELS = {
    "name_ja": "Japanese name",
    "card_type": "Card type",
    "level": "Level",
    "attribute": "Attribute",
    "type": "Type",
    "atk": "ATK",
    "def": "DEF",
    "password": "Password",
    "rarities": "Rarities",
    "sets": "Sets",
    "effect": "Effect",
}

# What each kind of alias (card_aliases.kind) is, for a reader.
ALIAS_KINDS = {
    "name": "name",
    "case": "case variant",
    "alias": "other name",
    "en_mt": "machine translation",
    "zh": "Chinese",
    "ja": "Japanese",
}


def card_links(kb: KnowledgeBase, rule_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Rule id -> the cards that rule names (``ruling_cards``, found by the build), each with
    its page and every name it goes by, so the rule text can link the name as it is written.

    Rules that name no card are left out. Never a fuzzy guess: only what the build matched.
    """
    mentions = kb.rows("card_mentions", ids=rule_ids)
    if not mentions:
        return {}
    names: dict[str, list[str]] = {}
    card_ids = sorted({m["id"] for m in mentions})
    for row in kb.rows("card_alias_names", cards=card_ids):
        names.setdefault(row["card"], []).append(row["alias"])
    out: dict[str, list[dict[str, Any]]] = {}
    for m in mentions:
        out.setdefault(m["rule"], []).append(
            {
                "id": m["id"],
                "name": m["name"],
                "url": card_url(m["id"]),
                "names": names.get(m["id"], [m["name"]]),
            }
        )
    return out


def _cited(sources: dict[str, dict[str, Any]], rule_id: str | None) -> dict[str, Any] | None:
    if not rule_id:
        return None
    return sources.get(rule_id) or unknown_rule(rule_id)


def _ruling(ruling: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    """One ruling as the card page shows it: its text, kind, and where it comes from."""
    return {
        "id": ruling["id"],
        "kind": ruling["kind"],
        "label": ruling["label"],
        "title": ruling["title"],
        "question": ruling["question"],
        "answer": ruling["answer"],
        "text": ruling["text"],
        "lang": ruling["lang"],
        "section_path": ruling["section_path"],
        "cite": source,
        "steps": [
            {**step, "cards": (step.get("cards") or "").split()} for step in ruling.get("steps", [])
        ],
    }


def card(kb: KnowledgeBase, card_id: str) -> dict[str, Any] | None:
    """A card: names, data, restriction-list entries, curated notes (a warning when rulings
    changed) and rulings grouped by timing window, each linking to its place on the chart."""
    view = kb.card_view(card_id)
    if view is None:
        return None
    rule_ids = [f["rule"] for f in view["facts"]] + [x["rule"] for x in view["restrictions"]]
    rule_ids += [r["id"] for g in view["rulings_by_timing"] for r in g["rulings"]]
    sources = rule_sources(kb, rule_ids)
    groups: list[dict[str, Any]] = []
    for g in view["rulings_by_timing"]:
        groups.append(
            {
                "timing": g["timing"],
                "timing_name": g["timing_name"] or "No particular timing window",
                "tree": g["tree"],
                "ruleset_name": ruleset_name(g["tree"]),
                "url": tree_url(g["tree"], g["timing"]) if g["timing"] and g["tree"] else None,
                "rulings": [_ruling(r, sources[r["id"]]) for r in g["rulings"]],
            }
        )
    ruling_ids = [r["id"] for g in groups for r in g["rulings"]]
    extras = rule_extras(kb, ruling_ids)
    for x in extras.values():  # this card's own note is the page's warning
        x["notes"] = [n for n in x["notes"] if n["card"] != view["id"]]
    return {
        "extras": extras,
        "notes": notes_of(extras),
        "card": {
            "id": view["id"],
            "name": view["name"],
            "kind": view["kind"],
            "game": view["game"],
            "game_name": view["game_name"],
            "game_url": game_url(view["game"]),
            "source": view["source"],
            "notes": readable(kb, view["notes"]),
            "rulings": view["rulings"],
            "url": card_url(view["id"]),
            "search_url": search_url(view["name"], game=view["game"]),
        },
        "aliases": [
            {
                "alias": a["alias"],
                "lang": a["lang"],
                "kind": a["kind"],
                "kind_label": ALIAS_KINDS.get(a["kind"], a["kind"]),
            }
            for a in view["aliases"]
        ],
        "facts": [
            {
                "field": f["field"],
                "label": FIELD_LABELS.get(f["field"], f["field"].replace("_", " ").capitalize()),
                "value": f["value"],
                "cite": _cited(sources, f["rule"]),
            }
            for f in view["facts"]
        ],
        "restrictions": [
            {
                "list": x["list"],
                "status": x["status"],
                "written": x["name"],
                "cite": _cited(sources, x["rule"]),
            }
            for x in view["restrictions"]
        ],
        "rulings_by_timing": groups,
        "cards": {
            rule: [c for c in cards if c["id"] != view["id"]]
            for rule, cards in card_links(kb, ruling_ids).items()
        },
    }


def _candidate(c: Mapping[str, Any]) -> dict[str, Any]:
    return {**c, "url": card_url(c["id"])}


def card_index(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """Every card, grouped by game, for the card lookup without a name."""
    games: dict[str, dict[str, Any]] = {}
    for row in kb.rows("cards_index"):
        game = games.setdefault(
            row["game"], {"id": row["game"], "name": row["game_name"], "cards": []}
        )
        game["cards"].append({**row, "url": card_url(row["id"])})
    return list(games.values())


def card_search(kb: KnowledgeBase, q: str, game: str = "") -> dict[str, Any]:
    """The card lookup: ``card`` (with ``exact``) when one card is meant, ``candidates`` when
    several are close (``ambiguous``), neither when nothing is ("found" false: a 404).

    Without ``q``: every card, so the page is an index too.
    """
    q = q.strip()
    out: dict[str, Any] = {
        "q": q,
        "game": game,
        "card": None,
        "exact": False,
        "score": 0.0,
        "ambiguous": False,
        "candidates": [],
        "found": False,
        "search_url": search_url(q, game=game),
        "url": card_search_url(q, game),
        "index": [],
    }
    if not q:
        out["index"] = card_index(kb)
        return out
    match = find_card(kb.conn, q, game=game)
    out.update(
        card=_candidate(match.card) if match.card else None,
        exact=match.exact,
        score=match.score,
        ambiguous=match.ambiguous,
        candidates=[_candidate(c) for c in match.candidates],
        found=bool(match.card or match.candidates),
    )
    return out
