"""Stage 4, segment: normalized lines to blocks (headings, paragraphs, bullets, rules...).

What a heading is comes first from the document's own structure (ingest/layout.py): its
numbering scheme (``100.`` sections and ``100.1a`` rules, ``1.0.1a``, ``Article 3.2``, ``§4``),
its chapters, its division headings ("Part I"), and the sections with a role (table of
contents, glossary, credits); then the manifest's outline hints. A document with neither (a
user's own file, a translation block) gets headings by layout: short lines without final
punctuation. A markup source (ingest/markup) says what each line is, and is followed as it
says.

In a glossary, entries become ``term`` blocks (the term as title, the definition as text);
in credits, each line is a ``credit`` block. The title block of a plain-text document (its
first lines, before the first blank line) stays text of the document, not headings.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .layout import (
    Scheme,
    detect_numbering,
    is_division,
    is_term_line,
    is_title_like,
    layout_data,
    number_parts,
    parent_number,
    schemes,
    section_role,
    split_entry,
)
from .owntext import attach_own_text, number_divisions
from .records import Block, DocText, Line
from .text import join_wrapped

CR_HEADING = re.compile(r"^(?P<num>\d{2,4})\.\s+(?P<title>\S.*)$")
CR_RULE = schemes()["cr"].line
_CHAPTER = re.compile(r"^(?P<num>\d{1,2})\.\s+(?P<title>\S.*)$")
_NUMBERED_ITEM = re.compile(r"^(?P<num>\d{1,2}|[a-z])[.)]\s+(?P<text>\S.*)$")
_TERM = re.compile(r"^(?P<term>[^\W\d_][^:：.?!]{0,40}?)\s*(?::\s+|：\s*)\S")
_SENTENCE_END = ".:!?…。：！？)"
_HAS_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
# Blocks a markup line becomes, by its mark.
# The numbers of a table of contents' entries, in one or two columns ("1.1. General   6.1. ...").
_CONTENTS_NUMBERS = re.compile(r"(?:^|\s{2,})(\d{1,4}(?:\.\d{1,3})*[a-z]?)\.?\s")
_COLUMN_GAP = re.compile(r"\s{3,}")
# A row of a table: cells apart by wide gaps (a laid-out PDF keeps them).
_TABLE_ROW = re.compile(r"\S {3,}\S")
# Blocks of running text that a laid-out PDF's next line may continue.
_PROSE = ("paragraph", "example", "answer", "question", "note")
_MARKED = {"paragraph": "paragraph", "quote": "quote", "note": "note", "row": "row", "code": "code"}


@dataclass(frozen=True)
class _LabelRule:
    kind: str
    pattern: re.Pattern[str]


@cache
def _labels() -> tuple[tuple[_LabelRule, ...], str]:
    text = resources.files("ingest").joinpath("data/labels.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    rules = tuple(_LabelRule(e["kind"], re.compile(e["pattern"])) for e in data["labels"])
    return rules, data["bullets"]["marks"]


def match_label(text: str) -> tuple[str, str, str] | None:
    """``(kind, label, title)`` if ``text`` opens with a known label such as ``Ví dụ 4:``."""
    for rule in _labels()[0]:
        m = rule.pattern.match(text)
        if m:
            return rule.kind, m.group("label").strip(), m.group("title").strip()
    return None


def _bullet(text: str) -> str | None:
    """The text after a bullet mark, or None if the line is not a bullet."""
    marks = _labels()[1]
    if len(text) > 1 and text[0] in marks and text[1] in " \t":
        return text[1:].strip()
    return None


def _indent(raw: str) -> int:
    return len(raw) - len(raw.lstrip(" \t"))


CHAPTER_STEP = 2
"""A dotted document's next chapter number is at most this far from the last one."""


def term_title(text: str) -> str:
    """The defined term of ``Term: definition`` text, if short enough to be a title."""
    m = _TERM.match(text)
    if m and len(m.group("term").split()) <= 5:
        return m.group("term").strip()
    return ""


def _title_block(lines: list[Line]) -> set[int]:
    """Line numbers of a plain-text document's title block (see data/layout.toml): its first
    lines up to the first blank line, when they are short and not numbered, and more text
    follows. One line alone is a title only when what follows starts with a heading (before a
    paragraph, it is that paragraph's heading)."""
    limits = layout_data()["title_block"]
    block: list[Line] = []
    after = ""  # the first line after the block
    blank = False
    for line in lines:
        text = line.text.strip()
        if not text:
            blank = blank or bool(block)
            continue
        if blank:
            after = text
            break
        block.append(line)
    if not block or not after or len(block) > limits["max_lines"]:
        return set()
    for line in block:
        text = line.text.strip()
        if (
            len(text) > limits["max_chars"]
            or section_role(text)
            or any(s.match(text) for s in schemes().values())
        ):
            return set()
    starts_section = (
        is_title_like(after)
        or bool(section_role(after))
        or any(s.match(after) for s in schemes().values())
    )
    if len(block) == 1 and not starts_section:
        return set()
    return {line.no for line in block}


class _Segmenter:
    def __init__(self, doc: DocText, lines: list[Line]) -> None:
        self.doc = doc
        original = doc.variant == "original"
        self.hints = [(re.compile(h.pattern), h) for h in doc.spec.headings] if original else []
        self.marked = any(line.mark is not None for line in lines)
        texts = [line.text.strip() for line in lines if line.text.strip()]
        declared = doc.spec.numbering if original else ""
        self.numbering = "plain" if self.marked else detect_numbering(texts, declared)
        self.scheme: Scheme | None = schemes().get(self.numbering)
        self.layout_headings = not self.hints and self.scheme is None
        self.term_titles = original
        self.blocks: list[Block] = []
        self.by_number: dict[str, int] = {}
        self.question: int | None = None
        self.list_open = False
        self.warnings: list[str] = []
        self.role = ""  # the role of the current section: contents, glossary or credits
        self.contents_numbers: set[str] = set()  # the numbers a table of contents lists
        # A PDF extracted with its layout: one text line per printed line.
        self.laid_out = doc.preset == "pdf_layout"
        self.chapter = 0  # the last chapter number of a dotted document
        self.term: int | None = None  # a glossary term waiting for its definition
        self.last_rule: int | None = None  # the last numbered rule of the current section
        self.chapters = self._chapters(lines)
        self.divisions = self.scheme is not None and any(is_division(t) for t in texts)
        use_title_block = original and not self.hints and not self.marked
        self.title_block = _title_block(lines) if use_title_block else set()

    def _chapters(self, lines: list[Line]) -> set[int]:
        """Line numbers of chapter lines ("1. Game Concepts" above "100. General")."""
        if self.numbering != "cr":
            return set()
        found: set[int] = set()
        pending: list[tuple[int, int]] = []  # (line number, chapter number) awaiting a section
        for line in lines:
            text = line.text.strip()
            heading = CR_HEADING.match(text)
            if heading:
                section = int(heading.group("num"))
                found.update(no for no, n in pending if section // 100 == n)
                pending = []
                continue
            m = _CHAPTER.match(text)
            if m and is_title_like(m.group("title")):
                pending.append((line.no, int(m.group("num"))))
        return found

    # -- helpers -----------------------------------------------------------------------------
    def add(self, block: Block) -> Block:
        self.blocks.append(block)
        return block

    def last(self) -> Block | None:
        return self.blocks[-1] if self.blocks else None

    def heading(self, text: str, line: Line, level: int, **extra: object) -> None:
        label = match_label(text)
        self.question = None
        self.list_open = False
        self.term = None
        self.last_rule = None
        self.role = section_role(text, str(extra.get("anchor", "")))
        self.add(
            Block(
                kind="heading",
                text=text,
                line_start=line.no,
                line_end=line.no,
                level=level,
                label=label[1] if label else "",
                title=text,
                **extra,  # type: ignore[arg-type]
            )
        )

    def parent_bullet(self, level: int) -> int | None:
        """Index of the nearest earlier list block with a lower level, within the section."""
        for i in range(len(self.blocks) - 1, -1, -1):
            b = self.blocks[i]
            if b.kind == "heading":
                return None
            if b.kind in ("bullet", "item", "example") and b.level < level:
                return i
        return None

    # -- the line loop ---------------------------------------------------------------------------
    def run(self, lines: list[Line]) -> list[Block]:
        blank_before = True
        for line in lines:
            text = line.text.strip()
            if not text:
                blank_before = True
                continue
            if line.mark is not None:
                self.marked_line(line, text)
            else:
                self.line(line, text, blank_before)
            blank_before = False
        for block in self.blocks:
            if block.kind == "term" and not block.text:  # a glossary line with no definition
                block.kind, block.text, block.title = "paragraph", block.title, ""
            # A labelled block without a body of its own ("Ví dụ: <text>") has no separate title.
            if (
                block.kind in ("example", "question", "answer")
                and block.title == block.text
                and block.label
            ):
                block.title = ""
        return self.blocks

    def line(self, line: Line, text: str, blank_before: bool) -> None:
        prev = self.last()
        # A line without letters or digits ("?") belongs to the block before it.
        if not _HAS_LETTER.search(text) and not any(ch.isdigit() for ch in text):
            if prev is not None and prev.kind != "heading":
                prev.text += " " + text
                prev.line_end = line.no
            return
        if self.role == "contents" and self.scheme is not None and self.contents_entry(line, text):
            return
        for pattern, hint in self.hints:
            if pattern.search(text):
                if hint.insert_title:
                    self.heading(
                        hint.insert_title, line, hint.level, ruleset=hint.ruleset, era=hint.era
                    )
                    break
                self.heading(text, line, hint.level, ruleset=hint.ruleset, era=hint.era)
                return
        # A two-column page puts the next column's words beside a heading ("CONTENTS     6.").
        first_column = _COLUMN_GAP.split(text)[0]
        if section_role(first_column) and (blank_before or self.role or self.scheme is not None):
            self.heading(first_column.rstrip(":："), line, 1)
            return
        if line.no in self.title_block:
            title = term_title(text) if self.term_titles else ""
            self.add(
                Block(
                    kind="paragraph", text=text, line_start=line.no, line_end=line.no, title=title
                )
            )
            return
        if self.role == "changes":
            # A summary of changes quotes rule numbers: its lines are text, not rules.
            indent = _indent(line.text)
            if self.continuation(line, text, indent, blank_before):
                return
            bullet = _bullet(text)
            if bullet is not None:
                self.list_block(line, bullet, "bullet", indent // 2 + 1)
            else:
                self.paragraph(line, text)
            return
        if self.numbered_heading(line, text):
            return
        if self.role == "glossary" and self.glossary_line(line, text, blank_before):
            return
        if self.role == "credits":
            self.add(Block(kind="credit", text=text, line_start=line.no, line_end=line.no))
            return
        if self.scheme is not None and self.numbered_rule(line, text):
            return
        if self.scheme is not None and is_division(text):
            self.heading(text, line, 1)
            return
        indent = _indent(line.text)
        if self.continuation(line, text, indent, blank_before):
            return
        bullet = _bullet(text)
        if bullet is not None:
            self.list_block(line, bullet, "bullet", indent // 2 + 1)
            return
        item = _NUMBERED_ITEM.match(text)
        if item and self.numbering in ("plain", "dotted"):
            self.list_block(
                line, item.group("text"), "item", indent // 2 + 1, label=item.group("num")
            )
            return
        label = match_label(text)
        if label and label[0] != "step":
            self.labelled(line, label, indent // 2 + 1)
            return
        if self.layout_headings and not self.list_open and is_title_like(text):
            self.heading(text, line, 1)
            return
        if (
            self.layout_headings
            and self.list_open
            and indent == 0
            and not blank_before
            and len(text) <= 120
        ):
            self.list_block(line, text, "item", 1)
            return
        self.paragraph(line, text)

    # -- numbered documents ------------------------------------------------------------------
    def contents_entry(self, line: Line, text: str) -> bool:
        """A line of a named table of contents in a numbered document, kept as an entry (the
        contents are dropped whole later) until the body starts: at a division heading, or
        at a number the contents listed already ("1. CONCEPTS" once more). A PDF's contents
        come in two columns ("1.1. General      6.1. General") with topic lines between
        them, so neither headings nor rules can be read off them."""
        if is_division(text):
            return False
        numbers = _CONTENTS_NUMBERS.findall(text)
        if numbers and text.startswith(numbers[0]) and numbers[0] in self.contents_numbers:
            self.role = ""
            return False
        self.contents_numbers.update(numbers)
        self.add(Block(kind="item", text=text, line_start=line.no, line_end=line.no))
        return True

    def _level(self, number: str) -> int:
        """The heading level of a numbered heading."""
        assert self.scheme is not None
        if self.scheme.name == "cr":
            return 2 if self.chapters or int(number) % 100 else 1
        return len(number_parts(number)) + (1 if self.divisions else 0)

    def numbered_heading(self, line: Line, text: str) -> bool:
        """A chapter or section heading of the document's numbering scheme."""
        if self.scheme is None:
            return False
        if line.no in self.chapters:
            m = _CHAPTER.match(text)
            assert m is not None
            self.heading(m.group("title").strip(), line, 1, number=m.group("num"))
            return True
        m = CR_HEADING.match(text) if self.scheme.name == "cr" else self.scheme.match(text)
        if not m:
            return False
        number, title = m.group("num"), (m.group(2) or "").strip()
        parts = len(number_parts(number))
        if self.scheme.name == "cr":
            heading = True  # "100. Overview": a comprehensive-rules section, whatever its title
        else:
            heading = parts <= self.scheme.heading_parts and bool(title) and is_title_like(title)
        if heading and self.scheme.name == "dotted" and parts == 1:
            # Chapters come in order: "2  BANISHED" in a figure of chapter 4 is no chapter,
            # nor "17  1 pod of 8" in a table of chapter 1.
            if not self.chapter < int(number) <= self.chapter + CHAPTER_STEP:
                return False
            self.chapter = int(number)
        if not heading:
            return False
        level = self._level(number)
        if self.scheme.name == "cr" and line.depth is not None and line.depth != level:
            self.warnings.append(
                f"{self.doc.spec.file}:{line.no}: section {number} has depth marker "
                f"{line.depth} but its number says {level}"
            )
        self.heading(title, line, level, number=number)
        return True

    def numbered_rule(self, line: Line, text: str) -> bool:
        assert self.scheme is not None
        m = self.scheme.match(text)
        if not m:
            return False
        number = m.group("num")
        body = (m.group("text") or "").strip()
        parts = len(number_parts(number))
        if self.scheme.name == "dotted" and parts == 1:
            return False  # "1. Draw a card." in a dotted document is a list item
        parent_no = parent_number(number)
        parent = self.by_number.get(parent_no) if parent_no else None
        if self.scheme.name == "cr":
            depth = parts - 1
            if line.depth is not None and line.depth - 2 != depth:
                self.warnings.append(
                    f"{self.doc.spec.file}:{line.no}: rule {number} has depth marker {line.depth} "
                    f"but its number says {depth + 2}"
                )
        else:
            depth = self.blocks[parent].level + 1 if parent is not None else 1
        if number in self.by_number:
            self.warnings.append(
                f"{self.doc.spec.file}:{line.no}: rule {number} is numbered twice "
                f"(first at line {self.blocks[self.by_number[number]].line_start})"
            )
        block = Block(
            kind="rule",
            text=body,
            line_start=line.no,
            line_end=line.no,
            level=depth,
            number=number,
            title=term_title(body),
            parent=parent,
        )
        self.by_number[number] = len(self.blocks)
        self.last_rule = len(self.blocks)
        self.question = None
        self.add(block)
        return True

    # -- glossaries ------------------------------------------------------------------------
    def glossary_line(self, line: Line, text: str, blank_before: bool) -> bool:
        """An entry of a glossary: "Term — definition", or a term line and its definition."""
        # A glossary laid out without blank lines: a short line after a definition that ended
        # its sentence is the next term ("...they lose the game." / "action card").
        finished = (
            self.term is not None
            and bool(self.blocks[self.term].text)
            and self.blocks[self.term].text[-1] in _SENTENCE_END
            and is_term_line(text)
            and split_entry(text) is None
        )
        if self.term is not None and not blank_before and not finished:
            entry = self.blocks[self.term]
            entry.text = f"{entry.text} {text}".strip()
            entry.line_end = line.no
            return True
        self.term = None
        split = split_entry(text)
        if split is not None:
            self.add_term(split[0], split[1], line)
            return True
        if is_term_line(text):
            self.add_term(text, "", line)
            self.term = len(self.blocks) - 1
            return True
        return False

    def add_term(self, term: str, definition: str, line: Line, **extra: object) -> None:
        self.add(
            Block(
                kind="term",
                text=definition,
                line_start=line.no,
                line_end=line.no,
                title=term,
                **extra,  # type: ignore[arg-type]
            )
        )

    # -- markup sources --------------------------------------------------------------------
    def marked_line(self, line: Line, text: str) -> None:
        mark = line.mark
        assert mark is not None
        links = mark.links
        if mark.kind == "heading":
            self.heading(text, line, mark.level, anchor=mark.anchor)
            return
        if mark.kind == "term":
            self.add_term(mark.label, text, line, links=links)
            return
        if self.role == "glossary":
            entry = split_entry(text)
            if entry is not None and mark.kind in ("paragraph", "bullet", "item"):
                self.add_term(entry[0], entry[1], line, links=links)
                return
        if self.role == "credits" and mark.kind in ("paragraph", "bullet", "item"):
            self.add(Block(kind="credit", text=text, line_start=line.no, line_end=line.no))
            return
        if mark.kind in ("item", "bullet"):
            self.list_block(line, text, mark.kind, mark.level, label=mark.label, links=links)
            return
        label = match_label(text)
        if label and label[0] == "example":
            self.labelled(line, label, 1, links=links)
            return
        self.list_open = False
        self.add(
            Block(
                kind=_MARKED.get(mark.kind, "paragraph"),
                text=text,
                line_start=line.no,
                line_end=line.no,
                title=term_title(text) if mark.kind == "paragraph" else "",
                links=links,
            )
        )

    # -- plain text ------------------------------------------------------------------------
    def continuation(self, line: Line, text: str, indent: int, blank_before: bool) -> bool:
        """Join a line to the block before it when it continues that block."""
        prev = self.last()
        if prev is None or prev.kind == "heading" or blank_before:
            return False
        # A numbered rule wrapped onto the next lines ("§2.1 ... no\nFacets left ...").
        if (
            prev.kind == "rule"
            and self.scheme is not None
            and match_label(text) is None
            and _bullet(text) is None
        ):
            prev.text = f"{prev.text} {text}".strip()
            prev.line_end = line.no
            return True
        # A PDF laid out line by line separates its paragraphs by blank lines: a line right
        # under a paragraph goes on with it, whatever its case ("...meant for high-level" /
        # "Disney..."), unless it starts a list item or a label, the line above is a title, or
        # either is a row of a table.
        if (
            self.laid_out
            and prev.kind in _PROSE
            and not is_title_like(prev.text)
            and not _TABLE_ROW.search(text)
            and not _TABLE_ROW.search(prev.text.rsplit("\n", 1)[-1])
            and _bullet(text) is None
            and match_label(text) is None
            and not _NUMBERED_ITEM.match(text)
        ):
            prev.text = join_wrapped(prev.text, text)
            prev.line_end = line.no
            return True
        # An indented plain line under a bullet or example is that block's body (in a laid-out
        # PDF, the bullet's own words wrapped onto the next line).
        if indent > 0 and _bullet(text) is None and not _NUMBERED_ITEM.match(text):
            if prev.kind == "example" and prev.text == prev.title:
                prev.text = text
            elif self.laid_out and prev.kind == "bullet":
                prev.text = join_wrapped(prev.text, text)
            else:
                prev.text += "\n" + text
            prev.line_end = line.no
            return True
        # A sentence wrapped onto the next line: no sentence end, and the next starts lower-case.
        if (
            prev.text
            and prev.text[-1] not in _SENTENCE_END
            and (text[0].islower() or text[0] in ",;")
        ):
            prev.text += ("" if text[0] in ",;" else " ") + text
            prev.line_end = line.no
            return True
        return False

    def list_block(
        self,
        line: Line,
        text: str,
        kind: str,
        level: int,
        label: str = "",
        links: tuple[tuple[str, str], ...] = (),
    ) -> None:
        labelled = match_label(text)
        if labelled and labelled[0] == "example":
            self.labelled(line, labelled, level, links=links)
            return
        self.add(
            Block(
                kind=kind,
                text=text,
                line_start=line.no,
                line_end=line.no,
                level=level,
                label=label,
                parent=self.parent_bullet(level),
                title=term_title(text) if self.term_titles else "",
                links=links,
            )
        )
        self.list_open = self.list_open or text.endswith(":")

    def labelled(
        self,
        line: Line,
        label: tuple[str, str, str],
        level: int,
        links: tuple[tuple[str, str], ...] = (),
    ) -> None:
        kind, name, title = label
        if kind == "answer":
            parent = self.question
        elif kind == "example" and self.last_rule is not None:
            parent = self.last_rule  # "Example: ..." under a numbered rule is that rule's
        else:
            parent = self.parent_bullet(level)
        block = self.add(
            Block(
                kind=kind,
                text=title,
                line_start=line.no,
                line_end=line.no,
                level=level,
                label=name,
                title=title,
                parent=parent,
                links=links,
            )
        )
        if block.kind == "question":
            self.question = len(self.blocks) - 1

    def paragraph(self, line: Line, text: str) -> None:
        self.list_open = text.endswith(":")
        is_question = text[-1] in "?？" and len(text) <= 200
        if is_question:
            self.add(Block(kind="question", text=text, line_start=line.no, line_end=line.no))
            self.question = len(self.blocks) - 1
            return
        if self.question is not None:
            self.add(
                Block(
                    kind="answer",
                    text=text,
                    line_start=line.no,
                    line_end=line.no,
                    parent=self.question,
                )
            )
            return
        title = term_title(text) if self.term_titles else ""
        self.add(
            Block(kind="paragraph", text=text, line_start=line.no, line_end=line.no, title=title)
        )


def segment(doc: DocText, lines: list[Line]) -> tuple[list[Block], list[str], str]:
    """Turn a document's normalized lines into blocks in document order; also the warnings
    and the numbering scheme found."""
    segmenter = _Segmenter(doc, lines)
    blocks = segmenter.run(lines)
    if segmenter.scheme is not None:
        number_divisions(blocks)
        blocks = attach_own_text(blocks)
    # A line a normalization rule joined from wrapped lines ends where the last of them did.
    ends = {line.no: line.end for line in lines if line.end is not None}
    if ends:
        for block in blocks:
            block.line_end = max(block.line_end, ends.get(block.line_end, block.line_end))
    return blocks, segmenter.warnings, segmenter.numbering
