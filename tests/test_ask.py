"""kb ask: composed answers for timing questions, cited passages, and honest refusals."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from run_kb import run_kb

from ingest.text import fold
from kb.ask import ask
from kb.ask.verdicts.passages import named_versions

QUESTIONS = Path(__file__).parent / "fixtures" / "questions.toml"


def kb(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_kb(*args, db=db)


@pytest.mark.parametrize("question", ["honest vs honest", "honset vs honest", "Honest đấu Honest"])
def test_honest_vs_honest_composed_answer(conn: sqlite3.Connection, question: str) -> None:
    result = ask(conn, question)
    answer = result["answer"]
    assert answer is not None and answer["type"] == "vs"
    ruling = answer["ruling"]
    # Both activated in the one Chain allowed during damage calculation; B chains to A; LIFO.
    assert "during damage calculation" in ruling and "single Chain" in ruling
    assert "Player B must chain Honest to Player A's Honest" in ruling
    assert "last in, first out" in ruling and "Player B's Honest resolves first" in ruling
    assert "D.D. Warrior Lady destroys Blue-Eyes White Dragon" in ruling
    sequence = " ".join(answer["sequence"])
    assert sequence.index("activates Honest (Chain Link 1)") < sequence.index(
        "chains Honest to it (Chain Link 2)"
    )
    assert "Chain Link 2 (Player B's Honest), then Chain Link 1" in sequence
    assert any(
        "Only one Chain" in n["text"] or "No responses" in n["text"] for n in answer["nuances"]
    )
    warnings = " ".join(answer["warnings"])
    assert (
        "community text in Vietnamese" in warnings
        and "2010" in warnings
        and "not an official" in warnings
    )
    assert "2014" in warnings  # later rulings changed Honest's timing
    source = answer["sources"][0]
    assert source["id"] == "ygo-damage-step:van-de-honest.5"
    assert (source["lang"], source["provenance"]) == ("vi", "community")
    assert result["hits"][0]["id"] == "ygo-damage-step:van-de-honest.5"


def test_terminal_output_puts_the_answer_first(built_db: Path) -> None:
    out = kb(built_db, "ask", "honest vs honest")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Honest vs Honest")
    assert lines[2].startswith("Ruling: Both cards are activated during damage calculation")
    assert out.stdout.index("Sources:") < out.stdout.index("Passages:")


def test_gibberish_is_no_confident_match(built_db: Path) -> None:
    out = kb(built_db, "ask", "qwxz zzkv")
    assert out.returncode == 1
    assert out.stdout.strip() == "No confident match for 'qwxz zzkv'."
    data = json.loads(kb(built_db, "ask", "qwxz zzkv", "--json").stdout)
    assert data["confident"] is False and data["answer"] is None and data["hits"] == []


def test_a_chinese_question_typed_as_one_run_of_characters_shows_its_passages(
    conn: sqlite3.Connection,
) -> None:
    """Chinese writes no spaces: "护卫的角色必须以力竭状态进场吗" is one word to the question
    reader, which no passage holds whole. The Bodyguard rules it asks about were ranked first
    but hidden as "no confident match"; now the share of its characters' pairs decides."""
    found = ask(conn, "护卫的角色必须以力竭状态进场吗？")
    assert found["confident"] and found["hits"]
    top = found["hits"][0]
    assert (top["game"], top["lang"]) == ("lorcana", "zh") and "护卫" in top["text"]
    # A question of another game in Chinese stays unmatched: the pairs "Magic" shares with
    # the corpus are too few.
    assert not ask(conn, "万智牌的法术力池在阶段结束时会清空吗？")["hits"]


def test_card_at_a_moment(conn: sqlite3.Connection) -> None:
    answer = ask(conn, "can Shrink be activated during damage calculation")["answer"]
    assert answer["type"] == "verdict" and answer["verdict"] == "no"
    assert answer["ruling"].startswith("No: Shrink cannot be activated during damage calculation")
    assert answer["timing"]["id"].endswith("-during-damage-calculation")
    # The deciding facts are cited, the sentence that names Shrink among them.
    assert any(
        "Shrink" in b["quote"] and b["rule"].startswith("ygo-damage-step:")
        for b in answer["because"]
    )
    # Vietnamese without diacritics asks the same thing.
    vi = ask(conn, "shrink luc tinh toan thiet hai dc ko")["answer"]
    assert vi["verdict"] == "no" and vi["ruling"].startswith("No: Shrink cannot")


def test_a_moment_alone(conn: sqlite3.Connection) -> None:
    """A moment named with no question about it is described; asked "how many Chains", the
    verdict is the number the rules set."""
    for question in ("tinh toan thiet hai", "伤害计算时 能发动什么卡"):
        answer = ask(conn, question)["answer"]
        assert answer["type"] == "timing" and answer["verdict"] is None
        assert "only one Chain" in answer["ruling"]
        assert any(s.endswith("← this moment") for s in answer["sequence"])
        # the renderers number the steps: the steps themselves carry no number
        assert not [s for s in answer["sequence"] if s[:1].isdigit()]
    chains = ask(conn, "how many chains during damage calculation")["answer"]
    assert chains["verdict"] == "1" and "Only one Chain" in chains["ruling"]


def test_json_schema_of_hits(built_db: Path) -> None:
    data = json.loads(kb(built_db, "ask", "闪电 限制", "--json", "--limit", "3").stdout)
    assert set(data) >= {"query", "answer", "hits"}
    hit = data["hits"][0]
    assert set(hit) >= {
        "id",
        "game",
        "lang",
        "kind",
        "title",
        "text",
        "score",
        "timing",
        "cards",
        "provenance",
        "source",
    }
    assert set(hit["source"]) >= {"document", "line"}
    assert hit["text"].startswith("DMI限制卡") and "Raigeki" in hit["cards"]


def test_hits_carry_aligned_translations(conn: sqlite3.Connection) -> None:
    hits = ask(conn, "fow max hand size", limit=5)["hits"]
    basic = next(
        h
        for h in hits
        if h["id"].startswith("fow-basic:") or any(a.startswith("fow-basic:") for a in h["also"])
    )
    assert {t["variant"] for t in basic["translations"]} == {"vi-mt1", "vi-mt2"}


def test_ambiguous_card_is_reported_not_picked(conn: sqlite3.Connection) -> None:
    result = ask(conn, "magician vs honest")
    amb = result["understood"]["ambiguous"]
    assert amb and {"Dark Magician", "Apprentice Magician"} <= set(amb[0]["candidates"])
    assert result["understood"]["vs"] is None


def test_game_filter(conn: sqlite3.Connection) -> None:
    hits = ask(conn, "deck size", game="vanguard")["hits"]
    assert hits and all(h["game"] == "vanguard" for h in hits)


@pytest.mark.parametrize("question", ["闪电 限制", "raigeki hạn chế"])
def test_restriction_question_answers_from_every_list(
    conn: sqlite3.Connection, question: str
) -> None:
    result = ask(conn, question)
    answer = result["answer"]
    assert answer is not None and answer["type"] == "restriction"
    listed = conn.execute(
        "SELECT list, status, rule FROM restrictions WHERE card = 'raigeki'"
    ).fetchall()
    assert listed, "the 2005 lists name Raigeki (闪电)"
    for row in listed:
        assert f"{row['status']} on list {row['list']}" in answer["ruling"]
    assert {s["id"] for s in answer["sources"]} == {row["rule"] for row in listed}
    assert all(s["provenance"] == "machine" for s in answer["sources"])
    assert any("machine translation" in w for w in answer["warnings"])


def test_typo_is_corrected_but_a_real_word_is_not(conn: sqlite3.Connection) -> None:
    """A letter or two astray is a typo; "negated" is a word the corpus lacks, not a typo of
    "negative" (that would send the question to another game's rules)."""
    understood = ask(conn, "vangaurd honset negated infinite")["understood"]
    assert understood["corrections"] == {"vangaurd": "vanguard", "honset": "honest"}


def test_a_term_every_game_uses_does_not_name_a_game(conn: sqlite3.Connection) -> None:
    """ "graveyard" is also what Vanguard players may call the drop zone: it alone picks no
    game, and the inflected "negated" names Yu-Gi-Oh!'s negate (004's machine "invalid")."""
    understood = ask(conn, "do materials go to the graveyard")["understood"]
    assert understood["game"] is None
    result = ask(conn, "fusion negated do materials go to graveyard")
    assert "negate" in result["understood"]["terms"]
    assert result["understood"]["game"] == "yugioh"
    assert "invalid" in result["hits"][0]["text"]


def test_unaccented_word_that_is_a_function_word_is_not_expanded(conn: sqlite3.Connection) -> None:
    """ "la" typed without accents is "là" (is), not "lá" (card): "tinh toan thiet hai la gi"
    asks what damage calculation is, and 003's sentence defining it leads (with the learned
    ranker, beside the sub-step rule the timing graph was built from)."""
    result = ask(conn, "tinh toan thiet hai la gi")
    assert "la" not in result["understood"]["expansions"]
    assert any("Tính toán thiệt hại là" in h["text"] for h in result["hits"][:2])
    assert "la" in ask(conn, "bộ bài vanguard bao nhiêu lá")["understood"]["expansions"]


@pytest.mark.parametrize(
    ("question", "main_deck"),
    [
        ("vanguard deck size", True),
        ("bộ bài vanguard bao nhiêu lá", True),
        ("rune deck max cards", False),
        ("magic stone deck size", False),
    ],
)
def test_a_deck_named_alone_is_the_main_deck(
    conn: sqlite3.Connection, question: str, main_deck: bool
) -> None:
    """Every game names its other decks ("G deck", "rune deck"); a game's name beside "deck"
    does not qualify it."""
    terms = ask(conn, question)["understood"]["terms"]
    assert ("main-deck" in terms) is main_deck


def test_machine_renderings_of_a_term_are_searched(conn: sqlite3.Connection) -> None:
    """004 writes Defense Position as "defensive defense"; its LP rule answers the question."""
    hits = ask(conn, "attack defense position monster do i deal damage", limit=3)["hits"]
    assert "defensive defense" in hits[0]["text"]
    assert hits[0]["provenance"] == "machine"


def test_chinese_cue_inside_a_run_of_characters(conn: sqlite3.Connection) -> None:
    """Chinese writes no spaces: "是多少" asks for a number even inside "初始生命值是多少"."""
    assert ask(conn, "fow 初始生命值是多少")["understood"]["quantity"] is True
    assert ask(conn, "fow life points rules")["understood"]["quantity"] is False


def test_chinese_game_name_inside_a_run_of_characters(conn: sqlite3.Connection) -> None:
    assert ask(conn, "游戏王伤害计算")["understood"]["game"] == "yugioh"
    assert ask(conn, "卡片战斗先导者卡组几张")["understood"]["game"] == "vanguard"


def test_a_term_finds_its_plural(conn: sqlite3.Connection) -> None:
    """The index does not stem: the glossary's "G unit" must still find "G units"."""
    hits = ask(conn, "can g units go in main deck", limit=3)["hits"]
    found = {i for h in hits for i in (h["id"], *h["also"])}
    assert {"vg-basic:g-deck.2", "vg-basic:main-deck.2"} & found


@pytest.mark.parametrize(
    "question", ["bộ bài phụ tối đa bao nhiêu lá", "rune deck có bao nhiêu lá"]
)
def test_a_qualified_deck_is_not_the_main_deck(conn: sqlite3.Connection, question: str) -> None:
    """ "phụ" after "bộ bài" (side deck), "rune" before "deck" in a Vietnamese question."""
    assert "main-deck" not in ask(conn, question)["understood"]["terms"]


def test_an_expansion_does_not_name_the_game(conn: sqlite3.Connection) -> None:
    """ "攻击力" expands to "attack power"; that is not Vanguard's term "power"."""
    assert ask(conn, "攻击力是多少")["understood"]["game"] != "vanguard"


def test_an_unaccented_syllable_that_is_another_word_is_not_expanded(
    conn: sqlite3.Connection,
) -> None:
    """ "hóa" in "vô hiệu hóa" (negate) is not "hòa" (a draw)."""
    assert "hoa" not in ask(conn, "vô hiệu hóa hiệu ứng khi nào")["understood"]["expansions"]
    assert "hoa" in ask(conn, "hai người hòa thì sao")["understood"]["expansions"]


def test_spellings() -> None:
    from kb.lexicon.forms import spelled

    assert "cannot draw" in spelled(["can't draw"]) and "can't draw" in spelled(["cannot draw"])


def test_a_question_typed_without_marks_is_read_as_typed_with_them(
    conn: sqlite3.Connection,
) -> None:
    """Folded, "là" (is) and "lá" (a card) are one word: "la" is read as the card only once the
    question's marks are given back, as it is for the embedding (kb.lexicon.marks)."""
    marked = "tôi có thể rút thêm lá bài không"
    typed = ask(conn, fold(marked))["understood"]
    assert typed["expansions"] == ask(conn, marked)["understood"]["expansions"]
    assert "cards" in typed["expansions"]["la"]


def test_yes_no_from_the_sentence_that_states_it(conn: sqlite3.Connection) -> None:
    """A yes/no question answered by one sentence of the best passage: the verdict follows the
    sentence's modality and cites it."""
    answer = ask(conn, "FoW: can a resonator with [Precision] attack a recovered J/resonator")[
        "answer"
    ]
    assert answer["verdict"] == "yes"
    assert any("[Precision]" in b["quote"] and " can " in b["quote"] for b in answer["because"])
    assert all(b["rule"].startswith("fow-cr-") for b in answer["because"])


def test_a_sentence_about_a_narrower_subject_decides_nothing(conn: sqlite3.Connection) -> None:
    """ "A J/resonator with [Swiftness] can attack the turn it is put into a field" says
    nothing of J/resonators without it; a negated question is not read against a modality."""
    for question in (
        "FoW: can a resonator attack the turn it comes into the field",
        "can a vanguard card belong to no nation",
    ):
        answer = ask(conn, question)["answer"]
        assert answer is None or answer.get("verdict") is None, (question, answer)


def test_kb_show_gives_translations_and_the_english_gloss(built_db: Path) -> None:
    """A translator sees a rule's aligned translations; a judge reading a rule of the
    Vietnamese article gets its English gloss, marked as a community gloss."""
    out = run_kb("show", "fow-basic:draw-phase.2", db=built_db)
    assert out.returncode == 0, out.stderr
    assert "↔ fow-basic-vi-mt1:" in out.stdout and "[vi]" in out.stdout
    viet = run_kb("show", "ygo-damage-step:van-de-honest.5", "--json", db=built_db)
    (view,) = json.loads(viet.stdout)
    assert view["lang"] == "vi"
    assert view["glosses"] and view["glosses"][0]["lang"] == "en"
    assert "D.D. Warrior Lady" in view["glosses"][0]["text"]
    text = run_kb("show", "ygo-damage-step:van-de-honest.5", db=built_db).stdout
    assert "gloss [en, community gloss, not official]" in text


def test_an_old_version_cited_alone_is_said_to_be_superseded(conn: sqlite3.Connection) -> None:
    from kb.ask.answers.common import source, warnings

    old = source(conn, "fow-cr-7.0:402.3")
    alone = warnings(conn, [old], [])
    assert any("fow-cr-7.0 is superseded by fow-cr-8.01" in w for w in alone), alone
    both = warnings(conn, [old, source(conn, "fow-cr-8.01:402.3a")], [])
    assert not any("superseded" in w for w in both), both


def test_a_word_no_rule_holds_leaves_the_question_not_covered(conn: sqlite3.Connection) -> None:
    """Shrink and damage calculation are known, but the question is about another game: no
    verdict, and the output names the word the knowledge base lacks."""
    result = ask(conn, "can Shrink be activated during damage calculation in digimon")
    assert result["answer"] is None
    assert "“digimon”" in result["not_covered"]
    # A short word the stopword lists miss ("got") is not taken for a subject.
    assert ask(conn, "can Shrink be activated during damage calculation got it")["answer"]


def test_how_many_reads_the_count_its_rule_states(conn: sqlite3.Connection) -> None:
    """A number is answered from the rule that counts what the question counts: a class of
    cards is its term ("one ruler card"), a number ending its clause counts what the clause
    named before it ("Life point starts from 8000"), and a count of a "non-basic" card says
    nothing of a basic one."""
    ruler = ask(conn, "how many rulers does a FoW player bring")["answer"]
    assert ruler["verdict"] == "1" and ruler["because"][0]["rule"].startswith("fow-cr-")
    life = ask(conn, "starting life points in yugioh")["answer"]
    assert life["verdict"] == "8000" and "8000" in life["because"][0]["quote"]
    assert life["because"][0]["source"]["provenance"] == "machine"
    basic = ask(conn, "FoW 8.01: more than 4 copies of a basic magic stone ok?")["answer"]
    assert basic is None or basic.get("verdict") is None


def test_two_questions_in_one_get_no_single_verdict(conn: sqlite3.Connection) -> None:
    """One yes or no cannot answer "Do I ..., and does ...?", nor one number two counts: the
    judge is told to ask them one at a time; one question alone still gets its verdict."""
    result = ask(
        conn, "FoW: can a resonator with [Precision] attack a recovered J/resonator, and can "
        "a rested J/resonator block?"
    )  # fmt: skip
    assert result["answer"] is None or result["answer"].get("verdict") is None
    assert "two questions" in result["not_covered"]
    single = ask(conn, "FoW: can a resonator with [Precision] attack a recovered J/resonator")
    assert single["answer"]["verdict"] == "yes"
    # Two counts: one number ("1", the master runes) read as the answer to both.
    counts = ask(conn, "FoW: how many cards can a rune deck have, and how many master runes?")
    assert counts["answer"] is None or counts["answer"].get("verdict") is None
    assert "two questions" in counts["not_covered"]


def test_a_verdict_reads_the_official_rules_and_the_version_named(
    conn: sqlite3.Connection,
) -> None:
    """Force of Will's community basic guide (about 2016) keeps a destroyed J-ruler J-ruler side
    up; the Comprehensive Rules put it back ruler side up. The verdict is read from the official
    rules first, and a question naming a version ("8.01", "2.2.0") is read from that version
    alone; a rule's number ("CR 10.2.4") names no version."""

    def versions(answer: dict | None) -> set[str]:
        sources = (answer or {}).get("sources", []) if (answer or {}).get("verdict") else []
        query = "SELECT version FROM documents WHERE id = ?"
        return {conn.execute(query, (s["document"],)).fetchone()[0] or "" for s in sources}

    answer = ask(conn, "FoW: my J-ruler is destroyed, what happens to it?")["answer"]
    assert answer is not None and "ruler side up" in answer["verdict"]
    assert {s["provenance"] for s in answer["sources"]} == {"official"}
    assert versions(ask(conn, "Theo CR 8.01, J-ruler bị phá hủy thì nó đi đâu?")["answer"]) <= {
        "8.01"
    }
    lore = ask(conn, "CR 2.2.0: how much lore do you need to win?")["answer"]
    assert lore is not None and lore["verdict"] == "20" and versions(lore) == {"2.2.0"}
    assert named_versions(conn, "CR 10.2.4: how much lore to win Pack Rush?") == set()


def test_a_minimum_and_a_maximum_asked_together_get_the_range(conn: sqlite3.Connection) -> None:
    both = ask(conn, "FoW: what are the minimum and maximum main deck size")["answer"]
    assert both["verdict"] == "40-60"
    assert ask(conn, "FoW: maximum main deck size")["answer"]["verdict"] == "60"


def test_what_happens_to_a_thing_and_in_a_situation(conn: sqlite3.Connection) -> None:
    """ "What happens to X" is answered by the rule's plain statement of what is done with X;
    a situation typed in Vietnamese without accents by the clause under that condition, a
    condition's "player" or "game" being what any question supposes."""
    will = ask(conn, "FoW: what happens to unused will at the end of the turn")["answer"]
    assert "destroyed" in will["verdict"] and will["because"][0]["rule"].startswith("fow-")
    deck = ask(conn, "vanguard het bai trong deck thi sao")["answer"]
    assert "loses immediately" in deck["verdict"]
    assert deck["because"][0]["rule"].startswith("vg-")


def test_how_the_worked_example_ends_is_read_from_its_passage(conn: sqlite3.Connection) -> None:
    """How Honest vs Honest ends is read from the clause of the worked example that says what
    happens; which of the two resolves first is no verdict since the worked-example resolver
    went (issue 22: it decided no held-out question), but "honest vs honest" still gets its
    composed answer (test_honest_vs_honest_composed_answer)."""
    result = ask(conn, "Honest vs Honest, both players use Honest at damage calc. Result?")
    verdict = result["answer"]["verdict"]
    assert "resolves first" in verdict and "destroy" in verdict
    for question in (
        "OCG: honest vs honest, whose resolves first",
        "honest vs honest, which can be activated first",
    ):
        answer = ask(conn, question)["answer"]
        assert answer is None or answer.get("verdict") is None


def test_when_from_the_moments_of_the_rules(conn: sqlite3.Connection) -> None:
    """One statement standing at two moments happens at both; a time the question already
    says is no answer; a time phrase cut inside its own clause is never the verdict (the
    passage's moment answers instead)."""
    wills = ask(conn, "when are unused wills destroyed in FoW")["answer"]
    assert "recovery phase" in wills["verdict"] and "end phase" in wills["verdict"]
    until = ask(conn, "In FoW, when do continuous effects that last 'until end of turn' end?")
    assert until["answer"]["verdict"] == "end phase"
    drillroid = ask(conn, "when does drilroid's effect activate")["answer"]
    assert drillroid["verdict"] == "before damage calculation"


def test_an_everyday_synonym_states_the_question(conn: sqlite3.Connection) -> None:
    """ "At the start of each game" is stated by a rule saying "at the beginning of each
    game" (kb/data/query.toml [synonyms]); a word of no group still has to be said."""
    from kb.ask.verdicts.words import plain, synonyms

    assert synonyms()["start"] == synonyms()["begin"]
    assert plain([{"start", "begin"}, {"deck"}, {"deck|main", "boong"}]) == [
        {"start", "begin"},
        {"deck"},
    ]
    answer = ask(conn, "vanguard: must I shuffle and cut my main deck at the start of each game")
    assert answer["answer"]["verdict"] == "yes"
    assert "beginning of each game" in answer["answer"]["because"][0]["quote"]


def test_a_count_the_question_states_is_checked_against_the_rule(conn: sqlite3.Connection) -> None:
    """ "Is a 39-card main deck legal" is no by the rule's "at least 40"; a count inside the
    bounds is yes."""
    short = ask(conn, "In Yu-Gi-Oh!, is a 39-card Main Deck legal?")["answer"]
    assert short["verdict"] == "no" and short["basis"] == "quantity"
    assert "40" in short["because"][0]["quote"]
    fine = ask(conn, "In Yu-Gi-Oh!, is a 45-card Main Deck legal?")["answer"]
    assert fine["verdict"] == "yes"


def test_a_game_or_deck_named_the_way_its_players_write_it(conn: sqlite3.Connection) -> None:
    """ "FoW主卡组" names Force of Will although no space stands before the Chinese; "bộ bài
    chính" is the Vietnamese main deck."""
    fow = ask(conn, "FoW主卡组最多几张")
    assert fow["understood"]["game"] == "fow" and fow["answer"]["verdict"] == "60"
    vg = ask(conn, "Bộ bài chính Vanguard phải có bao nhiêu lá?")["answer"]
    assert vg["verdict"] == "50" and vg["because"][0]["rule"].startswith("vg-")


def test_an_english_term_inside_a_chinese_sentence_is_read(conn: sqlite3.Connection) -> None:
    """Chinese glues an English term or a number into the sentence ("两次Judgment吗",
    "2005年OCG"): the term is a word of the question, so it names the game and finds its rule,
    instead of vanishing inside a run of characters no passage holds."""
    judgment = ask(conn, "同一个回合可以进行两次Judgment吗？")
    assert "judgment" in judgment["understood"]["words"]
    top = judgment["hits"][0]
    assert top["game"] == "fow" and "Judgment" in top["text"]
    ocg = ask(conn, "2005年OCG公认大会里，一场比赛的限制时间是多少分钟？")
    assert ocg["understood"]["game"] == "yugioh"
    assert all(h["game"] == "yugioh" for h in ocg["hits"])


def test_the_chinese_around_a_term_is_searched(conn: sqlite3.Connection) -> None:
    """ "卡" (card) and "奇墨池" (the inkwell, from Lorcana's Chinese glossary) read as terms
    inside a run of Chinese leave the rest of the run ("我自己可以看吗"): it is kept to be
    searched, and the question finds Lorcana's Chinese rules on the inkwell, not any rule
    about cards."""
    answer = ask(conn, "奇墨池里面的卡我自己可以看吗")
    assert "我自己可以看吗" in answer["understood"]["around"]
    top = answer["hits"][0]
    assert top["game"] == "lorcana" and "奇墨池" in top["text"]


def test_the_chinese_around_a_term_of_a_game_without_chinese_rules(
    conn: sqlite3.Connection,
) -> None:
    """No rule of Force of Will or Yu-Gi-Oh! is written in Chinese: the Chinese around the
    names of their count questions ("要放多少张") is not searched (it would match nothing and
    thin the lists that must hold every word), and the count is answered."""
    stones = ask(conn, "FoW的魔石卡组要放多少张？")
    assert stones["understood"]["around"] and stones["answer"]["verdict"] == "10-20"
    main = ask(conn, "游戏王的主卡组最少需要多少张？")
    assert main["answer"]["verdict"] == "40"


def test_a_game_named_by_a_word_of_its_rules(conn: sqlite3.Connection) -> None:
    """ "vanguard: I have no vanguard ...": the first "vanguard" names the game, the second is
    the card on the vanguard circle, which the rule's condition must hold."""
    answer = ask(conn, "vanguard: I have no vanguard but have cards in my soul, what happens")
    verdict = answer["answer"]["verdict"]
    assert "choose a card from his or her soul" in verdict
    assert answer["answer"]["because"][0]["rule"].startswith("vg-basic:")


def test_a_count_qualified_in_the_words_of_another_language(conn: sqlite3.Connection) -> None:
    """The question states a count's qualifier in any way of writing it: "主卡组" is the
    "main card group" of 004's translation; a typo ("sentinal") as corrected."""
    main = ask(conn, "游戏王主卡组最少几张")["answer"]
    assert main["verdict"] == "40" and "main card group" in main["because"][0]["quote"]
    sentinel = ask(conn, "max sentinal cards in a vanguard deck")["answer"]
    assert sentinel["verdict"] == "4" and "Sentinel" in sentinel["because"][0]["quote"]


def test_when_a_rule_with_an_exception_happens_is_its_moment(conn: sqlite3.Connection) -> None:
    """ "... sent to the Graveyard unless a card causes them to go elsewhere": the exception
    bounds where, not when; the rule's moment answers."""
    answer = ask(conn, "when is a monster destroyed by battle actually sent to the graveyard")
    assert "end of the damage step" in answer["answer"]["verdict"]


def test_permission_verdicts_read_the_question_as_asked(conn: sqlite3.Connection) -> None:
    """Of two Chains named, the last is the one asked about; a situation set out before a
    "does it activate" question is not what a moment's permissions decide; a card's one
    moment is named whole, with the condition its rule allows it under."""
    later = ask(
        conn, "Yu-Gi-Oh! TCG Battle Step: the first Chain has resolved. Can I now activate "
        "Magic Cylinder in a second Chain?"
    )["answer"]  # fmt: skip
    assert later["verdict"] == "no" and "first Chain" in later["ruling"]
    situation = ask(
        conn, "Nanobreaker attacks a face-down Level 2 monster. Does Nanobreaker's effect "
        "activate at the start of the Damage Step?"
    )["answer"]  # fmt: skip
    assert situation is None or situation.get("verdict") != "yes"
    sebek = ask(conn, "Yu-Gi-Oh TCG: Sebek's Blessing duoc kich hoat luc nao vay?")["answer"]
    assert sebek["verdict"].startswith("after damage calculation: battle damage")
    assert "direct attack" in sebek["verdict"]


def test_everyday_english_is_no_subject_the_knowledge_base_lacks(conn: sqlite3.Connection) -> None:
    """A word no rule holds stops a verdict when it names what the knowledge base lacks
    ("digimon"), not when it is everyday English ("since", "friend")."""
    from kb.ask.understand import understand
    from kb.store.vocabulary import load_vocabulary

    def unknown(question: str) -> list[str]:
        return understand(conn, question, load_vocabulary(conn)).unknown

    assert unknown("my friend says it is fine since the rules allow it") == []
    assert unknown("a resonator has two [+100/+100] counters and one [-100/-100] counter") == []
    assert "digimon" in unknown("digimon: how many cards in the main deck")
    assert ask(conn, "digimon: how many cards in the main deck")["answer"] is None


def test_what_a_how_many_question_counts(conn: sqlite3.Connection) -> None:
    """The cue is read as whole words ("max" is not inside "maximum"), and a cue right after
    another is passed over: "the maximum number of cards" counts cards."""
    from kb.ask.understand import understand
    from kb.ask.verdicts.common import Asked
    from kb.ask.verdicts.quantity import _concepts, _counted
    from kb.store.vocabulary import load_vocabulary

    u = understand(conn, "FoW: what's the maximum number of cards in a main deck?",
                   load_vocabulary(conn))  # fmt: skip
    counted = _counted(u, _concepts(Asked(conn, u)))
    assert counted == {"term:card"}


def test_a_year_or_an_article_is_no_count(conn: sqlite3.Connection) -> None:
    """ "2005 OCG" names rules, "một" is Vietnamese "a": neither is a count that keeps a
    yes/no question from its clause; "more than once" is."""
    from kb.ask.understand import understand
    from kb.ask.verdicts.statement import _counts
    from kb.store.vocabulary import load_vocabulary

    def counts(question: str) -> bool:
        u = understand(conn, question, load_vocabulary(conn))
        return _counts(conn, u, u.classes)

    assert not counts("2005 OCG event: am I allowed to leave my seat during a game?")
    assert not counts("Tôi có thể chọn một quái thú không?")
    assert counts("Can I Flip Summon more than once in the same turn?")
    assert counts("can I run 2 Magic Cylinder")


def test_a_when_verdict_never_echoes_the_question(conn: sqlite3.Connection) -> None:
    """A rule's condition the question itself states ("triggers 'at the beginning of battle
    phase'") says nothing of when that is, nor does the moment the question names: no
    verdict from either."""
    answer = ask(
        conn, "FoW: an old card says it triggers 'at the beginning of battle phase'. When does "
        "that happen under the current rules?"
    )["answer"]  # fmt: skip
    assert answer is None or "beginning of battle phase" not in (answer.get("verdict") or "")
    # ... nor a card's one moment when the question already names it.
    asked_in = ask(conn, "in the battle step, when can I activate magic cylinder")["answer"]
    assert asked_in is None or "battle step" not in (asked_in.get("verdict") or "")
    plain = ask(conn, "when can I activate magic cylinder")["answer"]
    assert "battle step" in plain["verdict"]


def test_a_question_read_as_a_hurried_judge_types_it(conn: sqlite3.Connection) -> None:
    """A game named before the question without a colon still leaves it a yes/no question;
    a contraction typed without its apostrophe is the contraction (a negation), and a word
    the rules hold in another inflection ("initiated": "initiate") is no unknown subject."""
    from kb.ask.question import Understood
    from kb.ask.understand import understand
    from kb.store.vocabulary import load_vocabulary

    def asked(question: str) -> Understood:
        return understand(conn, question, load_vocabulary(conn))

    assert asked("vanguard can a card ability make you win").kind == "yesno"
    assert asked("in FoW can the player who wins the roll choose to go second").kind == "yesno"
    assert asked("who goes first in fow").kind == "which_first"
    bare = asked("can it attack if it doesnt have swiftness")
    assert "doesn't" in bare.text and bare.unknown == []
    assert asked("I initiated a battle, can I initiate another one").unknown == []
    assert "digimon" in asked("vanguard can a digimon attack").unknown


def test_words_that_name_the_document_or_the_bound_asked(conn: sqlite3.Connection) -> None:
    """The words "CR 8.01" name which rules are asked of and "what's" is a function word: neither is
    a subject a passage must cover. A question asking for a minimum is answered by the
    rule's "at least", not by another number beside it (the side deck's 15)."""
    question = "Force of Will CR 8.01: what's the maximum number of cards in an extra deck?"
    result = ask(conn, question)
    assert not {"cr", "8.01", "what's"} & set(result["understood"]["words"])
    assert result["answer"]["verdict"] == "5"
    assert result["answer"]["because"][0]["rule"] == "fow-cr-8.01:402.5a"
    minimum = ask(conn, "minimum main deck size in yugioh")["answer"]
    assert minimum["verdict"] == "40"


def test_a_count_of_a_narrower_kind_or_a_threshold_is_no_answer(conn: sqlite3.Connection) -> None:
    """The rule "up to 4 cards that are heal triggers" counts heal triggers, not triggers; "a life
    total of 0 or below" is the threshold of a condition, not the life a player starts with."""

    def verdict(question: str) -> str | None:
        return (ask(conn, question)["answer"] or {}).get("verdict")

    assert verdict("how many heal triggers in a vanguard deck") == "4"
    assert verdict("how many triggers in a vanguard deck") != "4"
    assert verdict("What life total does each player start a Force of Will game with?") != "0"


def test_a_number_of_what_the_question_states_is_no_count(conn: sqlite3.Connection) -> None:
    """The 2005 rules say "4 stars or below monster cards can be summoned directly": asked how
    many monsters a 7-star (or 5-star) monster needs as tributes, that 4 counts stars, the
    question's own qualifier, not monsters."""

    def verdict(question: str) -> str | None:
        return (ask(conn, question)["answer"] or {}).get("verdict")

    assert (
        verdict("2005 rules: how many monsters must I tribute to normal summon a 7 star monster?")
        != "4"
    )
    assert verdict("how many monsters do i tribute for a 5 star monster") != "4"
    assert verdict("游戏王2005：召唤7星怪兽要解放几只怪兽") != "4"
    # What a number is of, read in the question's own words or its everyday phrases.
    from kb.ask.understand import understand
    from kb.ask.verdicts.quantity import _stated_units
    from kb.store.vocabulary import load_vocabulary

    def units(question: str) -> set[str]:
        return _stated_units(understand(conn, question, load_vocabulary(conn)))

    assert {"star", "level"} <= units("召唤7星怪兽要解放几只怪兽")
    assert units("a 40-card main deck") == {"card"}


def test_which_comes_first_is_the_party_the_deciding_clause_puts_first(
    conn: sqlite3.Connection,
) -> None:
    """Lorcana's starting player alters their hand first ("beginning with the starting
    player"); Force of Will's attacker with [First Strike] deals damage "before any
    J/resonator without" it; the controller of the effect restarting a game plays first.
    The Force of Will question names the comprehensive rules: the basic rules word the same
    rule as a condition of their own, and a first passage that decides nothing is no
    verdict."""

    def verdict(question: str) -> str | None:
        return (ask(conn, question)["answer"] or {}).get("verdict")

    assert "starting player" in (
        verdict("Lorcana: opening hands are drawn. Which player alters their hand first?") or ""
    )
    assert "attacking" in (
        verdict(
            "fow CR: attacker has first strike. who deals damage first, the attacker or the "
            "blocker?"
        )
        or ""
    )
    assert "controller of the effect" in (
        verdict("FoW: if a card effect restarts the game, which player goes first in the new game?")
        or ""
    )
    # Without [First Strike] on either side no rule puts one first: no answer, and never the
    # rule about the first striker.
    assert (
        verdict(
            "fow: neither the attacker nor the blocker has first strike, who deals damage first?"
        )
        is None
    )
    # The alternatives offered are not what the rule puts first: no answer.
    assert (
        verdict(
            "fow: both players' automatic abilities trigger. whose goes first, mine or my rival's?"
        )
        is None
    )
    # "Before duel, determine who starts first": "determine who" is no party.
    assert verdict("yugioh: who goes first in a duel?") is None
    # "If the player passed and it is not a consecutive pass, the player who doesn't have
    # priority gains priority": a condition the question contradicts.
    assert verdict("FoW: when both players pass, who gets priority first?") is None
    assert verdict("FoW: who deals damage first if both have first strike?") is None
    # What a clause puts first: a party named, one only.
    from kb.ask.verdicts.first import _first_in

    assert _first_in("Before duel, determine who starts first.") == ""
    assert _first_in('Right after damage, "Flashbang" can activate before any other effect.') == (
        "Flashbang"
    )
    # Names, not an article alone, a name cut before its own words, nor a negated clause.
    assert _first_in("The players shuffle their decks, then the opponent cuts.") == ""
    assert _first_in("The winner of the previous game chooses, then the other player does.") == ""
    assert _first_in("The non-turn player may not act before the turn player does.") == ""
    assert _first_in("The first player begins their first turn.") == ""
    two = (
        "Otherwise, resolve the last card put into chase area, then the turn player gains priority."
    )
    assert _first_in(two) == ""
    assert _first_in(two.split(", then ")[0]) == "the last card put into chase area"


def test_a_vietnamese_cue_word_is_no_cue_in_english(conn: sqlite3.Connection) -> None:
    """Folded, the Vietnamese "mấy" (how many) is the English "may": an English question with
    "may" does not ask for a number; unmarked Vietnamese with it still does."""
    from kb.ask.understand import understand
    from kb.store.vocabulary import load_vocabulary

    def kind(question: str) -> str:
        return understand(conn, question, load_vocabulary(conn)).kind

    assert kind("when may I activate a trap card in yugioh?") == "when"
    assert kind("who may respond first with a fast effect?") == "which_first"
    assert kind("mot deck co may la?") == "how_many"


def test_a_question_after_a_dash_or_before_a_closing_particle_asks_yes_or_no(
    conn: sqlite3.Connection,
) -> None:
    """A dash sets the situation apart from the clause that asks, as a comma does; a
    Vietnamese particle closing the question ("vậy", "nhỉ") follows the words that ask, and
    "chứ" closes a question as "right?" does."""
    from kb.ask.understand import understand
    from kb.store.vocabulary import load_vocabulary

    def kind(question: str) -> str:
        return understand(conn, question, load_vocabulary(conn)).kind

    assert kind("my ruler got flipped — does it stay a J-ruler?") == "yesno"
    assert kind("vanguard: con unit bi retire – co ve drop zone khong?") == "yesno"
    assert kind("trong luc tinh thiet hai thi kich hoat Honest duoc khong vay?") == "yesno"
    assert kind("Tôi vẫn được rút bài ở lượt đầu chứ?") == "yesno"
    assert kind("two spell speed 1 effects at once. same chain or not?") == "yesno"
    assert kind("how many cards do i draw — 1 or 2?") == "how_many"
    # Opening with "when" that asks, it asks when, whatever count it names.
    assert kind("when must the turn player discard down to the maximum hand size?") == "when"
    assert kind("FoW: when must the turn player discard down to the maximum hand size") == "when"
    assert kind("when a unit is retired, how many cards go to the drop zone?") == "how_many"


def test_a_minimum_is_no_answer_to_a_maximum(conn: sqlite3.Connection) -> None:
    """Lorcana's hand rule says there is no maximum and that a hand "can't have fewer than 0
    cards": asked for the hand's upper limit, that 0 is no answer; the maximum a rule states
    is."""

    def verdict(question: str) -> str | None:
        return (ask(conn, question)["answer"] or {}).get("verdict")

    assert verdict("洛卡纳手牌有上限吗？") != "0"
    assert verdict("lorcana: maximum hand size?") != "0"
    assert verdict("fow: max hand size?") == "7"
    # Nor, for a limit of no side named: a minimum of 0 bounds nothing, unless it is asked.
    assert verdict("lorcana: any hand size limit?") != "0"
    assert verdict("lorcana: minimum hand size?") == "0"


def test_a_count_of_another_kind_is_no_size(conn: sqlite3.Connection) -> None:
    """Vanguard's main deck rules say "exactly 50 cards" and "exactly 16 trigger units": asked
    how many the main deck must hold, the trigger units (a kind the question does not name)
    are no answer, whichever rule ranks first."""
    answer = ask(conn, "main deck must be exactly how many?")["answer"] or {}
    assert answer.get("verdict") != "16"
    assert (ask(conn, "vanguard: how many trigger units in the main deck?")["answer"] or {}).get(
        "verdict"
    ) == "16"


def test_a_stated_count_is_checked_only_against_a_bound_on_the_same_thing(
    conn: sqlite3.Connection,
) -> None:
    """A count the question states is weighed against a rule that bounds it and names what
    the question names: "Resonators that have 0 DEF or less are destroyed" gives no yes for
    a J-ruler at 0 DEF (the rule goes on to say a J-ruler does not go to the graveyard), and
    "5 grids of monsters" sets no bound that "two monsters attack at once" is within."""
    ruler = ask(conn, "j-ruler at 0 DEF in battle goes to the gravyard right?")["answer"]
    assert (ruler or {}).get("verdict") != "yes"
    two = ask(conn, "opponent has no monsters, can two of my monsters attack at the same time")
    assert two["answer"] is None or "grids" not in two["answer"]["ruling"]
    legal = ask(conn, "In Yu-Gi-Oh!, is a 39-card Main Deck legal?")["answer"]
    assert legal["verdict"] == "no" and "40" in legal["ruling"]


def test_the_asking_clause_after_a_dash_names_the_subject(conn: sqlite3.Connection) -> None:
    """The question "... gets attacked and flipped - does its flip effect activate?" asks
    about the Flip Effect (a class named plural, "Flip Effects", typed singular), not about
    the monster the situation names: no verdict on what a monster may activate then."""
    from kb.ask.understand import understand
    from kb.store.vocabulary import load_vocabulary

    question = (
        "ocg: set monster gets attacked and flipped before damage calc - "
        "does its flip effect activate right then?"
    )
    u = understand(conn, question, load_vocabulary(conn))
    assert "flip-effect" in {c["class"] for c in u.classes}
    answer = ask(conn, question)["answer"]
    assert answer is None or "Monster can be activated" not in answer["ruling"]


def test_a_class_allowed_as_an_example_depends_on_its_condition(conn: sqlite3.Connection) -> None:
    """The article allows "effects that negate them, such as Counter Traps" during damage
    calculation: a Counter Trap chained to Kuriboh depends on whether it negates; one
    activated to negate Injection Fairy Lily's effect may be."""
    chained = ask(conn, "can i chain a counter trap to kuriboh during damage calc")["answer"]
    assert chained["verdict"] == "depends" and "negates" in chained["ruling"]
    negating = (
        "can a counter trap be used during damage calculation to negate Injection Fairy Lily's "
        "effect"
    )
    assert ask(conn, negating)["answer"]["verdict"] == "yes"


def test_when_that_joins_a_situation_does_not_ask_when(conn: sqlite3.Connection) -> None:
    """The question "what happens when a J-ruler is destroyed" asks what happens; "when"
    asks when only followed by a verb that asks ("when in the Damage Step can I ..."), and
    "what happens if the number of monsters changes" asks no number."""
    from kb.ask.passes_asks import kind

    assert kind("FoW 8.01: what happens when a J-ruler is destroyed") == "what_happens"
    assert kind("what happens if the number of monsters changes") == "what_happens"
    assert kind("ocg: when in the damage step can i use d.d. warrior lady's effect") == "when"
    assert kind("A Vanguard player reaches 6 damage. When exactly do they lose?") == "when"
    assert kind("when a monster is destroyed by battle, does its effect activate") == "yesno"


def test_what_happens_from_what_a_rule_says_to_do(conn: sqlite3.Connection) -> None:
    """The question "what happens when a J-ruler is destroyed" is answered by "To destroy
    J-ruler cards, put it into its owner's ruler area", quoted as the rule opens it. (Asked
    without naming the comprehensive rules, the basic rules' "sent back to the Ruler Area"
    stands second and words the outcome otherwise: two passages that disagree in words take
    the verdict away.)"""
    answer = ask(conn, "FoW comprehensive rules: what happens when a J-ruler is destroyed")[
        "answer"
    ]
    assert "ruler area" in answer["verdict"]
    assert answer["ruling"].startswith("To destroy J-ruler cards:")


def test_a_cards_printed_value_asked_in_any_words(conn: sqlite3.Connection) -> None:
    """The "original ATK" of a card is its printed ATK, asked in English or in Chinese with
    the card named twice; a Chinese field name ("攻击力") is a word the question was read by."""
    for question in (
        "What is the original ATK of Breaker the Magical Warrior?",
        "「魔导战士 破坏者」（Breaker the Magical Warrior）的原本攻击力是多少？",
    ):
        answer = ask(conn, question)["answer"]
        assert answer["verdict"] == "1600", question
    after = ask(conn, "Breaker the Magical Warrior's ATK right after it's normal summoned")
    assert (after["answer"] or {}).get("verdict") != "1600"


def test_a_vietnamese_pronoun_typed_without_accents_negates_nothing(
    conn: sqlite3.Connection,
) -> None:
    """Vietnamese "nó" (it), typed "no" or with its accent, is no English "no": the question
    is not read as asking a negated thing; an English "can't I" still is."""
    from kb.ask.verdicts.statement import _asked_negation

    assert not _asked_negation("resonator cua toi dang o tu the Rest, no co the chan khong?", "vi")
    assert not _asked_negation("Hiệu ứng của nó có kích hoạt không?", "vi")
    assert _asked_negation("can't I block with a rested resonator?", "en")


def test_a_number_counting_nothing_read_answers_no_question_naming_no_count(
    conn: sqlite3.Connection,
) -> None:
    """Force of Will's Valhalla rule says "each player's maximum lifebreak size is four": the
    build reads no unit for that four, and "what life do we start at" names nothing counted,
    so the four is not its answer; a count the question names still is ("main deck")."""

    def verdict(question: str) -> str | None:
        return (ask(conn, question)["answer"] or {}).get("verdict")

    assert verdict("what life do we start at in force of will") != "4"
    assert verdict("how many cards in a flash deck?") == "25"


def test_a_number_a_word_labels_is_no_count(conn: sqlite3.Connection) -> None:
    """The numbers of "turn 1", "Chain 2", "cấp 8" label a turn, a Chain, a Level: the
    question states no count; "a 39-card main deck" and "2 Magic Cylinder" do."""
    from kb.ask.passes_asks import stated_numbers
    from kb.ask.understand import understand
    from kb.store.vocabulary import load_vocabulary

    def numbers(question: str) -> list[int]:
        return [n for _, n, _ in stated_numbers(understand(conn, question, load_vocabulary(conn)))]

    assert numbers("can the player going first enter the Battle Phase on turn 1") == []
    assert numbers("Quái thú cấp 8 cần mấy vật tế") == []
    assert numbers("is a 39-card main deck legal") == [39]
    assert numbers("can I run 2 Magic Cylinder") == [2]


def test_the_kind_asked_in_the_ways_judges_type_it() -> None:
    """A yes/no ending asks yes or no over a how-many cue, unless a question word opens the
    question; "where ... does it go" and "what actually happens" ask what happens; an
    unaccented Vietnamese "can" is "cần" (need), no English verb that asks."""
    from kb.ask.passes_asks import kind

    assert kind("FoW 8.01: more than 4 copies of a basic magic stone ok?") == "yesno"
    assert kind("how many copies of the same card name are allowed?") == "how_many"
    assert kind("Where in the drop zone pile does it go?") == "what_happens"
    assert (
        kind("An effect would put my card into my opponent's graveyard. What actually happens?")
        == "what_happens"
    )
    assert kind("vanguard can gay bao nhieu sat thuong de thang", (), "vi") == "how_many"
    assert kind("vanguard can I ride a grade 3", ("vanguard",), "en") == "yesno"


def test_a_number_said_of_another_card_or_of_another_years_rules_is_no_answer(
    conn: sqlite3.Connection,
) -> None:
    """The sentence "D.D. Warrior Lady, with 1500 more ATK than Blue-Eyes White Dragon"
    gives no ATK of Blue-Eyes (another card's, and a difference); a question about the 2005
    rules is not answered from Force of Will's rules of 2016-2017."""
    blue_eyes = ask(conn, "What's the original ATK of Blue-Eyes White Dragon?")["answer"]
    assert blue_eyes is None
    dated = "2005 rules, end phase: you have to discard if you're holding more than how many cards?"
    answer = ask(conn, dated)["answer"]
    assert answer is None or all(b["rule"].startswith("ygo-") for b in answer["because"])


def test_a_word_narrowing_what_is_named_is_never_left_unsaid(conn: sqlite3.Connection) -> None:
    """ "master rune cards" are one kind of the rune deck's cards: the rule that a rune deck holds
    0 to 5 cards does not say how many of them may be master runes, whatever else the question
    and the rule share; asked of all its cards, it answers."""

    def verdict(question: str) -> str | None:
        return (ask(conn, question)["answer"] or {}).get("verdict")

    assert verdict("CR 8.01: how many master rune cards can a rune deck have?") != "0-5"
    assert verdict("FoW: how many cards in a rune deck") == "0-5"


def test_a_count_of_another_kind_of_the_thing_is_no_answer(conn: sqlite3.Connection) -> None:
    """ "up to 4 cards that are heal triggers" counts heal triggers: asked of critical triggers
    (in Vietnamese, the trigger's name in English), the number of the other kind is no answer."""

    def verdict(question: str) -> str | None:
        return (ask(conn, question)["answer"] or {}).get("verdict")

    assert verdict("vanguard toi da bao nhieu la critical trigger") != "4"
    assert verdict("vanguard max heal triggers") == "4"


def test_when_is_read_from_what_the_rule_says_happens_in_the_version_named(
    conn: sqlite3.Connection,
) -> None:
    """ "If a player has, by any legal means, gained an additional turn after their current
    one, that turn begins as soon as ...": the time of what happens, not the condition's
    "after their current one"; asked of CR 7.0, the 7.0 rule is cited, though 8.01 says the
    same words and ranks as one passage with it."""
    answer = ask(conn, "FoW CR 7.0: I got an extra turn, when does it begin?")["answer"]
    assert answer["verdict"].startswith("as soon as the end phase")
    assert {b["rule"] for b in answer["because"]} == {"fow-cr-7.0:1025.1"}


def test_what_happens_by_a_vietnamese_ruling_is_said_in_its_english_gloss(
    conn: sqlite3.Connection,
) -> None:
    """The Damage Step article's rulings are Vietnamese: the outcome a judge reads first is
    the sentence of the curated English gloss, while the fact cited stays the Vietnamese
    rule (and its quote is shown with the gloss)."""
    answer = ask(conn, "Giant Kozaky lật lên và sống sót sau trận chiến thì chuyện gì xảy ra?")
    verdict = answer["answer"]
    assert "destroyed by its own effect" in verdict["verdict"]
    assert all(b["source"]["lang"] == "vi" for b in verdict["because"])


def test_a_vietnamese_personal_pronoun_is_no_subject_of_a_rule(conn: sqlite3.Connection) -> None:
    """ "Bạn không thể vào Giai đoạn Chiến đấu nếu bạn là người đi lượt đầu tiên": "bạn" (you)
    is whom the rule addresses, as "you" is in English; the question need not say it."""
    answer = ask(conn, "Người đi lượt đầu tiên có thể vào Giai đoạn Chiến đấu không?")["answer"]
    assert answer["verdict"] == "no"


def test_when_it_may_be_done_is_told_by_what_allows_it(conn: sqlite3.Connection) -> None:
    """ "When is a player allowed to put a card face down into the standby area" asks when it
    may be done: "may ... if it is main timing" tells it; "puts the card face down immediately
    when they perform the action" (what happens once it is done) does not compete with it."""
    question = (
        "FoW 8.01: when is a player allowed to put a card from hand face down "
        "into the standby area?"
    )
    assert ask(conn, question)["answer"]["verdict"] == "when it is main timing"


@pytest.mark.parametrize(
    ("question", "document"),
    [
        ("Under CR 7.0, do players build a rune deck?", "fow-cr-7.0"),
        ("FoW CR 7.0: maximum hand size at the start of a game?", "fow-cr-7.0"),
        ("FoW CR 8.01: maximum hand size at the start of a game?", "fow-cr-8.01"),
    ],
)
def test_the_version_a_question_names_is_the_one_cited(
    conn: sqlite3.Connection, question: str, document: str
) -> None:
    """A judge at an event still on CR 7.0 asks about 7.0: its rule comes first (7.0 has no
    rune deck, whatever 8.01's rule on it scores), and a text both versions share is cited
    from the named one, with the other version among the copies."""
    hits = ask(conn, question)["hits"]
    assert hits[0]["source"]["document"] == document
    shared = [h for h in hits if h.get("also")]
    assert all(h["source"]["document"] == document for h in shared[:1])


def test_a_time_pointing_back_is_no_answer_to_when(conn: sqlite3.Connection) -> None:
    """ "During this time, the turn player can decide to declare an attack" says when only with
    the sentence before it: asked when battle may begin, "during this time" is no answer."""
    answer = ask(conn, "khi nao thi duoc bat dau battle?")["answer"] or {}
    assert "this time" not in (answer.get("verdict") or "").lower()


def test_a_clause_of_the_doer_says_nothing_of_the_one_done_to(conn: sqlite3.Connection) -> None:
    """Challenger +N: "While this character is challenging, they get +N" is no yes for a
    character being challenged; nor is any clause of a thing doing what the question says is
    done to it."""
    from kb.ask.verdicts.passages import voice_reversed

    question = "does challenger +N still work when my character is the one being challenged?"
    assert (ask(conn, question)["answer"] or {}).get("verdict") != "yes"
    assert voice_reversed("while this character is challenging", "when it is being challenged")
    assert voice_reversed("when a monster is attacking", "my monster was attacked")
    assert not voice_reversed("while this character is challenging", "while it is challenging")
    assert not voice_reversed("when a monster is attacked", "my monster is being attacked")


def test_a_ruling_for_a_question_naming_no_game_says_which_game_it_is_of(
    conn: sqlite3.Connection,
) -> None:
    """Whether the first player draws is answered in every game; the ruling comes from one of
    them, and a judge at another game's table must see which before acting on it. A question
    naming its game (or asked with --game) is not told."""
    question = "does the first player draw a card on their first turn?"
    a = ask(conn, question)["answer"]
    assert a is not None and a["verdict"] in ("yes", "no")
    game = conn.execute(
        "SELECT g.name FROM documents d JOIN games g ON g.id = d.game WHERE d.id = ?",
        (a["sources"][0]["document"],),
    ).fetchone()[0]
    assert any("names no game" in w and game in w for w in a["warnings"])
    named = ask(conn, f"{question} (force of will)")["answer"]
    assert named is not None and not any("names no game" in w for w in named["warnings"])


def test_the_game_of_the_event_is_set_once_in_the_environment(built_db: Path) -> None:
    """A judge at a Lorcana event sets KB_GAME once: a question naming no game is answered from
    that game's rules alone; --game still decides for one question; a game the knowledge base
    does not hold is a one-line error that says where it came from."""
    question = "does the starting player draw a card on their first turn?"

    def ask_with(game: str, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "KB_GAME": game}
        cmd = [sys.executable, "-m", "kb", "ask", *args, "--db", str(built_db)]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)

    for game in ("lorcana", "fow"):
        out = json.loads(ask_with(game, "--json", question).stdout)
        assert {h["game"] for h in out["hits"]} == {game}
    out = json.loads(ask_with("lorcana", "--json", "--game", "fow", question).stdout)
    assert {h["game"] for h in out["hits"]} == {"fow"}
    bad = ask_with("pokemon", question)
    assert bad.returncode != 0 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "Error: unknown game 'pokemon' (the knowledge base holds: fow, lorcana, vanguard, "
        "yugioh); the game comes from $KB_GAME"
    ]
