"""``kb ask``: answer a judge's question with a composed ruling and cited passages.

understand (kb.ask.understand) -> retrieve (kb.retrieve.pipeline: lexical and dense candidates,
fusion, the learned ranker, one hit per text) -> compose an answer (kb.ask.answers).
The JSON shape is documented in the README ("kb ask --json").

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ingest.text import use_languages

from ..limits import cap
from ..lookups.labels import narrate
from ..lookups.timing import node_path
from ..retrieve.features import body
from ..retrieve.groups import coverage
from ..retrieve.pipeline import retrieve
from ..store import datafiles
from ..store.db import first, run
from ..store.vocabulary import load_vocabulary
from .answers import compose
from .question import Understood
from .understand import understand
from .verdicts import decide
from .verdicts.common import not_covered, verdict_answer

# A passage must cover at least this share of the question's words to count as a match when
# the question names no card, moment or term the knowledge base knows.
MIN_COVERAGE = 0.34


def _timing_path(conn: sqlite3.Connection, node_ids: list[str]) -> dict[str, Any] | None:
    if not node_ids:
        return None
    node = first(conn, "timing_node", id=node_ids[0]) or {"ruleset": ""}
    return {"id": node_ids[0], "path": node_path(conn, node_ids[0]), "ruleset": node["ruleset"]}


def _translations(conn: sqlite3.Connection, rule_id: str) -> list[dict[str, Any]]:
    """Rules aligned with this one (its translations, or its source if it is a translation)."""
    return run(conn, "rule_translations", id=rule_id)


def _hit(
    conn: sqlite3.Connection, row: dict[str, Any], names: dict[str, str], lang: str
) -> dict[str, Any]:
    translations = _translations(conn, row["id"])
    shown = next(
        (t for t in translations if lang and t["lang"] == lang and row["lang"] != lang), None
    )
    return {
        "id": row["id"],
        "also": row.get("also", []),
        "game": row["game"],
        "lang": row["lang"],
        "kind": row["kind"],
        "title": " ".join(p for p in (row["number"], row["label"], row["title"]) if p),
        "text": row["text"],
        "shown_translation": shown,
        "score": row.get("tree_score", row["score"]),  # the order the hits are in
        "timing": _timing_path(conn, (row["nodes"] or "").split()),
        "cards": [names.get(c, c) for c in (row["card_ids"] or "").split()],
        "section": row["section_path"],
        "provenance": row["provenance"],
        "era": row["era"],
        "source": {"document": row["document"], "file": row["file"], "line": row["line_start"]},
        "translations": translations,
        # A curated reading in another language (a community gloss), shown beside the text.
        "glosses": run(conn, "rule_glosses", id=row["id"]),
    }


def card_warnings(conn: sqlite3.Connection, card_ids: list[str]) -> list[str]:
    """The ruling-change notes of the cards an answer or its passages involve (Honest's 2014
    change), said wherever the card's rulings are shown."""
    ids = list(dict.fromkeys(card_ids))
    return [f"{r['name']}: {r['notes']}" for r in run(conn, "card_notes", ids=ids)]


def game_unnamed(conn: sqlite3.Connection, u: Understood, answer: dict[str, Any]) -> list[str]:
    """A question naming no game ("does the first player draw?") is answered from the rules of
    the game its sources are of; a ruling says which, for a judge at another game's table."""
    if u.game:
        return []
    documents = {s["document"] for s in answer["sources"]}
    games = {d["game_name"] for doc in documents if (d := first(conn, "document", document=doc))}
    return [narrate("game_unnamed", games=" and ".join(sorted(games)))] if games else []


def ask(
    conn: sqlite3.Connection, question: str, *, game: str = "", lang: str = "", limit: int = 5
) -> dict[str, Any]:
    """Understand, retrieve, rank and compose. ``confident`` is False when nothing matched.

    The question is first capped (kb.limits): ``cut`` says what was cut, or is None."""
    capped = cap(question, "question", conn)
    question = capped.text
    for name in datafiles.ASK_FILES:
        datafiles.load(name, conn)  # the database's parsed copy, if current
    use_languages(datafiles.load("languages"))  # the stemmer chosen without tomllib
    vocab = load_vocabulary(conn)
    u = understand(conn, question, vocab, game=game)
    stages = retrieve(conn, u, game=game, lang=lang)
    rows = stages.hits
    recognised = bool(u.cards or u.timing or u.terms or u.expansions)
    top_coverage = rows[0]["features"]["coverage"] if rows else 0.0
    if rows and not recognised and top_coverage < MIN_COVERAGE:
        # A question typed as one run of Chinese characters is one word no passage holds.
        top_coverage = coverage(stages.groups, body(rows[0]), chinese_share=True)
    confident = bool(rows) and (recognised or top_coverage >= MIN_COVERAGE)
    asked, verdict = decide(conn, u, rows if confident else [])
    covered = None
    if asked.kind:  # a question asking for a verdict gets one, or is said not covered
        answer = verdict_answer(conn, u, verdict) if verdict else None
        if answer:
            answer["warnings"] = [*game_unnamed(conn, u, answer), *answer["warnings"]]
        covered = None if verdict else not_covered(u, asked)
    else:
        answer = compose(conn, u) if confident else None
    names = {row["id"]: row["name"] for row in run(conn, "card_names")}
    shown = rows[:limit] if confident else []
    hits = [_hit(conn, row, names, lang) for row in shown]
    involved = [c["id"] for c in u.cards] + [
        c for row in shown for c in (row["card_ids"] or "").split()
    ]
    return {
        "query": question,
        "cut": capped.note,
        "understood": {**u.as_json(), "asks": asked.kind or None},
        "confident": confident,
        "answer": answer,
        "not_covered": covered,
        # The filter of kb/ask/verdicts/filters.py that stopped a verdict, if one did.
        "stopped_by": asked.stopped_by or None,
        "warnings": card_warnings(conn, involved),
        # "lexical+dense", or "lexical" when the database has no vectors (kb build
        # --no-embeddings) or their model cannot run here.
        "retrieval": "lexical+dense" if stages.dense_used else "lexical",
        "hits": hits,
    }


def ask_named_game(
    conn: sqlite3.Connection, question: str, *, game: str = "", lang: str = "", limit: int = 5
) -> dict[str, Any]:
    """ask() with ``game`` as a person types it (an id or an alias such as "ygo"), as both
    ``kb ask`` entry points take it; an unknown game raises KbError."""
    if game:
        from ..lookups.timing import game_id

        game = game_id(conn, game)
    return ask(conn, question, game=game, lang=lang, limit=limit)
