"""split_glued_sentences: sentences run together without a space (``từ 4000 đến 0.Trong``).

Machine translation output that lost its line breaks glues the end of one sentence to the
start of the next. A sentence end (``.``, ``!``, ``?``, ``.)``, ``:`` introducing a list, or a
``,`` where the source had a line break) directly followed by a capitalised word starts a new
line. Initials (``D.D. Warrior``) are left alone: the character before the full stop must be a
lower-case letter, a digit or a closing bracket.
"""

from __future__ import annotations

import re

from .base import map_lines

_END = re.compile(r"(?<=[^\s.])([.!?:,]|[.!?]\))(?=[\"“(]?[^\W\d_]{2})", re.UNICODE)
_CLOSERS = set(')]”"')


def _repl(m: re.Match[str]) -> str:
    before = m.string[m.start() - 1]
    if m.group(1) == "," and not before.isalpha():
        return m.group()
    after = m.string[m.end() :].lstrip('"“(')
    if not (before.islower() or before.isdigit() or before in _CLOSERS):
        return m.group()
    if not (after[0].isupper() and after[1].islower()):
        return m.group()
    return m.group(1) + "\n"


split_glued_sentences = map_lines(_END, _repl, "split_glued_sentences")
