"""drop_title_preview: a first line made of the title with a preview of the body glued on.

``Objectives of the GameLower the opp`` is followed by the title ``Objectives of the Game``
and the body ``Lower the opponent...``: the first line repeats both and is dropped.
"""

from __future__ import annotations

from ..records import Line
from .base import Context


def drop_title_preview(lines: list[Line], ctx: Context) -> list[Line]:
    texts = [(i, line.text.strip()) for i, line in enumerate(lines) if line.text.strip()]
    if len(texts) < 3:
        return lines
    (i0, first), (_, title), (_, body) = texts[0], texts[1], texts[2]
    if first == title or not first.startswith(title):
        return lines
    preview = first[len(title) :].strip()
    if preview and body.startswith(preview):
        ctx.record("drop_title_preview", lines[i0].no, lines[i0].text, "")
        return lines[:i0] + lines[i0 + 1 :]
    return lines
