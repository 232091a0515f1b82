"""Word diff between two translations of one source rule (say vi-mt1 against vi-mt2).

Two machine translations of the same rule mostly differ where one of them went wrong: a term
rendered another way, a number dropped, a word left in English. Putting them side by side,
word by word, shows a translator where to look. The translations come from the alignment
tables (``alignments``, ``alignment_rules``), so a source rule whose translation was glued to
its neighbour's still finds it; ``Translation.shared_with`` says so.

Segments are ingest.worddiff's ``(op, text)``: ``delete`` is only in the left translation,
``insert`` only in the right one. Words are compared exactly: a translator cares about "Draw"
against "vẽ", and about "Vẽ" against "vẽ" too.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ingest import worddiff
from ingest.worddiff import Segment

from ..store.db import KbError, first, run


@dataclass(frozen=True)
class Translation:
    """What one variant has for a source rule."""

    document: str
    variant: str
    rule_ids: tuple[str, ...]  # target rules; empty when the variant has no translation
    text: str
    shared_with: tuple[str, ...]  # other source rules the same target rules translate
    method: str
    score: float


@dataclass(frozen=True)
class VariantDiff:
    source_rule: str
    source_text: str
    left: Translation
    right: Translation
    segments: list[Segment]

    def render(self) -> str:
        return render(self)


def translations(conn: sqlite3.Connection, rule_id: str) -> list[Translation]:
    """Every variant's translation of source rule ``rule_id``, ordered by variant name."""
    out = []
    for row in run(conn, "rule_translations_by_variant", rule=rule_id):
        members = run(conn, "alignment_members", alignment=row["alignment"])
        targets = [m for m in members if m["side"] == "target"]
        out.append(
            Translation(
                document=row["document"],
                variant=row["variant"],
                rule_ids=tuple(m["rule"] for m in targets),
                text=" ".join(m["text"] for m in targets),
                shared_with=tuple(
                    m["rule"] for m in members if m["side"] == "source" and m["rule"] != rule_id
                ),
                method=row["method"],
                score=row["score"],
            )
        )
    return out


def variant_diff(
    conn: sqlite3.Connection, rule_id: str, left: str | None = None, right: str | None = None
) -> VariantDiff:
    """Diff of two translations of source rule ``rule_id``.

    ``left`` and ``right`` name a variant ("vi-mt1") or a document; by default the first two
    variants in name order. Raises KbError when the rule has fewer than two translations.
    """
    source = first(conn, "rule_text", id=rule_id)
    if source is None:
        raise KbError(f"{rule_id}: no such rule")
    found = translations(conn, rule_id)
    if not found:
        raise KbError(f"{rule_id}: not the source of any aligned translation")

    def pick(name: str | None, default: int) -> Translation:
        if name is None:
            if len(found) <= default:
                raise KbError(f"{rule_id}: only {len(found)} translation(s), need two")
            return found[default]
        for t in found:
            if name in (t.variant, t.document):
                return t
        known = ", ".join(t.variant for t in found)
        raise KbError(f"{rule_id}: no translation in {name} (have: {known})")

    a, b = pick(left, 0), pick(right, 1)
    return VariantDiff(rule_id, source["text"], a, b, worddiff.diff(a.text, b.text, exact=True))


def render(diff: VariantDiff) -> str:
    """A plain-text report: the source rule, each translation, and the word diff."""

    def describe(t: Translation) -> str:
        where = " ".join(t.rule_ids) or "no translation"
        shared = f" (also translates {' '.join(t.shared_with)})" if t.shared_with else ""
        return f"{t.variant:<8} {where}{shared}\n         {t.text}"

    return "\n".join(
        [
            f"source   {diff.source_rule}\n         {diff.source_text}",
            describe(diff.left),
            describe(diff.right),
            f"diff     [-{diff.left.variant}-] {{+{diff.right.variant}+}}",
            f"         {worddiff.to_text(diff.segments)}",
        ]
    )
