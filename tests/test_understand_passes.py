"""Each understanding pass of kb ask on its own fixture file (tests/fixtures/ask/passes/
<pass>.txt): the question runs through the chain up to that pass, and the fields the pass
writes must read as expected. A new case is a question and what a judge would expect the
pass to find in it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fixture_files import Case, read_cases
from understand_summary import summary

from kb.ask.understand import PASS_NAMES, PASSES, run_passes
from kb.store.vocabulary import load_vocabulary

FIXTURES = Path(__file__).parent / "fixtures" / "ask" / "passes"
WRITES = {name: fields for name, _, fields in PASSES}


def _cases() -> list[tuple[str, Case]]:
    out = []
    for path in sorted(FIXTURES.glob("*.txt")):
        assert path.stem in PASS_NAMES, f"{path.name}: no understanding pass {path.stem!r}"
        out += [(path.stem, case) for case in read_cases(path)]
    return out


CASES = _cases()


def test_every_pass_that_writes_has_a_fixture_file() -> None:
    covered = {name for name, _ in CASES}
    missing = [name for name, fields in WRITES.items() if fields and name not in covered]
    assert not missing, missing


@pytest.mark.parametrize(
    ("pass_name", "case"), CASES, ids=[f"{n}:{c.line}:{c.title}" for n, c in CASES]
)
def test_pass(conn: sqlite3.Connection, pass_name: str, case: Case) -> None:
    ctx = run_passes(
        conn, case.input, load_vocabulary(conn), game=case.options.get("game", ""), until=pass_name
    )
    assert summary(ctx.result, WRITES[pass_name]) == case.expected


def test_cue_phrases_are_found_as_a_regular_expression_would_find_them() -> None:
    """kb ask finds cue phrases without compiling a pattern per list (a process per question):
    whole words only, CJK anywhere, the leftmost first and of two there the longest, a
    search bounded by ``pos`` and ``endpos`` as ``re.Pattern.search`` bounds it."""
    from kb.lexicon.words import cue_pattern

    cues = cue_pattern(("how many", "many", "max", "几张", "最多"))
    assert [m.group() for m in cues.finditer("how many cards max? maximum 最多几张")] == [
        "how many",
        "max",
        "最多",
        "几张",
    ]
    assert cues.search("maximum") is None  # "max" is no whole word of "maximum"
    assert cues.search("so many") is not None and cues.search("so many").span() == (3, 7)
    # A word character before pos counts; none after endpos does.
    assert cues.search("xmax", 1) is None
    assert cues.search("maxim", 0, 3).span() == (0, 3)
    assert cue_pattern(()).search("anything") is None
