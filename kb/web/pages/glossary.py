"""Glossary pages: ``/glossary`` (every game), ``/glossary/<game>`` (a game's terms, its own and
those every game shares) and ``/glossary/<game>/<term>`` (one term: where the rules define
it, its renderings per language with how often each document uses them, and the rules that
use it). ``all`` stands for every game.

Built on the ``terms``, ``term_renderings`` and ``term_counts`` tables, whatever added the
terms (the curated glossary or the rulebooks' own definitions): nothing here knows a term.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ...lookups.labels import authority, language_name
from ..urls import game_url, glossary_url, rule_url, search_url, section_url, term_url
from .extras import notes_of, rule_extras

if TYPE_CHECKING:
    from ...api import KnowledgeBase

ALL = "all"
# Rules listed on a term's page (the rest: a full-text search away).
TERM_RULES = 30


def _game(kb: KnowledgeBase, game: str) -> dict[str, Any] | None:
    if game == ALL:
        return {"id": ALL, "name": "All games", "url": glossary_url(ALL)}
    row = kb.row("game", game=game)
    if row is None:
        return None
    return {"id": row["id"], "name": row["name"], "url": glossary_url(row["id"])}


def _term_item(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "en": row["en"],
        "game": row["game"],
        "forms": json.loads(row["forms"] or "[]"),
        "uses": row["uses"],
        "url": term_url(row["id"], row["game"]),
    }


def glossary_index(kb: KnowledgeBase) -> dict[str, Any]:
    """Every game with a glossary, and the terms of each."""
    games = []
    for g in kb.rows("form_games"):
        terms = [_term_item(t) for t in kb.rows("glossary_terms", game=g["id"])]
        if terms:
            games.append({**g, "url": glossary_url(g["id"]), "terms": terms})
    return {"games": games}


def glossary_game(kb: KnowledgeBase, game: str) -> dict[str, Any] | None:
    """A game's terms in alphabetical order, grouped by first letter."""
    g = _game(kb, game)
    if g is None:
        return None
    rows = kb.rows("glossary_terms", game="" if game == ALL else game)
    letters: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        letters.setdefault(row["en"][:1].upper(), []).append(_term_item(row))
    return {
        "game": g,
        "game_url": game_url(g["id"]) if game != ALL else None,
        "letters": [{"letter": k, "terms": v} for k, v in letters.items()],
        "count": len(rows),
    }


def _renderings(kb: KnowledgeBase, term: str, en: str) -> list[dict[str, Any]]:
    """Each language's renderings with counts per document, the preferred first."""
    counts: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in kb.rows("glossary_counts", term=term):
        counts.setdefault((row["lang"], row["text"]), []).append(
            {
                "document": row["document"],
                "title": row["document_title"],
                "variant": row["variant"],
                "provenance": row["provenance"],
                "count": row["count"],
            }
        )
    langs: dict[str, dict[str, Any]] = {}

    def add(lang: str, text: str, preferred: bool, note: str = "", provenance: str = "") -> None:
        group = langs.setdefault(
            lang, {"lang": lang, "language_name": language_name(lang), "renderings": []}
        )
        if any(r["text"] == text for r in group["renderings"]):
            return
        docs = counts.get((lang, text), [])
        group["renderings"].append(
            {
                "text": text,
                "preferred": preferred,
                "note": note,
                "official": provenance == "official",
                "documents": docs,
                "total": sum(d["count"] for d in docs),
            }
        )

    add("en", en, True)
    for row in kb.rows("glossary_renderings", term=term):
        add(row["lang"], row["text"], bool(row["preferred"]), row["note"] or "", row["provenance"])
    for (lang, text), docs in counts.items():  # counted forms the curated list does not name
        if docs:
            add(lang, text, False)
    order = sorted(langs.values(), key=lambda g: (g["lang"] != "en", g["lang"]))
    for g in order:
        g["renderings"].sort(key=lambda r: (not r["preferred"], -r["total"]))
    return order


def glossary_term(kb: KnowledgeBase, game: str, term: str) -> dict[str, Any] | None:
    """One term: definitions, renderings with counts, and the rules that use it."""
    row = kb.row("glossary_term", term=term)
    g = _game(kb, game)
    if row is None or g is None or (game != ALL and row["game"] not in ("*", game)):
        return None
    forms = json.loads(row["forms"] or "[]")
    names = sorted({n.lower() for n in [row["en"], *forms]})
    in_game = "" if game == ALL else game
    definitions = [
        {
            **d,
            "url": section_url(d["document"], d["slug"])
            if d["kind"] == "section"
            else rule_url(d["id"]),
            "permalink": rule_url(d["id"]),
        }
        for d in kb.rows("term_definitions", names=names, game=in_game)
    ]
    hits = kb.search(row["en"], game=in_game, limit=TERM_RULES)
    rules = [
        {
            "id": h["id"],
            "game": h["game"],
            "document": h["document"],
            "document_title": h["document_title"],
            "document_lang": h["document_lang"],
            "version": h["version"],
            "number": h["number"],
            "lang": h["lang"],
            "text": h["text"],
            "section_path": h["section_path"],
            "section_lang": h["section_lang"],
            "provenance": h["provenance"],
            "provenance_label": authority(h["provenance"]),
            "url": rule_url(h["id"]),
        }
        for h in hits
    ]
    extras = rule_extras(kb, [r["id"] for r in rules])
    return {
        "term": {
            "id": row["id"],
            "en": row["en"],
            "game": row["game"],
            "game_name": row["game_name"] or "All games",
            "forms": forms,
            "url": term_url(row["id"], row["game"]),
        },
        "game": g,
        "definitions": definitions,
        "languages": _renderings(kb, row["id"], row["en"]),
        "rules": rules,
        "extras": extras,
        "notes": notes_of(extras),
        "limit": TERM_RULES,
        "search_url": search_url(row["en"], game=in_game) + "&all=1",
    }


def term_links(kb: KnowledgeBase, games: list[str]) -> dict[str, dict[str, str]]:
    """Game -> {a term as the rules write it: its glossary page}, for linking terms in rule
    text. Only terms the glossary writes with a capital (Graveyard, Chase Area, Damage Step):
    the game's own words, not everyday ones a glossary also lists (card, turn, attack)."""
    from ...store.vocabulary import load_vocabulary

    vocab = load_vocabulary(kb.conn)
    out: dict[str, dict[str, str]] = {}
    for game in dict.fromkeys(games):
        names: dict[str, str] = {}
        for e in vocab.terms:
            if e["game"] not in ("*", game) or not e["en"][:1].isupper() or len(e["text"]) < 3:
                continue
            names.setdefault(e["text"], term_url(e["term"], e["game"]))
        out[game] = names
    return out
