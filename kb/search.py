"""Plain full-text search (``kb search`` and the website's search): ranked rules for a text,
in any corpus language.

FTS5's BM25 finds the candidates; they are then ordered so that a rule whose own text holds
the query as a phrase comes before one that only matches scattered words or its section
title, and, for an accented query, a phrase written with the same accents comes first.

What a judge expects of a search box on top of that:
- a rule id (``fow-cr-8.01:105.4``) or a rule number (``105.4``) is that rule, first
  (``exact``: the website opens it, the CLI prints it first);
- the current version of a rulebook: rules of a superseded version are left out when the
  current one has the same text (``also_in`` names the older versions that say the same),
  and shown only when asked for (``versions="all"``) or when nothing current matches;
- the glossary's other renderings of a term the text names ("伤害步骤" also searches
  "Damage Step" and "Bước Thiệt hại", as ``kb ask`` understands it; ``expanded``).

The same words in several versions of a rulebook are one hit, cited from the current version,
with the older ids in ``also`` (words the version diff found unchanged count as the same); a
hit of a superseded version says so (``superseded_by``).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Callable
from typing import Any

from ingest.text import CJK_RUN, fold, words

from .lexicon.phrasebook import MAX_RENDERINGS, named_phrases
from .limits import cap
from .store.db import run

# BM25 candidates fetched before re-ranking.
CANDIDATES = 200
# A rule number as typed: 105, 105.4, 105.3a, with or without a final dot.
RULE_NUMBER = re.compile(r"\d{1,4}(?:\.\d+[a-z]?)*\.?")


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


def exact_rules(conn: sqlite3.Connection, text: str, *, game: str = "") -> list[dict[str, Any]]:
    """The rules ``text`` names by id or number, current versions first (none: [])."""
    ref = " ".join(text.split())
    if not ref or " " in ref or not (":" in ref or RULE_NUMBER.fullmatch(ref)):
        return []
    return run(conn, "exact_rules", ref=ref.rstrip(".") if ":" not in ref else ref, game=game)


def _candidates(
    conn: sqlite3.Connection, text: str, game: str, lang: str
) -> tuple[list[dict[str, Any]], bool]:
    """The rules holding every word (phrases first), or, when none does, any word; and
    whether every word was found."""
    hits = run(conn, "search", q=text, mode="", game=game, lang=lang, limit=CANDIDATES)
    if hits:
        return phrase_rank(hits, text), True
    hits = run(conn, "search", q=text, mode="any", game=game, lang=lang, limit=CANDIDATES)
    return phrase_rank(hits, text), False


def expansions(conn: sqlite3.Connection, text: str) -> list[dict[str, Any]]:
    """The terms and moments ``text`` names and the other renderings searched for each, as
    ``{"typed", "kind", "id", "as": [texts]}``; the texts each replace what was typed."""
    out = []
    for p in named_phrases(conn, text):
        if p["renderings"]:
            out.append({**p, "as": p["renderings"][:MAX_RENDERINGS]})
    return out


def _expanded_texts(text: str, found: list[dict[str, Any]]) -> list[str]:
    """The text once for each rendering of each named phrase, in its place."""
    normal = unicodedata.normalize("NFC", " ".join(text.split()))
    out = []
    for f in found:
        pattern = re.compile(re.escape(f["typed"]), re.IGNORECASE)
        for rendering in f["as"]:
            # A function, not a string: the rendering is literal text, not a template.
            replaced = pattern.sub(_literal(rendering), normal, count=1)
            if replaced != normal and replaced not in out:
                out.append(replaced)
    return out


def _similar(
    conn: sqlite3.Connection, text: str, game: str, lang: str, seen: set[str], limit: int
) -> list[dict[str, Any]]:
    """Up to ``limit`` passages closest to ``text`` in meaning (``similar`` true), not among
    ``seen``, of ``game`` and ``lang`` when given, closest first; none without vectors."""
    from .retrieve.dense import similar

    found = similar(conn, text, game=game, limit=limit + len(seen) + 20)
    if not found:
        return []
    rows = {r["seq"]: r for r in run(conn, "search_rows", seqs=[seq for seq, _ in found])}
    out = []
    for seq, score in found:
        row = rows.get(seq)
        if row and row["id"] not in seen and (not lang or row["lang"] == lang):
            out.append({**row, "score": score, "similar": True})
    return out[:limit]


def _fused(*lists: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Hits of several ranked lists, by reciprocal rank (kb.retrieve.fuse's constant)."""
    from .retrieve.fuse import RRF_K

    score: dict[str, float] = {}
    first: dict[str, dict[str, Any]] = {}
    for hits in lists:
        for k, hit in enumerate(hits):
            score[hit["id"]] = score.get(hit["id"], 0.0) + 1 / (RRF_K + k)
            first.setdefault(hit["id"], hit)
    return [first[i] for i in sorted(score, key=lambda i: -score[i])]


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _: text


def _older_same(conn: sqlite3.Connection, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Rule id -> the older versions' rules with the very same text."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in run(conn, "older_versions", ids=ids):
        if row["same"]:
            out.setdefault(row["rule"], []).append(
                {"id": row["id"], "document": row["document"], "version": row["version"]}
            )
    return out


def search(
    conn: sqlite3.Connection,
    text: str,
    *,
    game: str = "",
    lang: str = "",
    limit: int = 10,
    versions: str = "current",
    expand: bool = True,
    dense: bool = True,
) -> list[dict[str, Any]]:
    """Rules matching every word of ``text`` (any word, if none matches all), best first.

    ``text`` is capped first (kb.limits): what is searched is ``cap(text, "search").text``.
    A rule the text names by id or number comes first (``exact`` true). With ``versions``
    "current", the same words in several versions are one hit cited from the current version
    (``also``: the older ids), and a rule of a superseded rulebook is left out unless nothing
    current matches; each hit's ``also_in`` lists the older versions with the same text. With
    ``expand``, the other renderings of the glossary terms and moments the text names are
    searched too, their hits after those of the text as typed. With ``dense``, when fewer
    rules match the words than ``limit``, the passages closest in meaning follow
    (``similar`` true on those hits).
    """
    text = cap(text, "search", conn).text
    exact = exact_rules(conn, text, game=game)
    hits, every_word = _candidates(conn, text, game, lang)
    if expand:
        for other in _expanded_texts(text, expansions(conn, text)):
            more, every = _candidates(conn, other, game, lang)
            hits, every_word = hits + more, every_word or every
    if not hits and not exact:
        # Not one word of the text is in any rule: gibberish, or a topic the corpus lacks.
        # Nearest passages in meaning would be a guess (similarities are not calibrated:
        # "qwxz zzkv" scores as high as a real question), so there are no hits.
        return []
    if dense and not every_word:
        # No rule holds every word: the text reads as a question, not a phrase to find, and
        # the passages closest in meaning (kb.retrieve's dense stage) are fused with the
        # any-word matches by reciprocal rank.
        hits = _fused(hits, _similar(conn, text, game, lang, set(), CANDIDATES))
    elif dense and len(hits) < limit:
        # Fewer word matches than asked for: the passages closest in meaning follow them.
        hits += _similar(conn, text, game, lang, {h["id"] for h in hits}, limit - len(hits))
    seen: set[str] = set()
    ordered = []
    for h in [{**e, "exact": True} for e in exact] + hits:
        if h["id"] not in seen:
            seen.add(h["id"])
            ordered.append({"exact": False, **h})
    if versions == "current":
        # A rule named by its id stays, whatever its version; by its number, the current
        # version's when there is one.
        by_id = [h for h in ordered if h["exact"] and h["id"] == text.strip()]
        folded = current_versions(conn, [h for h in ordered if h not in by_id])
        current = [h for h in folded if not h["superseded_by"]]
        ordered = by_id + current if (by_id or current) else folded
    ordered = [{"also": [], **h} for h in ordered]
    top = ordered[:limit]
    older = _older_same(conn, [h["id"] for h in top])
    for h in top:
        h["also_in"] = older.get(h["id"], [])
    return top
