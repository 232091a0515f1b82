"""The judge's floor on the command line (issue 25): the current rule first, glossary lookups
that forgive typos and take a game, and Vietnamese rulings with their English gloss."""

from __future__ import annotations

import json
from pathlib import Path

from run_kb import run_kb


def test_kb_show_lists_the_current_version_first_and_marks_the_old_one(built_db: Path) -> None:
    out = run_kb("show", "1010.1", db=built_db)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert first.startswith("fow-cr-8.01:1010.1"), first
    old = out.stdout.index("fow-cr-7.0:1010.1")
    assert "superseded by fow-cr-8.01" in out.stdout[old:]
    assert "superseded" not in out.stdout[:old]
    data = json.loads(run_kb("show", "1010.1", "--json", db=built_db).stdout)
    assert [r["document"] for r in data] == ["fow-cr-8.01", "fow-cr-7.0"]


def test_kb_card_shows_a_vietnamese_ruling_with_its_english_gloss(built_db: Path) -> None:
    out = run_kb("card", "honest", db=built_db)
    assert out.returncode == 0, out.stderr
    ruling = out.stdout.split("ygo-damage-step:van-de-honest.5", 1)[1]
    vietnamese = ruling.index("Người A có")
    gloss = ruling.index("[en, community gloss, not official] Player A has")
    assert vietnamese < gloss  # the ruling as written, then its gloss, marked as one
    data = json.loads(run_kb("card", "honest", "--json", db=built_db).stdout)
    rulings = [r for g in data["card"]["rulings_by_timing"] for r in g["rulings"]]
    example = next(r for r in rulings if r["id"] == "ygo-damage-step:van-de-honest.5")
    assert example["glosses"] and example["glosses"][0]["lang"] == "en"


def test_no_glued_words_are_left_in_the_fow_8_01_rules(built_db: Path) -> None:
    """The PDF's lost spaces next to punctuation are restored (space_glued_punctuation), each
    recorded as a repair."""
    import re
    import sqlite3

    conn = sqlite3.connect(built_db)
    texts = [t for (t,) in conn.execute("select text from rules where document='fow-cr-8.01'")]
    glue = re.compile(
        r"\b\w+['’](?:s|t)(?=[a-z]{2,})|[a-z],[A-Za-z]|[a-z]\[|\][a-z]{2}"
        r"|[a-z]\((?!s\))|\)[a-z]{2}|[a-z]\"[A-Za-z]"
    )
    assert [m.group() for t in texts for m in glue.finditer(t)] == []
    destroy = conn.execute("select text from rules where id = 'fow-cr-8.01:1010.1'").fetchone()[0]
    assert "as long as it's not a J-ruler" in destroy
    repairs = conn.execute(
        "select count(*) from repairs where rule_name = 'space_glued_punctuation'"
    ).fetchone()[0]
    assert repairs >= 60
