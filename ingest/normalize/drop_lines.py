"""drop_listed_lines: lines the manifest names as not content (page headers, image captions)."""

from __future__ import annotations

import re

from ..records import Line
from .base import Context


def drop_listed_lines(lines: list[Line], ctx: Context) -> list[Line]:
    patterns = [re.compile(p) for p in ctx.doc.spec.drop_lines]
    if not patterns:
        return lines
    out = []
    for line in lines:
        if any(p.search(line.text.strip()) for p in patterns):
            ctx.record("drop_listed_lines", line.no, line.text, "")
        else:
            out.append(line)
    return out
