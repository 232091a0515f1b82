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
