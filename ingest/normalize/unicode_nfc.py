"""unicode_nfc: every stored text is in Unicode normalization form C.

Decomposed Vietnamese (a base letter followed by combining tone marks, as Windows-1258 and
some editors write it) looks identical but does not match the composed form in search.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from ..records import Line
from .base import Context

# Invisible characters that only get in the way of matching; NBSP becomes a plain space.
_INVISIBLE = str.maketrans(
    {"\u200b": None, "\u200c": None, "\u200d": None, "\ufeff": None, "\u00a0": " "}
)


def unicode_nfc(lines: list[Line], ctx: Context) -> list[Line]:
    out = []
    for line in lines:
        text = unicodedata.normalize("NFC", line.text.translate(_INVISIBLE))
        if text != line.text:
            ctx.record("unicode_nfc", line.no, line.text, text)
        out.append(replace(line, text=text))
    return out
