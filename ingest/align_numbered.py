"""Aligning a translation numbered like its source: by number where the numbers and the
content agree, by content where they do not.

An official translation keeps its source's rule numbers, mostly: the Chinese Lorcana rules
are the English ones rule for rule, except where the English it translates was older (a
keyword inserted before another moves every later number) or the edition differs (the Chinese
tournament rules moved whole sections). So, per pair of documents:

1. Number links: a target rule and the source rule with the same number (or the same local
   id: ``1.2.1.example``) are linked when their content agrees: their lengths fit the pair's
   length ratio within LENGTH_FACTOR, and the bilingual word list (ingest/bilexicon.py) finds
   them at least ALTERNATIVE_SHARE as alike as the target rule and its best match among the
   source's rules around (NEAR): the Chinese 10.12.1 (Ward) is not the English 10.12.1
   (Vanish) when the English 10.13.1 reads like it. A pair whose lengths differ (a rule an
   edition extended with an example) still links when it is the target's best match (and
   CONTENT_MIN alike).
2. Content links: a rule left over is linked to the rule of the other side it reads most like
   (a numbered rule to a numbered rule), when they read alike (CONTENT_MIN), each is the
   other's best, and the next best is clearly worse (CONTENT_MARGIN): a section the
   translation moved.
3. Everything else (headings, unnumbered text, glossary entries, a rule no link took) is
   aligned by ingest/align.py's dynamic programme between consecutive number links, which
   reads the word list's similarity as it reads shared anchors.

The word list is learned from the number pairs of every numbered translation of the same
language pair whose numbers mostly agree in length (TRUSTED_SHARE): a document pair whose
numbers moved about teaches nothing wrong.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .bilexicon import Lexicon, learn, tokens
from .records import DocumentResult, Link

LENGTH_FACTOR = math.log(1.65)
"""Most a number pair's length may stray from the pair's ratio (as a log of the factor)."""
ALTERNATIVE_SHARE = 0.8
"""Share of the best match's word-list similarity a number pair must have."""
CONTENT_MIN = 0.3
"""Least word-list similarity of a content link."""
CONTENT_MARGIN = 1.15
"""How much better than the next best a content link must read."""
NEAR = 60
"""Rules on either side of a number pair's source among which the target's best match is
looked for: a translation's numbers drift from its source's (an inserted rule, a moved
section). Measured on the Lorcana gold: 25 loses the tournament rules' 5.1 (its source is 42
rules away), 60 finds what the whole document finds, at half the time (2.8 s against 5.2 s
of CPU for the whole alignment)."""
TRUSTED_SHARE = 0.8
"""Share of a document pair's number pairs that must agree in length for it to teach words."""


@dataclass(frozen=True)
class Side:
    """One document's rules and headings in reading order, as the aligner sees them."""

    ids: list[str]
    heading: list[bool]
    numbered: list[bool]  # a numbered rule (not a heading, an example, a glossary entry...)
    lengths: list[int]
    words: list[frozenset[str]]

    @property
    def local(self) -> dict[str, int]:
        """Local id (``1.9.1.1``) -> position, for the rules (not the headings)."""
        return {i.split(":", 1)[1]: k for k, i in enumerate(self.ids) if not self.heading[k]}


def side(result: DocumentResult, order: list[tuple[str, str, bool]]) -> Side:
    """``order``: (id, text, is heading) in reading order (ingest/align.reading_order)."""
    titles = {r.id: r.title for r in result.rules}
    numbers = {r.id for r in result.rules if r.number}
    texts = [
        f"{titles[i]} {text}" if titles.get(i) and titles[i] not in text else text
        for i, text, _ in order
    ]
    return Side(
        ids=[i for i, _, _ in order],
        heading=[h for _, _, h in order],
        numbered=[i in numbers for i, _, _ in order],
        lengths=[len(text) for _, text, _ in order],
        words=[tokens(text) for text in texts],
    )


def numbered(source: DocumentResult, target: DocumentResult) -> bool:
    """Whether two documents are numbered alike (so their rule numbers can be compared)."""
    return source.numbering == target.numbering and source.numbering not in ("", "plain")


def length_ratio(src: Side, tgt: Side) -> float:
    """The median target/source length of the rules numbered alike (1.0 without any)."""
    s, t = src.local, tgt.local
    ratios = sorted(tgt.lengths[j] / max(1, src.lengths[s[k]]) for k, j in t.items() if k in s)
    return ratios[len(ratios) // 2] if ratios else 1.0


def _length_agrees(src: Side, tgt: Side, i: int, j: int, ratio: float) -> bool:
    expected = (src.lengths[i] + 1) * ratio
    return abs(math.log((tgt.lengths[j] + 1) / expected)) <= LENGTH_FACTOR


def trusted_pairs(src: Side, tgt: Side) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The number pairs that agree in length, when most of them do (else none)."""
    ratio = length_ratio(src, tgt)
    s, t = src.local, tgt.local
    same = [(s[k], j) for k, j in t.items() if k in s]
    agree = [(i, j) for i, j in same if _length_agrees(src, tgt, i, j, ratio)]
    if not same or len(agree) < TRUSTED_SHARE * len(same):
        return []
    return [(src.words[i], tgt.words[j]) for i, j in agree]


def learn_lexicon(sides: Callable[[], Iterable[tuple[Side, Side]]]) -> Lexicon:
    """The word list of one language pair, from its numbered translations: learned from the
    number pairs that agree in length, then again from those of them that the first list
    finds alike too (a keyword numbered like another, Vanish's 10.12 and Ward's, would teach
    that the two names translate each other).

    ``sides`` gives the numbered pairs' sides, once for each of the two lists."""
    first = learn(pair for src, tgt in sides() for pair in trusted_pairs(src, tgt))
    return learn(
        (src.words[i], tgt.words[j])
        for src, tgt in sides()
        for i, j in _Matcher(src, tgt, first).number_links()
    )


# A link as positions of the two sides: (source positions, target positions, score, method).
Group = tuple[list[int], list[int], float, str]
Stretch = Callable[[list[int], list[int]], list[Group]]


class _Matcher:
    """Number and content links of one pair of documents (positions into the two sides)."""

    def __init__(self, src: Side, tgt: Side, lexicon: Lexicon) -> None:
        self.src, self.tgt, self.lexicon = src, tgt, lexicon
        self.ratio = length_ratio(src, tgt)
        self.rules_src = [i for i in range(len(src.ids)) if not src.heading[i]]
        self.rules_tgt = [j for j in range(len(tgt.ids)) if not tgt.heading[j]]
        self._sim: dict[tuple[int, int], float] = {}
        self._best_src: dict[int, float] = {}
        self._source: dict[int, Any] = {}
        self._target: dict[int, Any] = {}

    def sim(self, i: int, j: int) -> float:
        key = (i, j)
        if key not in self._sim:
            if i not in self._source:
                self._source[i] = self.lexicon.source_side(self.src.words[i])
            if j not in self._target:
                self._target[j] = self.lexicon.target_side(self.tgt.words[j])
            self._sim[key] = self.lexicon.prepared_similarity(self._source[i], self._target[j])
        return self._sim[key]

    def best_near(self, i: int, j: int) -> float:
        """The best similarity of target ``j`` to a source rule within NEAR rules of ``i``."""
        if j not in self._best_src:
            at = bisect.bisect_left(self.rules_src, i)
            near = self.rules_src[max(0, at - NEAR) : at + NEAR + 1]
            self._best_src[j] = max((self.sim(k, j) for k in near), default=0.0)
        return self._best_src[j]

    def number_links(self) -> list[tuple[int, int]]:
        """Same local id, agreeing in length and in words; increasing on both sides."""
        s = self.src.local
        found = []
        for k, j in sorted(self.tgt.local.items(), key=lambda kv: kv[1]):
            i = s.get(k)
            if i is None:
                continue
            if _length_agrees(self.src, self.tgt, i, j, self.ratio):
                # No match reads more alike than 1: at ALTERNATIVE_SHARE the pair holds.
                alike = self.sim(i, j)
                if alike >= ALTERNATIVE_SHARE or alike >= ALTERNATIVE_SHARE * self.best_near(i, j):
                    found.append((i, j))
            elif self.sim(i, j) >= max(CONTENT_MIN, self.best_near(i, j)):
                found.append((i, j))  # reworded at length, but still what it reads most like
        return _increasing(found)

    def content_links(self, taken_src: set[int], taken_tgt: set[int]) -> list[tuple[int, int]]:
        """Mutual best matches by the word list among the rules no link took yet."""
        free_src = [i for i in self.rules_src if i not in taken_src]
        free_tgt = [j for j in self.rules_tgt if j not in taken_tgt]
        best_of_src: dict[int, tuple[float, int]] = {}
        found = []
        for j in free_tgt:
            # A numbered rule translates a numbered rule (not the old wording an update
            # summary quotes), unnumbered text unnumbered text.
            kind = self.tgt.numbered[j]
            scored = sorted(
                ((self.sim(i, j), i) for i in free_src if self.src.numbered[i] == kind),
                reverse=True,
            )
            if not scored or scored[0][0] < CONTENT_MIN:
                continue
            second = scored[1][0] if len(scored) > 1 else 0.0
            if scored[0][0] < CONTENT_MARGIN * second:
                continue
            found.append((scored[0][1], j))
        for j in free_tgt:
            for i in free_src:
                if self.src.numbered[i] != self.tgt.numbered[j]:
                    continue
                value = self.sim(i, j)
                if value > best_of_src.get(i, (0.0, -1))[0]:
                    best_of_src[i] = (value, j)
        return [(i, j) for i, j in found if best_of_src.get(i, (0.0, -1))[1] == j]


def words_likeness(
    src: Side, tgt: Side, lexicon: Lexicon
) -> Callable[[list[int], list[int]], float]:
    """The word list's similarity of two runs of positions (their words together)."""

    def likeness(src_pos: list[int], tgt_pos: list[int]) -> float:
        source = frozenset().union(*(src.words[i] for i in src_pos))
        target = frozenset().union(*(tgt.words[j] for j in tgt_pos))
        return lexicon.similarity(source, target)

    return likeness


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of ``pairs`` (sorted by target) increasing in the source too."""
    tails: list[int] = []  # smallest source index ending a chain of each length
    tail_at: list[int] = []
    back: list[int] = []
    for k, (i, _) in enumerate(pairs):
        n = bisect.bisect_left(tails, i)
        if n == len(tails):
            tails.append(i)
            tail_at.append(k)
        else:
            tails[n], tail_at[n] = i, k
        back.append(tail_at[n - 1] if n else -1)
    chain = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        chain.append(pairs[k])
        k = back[k]
    return chain[::-1]


def align_numbered(
    source: DocumentResult,
    target: DocumentResult,
    src: Side,
    tgt: Side,
    lexicon: Lexicon,
    stretch: Stretch,
) -> list[Link]:
    """Links between two documents numbered alike (see the module docstring). ``stretch``
    aligns two runs of positions by the dynamic programme: (source positions, target
    positions, score, method) per link."""
    matcher = _Matcher(src, tgt, lexicon)
    anchors = matcher.number_links()
    taken_src = {i for i, _ in anchors}
    taken_tgt = {j for _, j in anchors}
    moved = matcher.content_links(taken_src, taken_tgt)
    taken_src |= {i for i, _ in moved}
    taken_tgt |= {j for _, j in moved}
    groups: list[Group] = [([i], [j], round(matcher.sim(i, j), 4), "number") for i, j in anchors]
    groups += [([i], [j], round(matcher.sim(i, j), 4), "content") for i, j in moved]
    bounds = [(-1, -1), *anchors, (len(src.ids), len(tgt.ids))]
    for (i0, j0), (i1, j1) in zip(bounds, bounds[1:], strict=False):
        run_src = [i for i in range(i0 + 1, i1) if i not in taken_src]
        run_tgt = [j for j in range(j0 + 1, j1) if j not in taken_tgt]
        if run_src or run_tgt:
            groups += stretch(run_src, run_tgt)
    groups.sort(key=lambda g: (min(g[0], default=math.inf), min(g[1], default=math.inf)))
    ids = (source.doc.doc_id, target.doc.doc_id)
    return [
        Link(
            *ids,
            tuple(src.ids[i] for i in s if not src.heading[i]),
            tuple(tgt.ids[j] for j in t if not tgt.heading[j]),
            score,
            method,
        )
        for s, t, score, method in groups
        if any(not src.heading[i] for i in s) or any(not tgt.heading[j] for j in t)
    ]
