"""split_linebreak_leftovers: ``rn`` and `` n `` left where line breaks were.

A tool that lost the backslashes of ``\\r\\n`` left ``rn`` glued to the next line
(``cards. rnDMI限制卡``) and `` n `` between sentences (``magic card. n Magic calculators``).
Each becomes a real line break again.
"""

from __future__ import annotations

import re

from .base import map_lines

# "rn" glued to the start of a capitalised or Chinese word, or standing alone between
# sentences; a lone "n" between two words, or glued to a number that starts an item ("n7").
_LEFTOVER = re.compile(
    r"(?:^|[ \t]+)rn(?=[A-Z\u3400-\u9fff])"
    r"|(?<=[^\W\d_][.:;!?)])[ \t]+rn[ \t]+(?=\S)"
    r"|(?<=\S)[ \t]+n[ \t]+(?=[^\W\d_])"
    r"|[ \t]+n(?=\d+ [^\W\d_])",
    re.UNICODE,
)

split_linebreak_leftovers = map_lines(_LEFTOVER, lambda m: "\n", "split_linebreak_leftovers")
