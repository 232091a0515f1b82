"""Infractions of penalty guidelines as rows: what each is, and how a judge corrects it.

A guideline such as the Play Correction Guidelines numbers its infractions ("2.1 Missed
Trigger") and writes each in labelled parts: ``Definition:``, ``Examples:``, ``Corrective
Action: Casual – Caution / Competitive – Caution``, ``Context:``, ``Remedy:``, ``Upgrade
(Competitive Only):``. A numbered rule whose text has a definition and a corrective action is
an infraction; its part of the guidelines (the section above it, "RULE ERRORS") is its
category. The labels and the levels of play are data (data/infractions.toml), in every
language: the official Chinese guidelines' 定义, 纠正措施, 休闲级 read the same way, and each
of their infractions names the English one it translates (through the alignment's links).

A label seen again adds to its part (the Chinese 2.4 labels its context 定义 a second time).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Any

from ..records import DocumentResult, Infraction, Link, Rule, Section
from ..text import join_wrapped

_BULLET = re.compile(r"^[•●○◦▪·・‣⁃o–-]\s+")
_CELLS = re.compile(r"\s{3,}")  # the gap between a table's columns


@cache
def _data() -> dict[str, Any]:
    text = resources.files("ingest").joinpath("data/infractions.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def _label() -> re.Pattern[str]:
    labels = sorted((w for ws in _data()["parts"].values() for w in ws), key=len, reverse=True)
    alternation = "|".join(re.escape(w) for w in labels)
    return re.compile(
        rf"^(?P<label>{alternation})\s*(?:[(（][^)）]*[)）])?\s*[:：]\s*(?P<rest>.*)$"
    )


@cache
def _part_of() -> dict[str, str]:
    return {w: part for part, ws in _data()["parts"].items() for w in ws}


def read_parts(text: str) -> dict[str, list[str]]:
    """The labelled parts of an infraction's text: part -> its lines (label removed)."""
    parts: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.split("\n"):
        m = _label().match(line.strip())
        if m:
            current = _part_of()[m.group("label")]
            line = m.group("rest")
        if current is not None and line.strip():
            parts.setdefault(current, []).append(line.strip())
    return parts


def penalties(corrective_action: str) -> tuple[tuple[str, str], ...]:
    """("Casual", "Caution"), ("Competitive", "Warning") of "Casual – Caution / Competitive –
    Warning"; of a table (a header of columns, then a row per level), each level's cells with
    their columns ("Caution (0–2 minutes); Warning (3–9 minutes); ..."); a corrective action
    without levels is one pair with no level."""
    levels = "|".join(re.escape(w) for w in _data()["levels"]["names"])
    table = _table(corrective_action.split("\n"), re.compile(rf"^(?:{levels})$"))
    if table:
        return table
    level = re.compile(rf"^(?P<level>{levels})\s*[–—-]+\s*(?P<action>.+)$")
    out = []
    for piece in corrective_action.replace("\n", " ").split("/"):
        piece = piece.strip()
        if not piece:
            continue
        m = level.match(piece)
        out.append((m.group("level"), m.group("action").strip()) if m else ("", piece))
    return tuple(out)


def _table(lines: list[str], level: re.Pattern[str]) -> tuple[tuple[str, str], ...]:
    """The rows of a corrective action laid out as a table, or () when it is none."""
    cells = [_CELLS.split(line.strip()) for line in lines if line.strip()]
    rows = [row for row in cells if len(row) > 2 and level.match(row[0])]
    if not rows or len(cells[0]) < 3 or level.match(cells[0][0]):
        return ()
    header = cells[0][1:]
    return tuple(
        (
            row[0],
            "; ".join(f"{cell} ({column})" for cell, column in zip(row[1:], header, strict=False)),
        )
        for row in rows
    )


def _examples(lines: list[str]) -> tuple[str, ...]:
    """Each example: a bullet starts one, a line without a bullet goes on with the one before
    (a PDF wrapped it, a blank line between)."""
    out: list[str] = []
    for line in lines:
        if _BULLET.match(line) or not out:
            out.append(_BULLET.sub("", line))
        else:
            out[-1] = join_wrapped(out[-1], line)
    return tuple(out)


def _category(rule: Rule, sections: dict[str, Section]) -> str:
    """The title of the part of the guidelines the infraction is in: the section above its
    own (a numbered section's text is the rule numbered like it)."""
    section = sections.get(rule.section)
    if section is not None and section.number == rule.number and section.parent:
        section = sections.get(section.parent)
    return section.title if section is not None and section.parent else ""


def infraction(rule: Rule, sections: dict[str, Section], lang: str) -> Infraction | None:
    """The infraction a numbered rule states, or None when it states none."""
    if not rule.number:
        return None
    parts = read_parts(rule.text)
    if "definition" not in parts or "corrective_action" not in parts:
        return None
    action = "\n".join(parts["corrective_action"])

    def joined(part: str) -> str:
        return "\n".join(parts.get(part, []))

    return Infraction(
        rule=rule.id,
        document=rule.document,
        game=rule.game,
        lang=lang,
        number=rule.number,
        name=rule.title or rule.number,
        category=_category(rule, sections),
        definition=joined("definition"),
        examples=_examples(parts.get("examples", [])),
        corrective_action=action,
        penalties=penalties(action),
        context=joined("context"),
        remedy=joined("remedy"),
        upgrade=joined("upgrade"),
    )


def extract_infractions(
    documents: Sequence[DocumentResult], links: Iterable[Link] = ()
) -> list[Infraction]:
    """Every infraction of the corpus, a translation's naming the infraction it renders."""
    found: dict[str, Infraction] = {}
    for d in documents:
        sections = {s.id: s for s in d.sections}
        for rule in d.rules:
            row = infraction(rule, sections, d.doc.lang)
            if row is not None:
                found[rule.id] = row
    for link in links:
        sources = [s for s in link.source_ids if s in found]
        for target in link.target_ids:
            if target in found and len(sources) == 1:
                t = found[target]
                found[target] = replace(t, translation_of=sources[0])
    return list(found.values())
