"""Typo correction for ``kb ask``: a word the index does not have, a letter or two away from
one it has, is read as that word ("honset" -> "honest", "vangaurd" -> "vanguard").

On the ``kb ask`` path: standard library, sqlite3 and rapidfuzz only.
"""

from __future__ import annotations

import re
import sqlite3

from ingest.text import stem

from ..lexicon.words import stopwords
from ..store.db import column, run
from ..store.vocabulary import Vocabulary


def correct(conn: sqlite3.Connection, text: str, vocab: Vocabulary) -> tuple[str, dict[str, str]]:
    """Replace misspelt words (not in the index, not a stopword) by the closest index word.

    Of equally close words the one used in more rules wins, so the result never depends on
    the order of a set.
    """
    game_words = {a for aliases in vocab.games.values() for a in aliases}
    typed = {m.group(): m.group().lower() for m in re.finditer(r"[A-Za-z]{5,}", text)}
    unknown = {w for w in typed.values() if w not in stopwords() and w not in game_words}
    if unknown:
        unknown -= {r["term"] for r in run(conn, "ask_word_counts", words=sorted(unknown))}
    if unknown:
        # An inflection of a word the index has ("going": "go"), or everyday English
        # ("piece"), is spelt right, not a typo of a close corpus word ("giong", "pierce").
        stems = {w: stem(w) for w in unknown}
        known = {r["term"] for r in run(conn, "ask_word_counts", words=sorted(set(stems.values())))}
        common = set(column(conn, "ask_common_words", words=sorted(unknown)))
        unknown = {w for w in unknown if stems[w] not in known and w not in common}
    if not unknown:
        return text, {}
    from rapidfuzz import fuzz, process
    from rapidfuzz.distance import OSA

    choices = column(conn, "ask_correction_choices") + sorted(game_words)
    fixed: dict[str, str] = {}
    for raw, word in typed.items():
        if word not in unknown:
            continue
        # A typo is a letter or two astray ("honset", "vangaurd", "sentinals"); a real word
        # the corpus does not use ("negated", "infinite") is not a typo of a similar one.
        allowed = 1 if len(word) < 8 else 2
        best = next(
            (
                choice
                for choice, _, _ in process.extract(
                    word, choices, scorer=fuzz.ratio, score_cutoff=80, limit=5
                )
                if choice[0] == word[0] and OSA.distance(word, choice) <= allowed
            ),
            None,
        )
        if best:
            fixed[raw] = best
    for wrong, right in fixed.items():
        text = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, text)
    return text, fixed
