"""What a question is made of: its tokens, what understanding found in it (``Understood``),
and the everyday vocabulary of kb/data/query.toml that reading it relies on.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from ingest.text import CJK_RUN, fold, folded_words

from .. import datafiles


def query_data() -> dict[str, Any]:
    """kb/data/query.toml (see kb.datafiles: ask() loads it from the database's copy)."""
    return datafiles.load("query")


@cache
def stopwords() -> frozenset[str]:
    return frozenset(fold(w) for ws in query_data()["stopwords"].values() for w in ws)


@cache
def vs_words() -> frozenset[str]:
    return frozenset(fold(w) for w in query_data()["vs"])


@cache
def expansions() -> list[dict[str, Any]]:
    """kb/data/query.toml [expand]: (folded key, English forms), longest key first."""
    items = [
        {"key": folded_words(k), "typed": k.lower(), "forms": v}
        for k, v in query_data()["expand"].items()
    ]
    return sorted(items, key=lambda e: -len(e["key"]))


class Token:
    """A word of the question: as typed, folded, and where it stands."""

    __slots__ = ("text", "key", "start", "end")

    def __init__(self, text: str, key: str, start: int, end: int) -> None:
        self.text, self.key, self.start, self.end = text, key, start, end


_TOKEN = re.compile(r"[\w\-'’.]+|[^\s\w]")


def tokens(text: str) -> list[Token]:
    """The words of a question with their places (punctuation-only pieces dropped)."""
    out = []
    for m in _TOKEN.finditer(text):
        raw = m.group().strip(".'’")
        if raw and any(ch.isalnum() for ch in raw):
            out.append(Token(raw, fold(raw), m.start(), m.end()))
    return out


def whole_word(phrase: str) -> re.Pattern[str]:
    """A phrase as whole words; a CJK phrase anywhere (Chinese writes no spaces)."""
    escaped = re.escape(phrase)
    return re.compile(escaped if CJK_RUN.search(phrase) else rf"(?<!\w){escaped}(?!\w)")


@lru_cache(maxsize=256)
def cue_pattern(cues: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for a list of cue phrases (folded), as whole words, CJK ones anywhere:
    compiled once, not once per phrase (kb ask compiles on every run)."""
    folded = sorted({fold(c) for c in cues if c.strip()}, key=lambda c: (-len(c), c))
    cjk = [re.escape(c) for c in folded if CJK_RUN.search(c)]
    plain = [re.escape(c) for c in folded if not CJK_RUN.search(c)]
    parts = [f"(?:{'|'.join(cjk)})"] if cjk else []
    parts += [rf"(?<!\w)(?:{'|'.join(plain)})(?!\w)"] if plain else []
    return re.compile("|".join(parts) or "(?!)")


def has_cue(folded_query: str, cues: list[str]) -> bool:
    """One of the cue phrases is in the question (folded), as whole words."""
    return cue_pattern(tuple(cues)).search(folded_query) is not None


class Understood:
    """What the understanding passes found in a question (see kb.ask.understand)."""

    def __init__(self, text: str, lang: str) -> None:
        self.text = text
        self.lang = lang
        self.game: str | None = None
        self.cards: list[dict[str, Any]] = []  # in order of appearance
        self.vs: tuple[dict[str, Any], dict[str, Any]] | None = None
        self.ambiguous: list[dict[str, Any]] = []
        self.timing: list[dict[str, Any]] = []
        self.terms: list[dict[str, Any]] = []
        self.words: list[str] = []  # content words left, folded
        self.expansions: dict[str, list[str]] = {}  # typed phrase -> English forms
        self.facts: list[str] = []  # card data fields asked for (atk, level...)
        self.years: list[str] = []  # "2005": the era the question is about
        self.definition = False  # "what is ...", "... là gì"
        self.game_hint: str | None = None  # the game only the question's words belong to
        self.quantity = False  # "how many", "tối đa": the answer is a number
        self.corrections: dict[str, str] = {}  # misspelt word -> index word
        self.unresolved = False  # a moment's qualifier names no moment the knowledge base has
        # The moments a qualified moment was named by ("damage calc" of "after damage calc"):
        # passages about them are near what is asked, never what a verdict rests on.
        self.qualified_from: list[str] = []

    def as_json(self) -> dict[str, Any]:
        return {
            "lang": self.lang,
            "game": self.game,
            "cards": self.cards,
            "vs": [self.vs[0]["name"], self.vs[1]["name"]] if self.vs else None,
            "ambiguous": self.ambiguous,
            "timing": [t["node"] for t in self.timing],
            "terms": [t["term"] for t in self.terms],
            "words": self.words,
            "expansions": self.expansions,
            "facts": self.facts,
            "years": self.years,
            "definition": self.definition,
            "game_hint": self.game_hint,
            "quantity": self.quantity,
            "corrections": self.corrections,
            "unresolved": self.unresolved,
        }


def typed_spans(u: Understood) -> list[str]:
    """What the question typed for each card, moment and term it names (folded)."""
    text = fold(u.text)
    spans = [c["typed"] for c in u.cards]
    spans += [
        text[t["start"] : t["end"]]
        for t in [*u.timing, *u.terms]
        if t.get("end", 0) > t.get("start", 0)
    ]
    return [fold(s) for s in spans if s.strip()]
