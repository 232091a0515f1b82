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
CANDIDATES = 8
"""Best translations of a source word held at first (LINKS are taken at most): a large corpus
gives a word many weak ones it never reaches (bench/make_big_corpus.py's copies make every
co-occurrence repeat), and all of them took tens of megabytes."""
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
    # The paired rules of a large corpus are many: they are held as word numbers, each side's
    # one after the other in one array, with where each rule ends.
    number: dict[str, int] = {}
    source_words, source_ends = array("i"), array("i")
    target_words, target_ends = array("i"), array("i")
    for source, target in islice(paired, MAX_PAIRS):
        source_words.extend(number.setdefault(w, len(number)) for w in source)
        source_ends.append(len(source_words))
        target_words.extend(number.setdefault(b, len(number)) for b in target)
        target_ends.append(len(target_words))
    word = list(number)
    n = len(source_ends)
    # A rule's tokens are a set: counting the words counts the rules they occur in.
    source_count: Counter[int] = Counter(source_words)
    target_count: Counter[int] = Counter(target_words)
    common = COMMON_SHARE * n
    # A word in fewer paired rules than MIN_PAIRS can pair with none: counted out at once.
    useful_source = {w for w, k in source_count.items() if MIN_PAIRS <= k <= common}
    useful_target = {b for b, k in target_count.items() if MIN_PAIRS <= k <= common}
    # Counted one source word at a time (over the paired rules it occurs in), keeping only the
    # pairs strong enough to be taken: all co-occurring pairs at once would take hundreds of
    # megabytes on a large corpus.
    holding: dict[int, array[int]] = defaultdict(lambda: array("i"))
    for row in range(n):
        for w in source_words[source_ends[row - 1] if row else 0 : source_ends[row]]:
            if w in useful_source:
                holding[w].append(row)

    def candidates(w: int) -> list[tuple[float, str, str]]:
        """The translations ``w`` may take, best first, as (Dice, source word, target word)."""
        both: Counter[int] = Counter()
        for row in holding[w]:
            side = target_words[target_ends[row - 1] if row else 0 : target_ends[row]]
            both.update(b for b in side if b in useful_target)
        found = [(2 * k / (source_count[w] + target_count[b]), word[w], word[b])
                 for b, k in both.items() if k >= MIN_PAIRS]  # fmt: skip
        return sorted((c for c in found if c[0] >= MIN_DICE), reverse=True)

    # Each word competes with its CANDIDATES best translations only; a word that ends with
    # fewer than LINKS while it had more competes again with twice as many, until none does.
    # The list is then the one all of every word's would give: a translation left out is one
    # its word never reaches.
    kept: dict[int, list[tuple[float, str, str]]] = {}
    cut: set[int] = set()
    for w in holding:
        found = candidates(w)
        kept[w] = found[:CANDIDATES]
        if len(found) > CANDIDATES:
            cut.add(w)
    while True:
        links, target_links = _take(sorted((c for cs in kept.values() for c in cs), reverse=True))
        short = {w for w in cut if len(links.get(word[w], ())) < LINKS}
        if not short:
            break
        for w in short:
            found = candidates(w)
            kept[w] = found[: 2 * len(kept[w])]
            if len(found) <= len(kept[w]):
                cut.discard(w)
    return Lexicon(
        pairs=n,
        translations={w: frozenset(bs) for w, bs in links.items()},
        source_weight={w: math.log(1 + n / source_count[number[w]]) for w in links},
        target_weight={b: math.log(1 + n / target_count[number[b]]) for b in target_links},
    )


def _take(scored: list[tuple[float, str, str]]) -> tuple[dict[str, set[str]], Counter[str]]:
    """Competitive linking: the pairs best first, each word in LINKS pairs at most."""
    links: dict[str, set[str]] = defaultdict(set)
    target_links: Counter[str] = Counter()
    for _dice, source_word, target_word in scored:
        if len(links[source_word]) < LINKS and target_links[target_word] < LINKS:
            links[source_word].add(target_word)
            target_links[target_word] += 1
    return links, target_links
