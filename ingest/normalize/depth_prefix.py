"""strip_depth_prefix: ``___103.4. ...`` carries its nesting depth as leading underscores.

The site the text was taken from added them; the depth is kept on the line (and checked
against the rule number by the segmenter), the underscores are removed from the text.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..records import Line
from .base import Context

_PREFIX = re.compile(r"^(_+)(?=\S)")


def strip_depth_prefix(lines: list[Line], ctx: Context) -> list[Line]:
    out = []
    for line in lines:
        m = _PREFIX.match(line.text)
        if not m:
            out.append(line)
            continue
        text = line.text[m.end() :]
        ctx.record("strip_depth_prefix", line.no, line.text[: m.end() + 12], text[:12])
        out.append(replace(line, text=text, depth=len(m.group(1))))
    return out
