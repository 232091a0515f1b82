"""split_glued_headings and split_camel_words: a lower-case word glued to a capitalised one.

In Vietnamese machine translations a heading runs straight into its first sentence
(``Mục tiêu của trò chơiThấp hơn...``): the boundary becomes a line break. In English text
the same shape is two words that lost their space (``battlePhase``, ``theJ/resonator``): the
boundary becomes a space. The left part must be a whole lower-case word, so names written in
camel case (``[SpecifiedObject(s)]``, ``ReadtheCard``) are left alone.
"""

from __future__ import annotations

import re

from ..langdetect import detect_language
from ..records import Line
from .base import Context, split_lines, sub_recorded

_LETTERS = re.compile(r"[^\W\d_]+", re.UNICODE)


def _boundary(word: str, following: str) -> int:
    """Index where a lower-case word ends and a capitalised one begins inside ``word``, or 0.

    ``len(word)`` means the boundary is right after the word: it is glued to a quotation
    (``bước"Lúc đầu``).
    """
    if word.islower() and len(following) == 3 and following[0] in '"“' and following[1].isupper():
        return len(word) if following[2].islower() or following[2] == " " else 0
    for i in range(1, len(word)):
        if word[i].isupper() and word[i - 1].islower():
            nxt = word[i + 1] if i + 1 < len(word) else following[:1]
            if word[:i].islower() and (nxt.islower() or nxt in "/-"):
                return i
            return 0
    return 0


def _split(lines: list[Line], ctx: Context, *, vietnamese: bool, rule: str, sep: str) -> list[Line]:
    def repl(m: re.Match[str]) -> str:
        following = m.string[m.end() : m.end() + 3]
        i = _boundary(m.group(), following)
        return m.group()[:i] + sep + m.group()[i:] if i else m.group()

    texts = []
    for line in lines:
        if (detect_language(line.text).lang == "vi") != vietnamese:
            texts.append(line.text)
        else:
            texts.append(sub_recorded(_LETTERS, repl, line, ctx, rule))
    return split_lines(lines, texts)


def split_glued_headings(lines: list[Line], ctx: Context) -> list[Line]:
    return _split(lines, ctx, vietnamese=True, rule="split_glued_headings", sep="\n")


def split_camel_words(lines: list[Line], ctx: Context) -> list[Line]:
    return _split(lines, ctx, vietnamese=False, rule="split_camel_words", sep=" ")
