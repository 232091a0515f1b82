"""Stage 4, segment: normalized lines to blocks (headings, paragraphs, bullets, rules...).

What a heading is comes first from the document's own structure: comprehensive-rules
numbering (``100.`` chapters, ``101.`` sections, ``103.4.`` rules, ``105.3a.`` sub-rules), then
the manifest's outline hints. A document with neither (a user's own file, a translation
block) gets headings by layout: short lines without final punctuation.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .records import Block, DocText, Line

CR_HEADING = re.compile(r"^(?P<num>\d{2,4})\.\s+(?P<title>\S.*)$")
CR_RULE = re.compile(
    r"^(?P<num>\d{2,4}\.\d+(?P<sub>[a-z]+)?(?:-(?P<roman>[ivxl]+))?)\.?(?:\s+(?P<text>.*)|$)"
)
_NUMBERED_ITEM = re.compile(r"^(?P<num>\d{1,2}|[a-z])[.)]\s+(?P<text>\S.*)$")
_TERM = re.compile(r"^(?P<term>[^\W\d_][^:：.?!]{0,40}?)\s*(?::\s+|：\s*)\S")
_FINAL_PUNCT = ".,;:!?…。，；：！？"
_SENTENCE_END = ".:!?…。：！？)"
_HAS_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)


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


def _is_layout_heading(text: str) -> bool:
    words = text.split()
    return (
        len(text) <= 80
        and 1 <= len(words) <= 10
        and text[-1] not in _FINAL_PUNCT
        # "Proceed to battle (explained later.)": a sentence that ends inside its parenthesis.
        and not (text[-1] in ")）" and len(text) > 1 and text[-2] in _FINAL_PUNCT)
        and bool(_HAS_LETTER.search(text[0]) or text[0] in '"“(' or text[0].isdigit())
        and (text[0].isupper() or not text[0].isalpha())
    )


def term_title(text: str) -> str:
    """The defined term of ``Term: definition`` text, if short enough to be a title."""
    m = _TERM.match(text)
    if m and len(m.group("term").split()) <= 5:
        return m.group("term").strip()
    return ""


class _Segmenter:
    def __init__(self, doc: DocText) -> None:
        self.doc = doc
        original = doc.variant == "original"
        self.hints = [(re.compile(h.pattern), h) for h in doc.spec.headings] if original else []
        self.numbering = doc.spec.numbering if original else ""
        self.layout_headings = not self.hints and not self.numbering
        self.term_titles = original
        self.blocks: list[Block] = []
        self.by_number: dict[str, int] = {}
        self.question: int | None = None
        self.list_open = False
        self.warnings: list[str] = []

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
            self.line(line, text, blank_before)
            blank_before = False
        for block in self.blocks:
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
        for pattern, hint in self.hints:
            if pattern.search(text):
                if hint.insert_title:
                    self.heading(
                        hint.insert_title, line, hint.level, ruleset=hint.ruleset, era=hint.era
                    )
                    break
                self.heading(text, line, hint.level, ruleset=hint.ruleset, era=hint.era)
                return
        if self.numbering == "cr" and self.cr_line(line, text):
            return
        indent = _indent(line.text)
        if self.continuation(line, text, indent, blank_before):
            return
        bullet = _bullet(text)
        if bullet is not None:
            self.list_block(line, bullet, "bullet", indent // 2 + 1)
            return
        item = _NUMBERED_ITEM.match(text)
        if item and not self.numbering:
            self.list_block(
                line, item.group("text"), "item", indent // 2 + 1, label=item.group("num")
            )
            return
        label = match_label(text)
        if label and label[0] != "step":
            self.labelled(line, label, indent // 2 + 1)
            return
        if self.layout_headings and not self.list_open and _is_layout_heading(text):
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

    def cr_line(self, line: Line, text: str) -> bool:
        m = CR_RULE.match(text)
        if m:
            number = m.group("num")
            depth = 1 + bool(m.group("sub")) + bool(m.group("roman"))
            if line.depth is not None and line.depth - 2 != depth:
                self.warnings.append(
                    f"{self.doc.spec.file}:{line.no}: rule {number} has depth marker {line.depth} "
                    f"but its number says {depth + 2}"
                )
            parent_number = (
                number.rsplit("-", 1)[0]
                if m.group("roman")
                else (re.sub(r"[a-z]+$", "", number) if m.group("sub") else "")
            )
            body = (m.group("text") or "").strip()
            block = Block(
                kind="rule",
                text=body,
                line_start=line.no,
                line_end=line.no,
                level=depth,
                number=number,
                title=term_title(body),
                parent=self.by_number.get(parent_number) if parent_number else None,
            )
            self.by_number[number] = len(self.blocks)
            self.add(block)
            return True
        m = CR_HEADING.match(text)
        if m:
            number = m.group("num")
            level = 1 if int(number) % 100 == 0 else 2
            if line.depth is not None and line.depth != level:
                self.warnings.append(
                    f"{self.doc.spec.file}:{line.no}: section {number} has depth marker "
                    f"{line.depth} but its number says {level}"
                )
            self.heading(m.group("title").strip(), line, level, number=number)
            return True
        return False

    def continuation(self, line: Line, text: str, indent: int, blank_before: bool) -> bool:
        """Join a line to the block before it when it continues that block."""
        prev = self.last()
        if prev is None or prev.kind == "heading" or blank_before:
            return False
        # An indented plain line under a bullet or example is that block's body.
        if indent > 0 and _bullet(text) is None and not _NUMBERED_ITEM.match(text):
            if prev.kind == "example" and prev.text == prev.title:
                prev.text = text
            else:
                prev.text += "\n" + text
            prev.line_end = line.no
            return True
        # A sentence wrapped onto the next line: no sentence end, and the next starts lower-case.
        if prev.text[-1] not in _SENTENCE_END and (text[0].islower() or text[0] in ",;"):
            prev.text += ("" if text[0] in ",;" else " ") + text
            prev.line_end = line.no
            return True
        return False

    def list_block(self, line: Line, text: str, kind: str, level: int, label: str = "") -> None:
        labelled = match_label(text)
        if labelled and labelled[0] == "example":
            self.labelled(line, labelled, level)
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
            )
        )
        self.list_open = self.list_open or text.endswith(":")

    def labelled(self, line: Line, label: tuple[str, str, str], level: int) -> None:
        kind, name, title = label
        parent = self.question if kind == "answer" else self.parent_bullet(level)
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


def segment(doc: DocText, lines: list[Line]) -> tuple[list[Block], list[str]]:
    """Turn a document's normalized lines into blocks in document order, with warnings."""
    segmenter = _Segmenter(doc)
    return segmenter.run(lines), segmenter.warnings
