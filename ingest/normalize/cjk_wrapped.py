"""join_cjk_wrapped_lines: Chinese (or Japanese) text a PDF wrapped mid-word.

A PDF extraction breaks Chinese text where the page's line ended, in the middle of a word
(``旨在解答迪`` / ``士尼洛卡纳的高级规则问题``), sometimes with a blank line after every
wrapped line. Joined with the space a Latin line break stands for, the word would read
``迪 士尼``; left apart across a blank line, each piece would be a paragraph of its own.

A line is wrapped when it does not end a sentence (``。！？``), is no row of a table (cells
apart by wide gaps), and reaches the right margin:
at least MARGIN_SHARE of the document's usual full width, in display columns (then it may end
in anything: ``造成3`` / ``点伤害。``). A shorter line is wrapped when it ends with a character
of a script written without spaces that ends nothing, and either with a comma-like mark
(``，``, ``、``) or, in a narrow box of text, reaching the width of the line right below it
(or right above it, when a picture's gap comes next): a glossary term above its longer
definition, or a heading, is not wrapped. The next non-blank line is joined
to it without a space when it starts with such a character too, or, after a line at the
margin, with anything but a number or a bullet (``{E}``).
"""

from __future__ import annotations

import re

from ..records import Line
from ..text import text_width, unspaced
from .base import Context, join_into

MARGIN_SHARE = 0.85
"""A line reaching this share of the full width reaches the right margin."""
FULL_WIDTH_RANK = 0.9
"""The full width of a document is this quantile of its lines' right edges."""
MIN_BOX = 20
"""Columns a line of a narrow box of text fills at least (a heading or a term is shorter)."""
_NEW_LINE = re.compile(r"\d+(?:\.\d+)*\.?\s|[•●○◦▪■□◆◇※＊*·・‣⁃–-]\s")
_COLUMNS = re.compile(r"\S {3,}\S")
_STOPS = set("。！？")  # a sentence ends here, even at the margin
_ENDS = set("。！？：；…”」』）)")
_MID = set("，、“「『（(《")


def _full_width(lines: list[Line]) -> float:
    edges = sorted(text_width(line.text.rstrip()) for line in lines if line.text.strip())
    return edges[int(FULL_WIDTH_RANK * (len(edges) - 1))] if edges else 0.0


def _wrapped(text: str, full: float, below: str, above: str) -> bool:
    """Whether ``text`` wraps onto the next line. ``below`` is the next line and ``above`` the
    line before, each "" when a blank line comes between: a line of a narrow box is as wide as
    the box's line below it, or above it when a picture's gap follows."""
    end = text.rstrip()
    body = _NEW_LINE.sub("", end.strip(), count=1).strip()  # a bullet's gap is no cell's
    if not end or end[-1] in _STOPS or _COLUMNS.search(body):
        return False  # a sentence's end, or a table's row (its cells apart by wide gaps)
    width = text_width(end)
    if width >= MARGIN_SHARE * full:
        return True  # at the margin, whatever it ends with ("造成3" / "点伤害。")
    if end[-1] in _ENDS or not unspaced(end[-1]):
        return False
    box = below if below.strip() else above
    return end[-1] in _MID or (
        bool(box.strip()) and width >= max(MIN_BOX, MARGIN_SHARE * text_width(box.rstrip()))
    )


def _continues(tail: str, following: str, full: float) -> bool:
    """Whether ``following`` can go on from a wrapped line: it starts with a character of a
    script written without spaces, or the line reached the margin and ``following`` starts
    no numbered line or bullet ("…挑战或" / "{E}来支付任何费用")."""
    if unspaced(following[0]):
        return True
    at_margin = text_width(tail.rstrip()) >= MARGIN_SHARE * full
    return at_margin and not _NEW_LINE.match(following)


def join_cjk_wrapped_lines(lines: list[Line], ctx: Context) -> list[Line]:
    if not any(unspaced(ch) for line in lines[:200] for ch in line.text):
        return lines  # no Chinese or Japanese text: nothing to look at
    full = _full_width(lines)
    out: list[Line] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        tail = line.text  # the last source line joined so far: where the margin is judged
        i += 1
        above = lines[i - 2].text if i >= 2 else ""
        while _wrapped(tail, full, lines[i].text if i < len(lines) else "", above):
            j = i
            while j < len(lines) and not lines[j].text.strip():
                j += 1
            if j >= len(lines) or not _continues(tail, lines[j].text.strip(), full):
                break
            following = lines[j].text.strip()
            before = line.text.rstrip()
            ctx.record(
                "join_cjk_wrapped_lines",
                line.no,
                f"{before[-12:]}¶{following[:12]}",
                before[-12:] + following[:12],
            )
            line = join_into(line, lines[j], before + following)
            above, tail = (tail if j == i else ""), lines[j].text
            i = j + 1
        out.append(line)
    return out
