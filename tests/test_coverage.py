"""Whether the knowledge base covers what a question is about (kb.lookups.coverage), called
directly, then as kb ask and the ask page say it: first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from run_kb import run_kb
from test_site import Page, Site

from kb.lookups.coverage import not_mentioned, question_coverage
from kb.store.build import build
from kb.store.db import Connection, connect


@pytest.fixture(scope="module")
def db(built_db: Path) -> Connection:
    return connect(built_db)


def test_a_game_the_corpus_has_no_rules_of_is_named(db: Connection) -> None:
    c = question_coverage(db, "pokemon retreat cost", content_words=["pokemon", "retreat", "cost"])
    assert not c["covered"] and c["outside"] == ["Pokémon TCG"]
    assert c["message"].startswith("Not in the knowledge base: it has no rules of Pokémon TCG")
    assert {g["id"] for g in c["games"]} == {"fow", "lorcana", "vanguard", "yugioh"}
    assert "Force of Will" in c["message"]  # what it does cover
    digimon = question_coverage(db, "can Shrink be activated during damage calculation in digimon")
    assert digimon["outside"] == ["Digimon Card Game"]


def test_a_topic_the_named_game_s_documents_lack(db: Connection) -> None:
    c = question_coverage(db, "Vanguard guard step", content_words=["guard", "step"], hits=[])
    assert not c["covered"] and c["game"] == "vanguard" and c["missing"] == ["guard step"]
    assert "Cardfight!! Vanguard documents do not mention “guard step”" in c["message"]
    # Passages of the named game: the topic is there, whatever the words.
    fow = question_coverage(db, "FoW: how does a judgment work", game="fow", hits=[{"game": "fow"}])
    assert fow["covered"] and fow["message"] is None


def test_a_covered_question_is_not_said_to_be_off_the_corpus(db: Connection) -> None:
    for question, words, game in [
        ("honest vs honest", None, ""),
        ("what happens with an infinite loop in FoW", ["infinite", "loop"], "fow"),
        ("max hand size in FoW", ["max", "hand", "size"], "fow"),
        ("tinh toan thiet hai", None, ""),
        ("闪电 限制", None, ""),
    ]:
        c = question_coverage(db, question, game, words, hits=[{"game": game or "yugioh"}])
        assert c["covered"] and not c["outside"] and not c["missing"], (question, c)
    # "infinite" qualifies a thing the rules name (Loop): not a word the corpus lacks.
    loop = question_coverage(db, "infinite loop", "fow", ["infinite", "loop"], [{"game": "fow"}])
    assert loop["unmentioned"] == [] and loop["message"] is None


def test_a_word_no_document_uses_is_said_softly(db: Connection) -> None:
    c = question_coverage(db, "FoW mulligan: who chooses first", "fow", ["mulligan", "chooses"])
    assert c["covered"] and c["unmentioned"] == ["mulligan"]
    assert "may say it in other words" in c["message"]


def test_no_rule_mentions_names_only_what_the_corpus_lacks(db: Connection) -> None:
    head = "Not covered: no rule of the knowledge base decides what happens."
    sentence = head + " No rule mentions “infinite”, “mulligan”."
    c = question_coverage(db, "infinite loop mulligan", "fow", ["infinite", "loop", "mulligan"])
    assert not_mentioned(sentence, c) == head + " No rule mentions “mulligan”."
    loop = question_coverage(db, "infinite loop", "fow", ["infinite", "loop"], [{"game": "fow"}])
    assert not_mentioned(sentence, loop) == head


def test_a_game_that_lands_is_covered_without_a_change(tmp_path: Path) -> None:
    """kb/data/coverage.toml names Disney Lorcana as a game elsewhere; a corpus with its rules
    covers it, and says so of the others it lacks."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "lorcana-cr.txt").write_text(
        "Disney Lorcana Comprehensive Rules\n\n1. Concepts\n\n1.1. General\n"
        "1.1.1. Ink is the resource players use to play cards.\n"
        "1.1.2. Each player starts with 20 lore to win.\n",
        encoding="utf-8",
    )
    (corpus / "sources.toml").write_text(
        '[games.lorcana]\nname = "Disney Lorcana"\naliases = ["lorcana"]\n'
        'keywords = ["Lorcana"]\n\n'
        '[[documents]]\nfile = "lorcana-cr.txt"\nid = "lorcana-cr"\ngame = "lorcana"\n'
        'ruleset = "cr"\nlang = "en"\nprovenance = "official"\nera = "2025"\n',
        encoding="utf-8",
    )
    path = tmp_path / "kb.sqlite"
    build(corpus, path)
    conn = connect(path)
    try:
        lorcana = question_coverage(conn, "lorcana: what is ink", content_words=["ink"])
        assert lorcana["covered"] and lorcana["game"] == "lorcana"
        assert question_coverage(conn, "pokemon retreat cost")["outside"] == ["Pokémon TCG"]
    finally:
        conn.close()


# ---------------------------------------------------------------------------------------------
# As the judge reads it: first


def test_kb_ask_says_first_that_the_corpus_does_not_cover_it(built_db: Path) -> None:
    out = run_kb("ask", "pokemon retreat cost", db=built_db)
    assert out.stdout.startswith("Not in the knowledge base: it has no rules of Pokémon TCG")
    guard = run_kb("ask", "Vanguard guard step", db=built_db)
    assert guard.stdout.startswith(
        "Not in the knowledge base: its Cardfight!! Vanguard documents do not mention “guard"
    )
    loop = run_kb("ask", "what happens with an infinite loop in FoW", db=built_db)
    assert "No rule mentions “infinite”" not in loop.stdout and "Loop" in loop.stdout
    data = json.loads(run_kb("ask", "pokemon retreat cost", "--json", db=built_db).stdout)
    assert data["coverage"]["outside"] == ["Pokémon TCG"] and not data["coverage"]["covered"]


def test_the_ask_page_says_it_before_anything_else(built_db: Path) -> None:
    site = Site(built_db)
    try:
        html = site.get("/ask?q=pokemon+retreat+cost").text
        page = Page(html)
        status = page.find("p", class_="coverage")
        assert status and "no rules of Pokémon TCG" in "".join(status[0]["text"])
        first_passage = html.find('<ol class="hits">')
        assert 0 < html.index('class="coverage') < (first_passage if first_passage > 0 else 10**9)
        first_section = html.find("<h2")
        assert first_section < 0 or html.index('class="coverage') < first_section
        covered = Page(site.get("/ask?q=honest+vs+honest").text)
        assert not covered.find("p", class_="coverage")
    finally:
        site.runner.close()
