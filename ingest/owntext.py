"""The text a numbered title holds: ``2.1 Missed Trigger`` and everything under it.

Tournament documents number their sections and then write prose under them, not numbered
rules: ``2.1 Missed Trigger`` is followed by its definition, examples, corrective action and
remedy, ``1.3.1.1 Core Constructed`` by bullets. A judge cites them as 2.1 and 1.3.1.1, so the
text under such a title is one rule with the title's number (``<document>:2.1``) and the
title as its title, not a row of unnumbered paragraphs whose ids would say nothing:

* a numbered heading (``1.1 Tournament Types``, ``SECTION 2: RULE ERRORS``) followed by
  unnumbered blocks keeps its section, and the blocks become the rule numbered like it;
* a numbered rule whose text is only a title (``1.3.1.1 Core Constructed``) followed by
  unnumbered blocks takes them as its text, its own text becoming its title.

A numbered rule that says something (``1.2.1. If the text of a card contradicts...``) keeps
its ``Example:`` blocks as children, and a heading followed directly by numbered rules
(``1.1. General`` / ``1.1.1. ...``) has no text of its own: neither changes.
"""

from __future__ import annotations

from dataclasses import replace

from .layout import division_number, is_title_like, parent_number
from .records import Block

# What marks each kind of block in the joined text, so a bullet still reads as one.
_MARKS = {"bullet": "• ", "item": ""}


def _as_text(block: Block) -> str:
    if block.kind in ("example", "question", "answer", "step") and block.label:
        return f"{block.label}: {block.text}" if block.text else f"{block.label}:"
    if block.kind == "item" and block.label:
        return f"{block.label}. {block.text}"
    return _MARKS.get(block.kind, "") + block.text


def _owner(block: Block) -> bool:
    """A block that may own the unnumbered text after it."""
    if not block.number:
        return False
    return block.kind == "heading" or (block.kind == "rule" and is_title_like(block.text))


def attach_own_text(blocks: list[Block]) -> list[Block]:
    """The blocks with each numbered title's unnumbered text made into its rule (see above);
    ``parent`` indices are renumbered to match."""
    out: list[Block] = []
    new_index: dict[int, int] = {}  # old index -> index in ``out``
    i = 0
    while i < len(blocks):
        block = blocks[i]
        j = i + 1
        while j < len(blocks) and blocks[j].kind != "heading" and not blocks[j].number:
            j += 1
        body = blocks[i + 1 : j] if _owner(block) else []
        if not body:
            new_index[i] = len(out)
            out.append(block)
            i += 1
            continue
        text = "\n".join(_as_text(b) for b in body)
        end = max(b.line_end for b in body)
        if block.kind == "heading":
            new_index[i] = len(out)
            out.append(block)
            own = Block(
                kind="rule",
                text=text,
                line_start=body[0].line_start,
                line_end=end,
                level=block.level,
                number=block.number,
                title=block.title,
                lang=block.lang,
                langs=block.langs,
            )
        else:
            own = replace(block, title=block.text, text=text, line_end=end)
        for k in range(i, j):
            new_index[k] = len(out)
        out.append(own)
        i = j
    for block in out:
        if block.parent is not None:
            block.parent = new_index.get(block.parent)
    _link_parents(out)
    return out


def number_divisions(blocks: list[Block]) -> None:
    """A division heading ("SECTION 2: RULE ERRORS") takes its number when the next numbered
    block extends it (2.1), as a chapter does; its title is what follows the number."""
    for k, block in enumerate(blocks):
        if block.kind != "heading" or block.number:
            continue
        found = division_number(block.text)
        if found is None:
            continue
        number, title = found
        following = next((b.number for b in blocks[k + 1 :] if b.number), "")
        if following.startswith(f"{number}.") and title:
            block.number, block.title = number, title


def _link_parents(blocks: list[Block]) -> None:
    """A numbered rule without a parent gets the rule its number extends, when there is one
    (1.6.1 under the text of section 1.6)."""
    by_number = {b.number: k for k, b in enumerate(blocks) if b.kind == "rule" and b.number}
    for k, block in enumerate(blocks):
        if block.kind == "rule" and block.number and block.parent is None:
            parent = by_number.get(parent_number(block.number))
            if parent is not None and parent < k:
                block.parent = parent
