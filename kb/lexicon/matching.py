"""Finding a form (a word, a phrase, a name in any language) in a passage, word by word, at
one of two levels of sameness defined by ingest.text:

* ``stem``: English words by their stems ("negated" is "negate", "copies" is "copy"), for
  the words a judge typed and the names of cards, moments and terms;
* ``plural``: only a plural "s" apart ("cards" is "card"), for the everyday phrases of
  kb/data/query.toml, which list their own variants ("limited" is not "limit").

A Chinese form is found when all its character bigrams are in the passage (the index's CJK
reading, see ingest.text.index_form).

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ingest.text import CJK_RUN, cjk_bigrams, fold, plural_key, stem, words

Span = tuple[int, int]  # token positions [start, end)
# In a loose match (everyday paraphrases: "no cards in deck" finds "no cards in their main
# deck"), up to this many other words may stand between two words of the form.
LOOSE_GAP = 3


STEM = "stem"
PLURAL = "plural"
_KEYS: dict[str, Callable[[str], str]] = {STEM: stem, PLURAL: plural_key}


@cache
def form_keys(form: str, level: str = STEM) -> tuple[str, ...]:
    """The keys of a form's folded words at a level of sameness (STEM or PLURAL)."""
    key = _KEYS[level]
    return tuple(key(w) for w in words(fold(form)))


@cache
def form_grams(form: str) -> frozenset[str] | None:
    """The CJK bigrams of a form written only in CJK runs, else None."""
    runs = words(fold(form))
    if not runs or not all(CJK_RUN.fullmatch(r) for r in runs):
        return None
    return frozenset(g for r in runs for g in cjk_bigrams(r))


class Passage:
    """A text read as folded words and their stems."""

    __slots__ = ("tokens", "keys", "where", "grams", "found", "_words")

    def __init__(self, text: str) -> None:
        self.tokens = words(fold(text))
        self.keys: dict[str, list[str]] = {}
        self.where: dict[str, dict[str, list[int]]] = {}  # level -> key -> positions
        self.grams = frozenset(
            g for t in self.tokens if CJK_RUN.fullmatch(t) for g in cjk_bigrams(t)
        )
        # Where each group of the question stands (kb.ask.groups): several features ask.
        self.found: dict[object, list[tuple[int, int]]] = {}
        self._words: frozenset[str] | None = None

    def word_set(self) -> frozenset[str]:
        """Its distinct words (what a typo is looked for among)."""
        if self._words is None:
            self._words = frozenset(self.tokens)
        return self._words

    def index(self, level: str) -> dict[str, list[int]]:
        """Each key of the passage's words at ``level`` with the positions it stands at."""
        if level not in self.where:
            key = _KEYS[level]
            self.keys[level] = [key(t) for t in self.tokens]
            where: dict[str, list[int]] = {}
            for i, k in enumerate(self.keys[level]):
                where.setdefault(k, []).append(i)
            self.where[level] = where
        return self.where[level]

    def find(
        self, keys: tuple[str, ...], level: str, *, loose: bool = False, first: bool = False
    ) -> list[Span]:
        """Where the keys (of ``level``) stand in this order: next to each other, or
        (``loose``) with up to LOOSE_GAP other words between two of them; with ``first``,
        only the first place."""
        where = self.index(level)
        if not keys or any(k not in where for k in keys):
            return []
        mine = self.keys[level]
        gap = LOOSE_GAP + 1 if loose else 1
        out = []
        for i in where[keys[0]]:
            end = _rest(mine, keys, 1, i, gap)
            if end is not None:
                out.append((i, end))
                if first:
                    break
        return out

    def has_grams(self, grams: frozenset[str]) -> bool:
        return bool(grams) and grams <= self.grams


def _rest(mine: list[str], keys: tuple[str, ...], k: int, at: int, gap: int) -> int | None:
    """The end of a match of keys[k:] after position ``at``, or None."""
    if k == len(keys):
        return at + 1
    for j in range(at + 1, min(at + gap, len(mine) - 1) + 1):
        if mine[j] == keys[k]:
            end = _rest(mine, keys, k + 1, j, gap)
            if end is not None:
                return end
    return None
