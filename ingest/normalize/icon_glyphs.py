"""map_icon_glyphs: a card icon the PDF's font wrote as a plain character.

A rulebook prints the game's icons (strength, willpower, exert...) in a symbol font; one
extraction writes them as notation (``{S}``), another, from another edition's font, as ASCII
(``7 $``, ``Willpower #``, ``except !``). The manifest says which character stands for which
icon (``glyphs``); a character is replaced only where it stands alone as a word, so the
exclamation mark of "Fire the Cannons!" stays.
"""

from __future__ import annotations

import re

from ..records import Line
from .base import Context, split_lines, sub_recorded


def map_icon_glyphs(lines: list[Line], ctx: Context) -> list[Line]:
    table = dict(ctx.doc.spec.glyphs)
    if not table:
        return lines
    alone = re.compile(
        r"(?:(?<=^)|(?<=[\s(“\"]))(" + "|".join(re.escape(g) for g in table) + r")(?=$|[\s.,;:)”])"
    )
    return split_lines(
        lines,
        [
            sub_recorded(alone, lambda m: table[m.group(1)], line, ctx, "map_icon_glyphs")
            for line in lines
        ],
    )
