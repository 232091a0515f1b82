"""Checks run between pipeline stages, so a malformed record fails where it was made.

Each check raises StageError naming the stage, the file and the line, instead of letting a
bad record surface as a KeyError three stages later.
"""

from __future__ import annotations

import unicodedata

from .errors import StageError
from .records import Block, DocText, Line, Rule, Section

BLOCK_KINDS = frozenset(
    {"heading", "paragraph", "bullet", "item", "rule", "example", "question", "answer", "sentence"}
    # A glossary entry, a credits line, an admonition's paragraph, a table row, a block quote
    # and a code block (from a rulebook's glossary and credits, and from markup sources).
    | {"term", "credit", "note", "row", "quote", "code"}
)


def check_lines(doc: DocText, lines: list[Line], stage: str) -> None:
    previous = 0
    for line in lines:
        if not isinstance(line.text, str):
            raise StageError(doc.spec.file, "line text is not a string", line=line.no, stage=stage)
        if "\n" in line.text:
            raise StageError(
                doc.spec.file, "a line still contains a line break", line=line.no, stage=stage
            )
        if line.no < previous:
            raise StageError(
                doc.spec.file,
                f"line numbers go backwards ({previous} then {line.no})",
                line=line.no,
                stage=stage,
            )
        previous = line.no


def check_normalized(doc: DocText, lines: list[Line]) -> None:
    check_lines(doc, lines, "normalize")
    for line in lines:
        if not unicodedata.is_normalized("NFC", line.text):
            raise StageError(
                doc.spec.file,
                "text is not NFC after normalization",
                line=line.no,
                stage="normalize",
            )


def check_blocks(doc: DocText, blocks: list[Block], stage: str) -> None:
    for i, b in enumerate(blocks):
        if b.kind not in BLOCK_KINDS:
            raise StageError(
                doc.spec.file, f"unknown block kind {b.kind!r}", line=b.line_start, stage=stage
            )
        if not b.text.strip():
            raise StageError(doc.spec.file, f"empty {b.kind} block", line=b.line_start, stage=stage)
        if b.line_start > b.line_end:
            raise StageError(
                doc.spec.file, "block ends before it starts", line=b.line_start, stage=stage
            )
        if b.parent is not None and not 0 <= b.parent < i:
            raise StageError(
                doc.spec.file,
                "block parent is not an earlier block",
                line=b.line_start,
                stage=stage,
            )


def check_outline(doc: DocText, sections: list[Section], rules: list[Rule]) -> None:
    section_ids = {s.id for s in sections}
    if len(section_ids) != len(sections):
        raise StageError(doc.spec.file, "two sections share an id", stage="outline")
    rule_ids: set[str] = set()
    for rule in rules:
        if rule.id in rule_ids:
            raise StageError(
                doc.spec.file,
                f"rule id {rule.id} is used twice",
                line=rule.line_start,
                stage="outline",
            )
        if rule.section not in section_ids:
            raise StageError(
                doc.spec.file, f"rule {rule.id} points to a missing section", stage="outline"
            )
        if rule.parent is not None and rule.parent not in rule_ids:
            raise StageError(
                doc.spec.file,
                f"rule {rule.id} has a parent that is not an earlier rule",
                line=rule.line_start,
                stage="outline",
            )
        rule_ids.add(rule.id)
