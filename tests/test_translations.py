"""Words a question's language translates, learned from the publisher's own translations
(kb/store/translations.py), and searched for a question in that language."""

from __future__ import annotations

import sqlite3

from test_bilexicon import DICTIONARY, paired_rules

from ingest.text import CJK_RUN
from kb.ask.understand import understand
from kb.retrieve.lexical import translated
from kb.retrieve.query import typed_spans
from kb.store.translations import english_words, learn, load_translations, translations_for
from kb.store.vocabulary import load_vocabulary


def test_a_word_is_linked_to_the_word_it_translates() -> None:
    learned = learn((set(s), set(t)) for s, t in paired_rules(300))
    right = [f for f, e in learned.items() if DICTIONARY.get(e) == f]
    assert len(right) >= 55  # nearly every word of the hidden dictionary
    assert all(DICTIONARY.get(e) == f for f, e in learned.items())  # and nothing else
    assert "the" not in learned.values()  # in every pair: it teaches nothing


def test_a_pair_seen_too_seldom_teaches_nothing() -> None:
    # Two pairs agree by chance as easily as by translation.
    assert learn([({"spectator"}, {"观众"}), ({"spectator"}, {"观众"})]) == {}


def test_only_official_translations_teach(conn: sqlite3.Connection) -> None:
    """The bundled corpus's Chinese rules are the publisher's; its Vietnamese ones are machine
    translations, whose errors would become expansions."""
    learned = load_translations(conn)
    assert set(learned) == {"zh"}
    assert set(learned["zh"]) == {"lorcana"}  # the one game with an official translation
    assert len(learned["zh"]["lorcana"]) >= 100
    # Every link ends in an English word of the rules (no Chinese on both sides).
    words = learned["zh"]["lorcana"].values()
    assert all(e == next(iter(english_words(e, frozenset())), "") for e in words)


def test_a_question_is_searched_by_the_english_its_words_taught(
    conn: sqlite3.Connection,
) -> None:
    """A question asked in Chinese about a game without Chinese rules reaches its English rule
    through the words the official translation taught; one in English is searched as typed."""
    vocab = load_vocabulary(conn)
    searched = 0
    for word, english in sorted(load_translations(conn)["zh"]["lorcana"].items())[:60]:
        if not CJK_RUN.fullmatch(word):
            continue
        u = understand(conn, f"{word}是什么？", vocab)
        expanded = {f for forms in u.expansions.values() for f in forms}
        read = [*u.expansions, *typed_spans(u)]
        if english in expanded or any(word in r or r in word for r in read):
            continue  # the curated vocabulary already reads it
        assert translated(conn, u)[word] == [english]
        searched += 1
    assert searched >= 10
    assert translated(conn, understand(conn, "what does ward do?", vocab)) == {}


def test_a_game_s_learned_words_are_not_read_into_another_game_s_question(
    conn: sqlite3.Connection,
) -> None:
    """Lorcana's translation says "turn" for 回合; the 2005 Yu-Gi-Oh! rules, translated from
    Chinese, say "round": a question about Yu-Gi-Oh! is not searched by Lorcana's choices,
    one naming no game is."""
    learned = load_translations(conn)["zh"]["lorcana"]
    assert translations_for(conn, "zh", "lorcana") == learned
    assert translations_for(conn, "zh", None) == learned  # the one game that has a list
    assert translations_for(conn, "zh", "yugioh") == {}
    assert translations_for(conn, "vi", None) == {}  # machine translations teach nothing
