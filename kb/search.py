"""Plain full-text search (``kb search``): ranked rules for a text, in any corpus language.

FTS5's BM25 finds the candidates; they are then ordered so that a rule whose own text holds
the query as a phrase comes before one that only matches scattered words or its section
title, and, for an accented query, a phrase written with the same accents comes first. The
same words in several versions of a rulebook are one hit, cited from the current version,
with the older ids in ``also``; a hit of a superseded version says so (``superseded_by``).
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


def current_versions(conn: sqlite3.Connection, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One hit per rule text across versions of a rulebook, cited from the current version
    (where the better ranked of the copies stood), the others' ids in ``also``. Words the
    version diff found unchanged (glued or re-punctuated by a PDF extraction) are the same."""
    older = [h["id"] for h in hits if h.get("superseded_by")]
    newer = {r["rule"]: r["newer"] for r in run(conn, "ask_newer", ids=older)} if older else {}
    by_id = {h["id"]: h for h in hits}
    kept: dict[tuple[str, str], dict[str, Any]] = {}
    out: list[dict[str, Any]] = []
    for hit in hits:
        same = by_id.get(newer.get(hit["id"], ""))
        key = (hit["game"], _normal((same or hit)["text"]))
        first = kept.get(key)
        if first is None:
            hit = {**hit, "also": []}
            kept[key] = hit
            out.append(hit)
        elif first.get("superseded_by") and not hit.get("superseded_by"):
            also = [first["id"], *first["also"]]
            first.clear()
            first.update({**hit, "also": also})
        else:
            first["also"].append(hit["id"])
    return out


def search(
    conn: sqlite3.Connection, text: str, *, game: str = "", lang: str = "", limit: int = 10
) -> list[dict[str, Any]]:
    """Rules matching every word of ``text`` (any word, if none matches all), best first, the
    current version of a rulebook standing for the same words in older ones.

    ``text`` is capped first (kb.limits): what is searched is ``cap(text, "search").text``."""
    text = cap(text, "search", conn).text
    hits = run(conn, "search", q=text, mode="", game=game, lang=lang, limit=CANDIDATES)
    if not hits:
        hits = run(conn, "search", q=text, mode="any", game=game, lang=lang, limit=CANDIDATES)
    return current_versions(conn, phrase_rank(hits, text))[:limit]
