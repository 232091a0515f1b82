"""split_glued_rule_numbers: a numbered rule run into the end of the previous one.

In fow-cr-7.0 two sub-rules were glued to the rule before them when the text was converted
(``...the rules below: 1301.1a. If only one player...``, ``...is a J-ruler.705.3a-i. If``).
In a document numbered like comprehensive rules, a rule number right after a sentence end
starts a new line. A number inside a sentence (``see 903.2a.``) is a reference and stays.
"""

from __future__ import annotations

import re

from ..records import Line
from .base import Context, split_lines, sub_recorded

_GLUED = re.compile(r"(?<=[.:;])\s*(?=\d{2,4}\.\d+[a-z]*(?:-[ivxl]+)?\.\s+[A-Z\"“(])")


def split_glued_rule_numbers(lines: list[Line], ctx: Context) -> list[Line]:
    if ctx.doc.spec.numbering != "cr":
        return lines
    return split_lines(
        lines,
        [
            sub_recorded(_GLUED, lambda m: "\n", line, ctx, "split_glued_rule_numbers")
            for line in lines
        ],
    )
