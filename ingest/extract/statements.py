"""Reading a sentence (of a rule, or a judge's question) as a statement, with the multilingual
lexicon of data/statements.toml: its modality (can, cannot, must, only), its actions, which
Chain it is about, the condition it opens with, and the quantities it sets.

Words are whole words, case-insensitive, found in the text and in its folded form (so an
unaccented Vietnamese question reads like an accented rule). Standard library and
ingest.text only: kb ask reads questions with the same functions.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from ..text import CJK_RUN, fold

LANGS = ("en", "vi", "zh")


@cache
def lexicon() -> dict[str, Any]:
    text = resources.files("ingest").joinpath("data/statements.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _alternation(phrases: list[str]) -> re.Pattern[str]:
    """Whole-word alternation of folded phrases, longest first; CJK phrases anywhere."""
    ordered = sorted({fold(p) for p in phrases if p.strip()}, key=lambda p: (-len(p), p))
    parts = [
        re.escape(p) if CJK_RUN.search(p) else rf"(?<!\w){re.escape(p)}(?!\w)" for p in ordered
    ]
    return re.compile("|".join(parts) or "(?!)")


def _words(entry: dict[str, Any]) -> list[str]:
    return [w for lang in LANGS for w in entry.get(lang, [])]


@cache
def modality_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(modality, pattern), in the order they are tried."""
    return tuple((m["id"], _alternation(_words(m))) for m in lexicon()["modality"])


@cache
def action_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((a["id"], _alternation(_words(a))) for a in lexicon()["actions"])


@cache
def chain_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((k, _alternation(v)) for k, v in lexicon()["chains"].items())


@cache
def condition_pattern() -> re.Pattern[str]:
    c = lexicon()["conditions"]
    return _alternation([w for lang in LANGS for w in c.get(lang, [])])


def modality(text: str) -> str:
    """The modality of a clause: the first of only, cannot, must, can it holds, else ""."""
    folded = fold(text)
    return next((m for m, pattern in modality_patterns() if pattern.search(folded)), "")


def modality_at(text: str, position: int) -> str:
    """The modality that governs a word at ``position`` (in the folded text): the first marker
    after it ("Shrink ... cannot be activated"), else the last one before it ("chỉ có thể
    kích hoạt Magic Cylinder")."""
    folded = fold(text)
    marks = sorted(
        (m.start(), m.end(), kind)
        for kind, pattern in modality_patterns()
        for m in pattern.finditer(folded)
    )
    # Of overlapping markers ("cannot" holds "can"), the longest.
    kept: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(marks, key=lambda m: (m[0], -(m[1] - m[0]))):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, kind))
    after = [k for s, _, k in kept if s >= position]
    if after:
        return after[0]
    before = [k for s, _, k in kept if s < position]
    return before[-1] if before else ""


def actions(text: str) -> list[str]:
    """The actions a clause names, in lexicon order."""
    folded = fold(text)
    return [a for a, pattern in action_patterns() if pattern.search(folded)]


def chain(text: str) -> str:
    """ "first" or "later" when the clause names which Chain it is about, else ""."""
    folded = fold(text)
    return next((k for k, pattern in chain_patterns() if pattern.search(folded)), "")


def split_condition(sentence: str) -> tuple[str, str] | None:
    """(condition, what follows) of a sentence that opens with a condition ("If X, Y";
    "Nếu X thì Y"), else None."""
    folded = fold(sentence)
    m = condition_pattern().match(folded.lstrip())
    if not m:
        return None
    offset = len(folded) - len(folded.lstrip())
    body = sentence[offset + m.end() :]
    for marker in (", then ", " then ", " thì ", ", "):
        at = fold(body).find(marker)
        if at > 0:
            return body[:at].strip(" ,"), body[at + len(marker) :].strip(" ,")
    return None


# ---- quantities --------------------------------------------------------------------------------
_DIGITS = r"\d{1,3}(?:[,.]\d{3})+|\d+"


@cache
def _number_words() -> dict[str, int]:
    return {fold(w): n for lang in LANGS for w, n in lexicon()["numbers"].get(lang, {}).items()}


@cache
def _number_pattern() -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in sorted(_number_words(), key=len, reverse=True))
    return re.compile(rf"(?<![\w.,])(?:{_DIGITS}|{words})(?![\w])")


@cache
def _bound_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (bound, re.compile(rf"(?:{_alternation(words).pattern})\W*(?:\w+\W+){{0,2}}$"))
        for bound, words in lexicon()["bounds"].items()
    )


def _value(token: str) -> int | None:
    if token[0].isdigit():
        return int(re.sub(r"[,.]", "", token))
    return _number_words().get(token)


def quantities(text: str) -> list[tuple[str, int, int]]:
    """(bound, number, position after it) of every number in a clause; ``bound`` is exactly,
    at_least, at_most, or "" when no bound word stands just before the number."""
    folded = fold(text)
    out = []
    for m in _number_pattern().finditer(folded):
        value = _value(m.group())
        if value is None:
            continue
        before = folded[max(0, m.start() - 40) : m.start()]
        bound = next((b for b, pattern in _bound_patterns() if pattern.search(before)), "")
        out.append((bound, value, m.end()))
    return out
