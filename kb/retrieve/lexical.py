"""Candidate passages for an understood question, as several ranked lists.

FTS5 over the question's content words (all of them, and any of them), FTS5 over every form of
each recognised concept (a card's names and aliases, a moment's names in every language, a
term's renderings), the rules of the recognised moments, the card's data lines and rulings.
kb.ask.rank fuses the lists and re-ranks their passages.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3

from ingest.text import CJK_RUN, cjk_bigrams, fold
from ingest.text import words as text_words

from ..lexicon.forms import (
    QuestionForms,
    concept_group,
    group_frequency,
    question_forms,
    word_group,
)
from ..lexicon.words import stopwords
from ..store.db import column, kb_match
from ..store.dictionary import entries, segments
from ..store.translations import foreign_words, translations_for
from ..store.vocabulary import load_vocabulary
from .query import Understanding, typed_spans

# How many candidates each list contributes.
LIST_SIZE = 60
# A group of forms found in more than this share of all rules cannot tell passages apart; it
# is not searched on its own or in the any-word list (bm25 over a very common word costs as
# much as scoring the whole corpus), only together with rarer words.
COMMON_SHARE = 0.15
# How many of a dictionary entry's English glosses a question's word is searched by.
GLOSSES = 2


class Candidates:
    """Ranked candidate lists: (kind, passages as rules.seq, best first). The kind names the
    list's weight in the fusion (kb/data/ask_weights.toml [fusion])."""

    def __init__(self) -> None:
        self.lists: list[tuple[str, list[int]]] = []


def fts(conn: sqlite3.Connection, expression: str, game: str) -> list[int]:
    """Rules matching an FTS5 expression, best first; none if it is empty or invalid."""
    if not expression:
        return []
    try:
        return column(conn, "ask_fts", expression=expression, game=game, limit=LIST_SIZE)
    except sqlite3.OperationalError:
        return []


class _Groups:
    """The question's FTS groups: (expression, how many rules may match it)."""

    def __init__(
        self, words: list[tuple[str, int]], concepts: list[tuple[str, int]], common: float
    ) -> None:
        self.words, self.concepts, self.common = words, concepts, common


def _groups(q: QuestionForms) -> _Groups:
    return _Groups(
        words=[
            (g, group_frequency(forms, q.search_df))
            for forms in q.words
            if (g := word_group(forms))
        ],
        concepts=[
            (g, group_frequency(forms, q.search_df))
            for name, forms in q.concepts
            if (g := concept_group(forms, prefix=not name.startswith("card:")))
        ],
        common=COMMON_SHARE * q.search_total,
    )


def _text_lists(conn: sqlite3.Connection, q: QuestionForms, game: str) -> Candidates:
    """The full-text lists: all words, rare words, all concepts, concepts with words, each
    rare concept alone."""
    g = _groups(q)
    c = Candidates()
    words = [e for e, _ in g.words]
    concepts = [e for e, _ in g.concepts]
    rare_words = [e for e, n in g.words if n <= g.common] or (words if not concepts else [])
    done: dict[str, list[int]] = {}

    def add(kind: str, expression: str) -> None:
        if expression not in done:
            # The folded column only: the words are folded, CJK as bigrams.
            done[expression] = fts(conn, "{folded} : " + expression, game)
        c.lists.append((kind, done[expression]))

    if len(words) > 1:
        add("all_words", " AND ".join(words))
    if rare_words:
        add("rare_words", " OR ".join(rare_words))
    if concepts and (len(concepts) > 1 or g.concepts[0][1] <= g.common or not words):
        add("all_concepts", " AND ".join(concepts))
    if concepts and words:
        add("concepts_words", " AND ".join([*concepts, f"({' OR '.join(words)})"]))
    for expression, n in g.concepts:
        if n <= g.common:
            add("concept", expression)
    return c


def _structure_lists(conn: sqlite3.Connection, u: Understanding) -> Candidates:
    """What the knowledge base links to the named moments and cards."""
    c = Candidates()
    for node in dict.fromkeys([*(t["node"] for t in u.timing), *u.qualified_from]):
        c.lists.append(("moment", column(conn, "ask_timing_rules", node=node, limit=LIST_SIZE)))
    for card in u.cards:
        # The card's data lines, the fields the question asks for first.
        facts = column(conn, "ask_card_facts", card=card["id"], fields=u.facts, limit=LIST_SIZE)
        if facts and u.facts:
            c.lists.append(("card_facts", facts))
        rulings = column(conn, "ask_card_rulings", card=card["id"], limit=LIST_SIZE)
        c.lists.append(("card_rulings", rulings))
    return c


def forms_of(conn: sqlite3.Connection, u: Understanding, game: str = "") -> QuestionForms:
    """What the understood question is searched by (kb.lexicon.forms), within ``game`` or the
    game it names."""
    return question_forms(
        conn,
        search_words([*u.words, *_around(conn, u, game)]),
        {**u.expansions, **translated(conn, u)},
        u.concepts(),
        game or u.game or "",
    )


def translated(conn: sqlite3.Connection, u: Understanding) -> dict[str, list[str]]:
    """English forms of the question's words that the vocabulary did not expand (neither the
    word nor the form), so that the rules of games without text in the question's language
    are searched by them too: first the words the publisher's own translations taught
    (kb.store.translations: of the question's game, or of any game when it names none), then
    the language's dictionary (kb.store.dictionary), up to GLOSSES forms a word, for words
    the parse did not read either. A learned word is taken even where the parse read a term
    (its game's own translation says it); skipping those too lost 3 first passages and gained
    1 (measured on 2026-12-04)."""
    learned = translations_for(conn, u.lang, u.game)
    have = set(u.expansions) | {f for forms in u.expansions.values() for f in forms}
    phrases = [set(key.split()) for key in u.expansions if " " in key]
    out = {
        key: [learned[key]]
        for key in sorted(foreign_words(u.text, stopwords()))
        if key in learned
        and learned[key] not in have
        and not any(key in h for h in have)
        and not any(set(key.split()) & p for p in phrases)
    }
    runs = [w for w in text_words(fold(u.text)) if CJK_RUN.fullmatch(w)]
    found = entries(conn, u.lang, runs)
    if not found:
        return out
    have |= {f for forms in out.values() for f in forms}
    stop = stopwords()
    # What the parse read (a term's, a moment's, a card's words, an expanded phrase) is
    # searched by its own names already.
    read = [*u.expansions, *typed_spans(u)]
    for run in runs:
        for word in segments(run, found):
            if word in out or word in stop or any(word in k or k in word for k in read):
                continue
            forms = [e for e in found[word] if e not in have][:GLOSSES]
            if forms:
                out[word] = forms
                have |= set(forms)
    return out


def _around(conn: sqlite3.Connection, u: Understanding, game: str) -> list[str]:
    """The Chinese left around the names a run was read by, when the question's game has
    rules in its language, or no game is known and nothing else of the question is left to
    search. Only rules of that language hold it: for a game without them it matches nothing
    and only thins the lists that must hold every word, and for a question of no known game
    it draws the question to the games that have them (the Chinese of a Force of Will
    question matched Lorcana's rules)."""
    game = game or u.game or u.game_hint or ""
    if game:
        return u.around if u.lang in load_vocabulary(conn).game_langs.get(game, []) else []
    return [] if u.words else u.around


def search_words(content: list[str]) -> list[str]:
    """The content words as searched: a run of Chinese as its bigrams, the units the index
    holds it in. Chinese writes no spaces, so a run is a clause ("融合召唤时可以同时用"), and
    searched whole it matches no passage; its bigrams match the passages that share its
    words, and BM25 weighs each by how rare it is (a bigram across two words is rare in the
    rules, so it adds little). Bigrams that are function words are left out."""
    stop = stopwords()
    out: list[str] = []
    for word in content:
        if len(word) > 2 and CJK_RUN.fullmatch(word):
            out += [b for b in cjk_bigrams(word) if b not in stop]
        else:
            out.append(word)
    return list(dict.fromkeys(out))


def gather(
    conn: sqlite3.Connection, u: Understanding, game: str, q: QuestionForms | None = None
) -> Candidates:
    """Every candidate list of the question (of one game, or of any when ``game`` is "")."""
    c = _text_lists(conn, q or forms_of(conn, u), game)
    c.lists += _structure_lists(conn, u).lists
    if not any(seqs for _, seqs in c.lists):
        # Nothing recognised and no content word matched: the raw text, any word.
        c.lists.append(("any_word", fts(conn, kb_match(u.text, "any"), game)))
    return c
