"""Each filter a verdict passes (kb/ask/verdicts/filters.py) on its own case file
(tests/fixtures/ask/filters/<filter>.txt): questions it stops, and questions beside them whose
verdict it lets stand, asked of the real knowledge base."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fixture_files import Case, read_cases

from kb.ask import ask
from kb.ask.verdicts import filters

FIXTURES = Path(__file__).parent / "fixtures" / "ask" / "filters"
NAMES = [*filters.QUESTION, *filters.VERDICT]
CASES = [(path.stem, case) for path in sorted(FIXTURES.glob("*.txt")) for case in read_cases(path)]


def test_every_filter_has_a_case_file_and_every_case_file_a_filter() -> None:
    assert sorted(NAMES) == sorted({name for name, _ in CASES})


@pytest.mark.parametrize(("name", "case"), CASES, ids=[f"{n}:{c.line}:{c.title}" for n, c in CASES])
def test_filter(conn: sqlite3.Connection, name: str, case: Case) -> None:
    result = ask(conn, case.input)
    verdict = (result["answer"] or {}).get("verdict")
    got = f"stopped_by: {result['stopped_by'] or 'none'}\nverdict: {verdict or 'none'}"
    assert got == case.expected
    if result["stopped_by"]:
        assert result["not_covered"], "a stopped question is told why"
