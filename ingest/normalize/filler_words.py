"""remove_filler_words: words a machine translator inserted where the source had none.

004 renders Chinese sentence-final punctuation as ``Essence`` (``explanations. Essence
Essence Essence A hollow circle``). The manifest lists such words per document; an
occurrence is removed only where it stands alone between sentences, so the same word inside a
name (``God Lantern Demon Essence or ...``) stays.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..records import Line
from .base import Context, sub_recorded


def remove_filler_words(lines: list[Line], ctx: Context) -> list[Line]:
    fillers = ctx.doc.spec.fillers
    if not fillers:
        return lines
    alt = "|".join(re.escape(f) for f in fillers)
    # A run of fillers after the start of the line or a sentence end, followed by the end of the
    # line or by the start of a new sentence.
    run = re.compile(
        rf"(?:(?<=^)|(?<=[.?!。！？]))\s*(?:(?:{alt})\b\s*)+(?=$|[A-Z0-9\"“(\u3400-\u9fff])",
    )
    out = []
    for line in lines:
        text = sub_recorded(
            run,
            lambda m: " " if m.end() < len(m.string) and m.start() > 0 else "",
            line,
            ctx,
            "remove_filler_words",
        )
        out.append(replace(line, text=text.strip() if text != line.text else text))
    return out
