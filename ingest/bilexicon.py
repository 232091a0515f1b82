"""A bilingual word list learned from the rules two documents pair by number.

An official translation numbered like its source pairs most of its rules by number, and those
pairs teach which words translate which: "tournament" and 比赛, "spectator" and 观众, "ward"
and 庇护 co-occur in paired rules far more than chance. The list says how alike two rules of
different languages are where their numbers cannot: a renumbered section (the Chinese
tournament rules' 4.1 is the English 5.2), a keyword inserted before another (Vanish before
Ward), an unnumbered glossary entry.

Learning (Melamed's competitive linking, simplified): every (source word, target word) pair
of the paired rules is scored by Dice's coefficient of the rules it occurs in; pairs are
taken best first, each word in at most LINKS pairs, down to MIN_DICE. Words are a text's
words (lower case, plural s dropped) and, for scripts written without spaces, character
bigrams; words in more than COMMON_SHARE of the rules (function words, the game's name) teach
nothing and are left out.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from .text import CJK_RUN, cjk_bigrams, plural_key, words

LINKS = 2
"""Most translations a word gets (a noun and its plural, a term and its short form)."""
MIN_DICE = 0.3
"""Weakest association kept."""
MIN_PAIRS = 2
"""Paired rules a word pair must share to be learned."""
COMMON_SHARE = 0.3
"""Words in more than this share of the rules are left out."""
MAX_PAIRS = 20_000
"""Paired rules learned from, at most (the first, in corpus order): a word list needs a sample,
not the whole of a large corpus, and the build's memory must not grow with it. The bundled
corpus's English-Chinese rulebooks give about 370 (the 100x corpus of bench/make_big_corpus.py
37,000)."""


def tokens(text: str) -> frozenset[str]:
    """The words of a text as the list pairs them: lower case, no plural s, CJK as bigrams."""
    out: set[str] = set()
    for word in words(text):
        if CJK_RUN.fullmatch(word):
            out.update(cjk_bigrams(word))
        elif not word.isdigit() and len(word) > 1:
            out.add(plural_key(word))
    return frozenset(out)


# A text prepared for comparison: its known words (with what each needs) and their weight.
Side = tuple[Any, float]


@dataclass
class Lexicon:
    """Learned translations of source words into target words, with their weights."""

    pairs: int = 0  # how many paired rules it was learned from
    translations: dict[str, frozenset[str]] = field(default_factory=dict)
    source_weight: dict[str, float] = field(default_factory=dict)  # idf of a known source word
    target_weight: dict[str, float] = field(default_factory=dict)

    def source_side(self, words: frozenset[str]) -> Side:
        """A source text's known words, prepared for many comparisons: (their translations,
        their weight) each, and the weights' sum."""
        known = [
            (self.translations[w], self.source_weight[w]) for w in words if w in self.translations
        ]
        return tuple(known), sum(weight for _, weight in known)

    def target_side(self, words: frozenset[str]) -> Side:
        """A target text's known words, and the sum of their weights."""
        known = frozenset(b for b in words if b in self.target_weight)
        return known, sum(self.target_weight[b] for b in known)

    def similarity(self, source: frozenset[str], target: frozenset[str]) -> float:
        """How much of each text the other translates (0-1): the harmonic mean of the share
        (idf-weighted) of the source's known words with a translation in the target, and of
        the target's known words that translate one of them."""
        return self.prepared_similarity(self.source_side(source), self.target_side(target))

    def prepared_similarity(self, source: Side, target: Side) -> float:
        """``similarity`` of a prepared source and target (``source_side``, ``target_side``)."""
        (known, source_total), (known_target, target_total) = source, target
        if not source_total or not target_total:
            return 0.0
        linked: set[str] = set()
        hit = 0.0
        for translations, weight in known:
            found = translations & known_target
            if found:
                hit += weight
                linked |= found
        if not hit:
            return 0.0
        source_share = hit / source_total
        target_share = sum(self.target_weight[b] for b in linked) / target_total
        return 2 * source_share * target_share / (source_share + target_share)


def learn(paired: Iterable[tuple[frozenset[str], frozenset[str]]]) -> Lexicon:
    """The word list of ``paired`` (source tokens, target tokens) rules."""
    # The paired rules of a large corpus are many: each is held as two arrays of word numbers.
    number: dict[str, int] = {}
    pairs: list[tuple[array[int], array[int]]] = []
    for source, target in islice(paired, MAX_PAIRS):
        pairs.append(
            (
                array("i", (number.setdefault(w, len(number)) for w in source)),
                array("i", (number.setdefault(b, len(number)) for b in target)),
            )
        )
    word = list(number)
    n = len(pairs)
    source_count: Counter[int] = Counter()
    target_count: Counter[int] = Counter()
    for source_ids, target_ids in pairs:
        source_count.update(source_ids)
        target_count.update(target_ids)
    common = COMMON_SHARE * n
    # A word in fewer paired rules than MIN_PAIRS can pair with none: counted out at once.
    useful_source = {w for w, k in source_count.items() if MIN_PAIRS <= k <= common}
    useful_target = {b for b, k in target_count.items() if MIN_PAIRS <= k <= common}
    # Counted one source word at a time (over the paired rules it occurs in), keeping only the
    # pairs strong enough to be taken: all co-occurring pairs at once would take hundreds of
    # megabytes on a large corpus.
    holding: dict[int, array[int]] = defaultdict(lambda: array("i"))
    for row, (source_ids, _target_ids) in enumerate(pairs):
        for w in source_ids:
            if w in useful_source:
                holding[w].append(row)
    scored: list[tuple[float, str, str]] = []
    for w, rows in holding.items():
        both: Counter[int] = Counter()
        for row in rows:
            both.update(b for b in pairs[row][1] if b in useful_target)
        for b, k in both.items():
            dice = 2 * k / (source_count[w] + target_count[b])
            if k >= MIN_PAIRS and dice >= MIN_DICE:
                scored.append((dice, word[w], word[b]))
    scored.sort(reverse=True)
    links: dict[str, set[str]] = defaultdict(set)
    target_links: Counter[str] = Counter()
    for dice, source_word, target_word in scored:
        if dice < MIN_DICE:
            break
        if len(links[source_word]) < LINKS and target_links[target_word] < LINKS:
            links[source_word].add(target_word)
            target_links[target_word] += 1
    return Lexicon(
        pairs=n,
        translations={w: frozenset(bs) for w, bs in links.items()},
        source_weight={w: math.log(1 + n / source_count[number[w]]) for w in links},
        target_weight={b: math.log(1 + n / target_count[number[b]]) for b in target_links},
    )
