"""join_wrapped_numbers: a cross-reference the PDF carried onto a line of its own.

``…each other non-starting player decides … as in`` / ``2.2.2.1.`` — a rule's text wrapped
just before a rule number it cites, so the next line starts with a number and reads as a new
(empty) rule. It continues at the text column of the numbered line above it (a hanging
indent), where a sub-rule may start too; what tells them apart is the number: a document's
rules come in the order of their numbers, so a number that does not go forward (2.2.2.1 after
2.2.2.2) is a reference, and so is one without the full stop that closes every rule number of
a document whose numbers have one (``6.1.2.2 to be a character`` under 6.1.2.). Such a line is
joined to the line it continues. A number of one
part (``1 pod of 7`` in a table) is too ambiguous to join.
"""

from __future__ import annotations

import re

from ..records import Line
from ..text import join_wrapped, version_key
from .base import Context, join_into

_NUMBERED = re.compile(r"^\s*(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)(?=\s|$)(?P<gap>\s*)")
STOP_SHARE = 0.85
"""Share of numbered lines whose number ends in a full stop for a document to close them so."""


def _closes_numbers(lines: list[Line]) -> bool:
    """Whether the document's rule numbers (two parts or more) end in a full stop."""
    found = [m for line in lines if (m := _NUMBERED.match(line.text)) and "." in m.group("num")]
    return bool(found) and sum(1 for m in found if m.group("dot")) >= STOP_SHARE * len(found)


def join_wrapped_numbers(lines: list[Line], ctx: Context) -> list[Line]:
    stops = _closes_numbers(lines)
    out: list[Line] = []
    column = 0  # where the text of the last numbered line starts
    last: tuple[int, ...] = ()  # the last rule number
    for line in lines:
        text = line.text
        m = _NUMBERED.match(text)
        if not m:
            out.append(line)
            continue
        indent = len(text) - len(text.lstrip())
        number = version_key(m.group("num"))
        backwards = number <= last or (stops and not m.group("dot"))
        wrapped = column and indent >= column and backwards and len(number) >= 2
        if wrapped and out and out[-1].text.strip():
            before = out[-1].text
            joined = join_wrapped(before, text)
            ctx.record(
                "join_wrapped_numbers",
                line.no,
                f"{before.strip()[-20:]}¶{text.strip()[:20]}",
                f"{before.strip()[-20:]} {text.strip()[:20]}",
            )
            out[-1] = join_into(out[-1], line, joined)
            continue
        column = m.end() if m.group("gap") else 0
        last = number
        out.append(line)
    return out
