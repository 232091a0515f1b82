"""Each ranking feature of kb ask on fixture cases (tests/fixtures/ask/features.txt): a
question, a passage described by its row's fields, and the value the feature must give it."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fixture_files import Case, read_cases

from kb.ask.understand import understand
from kb.retrieve.features import FEATURES, Ranking
from kb.retrieve.groups import query_groups
from kb.retrieve.lexical import forms_of
from kb.retrieve.query import typed_spans
from kb.retrieve.rank import weights
from kb.store.vocabulary import load_vocabulary

CASES = read_cases(Path(__file__).parent / "fixtures" / "ask" / "features.txt")
ROW_DEFAULTS: dict[str, Any] = {
    "seq": 1,
    "number": "",
    "label": "",
    "title": "",
    "text": "",
    "reading": None,
    "section_path": "",
    "kind": "paragraph",
    "provenance": "official",
    "lang": "en",
    "langs": "",
    "game": "yugioh",
    "facts": None,
    "card_ids": None,
    "nodes": None,
    "property_nodes": None,
    "depth": 0,
    "era": "",
    "version": "",
    "ruleset": "",
}


def _row(case: Case) -> dict[str, Any]:
    row = dict(ROW_DEFAULTS)
    for line in case.input.splitlines():
        key, _, value = line.partition(":")
        assert key.strip() in ROW_DEFAULTS, f"line {case.line}: unknown row field {key!r}"
        row[key.strip()] = int(value) if key.strip() == "depth" else value.strip()
    return row


def test_every_feature_has_cases_and_a_weight() -> None:
    covered = {c.options["feature"] for c in CASES}
    assert covered == set(FEATURES) == set(weights())


@pytest.mark.parametrize("case", CASES, ids=[f"{c.line}:{c.title}" for c in CASES])
def test_feature(conn: sqlite3.Connection, case: Case) -> None:
    question = case.options["question"]
    u = understand(conn, question, load_vocabulary(conn))
    row = _row(case)
    ranking = Ranking(
        u=u,
        groups=query_groups(forms_of(conn, u)),
        typed=typed_spans(u),
        fused={row["seq"]: float(case.options.get("rrf", "1")), 2: 1.0},
        near=set(case.options.get("near", "").split()),
        lang=case.options.get("lang", u.lang),
        # The passage's similarity, between the corpus's most (1) and least (0) similar.
        dense={row["seq"]: float(case.options["dense"]), 2: 1.0, 3: 0.0}
        if "dense" in case.options
        else None,
        # Its latent terms' similarity, between the candidates' most (0.8) and least (0.2).
        latent={row["seq"]: float(case.options["latent"]), 2: 0.8, 3: 0.2}
        if "latent" in case.options
        else None,
    )
    value = FEATURES[case.options["feature"]](row, ranking)
    assert f"{value:.2f}" == case.expected


def test_a_long_question_ranks_only_its_best_fused_candidates(conn: sqlite3.Connection) -> None:
    """The features of every candidate are most of a question's cost: kb/data/limits.toml caps
    how many are scored, keeping the best by fused rank."""
    from kb.limits import limits
    from kb.retrieve.fuse import fuse
    from kb.retrieve.pipeline import retrieve

    question = (
        "when a face-down defense monster is attacked and flipped face-up in the damage step, "
        "can its flip effect activate before damage calculation or only after the battle ends"
    )
    stages = retrieve(conn, understand(conn, question, load_vocabulary(conn)))
    most = limits(conn)["question"]["max_ranked_passages"]
    every = fuse(stages.lists)
    assert len(every) > most  # the question gathers more than the ranker may score
    assert len(stages.linear) == most
    weakest_kept = min(every[seq] for seq in stages.fused)
    assert all(every[seq] <= weakest_kept for seq in set(every) - set(stages.fused))


def test_a_rule_is_shown_before_a_glossary_entry_unless_a_definition_is_asked(
    conn: sqlite3.Connection,
) -> None:
    """Lorcana's glossary restates its rules in a line ("Deck: ... no more than 4 copies"): a
    question about the deck's copies is shown the rule first; a question asking what a word
    means may be shown its glossary entry first."""
    from kb.retrieve.cut import rules_before_glossary
    from kb.retrieve.pipeline import retrieve

    question = "洛卡纳同一完整名称的卡，卡组里最多能放几张？"
    stages = retrieve(conn, understand(conn, question, load_vocabulary(conn)))
    assert stages.hits[0]["kind"] != "term"
    entry = next(r for r in stages.ranked if r["kind"] == "term")
    rule = next(r for r in stages.ranked if r["kind"] != "term")
    assert rules_before_glossary([entry, rule], asks_definition=False) == [rule, entry]
    assert rules_before_glossary([entry, rule], asks_definition=True) == [entry, rule]


def test_a_year_the_question_names_reads_the_rules_of_that_year(conn: sqlite3.Connection) -> None:
    """A question saying "Luật 2005" names the 2005 rules, as "CR 7.0" names a version: their
    passages come first, though it names no game and other rulebooks say more of deck copies.
    A number no era holds ("2000 ATK") moves nothing."""
    from kb.retrieve.cut import named_era_first
    from kb.retrieve.pipeline import retrieve

    question = "Luật 2005: một lá bài được bỏ tối đa mấy bản trong deck?"
    stages = retrieve(conn, understand(conn, question, load_vocabulary(conn)))
    assert "2005" in stages.hits[0]["era"]
    assert "2005" not in stages.ranked[0]["era"]  # the ranker alone put another rulebook first
    rows = [{"id": "a", "era": "2018"}, {"id": "b", "era": "2005 (OCG)"}]
    assert named_era_first(rows, ["2005"]) == [rows[1], rows[0]]
    assert named_era_first(rows, ["2000"]) == rows
