"""What the three markup readers share: collecting marked lines, rendering inline text, and
telling the document's title from its sections."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..records import Line, Mark
from ..text import CJK_RUN


@dataclass
class Parsed:
    """A markup file as lines with marks, and its title (its lone top heading), if any."""

    lines: list[Line]
    title: str


_SPACE = re.compile(r"\s+")  # every Unicode space, U+00A0 included


def squash(text: str) -> str:
    """Runs of any whitespace (no-break spaces included) as one space, trimmed."""
    return _SPACE.sub(" ", text).strip()


class Inline:
    """Inline text being rendered: its words, and the links among them."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.links: list[tuple[str, str]] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def link(self, words: str, target: str) -> None:
        self.parts.append(words)
        words = squash(words)
        if words and target:
            self.links.append((words, target))

    def text(self) -> str:
        return squash("".join(self.parts))


class Builder:
    """Marked lines in document order."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self._last = 1

    def add(
        self,
        no: int | None,
        kind: str,
        text: str,
        *,
        level: int = 0,
        label: str = "",
        anchor: str = "",
        links: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
    ) -> None:
        """One block; a block without text is dropped. ``no`` may be unknown (None): the
        previous block's line is used, so lines stay in order."""
        text = squash(text)
        if not text:
            return
        no = max(no or self._last, self._last)
        self._last = no
        kept = tuple((w, t) for w, t in links if w in text)
        self.lines.append(Line(no, text, None, Mark(kind, level, squash(label), anchor, kept)))

    def finish(self) -> tuple[list[Line], str]:
        """The lines and the document's title.

        A first heading above every other (the one ``h1``, the one ``#``) is the document's
        title, not a section: it is taken out and the levels below it move up, so the first
        section level is 1. Otherwise every heading stays and the top level becomes 1.
        """
        headings = [ln for ln in self.lines if ln.mark and ln.mark.kind == "heading"]
        if not headings:
            return self.lines, ""
        title = ""
        first = headings[0]
        rest = headings[1:]
        assert first.mark is not None
        if all(h.mark is not None and h.mark.level > first.mark.level for h in rest):
            title = first.text
            self.lines.remove(first)
            headings = rest
        if headings:
            top = min(h.mark.level for h in headings if h.mark is not None)
            for h in headings:
                assert h.mark is not None
                h.mark = Mark("heading", h.mark.level - top + 1, "", h.mark.anchor, h.mark.links)
        return self.lines, title


def heading_slug(title: str) -> str:
    """A heading's anchor as Markdown renderers make it (GitHub's rule): lower case, spaces to
    hyphens, punctuation dropped; letters of any script kept."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def table_row(header: list[str], cells: list[str]) -> str:
    """A table's body row as text: "Heading: cell; Heading: cell" (full-width punctuation
    when the table is written in Chinese or Japanese)."""
    cjk = any(CJK_RUN.search(c) for c in header + cells)
    colon, sep = ("：", "；") if cjk else (": ", "; ")
    parts = [
        f"{h}{colon}{c}" if h else c
        for h, c in zip(header + [""] * len(cells), cells, strict=False)
        if c
    ]
    return sep.join(parts)
