"""space_glued_punctuation: a space a PDF's text lost next to punctuation (``do,they``,
``with[Flying]``, ``[2]less``, ``it'snot``, ``a(specified``, ``written as"J/ruler"``).

A PDF-to-text conversion drops the space at some line joins, and split_glued_words only sees
letters. Each glue below is restored where it cannot be something written on purpose:
- a comma between two letters (``do,they``): English sets a space after a comma (numbers
  such as ``1,000`` are digits, not letters);
- a keyword bracket glued to the word before it (``with[Flying]``), or a word of two letters
  or more glued after one (``[2]less``; ``]s`` may be a plural);
- a parenthesis opened right after a word (``entity(307.6)``), except ``(s)``, the rules'
  way of writing a plural (``card(s)``); a word glued after one closed (``type)effect``);
- a contraction glued to the next word (``it'snot``), when that word is a common English
  word and the whole is not;
- a double quote between two letters: an opening quote (an even number of quotes before it
  in the line) gets a space before it, a closing one a space after it.
"""

from __future__ import annotations

import re

from ..english import unigrams
from .base import map_lines

# A word after a contraction must be at least this common (web counts) to be split off.
_COMMON = 200_000

_GLUE = re.compile(
    r"(?P<comma>(?<=[a-z]),(?=[A-Za-z]))"
    r"|(?P<open_bracket>(?<=[a-z])\[)"
    r"|(?P<close_bracket>\](?=[a-z]{2,}))"
    r"|(?P<open_paren>(?<=[a-z])\((?!s\)))"
    r"|(?P<close_paren>\)(?=[a-z]{2,}))"
    r"|(?P<contraction>\b[A-Za-z]+['’](?:s|t|re|ll|ve|d|m)(?=[a-z]{2,}\b))"
    r"|(?P<quote>(?<=[a-z])\"(?=[A-Za-z]))"
)


def _common(word: str) -> bool:
    counts, _ = unigrams()
    return counts.get(word.lower(), 0) >= _COMMON


def _spaced(m: re.Match[str]) -> str:
    kind, glue = m.lastgroup, m.group()
    if kind in ("comma", "close_bracket", "close_paren"):
        return glue + " "
    if kind in ("open_bracket", "open_paren"):
        return " " + glue
    if kind == "contraction":
        rest = re.match(r"[a-z]+", m.string[m.end() :])
        whole = re.sub(r"['’]", "", glue + (rest.group() if rest else "")).lower()
        if rest and _common(rest.group()) and not _common(whole):
            return glue + " "
        return glue
    # A double quote: opening (space before) or closing (space after), by the quotes before.
    return " " + glue if m.string[: m.start()].count('"') % 2 == 0 else glue + " "


space_glued_punctuation = map_lines(_GLUE, _spaced, "space_glued_punctuation")
