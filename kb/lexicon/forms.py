"""The forms a question's words and concepts are searched in: every spelling of an everyday
word and its expansions, every name of a card, moment or term, as FTS5 expressions on the
folded column (CJK as bigrams), and how rare each is.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import json
import re
import sqlite3
from functools import cache

from ingest.text import CJK_RUN, cjk_bigrams, fold, stem, words

from ..store.db import column, run
from .words import query_data, stopwords


def _phrase(form: str) -> str:
    """One FTS5 phrase for a name or term, on the folded column, CJK as bigrams."""
    parts: list[str] = []
    for w in words(fold(form)):
        parts += cjk_bigrams(w) if CJK_RUN.fullmatch(w) else [w]
    return '"' + " ".join(p.replace('"', '""') for p in parts) + '"' if parts else ""


@cache
def _spellings() -> tuple[tuple[str, ...], ...]:
    """kb/data/query.toml [spellings]: groups of spellings of the same words."""
    return tuple((k, *v) for k, v in query_data().get("spellings", {}).items())


@cache
def _spelling_pattern(spelling: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(spelling)}(?!\w)")


def spelled(forms: list[str]) -> list[str]:
    """The forms, each also in the other spellings of its words ("cannot draw" is also "can't
    draw", and "can't draw" also "cannot draw")."""
    out = list(forms)
    for form in forms:
        for group in _spellings():
            for spelling in group:
                pattern = _spelling_pattern(spelling)
                if pattern.search(form):
                    out += [pattern.sub(other, form) for other in group if other != spelling]
    return list(dict.fromkeys(out))


def word_forms(content: list[str], expansions: dict[str, list[str]]) -> list[list[str]]:
    """Per content word (folded): the word, its expansions; and one entry per expanded
    phrase (typed phrase -> English forms)."""
    out: list[list[str]] = []
    # A word of an expanded phrase ("out" of "deck out") is searched as part of the phrase.
    in_phrases = {w for key in expansions if " " in key for w in key.split()}
    for w in dict.fromkeys(content):  # a word typed twice ("one by one") weighs once
        if (len(w) < 2 and not CJK_RUN.fullmatch(w)) or w in in_phrases:
            continue
        out.append(spelled([w, *expansions.get(w, [])]))
    for key, forms in expansions.items():
        if " " in key or key not in content:
            out.append(spelled([key, *forms]))
    return out


def _prefix(word: str) -> str | None:
    """An English word's stem as an FTS5 prefix query ("triggers" -> "trigger"*: the index
    does not stem), when it differs from the word and is long enough to be specific."""
    if not word.isascii() or not word.isalpha() or len(word) < 5:
        return None
    root = stem(word)
    return f'"{root}"*' if len(root) >= 4 and root != word else None


def word_group(forms: list[str]) -> str:
    """An everyday word's forms for FTS5, with its stem as a prefix."""
    parts = {p for p in (_phrase(f) for f in forms) if p}
    prefix = _prefix(fold(forms[0]))
    if prefix:
        parts.add(prefix)
    return "(" + " OR ".join(sorted(parts)) + ")" if parts else ""


def concept_group(forms: list[str], *, prefix: bool = True) -> str:
    """A concept's forms for FTS5; with ``prefix``, a form ending in an English word ends in a
    prefix ("G unit" finds "G units": the index does not stem). Card names stay exact."""

    def english_end(form: str) -> bool:
        last = form.split()[-1] if form.split() else ""
        return len(last) >= 3 and last.isascii() and last.isalpha()

    phrases = sorted(
        {p + "*" if prefix and english_end(f) else p for f in forms if (p := _phrase(f))}
    )
    return "(" + " OR ".join(phrases) + ")" if phrases else ""


def concept_forms(
    conn: sqlite3.Connection, wanted: list[tuple[str, str]]
) -> list[tuple[str, list[str]]]:
    """(concept, every form it is written in) for each (kind, id) of a card, timing node or
    term."""
    return [
        (f"{kind}:{ident}", column(conn, "ask_concept_forms", kind=kind, id=ident))
        for kind, ident in wanted
    ]


def rule_count(conn: sqlite3.Connection) -> int:
    """How many rules the index holds."""
    return column(conn, "ask_rule_count")[0]


def frequencies(conn: sqlite3.Connection, forms: list[str], game: str = "") -> dict[str, int]:
    """Rules containing each folded word of ``forms`` (words the index lacks are absent); of
    ``game``'s rules only, when one is given."""
    keys = sorted({w for f in forms for w in words(fold(f))})
    if not keys:
        return {}
    rows = run(conn, "ask_word_counts", words=keys)
    if not game:
        return {row["term"]: row["rules"] for row in rows}
    return {row["term"]: json.loads(row["games"] or "{}").get(game, 0) for row in rows}


def group_frequency(forms: list[str], df: dict[str, int]) -> int:
    """Upper bound of the rules matching any of ``forms``: a phrase is as rare as its rarest
    word; CJK runs and unknown words count as rare."""
    total = 0
    for f in forms:
        ws = words(fold(f))
        total += min((df.get(w, 0) for w in ws), default=0)
    return total


def search_forms(forms: list[str]) -> list[str]:
    """Forms worth searching: a rendering that folds to a stopword of another language (the
    Vietnamese "thẻ" folds to the English "the") would match nearly every rule."""
    kept = [f for f in forms if " ".join(words(fold(f))) not in stopwords()]
    return kept or forms


class QuestionForms:
    """Everything the question is searched by, computed once per question."""

    def __init__(
        self,
        words: list[list[str]],  # per content word: its spellings and expansions
        concepts: list[tuple[str, list[str]]],  # ("card:honest", every form worth searching)
        df: dict[str, int],  # rules holding each folded word of all those forms
        total: int,  # rules in the index
        game_df: dict[str, int] | None = None,  # the same, among the question's game's rules
        game_total: int = 0,  # rules of that game
    ) -> None:
        self.words, self.concepts, self.df, self.total = words, concepts, df, total
        # What decides whether a word is too common to search by: within the question's game
        # when it has one (a word common in another, bigger game, "deck", still tells this
        # game's rules apart). Rarity weights stay corpus-wide.
        self.search_df = game_df if game_df is not None else df
        self.search_total = game_total or total


def question_forms(
    conn: sqlite3.Connection,
    content: list[str],
    expansions: dict[str, list[str]],
    wanted: list[tuple[str, str]],
    game: str = "",
) -> QuestionForms:
    """Everything a text is searched by: its content words (folded) with their expansions,
    and the (kind, id) concepts it names, with how rare each form is (within ``game``)."""
    words_ = word_forms(content, expansions)
    concepts = [(name, search_forms(forms)) for name, forms in concept_forms(conn, wanted) if forms]
    every = [f for forms in words_ for f in forms] + [f for _, fs in concepts for f in fs]
    if not game:
        return QuestionForms(words_, concepts, frequencies(conn, every), rule_count(conn))
    return QuestionForms(
        words_, concepts, frequencies(conn, every), rule_count(conn),
        game_df=frequencies(conn, every, game),
        game_total=column(conn, "ask_game_rule_count", game=game)[0],
    )  # fmt: skip
