"""Glossary pages: ``/glossary`` (every game), ``/glossary/<game>`` (a game's terms, its own and
those every game shares) and ``/glossary/<game>/<term>`` (one term: where the rules define
it, its renderings per language with how often each document uses them, and the rules that
use it). ``all`` stands for every game.

Built on kb.lookups.terms: the stored terms (the curated glossary, the rulebooks' glossary
sections) and the terms the rulebooks define in sections of their own (kb.lookups.definitions),
whatever the game: nothing here knows a term.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ...lookups.definitions import defined_terms, first_sentence
from ...lookups.labels import authority, language_name, short_title
from ...lookups.terms import definitions as term_definitions
from ...lookups.terms import glossary_entries, rendering_uses, rulebook_term
from ..urls import (
    document_url,
    game_url,
    glossary_url,
    rule_sources,
    rule_url,
    search_url,
    section_url,
    term_url,
)
from .extras import notes_of, readable, rule_extras

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
        "forms": row["forms"],
        "uses": row["uses"],
        "source": row["source"],
        "defined": row["defined"],
        "url": term_url(row["id"], row["game"]),
    }


def glossary_index(kb: KnowledgeBase) -> dict[str, Any]:
    """Every game with a glossary, and the terms of each (the rulebooks' own included)."""
    games = []
    for g in kb.rows("form_games"):
        terms = [_term_item(t) for t in glossary_entries(kb.conn, g["id"])]
        if terms:
            games.append({**g, "url": glossary_url(g["id"]), "terms": terms})
    return {"games": games}


def glossary_game(kb: KnowledgeBase, game: str) -> dict[str, Any] | None:
    """A game's terms in alphabetical order, grouped by first letter; ``defined``: how many a
    rulebook defines."""
    g = _game(kb, game)
    if g is None:
        return None
    rows = glossary_entries(kb.conn, "" if game == ALL else game)
    letters: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        letter = (row["en"].lstrip('["“')[:1] or "#").upper()
        letters.setdefault(letter if letter.isalpha() else "#", []).append(_term_item(row))
    return {
        "game": g,
        "game_url": game_url(g["id"]) if game != ALL else None,
        "letters": [{"letter": k, "terms": v} for k, v in sorted(letters.items())],
        "count": len(rows),
        "defined": sum(1 for r in rows if r["defined"]),
    }


def _renderings(kb: KnowledgeBase, term: dict[str, Any]) -> list[dict[str, Any]]:
    """Each language's renderings, the preferred first, each with how many rules of each
    document use it in that language (counted now, so an English sentence of a Vietnamese
    article counts for the English rendering)."""
    langs: dict[str, dict[str, Any]] = {}
    game = term["game"]

    def add(
        lang: str,
        text: str,
        preferred: bool,
        note: str = "",
        source: str = "",
        provenance: str = "",
    ) -> None:
        group = langs.setdefault(
            lang, {"lang": lang, "language_name": language_name(lang), "renderings": []}
        )
        if any(r["text"].casefold() == text.casefold() for r in group["renderings"]):
            return
        docs = [
            {
                "document": u["document"],
                "title": u["document_title"],
                "short_title": short_title(u["document_title"]),
                "lang": u["document_lang"],
                "url": document_url(u["document"]),
                "variant": u["variant"],
                "provenance": u["provenance"],
                "count": u["count"],
            }
            for u in rendering_uses(kb.conn, text, lang, game)
        ]
        group["renderings"].append(
            {
                "text": text,
                "preferred": preferred,
                "note": note,
                "official": provenance == "official",
                "machine": source == "en_mt",
                "documents": docs,
                "total": sum(d["count"] for d in docs),
            }
        )

    add(term["lang"], term["written"], True)
    for row in kb.rows("glossary_renderings", term=term["id"]):
        note = readable(kb, row["note"] or "")
        add(
            row["lang"], row["text"], bool(row["preferred"]), note, row["source"], row["provenance"]
        )
    order = sorted(langs.values(), key=lambda g: (g["lang"] != "en", g["lang"]))
    for g in order:
        g["renderings"].sort(key=lambda r: (not r["preferred"], r["machine"], -r["total"]))
    return order


def _find_term(kb: KnowledgeBase, game: str, term: str) -> dict[str, Any] | None:
    """A stored term by id (or ``<game>:<id>``), else a term a rulebook defines, of ``game``
    (or every game: "" or ``all``)."""

    def fits(term_game: str) -> bool:
        return game in ("", ALL) or term_game in ("*", game)

    for tid in dict.fromkeys([term, f"{game}:{term}"]):
        row = kb.row("glossary_term", term=tid)
        if row is not None and fits(row["game"]):
            forms = json.loads(row["forms"] or "[]")
            return {**row, "forms": forms, "lang": "en", "written": row["en"], "source": "glossary"}
        d = rulebook_term(kb.conn, tid)
        if d is not None and fits(d["game"]):
            return {
                "id": d["term"],
                "game": d["game"],
                "en": d["en"],
                "forms": [],
                "game_name": None,
                "lang": d["lang"],
                "written": d["written"],
                "source": "rulebook",
            }
    return None


def glossary_term(kb: KnowledgeBase, game: str, term: str) -> dict[str, Any] | None:
    """One term: definitions, renderings with counts, and the rules that use it."""
    row = _find_term(kb, game, term)
    g = _game(kb, game)
    if row is None or g is None or (game != ALL and row["game"] not in ("*", game)):
        return None
    if row["game_name"] is None:
        game_row = kb.row("game", game=row["game"])
        row["game_name"] = game_row["name"] if game_row else row["game"]
    names = [row["en"], *row["forms"]]
    in_game = "" if game == ALL else game
    definitions = [
        {
            **d,
            "url": section_url(d["document"], d["slug"])
            if d["kind"] == "section"
            else rule_url(d["id"]),
            "permalink": rule_url(d["id"]),
        }
        for d in term_definitions(kb.conn, names, row["game"] if in_game else "")
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
            "forms": row["forms"],
            "source": row["source"],
            "url": term_url(row["id"], row["game"]),
        },
        "game": g,
        "definitions": definitions,
        "languages": _renderings(kb, row),
        "rules": rules,
        "extras": extras,
        "notes": notes_of(extras),
        "limit": TERM_RULES,
        "search_url": search_url(row["en"], game=in_game) + "&all=1",
    }


def term_card(kb: KnowledgeBase, term_id: str) -> dict[str, Any] | None:
    """A term as a card beside the rules a search finds: its name, game, first definition
    (with the rule that states it) and preferred rendering in each language, and its page."""
    row = _find_term(kb, "", term_id)
    if row is None:
        return None
    game_row = kb.row("game", game=row["game"]) if row["game"] != "*" else None
    found = term_definitions(kb.conn, [row["en"], *row["forms"]], row["game"])
    cited = rule_sources(kb, [found[0]["id"]]) if found else {}
    definition = None
    if found:
        d = found[0]
        definition = {
            "text": first_sentence(d["text"]),
            "lang": d["lang"],
            "url": rule_url(d["id"]),
            "cite": cited.get(d["id"]),
            "document_title": d["document_title"],
            "document_lang": d["document_lang"],
        }
    renderings: dict[str, dict[str, Any]] = {}
    for r in kb.rows("glossary_renderings", term=row["id"]):
        if r["source"] != "en_mt" and r["lang"] != "en":
            renderings.setdefault(r["lang"], {"lang": r["lang"], "texts": []})["texts"].append(
                r["text"]
            )
    # Sections titled with a rendering (the Vietnamese article's "Bước Thiệt hại"): where the
    # corpus describes the term in another language.
    written = [t for g in renderings.values() for t in g["texts"]]
    described = [
        {
            "title": d["title"],
            "lang": d["lang"],
            "url": section_url(d["document"], d["slug"]),
            "document_title": d["document_title"],
            "document_lang": d["document_lang"],
        }
        for d in term_definitions(kb.conn, written, row["game"])
        if d["kind"] == "section" and d["lang"] != "en"
    ]
    return {
        "described": described[:3],
        "id": row["id"],
        "en": row["en"],
        "game": row["game"],
        "game_name": game_row["name"] if game_row else "every game",
        "url": term_url(row["id"], row["game"]),
        "definition": definition,
        "renderings": [
            {**g, "language_name": language_name(g["lang"]), "texts": g["texts"][:2]}
            for g in renderings.values()
        ],
    }


def term_links(kb: KnowledgeBase, games: list[str]) -> dict[str, dict[str, str]]:
    """Game -> {a term as the rules write it: its glossary page}, for linking terms in rule
    text. Only terms the glossary writes with a capital (Graveyard, Chase Area, Damage Step):
    the game's own words, not everyday ones a glossary also lists (card, turn, attack). And
    the terms a rulebook defines in sections of their own (kb.lookups.definitions) as it writes
    them, when of several words ("Standby Area", "One Time Effect") or a keyword in brackets
    ("[Flying]"): a single plain word ("Hand", "Draw") is also an everyday one."""
    from ...store.vocabulary import load_vocabulary

    vocab = load_vocabulary(kb.conn)
    defined = defined_terms(kb.conn)
    out: dict[str, dict[str, str]] = {}
    for game in dict.fromkeys(games):
        names: dict[str, str] = {}
        for e in vocab.terms:
            if e["game"] not in ("*", game) or not e["en"][:1].isupper() or len(e["text"]) < 3:
                continue
            names.setdefault(e["text"], term_url(e["term"], e["game"]))
        for d in defined:
            written = d["written"]
            if d["game"] != game or not (len(written.split()) > 1 or written.startswith("[")):
                continue
            names.setdefault(written, term_url(d["term"], d["game"]))
        out[game] = names
    return out
