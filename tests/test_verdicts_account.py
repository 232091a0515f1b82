"""Issue 22, item 2: a verdict stands only when every content word of the question is read by
the parse (a card, a moment and the words placing it, the action, the Chain) or said by the
clauses the verdict quotes; otherwise there is no verdict, and the answer names the words it
did not understand. English, Vietnamese and Chinese (read by character bigrams)."""

from __future__ import annotations

import sqlite3

from kb.ask import ask
from kb.ask.understand import understand
from kb.ask.verdicts import decide
from kb.ask.verdicts.account import unaccounted
from kb.store.vocabulary import load_vocabulary

UNSAID = "No verdict: the rules quoted do not speak of"


def test_a_word_the_quoted_rule_never_says_takes_the_verdict_away(conn: sqlite3.Connection) -> None:
    """The verdict on activating Shrink during damage calculation says nothing of a second
    Chain: asked of a second Chain, it no longer decides, and the words are named."""
    plain = "can Shrink be activated during damage calculation"
    u = understand(conn, plain, load_vocabulary(conn))
    asked, verdict = decide(conn, u)
    assert verdict is not None and verdict.verdict == "no"
    assert unaccounted(asked, verdict) == []
    longer = f"{plain} in a second Chain"
    u2 = understand(conn, longer, load_vocabulary(conn))
    asked2, _ = decide(conn, u2)
    assert unaccounted(asked2, verdict) == ["second Chain"]


def test_no_verdict_names_the_words_not_understood(conn: sqlite3.Connection) -> None:
    """The rule on Shrink during damage calculation says nothing of the opponent ("đối thủ")
    activating it; a worked example of Goyo Guardian, nothing of "does it go off"."""
    vi = ask(conn, 'Vào lúc tính toán thiệt hại, đối thủ có thể kích hoạt "Shrink" không? (TCG)')
    assert vi["answer"] is None
    assert vi["not_covered"] == f"{UNSAID} “đối thủ”."
    en = ask(
        conn,
        "goyo guardian attacks injection fairy lily, i chain divine wrath to lily's effect in "
        "damage calc and destroy her - does goyo's effect go off?",
    )
    assert en["answer"] is None and "“attacks”" in en["not_covered"]


def test_chinese_words_are_accounted_for_by_their_characters(conn: sqlite3.Connection) -> None:
    """Chinese runs on without spaces: the names and cue words it holds are read, what is left
    ("开局", at the start of the game) must be said by the quoted rule."""
    stands = ask(conn, "伤害步骤可以发动速攻魔法吗")["answer"]
    assert stands is not None and stands["verdict"]
    # "开局": a rule that says the game starts with it ("Life point starts from 8000")
    # accounts for it; a rule that does not is no verdict, and the answer names the word.
    start = ask(conn, "游戏王每人开局多少LP")
    if start["answer"] is None:
        assert start["not_covered"] == f"{UNSAID} “开局”."
    else:
        assert start["answer"]["verdict"].startswith("8000")
        assert "start" in start["answer"]["ruling"].lower()


def test_what_the_parse_read_needs_no_repeating(conn: sqlite3.Connection) -> None:
    """A qualifier the moment's name carries ("before damage calculation") and the Chain a
    clause names ("chỉ ... tại Chuỗi đầu tiên": a second Chain is not the first) are read;
    a qualifier the moment lacks ("at the start of" the Battle Step) is not: the clause
    quoted must say it ("At the start of the Battle Step, the turn player can respond
    before the opponent"), and a clause not saying it ("at the end of") gives no verdict."""
    before = ask(conn, "Can I activate Honest before damage calculation?")["answer"]
    assert before is not None and before["verdict"] == "yes"
    chain = "Magic Cylinder co the kich hoat o Chuoi thu hai trong Buoc Chien dau khong?"
    assert ask(conn, chain)["answer"]["verdict"] == "no"
    start = ask(
        conn, "OCG: at the start of the battle step, who can respond first with a fast effect"
    )["answer"]
    assert start is not None and start["verdict"] == "the turn player"
    assert "at the start of the battle step" in start["quote"].lower()
    end = ask(conn, "OCG: at the end of the battle step, who can respond first with a fast effect")
    assert end["answer"] is None and "“end”" in end["not_covered"]


def test_a_phrase_is_said_by_one_text_not_stitched_from_a_clause_and_a_heading(
    conn: sqlite3.Connection,
) -> None:
    """ "Đi trước" (going first) is read as "starting player". The clause "the turn player can
    decide to declare an attack" says "player", and the step it stands under is the Start
    Step: together they once accounted for the phrase, and the answer was a wrong "Yes" to
    whether the player going first may attack on the first turn. A phrase of several words
    is said by the quoted clauses or by one heading alone."""
    out = ask(conn, "Mình đi trước, lượt 1 vào Battle Phase đánh luôn được không?")
    assert out["answer"] is None
    assert out["not_covered"] == f"{UNSAID} “đi trước”."


def test_the_action_reads_the_everyday_phrase_it_stands_in(conn: sqlite3.Connection) -> None:
    """ "Rút bài" (draw a card) is the action draw: read whole, its "bài" (card) is no word
    left for the clause to say. The rule that the player going first skips the first turn's
    draw answers it."""
    out = ask(conn, "FoW: người đi trước có được rút bài ở lượt đầu tiên không?")
    assert out["answer"] is not None, out["not_covered"]
    assert out["answer"]["verdict"] == "no"
    assert "draw" in out["answer"]["ruling"].lower()
