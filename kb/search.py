"""Plain full-text search (``kb search``): ranked rules for a text, in any corpus language.

FTS5's BM25 finds the candidates; they are then ordered so that a rule whose own text holds
the query as a phrase comes before one that only matches scattered words or its section
title, and, for an accented query, a phrase written with the same accents comes first.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from typing import Any

from ingest.text import CJK_RUN, fold, words

from .db import run
from .limits import cap

# BM25 candidates fetched before re-ranking.
CANDIDATES = 200


def _normal(text: str) -> str:
    return " ".join(words(unicodedata.normalize("NFC", text).lower()))


def _phrase(query: str) -> re.Pattern[str] | None:
    if not query:
        return None
    if CJK_RUN.search(query):
        return re.compile(re.escape(query))
    return re.compile(rf"(?<!\w){re.escape(query)}(?!\w)")


def phrase_rank(hits: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """Order BM25 hits: exact phrase in the text, folded phrase, all words in the text, BM25."""
    exact_q = _normal(text)
    folded_q = fold(exact_q)
    exact_p, folded_p = _phrase(exact_q), _phrase(folded_q)
    terms = [fold(w) for w in words(exact_q)]

    def key(hit: dict[str, Any]) -> tuple[int, int, int, float, int]:
        body = _normal(" ".join(hit.get(k) or "" for k in ("number", "label", "title", "text")))
        fbody = fold(body)
        has_exact = bool(exact_p and exact_p.search(body))
        has_folded = bool(folded_p and folded_p.search(fbody))
        has_all = all(t in fbody for t in terms)
        return (not has_exact, not has_folded, not has_all, hit["score"], hit.get("seq", 0))

    return sorted(hits, key=key)


def search(
    conn: sqlite3.Connection, text: str, *, game: str = "", lang: str = "", limit: int = 10
) -> list[dict[str, Any]]:
    """Rules matching every word of ``text`` (any word, if none matches all), best first.

    ``text`` is capped first (kb.limits): what is searched is ``cap(text, "search").text``."""
    text = cap(text, "search", conn).text
    hits = run(conn, "search", q=text, mode="", game=game, lang=lang, limit=CANDIDATES)
    if not hits:
        hits = run(conn, "search", q=text, mode="any", game=game, lang=lang, limit=CANDIDATES)
    return phrase_rank(hits, text)[:limit]
