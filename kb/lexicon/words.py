"""Everyday words of a question and of a rule: tokens with their places, the vocabulary of
kb/data/query.toml (stopwords, "vs" words, expansions), and cue phrases found as whole words.

Both plain search and ``kb ask`` read text with these; the ask engine builds on them.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from ingest.text import CJK_RUN, fold, folded_words, words

from ..store import datafiles


def query_data() -> dict[str, Any]:
    """kb/data/query.toml (see kb.store.datafiles: ask() loads it from the database's copy)."""
    return datafiles.load("query")


@cache
def stopwords() -> frozenset[str]:
    return datafiles.stopwords()


def unmarked_language(text: str) -> str:
    """The language other than English whose own function words (kb/data/query.toml
    [stopwords], less English's) the text uses twice or more ("the nao", "co duoc khong": a
    question typed without Vietnamese marks), or ""."""
    stop = query_data()["stopwords"]
    found = {fold(w) for w in words(text)}
    english = set(stop.get("en", ()))
    for lang, listed in stop.items():
        if lang != "en" and len(found & (set(listed) - english)) >= 2:
            return str(lang)
    return ""


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
    """The words of a question with their places (punctuation-only pieces dropped).

    Chinese writes an English term or a number into a sentence without spaces ("进行两次
    Judgment吗", "2005年OCG"): a run of CJK characters and a run of other letters are
    two words."""
    out = []
    for m in _TOKEN.finditer(text):
        for start, end in _script_runs(m.group(), m.start()):
            raw = text[start:end].strip(".'’")
            if raw and any(ch.isalnum() for ch in raw):
                out.append(Token(raw, fold(raw), start, end))
    return out


def _script_runs(piece: str, offset: int) -> list[tuple[int, int]]:
    """``piece`` (at ``offset``) split where CJK characters meet other ones."""
    cuts = [0]
    for m in CJK_RUN.finditer(piece):
        cuts += [m.start(), m.end()]
    cuts.append(len(piece))
    return [(offset + a, offset + b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]


def whole_word(phrase: str) -> re.Pattern[str]:
    """A phrase as whole words; a CJK phrase anywhere (Chinese writes no spaces)."""
    escaped = re.escape(phrase)
    return re.compile(escaped if CJK_RUN.search(phrase) else rf"(?<!\w){escaped}(?!\w)")


class CueMatch:
    """Where a cue stands in a text: the few methods of a regular expression's match."""

    __slots__ = ("_text", "_start", "_end")

    def __init__(self, text: str, start: int, end: int) -> None:
        self._text, self._start, self._end = text, start, end

    def group(self) -> str:
        return self._text[self._start : self._end]

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class CuePattern:
    """Cue phrases (folded) found as whole words, CJK ones anywhere, with the ``search`` and
    ``finditer`` of a regular expression that alternates them longest first. Found with
    ``str.find``, not compiled: kb ask is a process per question, and compiling one large
    alternation per cue list cost it milliseconds on every run."""

    def __init__(self, cues: tuple[str, ...]) -> None:
        folded = sorted({fold(c) for c in cues if c.strip()}, key=lambda c: (-len(c), c))
        cjk = [c for c in folded if CJK_RUN.search(c)]
        # (cue, whole words only), in the order the alternation tries them
        self.cues = [(c, False) for c in cjk] + [(c, True) for c in folded if c not in cjk]

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> CueMatch | None:
        """The leftmost cue (the first in order where several start there), as
        ``re.Pattern.search``: a word character before ``pos`` counts, none after
        ``endpos``."""
        end = len(text) if endpos is None else min(endpos, len(text))
        best: tuple[int, int] | None = None
        for cue, whole in self.cues:
            at = text.find(cue, pos, end)
            while at >= 0 and (best is None or at < best[0]):
                stop = at + len(cue)
                if not whole or (
                    not (at > 0 and _word_char(text[at - 1]))
                    and not (stop < end and _word_char(text[stop]))
                ):
                    best = (at, stop)
                    break
                at = text.find(cue, at + 1, end)
        return CueMatch(text, *best) if best else None

    def finditer(self, text: str) -> list[CueMatch]:
        """Every cue, left to right, none overlapping another."""
        out, pos = [], 0
        while (m := self.search(text, pos)) is not None:
            out.append(m)
            pos = m.end()
        return out


@lru_cache(maxsize=256)
def cue_pattern(cues: tuple[str, ...]) -> CuePattern:
    """The cue phrases of a list, found as whole words, CJK ones anywhere (CuePattern)."""
    return CuePattern(cues)


def has_cue(folded_query: str, cues: list[str]) -> bool:
    """One of the cue phrases is in the question (folded), as whole words."""
    return cue_pattern(tuple(cues)).search(folded_query) is not None
