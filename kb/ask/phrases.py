"""Phrases of the vocabulary (timing names, glossary terms, everyday expressions) found in a
question as whole words, longest first, without overlapping what was already found.

Vocabularies hold hundreds of phrases and a regex per phrase costs more to compile than the
whole search, so ``may_occur`` rules most of them out from the question's words first.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ingest.text import CJK_RUN

from .question import Token, query_words, stopwords

Span = tuple[int, int]
# A timing name typed with a typo ("damge step") must score this much (rapidfuzz ratio).
TIMING_SCORE = 88


def spans_free(used: list[Span], start: int, end: int) -> bool:
    """Nothing found so far overlaps [start, end)."""
    return all(end <= s or start >= e for s, e in used)


def span_of(found: dict[str, Any]) -> Any:
    """Where the question names a term; one found through an expansion, by its own name."""
    return (found["start"], found["end"]) if "start" in found else found["key"]


def unplaced(found: dict[str, Any]) -> dict[str, Any]:
    """A match found in an expansion: it has no place in the question."""
    return {k: v for k, v in found.items() if k not in ("start", "end")}


def _inflections(word: str) -> tuple[str, str]:
    """(what an English inflection of ``word`` starts with, regex of its endings): "negate"
    is also "negates", "negated", "negating"; other words take a plural "s"."""
    if len(word) >= 4 and word.isascii() and word.isalpha():
        if word.endswith("e"):
            return word[:-1], "(?:e|es|ed|ing)"
        return word, "(?:s|es|ed|ing)?"
    return word, "s?"


def may_occur(
    key: str, present: frozenset[str], folded_query: str, plural_inside: bool = False
) -> bool:
    """False when the phrase ``key`` (folded words) cannot occur in the question.

    Vocabularies hold hundreds of phrases and a regex per phrase costs more to compile than the
    whole search; this check leaves a handful. As in phrase_pattern(): a name's last word may
    be inflected; with ``plural_inside`` (everyday phrases), every word may take a plural "s".
    """
    parts = key.split()
    if CJK_RUN.search(key):
        return all(p in folded_query for p in parts)
    if plural_inside:
        return all(p in present or p + "s" in present for p in parts)
    start = _inflections(parts[-1])[0]
    return all(p in present for p in parts[:-1]) and (
        parts[-1] in present or any(w.startswith(start) for w in present)
    )


@cache
def phrase_pattern(key: str, plural_inside: bool = False) -> re.Pattern[str]:
    """Whole-word regex for a folded phrase, any dash or space between its words: a name's
    last word inflected ("negated" is the term "negate"); with ``plural_inside`` (everyday
    phrases, which list their own variants: "limited" is not "limit"), a plural "s" on each."""
    parts = key.split()
    if CJK_RUN.search(key):
        return re.compile(r"[\s\-–]+".join(re.escape(w) for w in parts))
    if plural_inside:
        body = r"s?[\s\-]+".join(re.escape(w) for w in parts) + "s?"
    else:
        start, ending = _inflections(parts[-1])
        body = r"[\s\-–]+".join([*(re.escape(w) for w in parts[:-1]), re.escape(start) + ending])
    return re.compile(rf"(?<!\w){body}(?!\w)")


def match_phrases(
    folded_query: str,
    entries: list[dict[str, Any]],
    used: list[tuple[int, int]],
    typed: str | None = None,
) -> list[dict[str, Any]]:
    """Entries whose key occurs in the folded query as whole words, longest first, no overlap.

    Several entries with the same key (the same name in the TCG and the OCG tree) all match.
    A name that folds to a stopword (the Vietnamese "thẻ" folds to "the") matches only when
    ``typed``, the question as typed, writes it with its accents.
    """
    found = []
    claimed: dict[tuple[int, int], str] = {}
    present = query_words(folded_query)
    stop = stopwords()
    for entry in sorted(entries, key=lambda e: -len(e["key"])):
        key = entry["key"]
        if not key or not may_occur(key, present, folded_query):
            continue
        if key in stop and (
            typed is None
            or not re.search(rf"(?<!\w){re.escape(entry['text'].lower())}(?!\w)", typed.lower())
        ):
            continue
        for m in re.finditer(phrase_pattern(key), folded_query):
            span = (m.start(), m.end())
            if claimed.get(span) == key or spans_free(used, *span):
                if span not in claimed:
                    used.append(span)
                    claimed[span] = key
                ident = entry.get("node") or entry.get("term")
                if not any(
                    (f.get("node") or f.get("term")) == ident and (f["start"], f["end"]) == span
                    for f in found
                ):
                    found.append({**entry, "start": m.start(), "end": m.end()})
    return found


def fuzzy_timing(
    tokens: list[Token], timing: list[dict[str, Any]], used: list[tuple[int, int]]
) -> list[dict[str, Any]]:
    """Timing names typed with a typo ("damge step"): as many words, each close to its pair."""
    from rapidfuzz import fuzz

    by_length: dict[int, list[dict[str, Any]]] = {}
    for t in timing:
        n = len(t["key"].split())
        if n >= 2:
            by_length.setdefault(n, []).append(t)
    found: list[dict[str, Any]] = []
    for n in (4, 3, 2):
        for i in range(len(tokens) - n + 1):
            window = tokens[i : i + n]
            if not spans_free(used, window[0].start, window[-1].end):
                continue
            key = " ".join(t.key for t in window)
            best = None
            for entry in by_length.get(n, []):
                pairs = zip(key.split(), entry["key"].split(), strict=True)
                if all(fuzz.ratio(a, b) >= 75 for a, b in pairs):
                    score = fuzz.ratio(key, entry["key"])
                    if score >= TIMING_SCORE and (best is None or score > best[0]):
                        best = (score, entry)
            if best:
                used.append((window[0].start, window[-1].end))
                found += [
                    {**e, "start": window[0].start, "end": window[-1].end}
                    for e in by_length[n]
                    if e["key"] == best[1]["key"]
                ]
    return found
