"""Words of another language and the English word they translate, learned from the
publisher's own translations: what a question in that language is also searched by.

A Chinese question about a game with no Chinese rules finds its rule only through English
forms of its words; the curated vocabulary (kb/data/query.toml) holds few. An official
translation aligned rule by rule with its English source teaches more: "观众" and
"spectator" occur in the same aligned pairs far more often than chance. A link is kept when
it is both words' best partner (Dice's coefficient), holds in at least ``MIN_PAIRS`` pairs and
is significant (log-likelihood G², Bonferroni-corrected over every pair counted). Machine
translations teach nothing here: their systematic errors ("áp dụng" -> "following") became
expansions (measured on 2026-12-04, docs/benchmarks.md).

A list is learned per game, from that game's translations, and read for a question about
that game or about no game the question names: a translation's word choices are its game's
("回合" is Lorcana's "turn", and the 2005 Yu-Gi-Oh! rules translated from Chinese say "round"),
and another game's list drew a Yu-Gi-Oh! question away from its rule.

``kb build`` learns the lists into ``meta``; ``kb ask`` reads them for a question in such a
language. Standard library, ``ingest.text`` and ``kb.store.db`` only.
"""

from __future__ import annotations

import contextlib
import json
import math
import sqlite3
import weakref
from collections import Counter, defaultdict
from collections.abc import Iterable

from ingest.text import CJK_RUN, cjk_bigrams, fold, words

from . import datafiles
from .db import execute, run, stored_json

TRANSLATIONS_KEY = "ask_translations"
MIN_PAIRS = 3
"""Aligned pairs a link must hold in."""
SIGNIFICANCE = 0.05
"""Chance of any kept link being chance, over all the pairs counted (Bonferroni)."""


def english_words(text: str, stop: frozenset[str]) -> set[str]:
    """The content words of an English rule (folded, three letters or more)."""
    return {w for w in words(fold(text)) if w not in stop and len(w) > 2 and w.isalpha()}


def foreign_words(text: str, stop: frozenset[str]) -> set[str]:
    """The words of a rule in another language as a question's are looked up: a run of
    Chinese (written without spaces) as its bigrams, a spaced language as pairs of adjacent
    words (Vietnamese writes one word as two syllables)."""
    found = words(fold(text))
    out: set[str] = set()
    for w in found:
        if CJK_RUN.fullmatch(w):
            out |= {b for b in cjk_bigrams(w) if b not in stop}
    plain = [w for w in found if w.isalpha() and not CJK_RUN.fullmatch(w)]
    out |= {f"{a} {b}" for a, b in zip(plain, plain[1:], strict=False) if {a, b}.isdisjoint(stop)}
    return out


def _g2(both: int, left: int, right: int, n: int) -> float:
    """Log-likelihood ratio of a 2x2 contingency table (both, left only, right only, neither)."""
    cells = [[both, right - both], [left - both, n - left - right + both]]
    rows = [sum(r) for r in cells]
    cols = [cells[0][0] + cells[1][0], cells[0][1] + cells[1][1]]
    g = 0.0
    for i in range(2):
        for j in range(2):
            expected = rows[i] * cols[j] / n
            if cells[i][j] > 0 and expected > 0:
                g += cells[i][j] * math.log(cells[i][j] / expected)
    return 2 * g


def _critical(tests: int) -> float:
    """The G² above which a link is significant at SIGNIFICANCE over ``tests`` links (one
    degree of freedom: p = erfc(sqrt(G²/2)))."""
    low, high = 0.0, 400.0
    for _ in range(60):
        mid = (low + high) / 2
        if math.erfc(math.sqrt(mid / 2)) > SIGNIFICANCE / max(1, tests):
            low = mid
        else:
            high = mid
    return high


def learn(pairs: Iterable[tuple[set[str], set[str]]]) -> dict[str, str]:
    """Foreign word -> English word, from (English words, foreign words) of aligned pairs."""
    english: Counter[str] = Counter()
    foreign: Counter[str] = Counter()
    both: Counter[tuple[str, str]] = Counter()
    n = 0
    for source, target in pairs:
        n += 1
        english.update(source)
        foreign.update(target)
        both.update((f, e) for e in source for f in target)
    critical = _critical(len(both))
    best_of_foreign: dict[str, tuple[float, str]] = {}
    best_of_english: dict[str, tuple[float, str]] = {}
    for (f, e), k in both.items():
        if k < MIN_PAIRS or _g2(k, foreign[f], english[e], n) < critical:
            continue
        dice = 2 * k / (english[e] + foreign[f])
        # A tie goes to the word last in order: the same corpus always learns the same list.
        best_of_foreign[f] = max(best_of_foreign.get(f, (0.0, "")), (dice, e))
        best_of_english[e] = max(best_of_english.get(e, (0.0, "")), (dice, f))
    return {
        f: e
        for f, (_, e) in sorted(best_of_foreign.items())
        if best_of_english[e][1] == f  # each other's best
    }


def store_translations(conn: sqlite3.Connection) -> None:
    """Learn each language's lists, one per game, from the game's official translations into
    ``meta`` (kb build)."""
    stop = datafiles.stopwords()
    sides: dict[tuple[str, str], dict[int, tuple[list[str], list[str]]]] = defaultdict(dict)
    for row in run(conn, "official_translation_pairs"):
        texts = sides[row["lang"], row["game"]].setdefault(row["alignment"], ([], []))
        texts[row["side"] == "target"].append(row["text"])
    value: dict[str, dict[str, dict[str, str]]] = defaultdict(dict)
    for (lang, game), by_alignment in sorted(sides.items()):
        value[lang][game] = learn(
            (english_words(" ".join(s), stop), foreign_words(" ".join(t), stop))
            for s, t in by_alignment.values()
        )
    execute(conn, "meta_store", key=TRANSLATIONS_KEY, value=json.dumps(value, ensure_ascii=False))


Learned = dict[str, dict[str, dict[str, str]]]  # language -> game -> word -> English word
_LOADED: weakref.WeakKeyDictionary[sqlite3.Connection, Learned] = weakref.WeakKeyDictionary()


def load_translations(conn: sqlite3.Connection) -> Learned:
    """Each language's learned words, per game ({} for a database built without them)."""
    if conn in _LOADED:
        return _LOADED[conn]
    found = stored_json(conn, TRANSLATIONS_KEY) or {}
    with contextlib.suppress(TypeError):  # a plain connection: read it again next time
        _LOADED[conn] = found
    return found


def translations_for(conn: sqlite3.Connection, lang: str, game: str | None) -> dict[str, str]:
    """The words learned for a question in ``lang``: its game's, or, for a question of no
    known game, every game's (a word two games' lists translate apart: the first game's)."""
    by_game = load_translations(conn).get(lang, {})
    if game:
        return by_game.get(game, {})
    merged: dict[str, str] = {}
    for name in sorted(by_game):
        for word, english in by_game[name].items():
            merged.setdefault(word, english)
    return merged
