"""Phrases of the vocabulary (timing names, glossary terms, everyday expressions) found in a
question as whole words, longest first, without overlapping what was already found.

Words are compared at the levels of sameness of ingest.text (exact, stem, plural), after a
set lookup rules out the hundreds of phrases a question cannot hold.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ingest.text import CJK_RUN, plural_key, stem, word_spans

from .matching import PLURAL, STEM
from .words import Token, stopwords

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


class QuestionText:
    """A folded question as words with their places, for finding phrases in it."""

    __slots__ = ("folded", "spans", "keys", "key_sets")

    def __init__(self, folded: str) -> None:
        self.folded = folded
        self.spans = word_spans(folded)
        words = [w for w, _, _ in self.spans]
        self.keys = {"exact": words, STEM: [stem(w) for w in words]}
        self.keys[PLURAL] = [plural_key(w) for w in words]
        self.key_sets = {level: frozenset(keys) for level, keys in self.keys.items()}


@cache
def question_text(folded: str) -> QuestionText:
    return QuestionText(folded)


def _occurrences(text: str, word: str) -> list[Span]:
    """Every place ``word`` stands in ``text``, not overlapping (as re.finditer finds them)."""
    out: list[Span] = []
    at = text.find(word)
    while at >= 0:
        out.append((at, at + len(word)))
        at = text.find(word, at + len(word))
    return out


def find_phrase(folded: str, key: str, plural_inside: bool = False) -> list[Span]:
    """Where the phrase ``key`` (folded words) stands in the folded question, as whole words
    (character spans). A name's last word may be inflected ("negated" is the term "negate"),
    or singular where the name is plural;
    with ``plural_inside`` (everyday phrases, which list their own variants: "limited" is not
    "limit"), each word may differ by a plural "s". A CJK phrase is found anywhere (Chinese
    writes no spaces)."""
    parts = key.split()
    if not parts:
        return []
    if CJK_RUN.search(key):
        if len(parts) == 1:  # most CJK names: a plain substring, no pattern to compile
            return _occurrences(folded, parts[0])
        # Chinese writes no spaces, even beside a Latin letter ("G卡组" is the G deck).
        pattern = r"[\s\-–]*".join(re.escape(w) for w in parts)
        return [m.span() for m in re.finditer(pattern, folded)]
    q = question_text(folded)
    if plural_inside:
        # A word typed in the plural ("cards" for the phrase's "card"), never the reverse.
        wanted = [("exact" if plural_key(p) != p else PLURAL, p) for p in parts]
    else:
        wanted = [("exact", p) for p in parts[:-1]] + [(STEM, stem(parts[-1]))]
    if any(k not in q.key_sets[level] for level, k in wanted):
        return []
    out = []
    for i in range(len(q.spans) - len(wanted) + 1):
        if all(q.keys[level][i + j] == k for j, (level, k) in enumerate(wanted)):
            # An inflection of the name's last word starts with the word ("negated" is
            # "negate"); another word of the same stem is another word ("limiter" and "limit"
            # are not "Limited").
            typed = q.keys["exact"][i + len(wanted) - 1]
            # A name written plural is typed singular too ("Flip Effects": "its flip effect").
            singular = parts[-1] in (f"{typed}s", f"{typed}es")
            if plural_inside or singular or typed.startswith(parts[-1].removesuffix("e")):
                out.append((q.spans[i][1], q.spans[i + len(wanted) - 1][2]))
    return out


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
    found: list[dict[str, Any]] = []
    claimed: dict[tuple[int, int], str] = {}
    stop = stopwords()
    for entry in sorted(entries, key=lambda e: -len(e["key"])):
        key = entry["key"]
        spans = find_phrase(folded_query, key) if key else []
        if not spans:
            continue
        if key in stop and (
            typed is None
            or not re.search(rf"(?<!\w){re.escape(entry['text'].lower())}(?!\w)", typed.lower())
        ):
            continue
        for span in spans:
            if claimed.get(span) == key or spans_free(used, *span):
                if span not in claimed:
                    used.append(span)
                    claimed[span] = key
                ident = entry.get("node") or entry.get("term")
                if not any(
                    (f.get("node") or f.get("term")) == ident and (f["start"], f["end"]) == span
                    for f in found
                ):
                    found.append({**entry, "start": span[0], "end": span[1]})
    return found


def _close_words(tokens: list[Token], names: set[str]) -> dict[str, set[str]]:
    """For each typed word, the words of names it may be a typo of: a ratio of 75 needs
    2 x (letters in common) >= 0.75 x (both lengths)."""
    from collections import Counter

    counted = {w: Counter(w) for w in names}
    out: dict[str, set[str]] = {}
    for word in {t.key for t in tokens}:
        mine = Counter(word)
        out[word] = {
            w
            for w, theirs in counted.items()
            if 200 * sum((mine & theirs).values()) >= 75 * (len(word) + len(w))
        }
    return out


def fuzzy_timing(
    tokens: list[Token], timing: list[dict[str, Any]], used: list[tuple[int, int]]
) -> list[dict[str, Any]]:
    """Timing names typed with a typo ("damge step"): as many words, each close to its pair.

    A pair of words can only be that close when they share enough letters (an upper bound of
    rapidfuzz's ratio, counted without it): rapidfuzz, slow to import, is loaded only when
    some name could match."""
    by_length: dict[int, list[dict[str, Any]]] = {}
    for t in timing:
        n = len(t["key"].split())
        if n >= 2:
            by_length.setdefault(n, []).append(t)
    close = _close_words(tokens, {w for t in timing for w in t["key"].split()})
    found: list[dict[str, Any]] = []
    for n in (4, 3, 2):
        for i in range(len(tokens) - n + 1):
            window = tokens[i : i + n]
            if not spans_free(used, window[0].start, window[-1].end):
                continue
            key = " ".join(t.key for t in window)
            best = None
            for entry in by_length.get(n, []):
                pairs = list(zip(key.split(), entry["key"].split(), strict=True))
                if not all(b in close.get(a, ()) for a, b in pairs):
                    continue
                from rapidfuzz import fuzz

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
