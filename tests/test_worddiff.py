"""Fixture tests for the word-diff engine: tests/fixtures/worddiff.txt.

Each case gives two texts (old, new) and the expected segments, their wdiff text (what
``kb diff`` prints and ``rule_changes.detail`` stores) and their HTML (what the site shows).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_files import Case, read_cases

from ingest import worddiff
from ingest.worddiff import Segment
from kb.web.html import segments_html

CASES = read_cases(Path(__file__).parent / "fixtures" / "worddiff.txt")
MARKS = {"=": worddiff.EQUAL, "-": worddiff.DELETE, "+": worddiff.INSERT}


def _texts(case: Case) -> tuple[str, str]:
    lines = case.input.split("\n")
    assert len(lines) == 2, f"line {case.line}: a case has two texts, one line each"
    return lines[0], lines[1]


def _expected(case: Case) -> tuple[list[Segment], dict[str, str]]:
    """The expected segments, and the rendered forms by name (``text``, ``html``)."""
    segments, rendered = [], {}
    for line in case.expected.split("\n"):
        if line[:2] in ("= ", "- ", "+ "):
            segments.append(Segment(MARKS[line[0]], line[2:]))
        else:
            name, _, value = line.partition(": ")
            rendered[name] = value
    return segments, rendered


def _diff(case: Case) -> list[Segment]:
    old, new = _texts(case)
    return worddiff.diff(old, new, exact="exact" in case.options)


@pytest.mark.parametrize("case", CASES, ids=[c.title for c in CASES])
def test_segments(case: Case) -> None:
    assert _diff(case) == _expected(case)[0]


@pytest.mark.parametrize("case", CASES, ids=[c.title for c in CASES])
def test_text(case: Case) -> None:
    segments = _diff(case)
    if "context" in case.options:
        segments = worddiff.elide(segments, int(case.options["context"]))
    assert worddiff.to_text(segments) == _expected(case)[1]["text"]


@pytest.mark.parametrize("case", CASES, ids=[c.title for c in CASES])
def test_html_on_the_site(case: Case) -> None:
    """The site renders page data (segments as ``{"op", "text"}``) to the same escaped HTML,
    whatever diff notation or markup the texts hold."""
    page_data = worddiff.as_dicts(_diff(case))
    assert str(segments_html(page_data)) == _expected(case)[1]["html"]


def test_fixtures_cover_english_vietnamese_and_literal_notation() -> None:
    texts = [t for c in CASES for t in _texts(c)]
    assert any("[-X-]" in t for t in texts) and any("{+Y+}" in t for t in texts)
    assert any("người" in t for t in texts)
    assert all("text" in _expected(c)[1] and "html" in _expected(c)[1] for c in CASES)


def test_changed() -> None:
    assert not worddiff.changed(worddiff.diff("The end.", "the end"))
    assert worddiff.changed(worddiff.diff("The end.", "the end", exact=True))
    assert not worddiff.changed([])
