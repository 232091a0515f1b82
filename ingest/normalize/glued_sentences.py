"""split_glued_sentences: sentences run together without a space (``từ 4000 đến 0.Trong``).

Machine translation output that lost its line breaks glues the end of one sentence to the
start of the next. A sentence end (``.``, ``!``, ``?``, ``.)``, or a ``:`` or ``,`` after a
lower-case word, where the source had a line break) directly followed by a capitalised word
starts a new line. Initials (``D.D. Warrior``) are left alone: the character before the full
stop must be a lower-case letter, a digit or a closing bracket.
"""

from __future__ import annotations

import re

from .base import map_lines

_END = re.compile(r"(?<=[^\s.])([.!?:,]|[.!?]\))(?=[\"“(]?[^\W\d_])", re.UNICODE)
_CLOSERS = set(')]”"')


def _glued(m: re.Match[str]) -> bool:
    before = m.string[m.start() - 1]
    if m.group(1) in ",:":
        # Only after a lower-case word: "sau:Người chơi" is glued, "Spell:Chant" is a name.
        word = re.search(r"[^\W\d_]+$", m.string[: m.start()])
        if not word or not word.group().islower():
            return False
    if not (before.islower() or before.isdigit() or before in _CLOSERS):
        return False
    after = m.string[m.end() :].lstrip('"“(') + "  "
    # A capitalised word, or the one-letter words "A" and "I".
    return after[0].isupper() and (after[1].islower() or (after[0] in "AI" and after[1] == " "))


split_glued_sentences = map_lines(
    _END, lambda m: m.group(1) + "\n" if _glued(m) else m.group(), "split_glued_sentences"
)

# Text extracted from a PDF keeps its line structure; there a glued sentence only lost its
# space ("controlled by a player.A player who controls").
space_glued_sentences = map_lines(
    _END,
    lambda m: m.group(1) + " " if _glued(m) and m.group(1) != "," else m.group(),
    "space_glued_sentences",
)
