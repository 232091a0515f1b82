"""drop_page_furniture: page footers and running headers a PDF extraction left in the text.

A page of a PDF ends (or starts) with the same few lines on every page: a site name, a
copyright line, a page number. They are found by what they are, not by what they say:

1. Each line is reduced to a key: case folded, spaces squashed, every number (arabic, or a
   lower-case roman page number such as ``iii``) replaced by ``#``.
2. Page numbers: a key that holds a number and recurs, whose numbers go up by one from one
   occurrence to the next (``i, ii, iii, 1, 2, 3...``), marks the page breaks.
3. Furniture: a key that recurs on at least half of the pages, nearly always within a few
   lines of a page break (a site name above ``©Disney 12``).

Those lines are dropped, and with them the blank lines of the page break, so a sentence cut
by the break (its last line reaching the right margin) reads on; a paragraph or a title that
ended before the page's end keeps one blank line. A
document without page numbers (most of them) is left alone. Lines a document names by
pattern are ``drop_listed_lines`` (the manifest's ``drop_lines``), not this rule.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict

from ..records import Line
from ..text import text_width
from .base import Context

MIN_PAGES = 3
"""Page numbers must recur at least this often for the text to count as paged."""
STEP_SHARE = 0.6
"""Share of consecutive page numbers that must go up by exactly one."""
NEAR = 3
"""Non-blank lines on either side of a page number that still belong to the page break."""
NEAR_SHARE = 0.9
"""Share of a furniture line's occurrences that must lie near a page break."""
PAGE_SHARE = 0.5
"""Share of the pages a furniture line must appear on."""
MAX_CHARS = 160
"""Longer lines are content, whatever they repeat."""
MARGIN_SHARE = 0.85
"""A line before a page break reaching this share of the full width may go on after it."""
FULL_WIDTH_RANK = 0.9
"""The full width of a page is this quantile of its lines' right edges."""

_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_DIGITS = re.compile(r"\d+")
_SENTENCE_END = tuple('.!?:;。！？：；)）”"')


def _roman(word: str) -> int:
    total = 0
    for a, b in zip(word, word[1:] + " ", strict=True):
        value = _ROMAN_VALUES[a]
        total += -value if b != " " and _ROMAN_VALUES[b] > value else value
    return total


def _key(text: str) -> tuple[str, int | None]:
    """The line's key, and the number standing alone in it (a page number), if any."""
    out: list[str] = []
    number = None
    for word in text.casefold().split():
        if word.isdigit():
            out.append("#")
            number = int(word)
        elif _ROMAN.match(word):
            out.append("#")
            number = _roman(word)
        else:
            out.append(_DIGITS.sub("#", word))
    return " ".join(out), number


def _page_numbers(keys: dict[str, list[tuple[int, int | None]]]) -> set[int]:
    """Indices of the lines that are page numbers."""
    found: set[int] = set()
    for where in keys.values():
        numbers = [n for _, n in where if n is not None]
        if len(where) < MIN_PAGES or len(numbers) < len(where):
            continue
        steps = sum(1 for a, b in zip(numbers, numbers[1:], strict=False) if b == a + 1)
        if steps >= STEP_SHARE * (len(numbers) - 1):
            found.update(i for i, _ in where)
    return found


def furniture(lines: list[Line]) -> set[int]:
    """Indices (into ``lines``) of the page footers and running headers."""
    keys: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
    content = [i for i, line in enumerate(lines) if line.text.strip()]
    for i in content:
        text = lines[i].text.strip()
        if len(text) <= MAX_CHARS:
            key, number = _key(text)
            keys[key].append((i, number))
    pages = _page_numbers(keys)
    if not pages:
        return set()
    # Each non-blank line's distance, in non-blank lines, to the nearest page number.
    rank = {i: r for r, i in enumerate(content)}
    page_ranks = sorted(rank[i] for i in pages)
    found = set(pages)
    for where in keys.values():
        if len(where) < PAGE_SHARE * len(pages) or where[0][0] in pages:
            continue
        near = [i for i, _ in where if _distance(rank[i], page_ranks) <= NEAR]
        if len(near) >= NEAR_SHARE * len(where):
            found.update(i for i, _ in where)
    return found


def _distance(r: int, page_ranks: list[int]) -> int:
    k = bisect.bisect_left(page_ranks, r)
    near = [abs(page_ranks[j] - r) for j in (k - 1, k) if 0 <= j < len(page_ranks)]
    return min(near)


def drop_page_furniture(lines: list[Line], ctx: Context) -> list[Line]:
    drop = furniture(lines)
    if not drop:
        return lines
    edges = sorted(text_width(lines[i].text.rstrip()) for i in range(len(lines)) if i not in drop)
    full = edges[int(FULL_WIDTH_RANK * (len(edges) - 1))] if edges else 0
    out: list[Line] = []
    i = 0
    while i < len(lines):
        if i not in drop:
            out.append(lines[i])
            i += 1
            continue
        # A page break: the furniture lines and the blank lines around them.
        while out and not out[-1].text.strip():
            out.pop()
        while i < len(lines) and (i in drop or not lines[i].text.strip()):
            if i in drop:
                ctx.record("drop_page_furniture", lines[i].no, lines[i].text.strip(), "")
            i += 1
        before = out[-1].text.rstrip() if out else ""
        cut = text_width(before) >= MARGIN_SHARE * full and not before.endswith(_SENTENCE_END)
        if not cut and i < len(lines):
            out.append(Line(lines[i].no, ""))  # the paragraph (or a title) ended with the page
    return out
