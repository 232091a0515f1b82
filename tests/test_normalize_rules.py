"""Fixture tests for each normalization rule: tests/fixtures/normalize/<rule>.txt."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_files import Case, read_cases

from ingest.normalize import PRESETS, RULES
from ingest.normalize.base import Context
from ingest.records import DocText, DocumentSpec, Line, RawText

FIXTURES = Path(__file__).parent / "fixtures" / "normalize"


def _cases() -> list[tuple[str, Case]]:
    out = []
    for path in sorted(FIXTURES.glob("*.txt")):
        out += [(path.stem, case) for case in read_cases(path)]
    return out


def _context(options: dict[str, str]) -> Context:
    spec = DocumentSpec(
        file="fixture.txt",
        id="fixture",
        game="fow",
        ruleset="",
        title="fixture",
        lang="en",
        provenance="unknown",
        era="",
        numbering=options.get("numbering", ""),
        fillers=tuple(f for f in options.get("fillers", "").split(",") if f),
        drop_lines=tuple(p for p in [options.get("drop", "")] if p),
        # "$ {S}|# {W}": a glyph and its notation, pairs apart by "|".
        glyphs=tuple((pair[0], pair[2:]) for pair in options.get("glyphs", "").split("|") if pair),
    )
    raw = RawText(
        path="fixture.txt", file="fixture.txt", encoding="utf-8", sha256="", size=0, text=""
    )
    doc = DocText(spec, "fixture", "original", "en", "unknown", "clean", "fixture", None, [], raw)
    vocabulary = frozenset(w for w in options.get("vocabulary", "").split(",") if w)
    bigrams = frozenset(b for b in options.get("bigrams", "").split(",") if b)
    return Context(doc=doc, vocabulary=vocabulary, bigrams=bigrams)


CASES = _cases()


@pytest.mark.parametrize(("rule", "case"), CASES, ids=[f"{r}: {c.title}" for r, c in CASES])
def test_rule_fixture(rule: str, case: Case) -> None:
    ctx = _context(case.options)
    lines = [Line(no=i, text=t) for i, t in enumerate(case.input.split("\n"), start=1)]
    out = RULES[rule](lines, ctx)
    assert "\n".join(line.text for line in out) == case.expected
    # Every change is recorded under the rule's name, and nothing is recorded for no change.
    if case.expected != case.input:
        assert ctx.repairs and {r.rule for r in ctx.repairs} == {rule}
    else:
        assert ctx.repairs == []


def test_every_rule_has_fixtures_and_a_preset() -> None:
    covered = {rule for rule, _ in CASES}
    assert covered == set(RULES), f"rules without fixtures: {set(RULES) - covered}"
    in_presets = {name for names in PRESETS.values() for name in names}
    assert in_presets == set(RULES)


def test_repairs_keep_source_line_numbers() -> None:
    ctx = _context({})
    lines = [Line(no=7, text="A."), Line(no=8, text="Mục tiêu của trò chơiThấp hơn.")]
    out = RULES["split_glued_headings"](lines, ctx)
    assert [(line.no, line.text) for line in out] == [
        (7, "A."),
        (8, "Mục tiêu của trò chơi"),
        (8, "Thấp hơn."),
    ]
    assert ctx.repairs[0].line == 8
    assert "¶" in ctx.repairs[0].after
