"""Stage 8, align translations: link each translation variant to its source, rule by rule.

A translation variant is a machine translation of its source document, but not a clean one:
sentences are glued or split differently, section headings are glued into sentences or lost,
and stretches are missing. So rules are aligned by dynamic programming over the two rule
sequences (Gale & Church 1993), scoring each candidate link ("bead") by

* length: the target length should be the source length times a language-pair ratio, with a
  variance growing with the length; ratio and variance are estimated from the pair itself;
* anchors the two texts share whatever the languages: numbers, punctuation marks that survive
  translation (``>>``, brackets, quotes, colons), glossary terms (the English term in the
  source, any rendering in the target) and words left untranslated. Anchors are weighted by
  rarity, so "4000" counts and the glossary term "card" barely does;
* sentence counts: an English rule of three sentences usually becomes three target sentences;
* a prior per bead shape (1-1, 1-2, ... 1-0), re-estimated from a first pass.

Section headings of both documents take part as units that may be skipped cheaply, matched to
a target sentence (a heading glued into the Vietnamese text) or lead a bead; they never appear
in a link, which lists rules only. Each rule of both documents ends up in exactly one link; a
rule with no counterpart gets a 1-0 or 0-1 link, which the translation checks report.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from . import spill
from .align_numbered import (
    Group,
    Side,
    Stretch,
    align_numbered,
    learn_lexicon,
    numbered,
    side,
    words_likeness,
)
from .checks import check_links, glossary_forms, term_ids
from .glossary import Glossary, Rendering
from .records import Check, DocumentResult, Link
from .sentences import split_sentences
from .text import LETTER_WORD, plural_key

# Bead shapes (source units, target units) the aligner considers, with the prior probability
# of each for the first pass (the second pass uses the frequencies of the first). Rules of the
# source are paragraphs of one to four sentences and target rules are sentences, hence 1-3, 1-4.
PRIOR: dict[tuple[int, int], float] = {
    (1, 1): 0.55,
    (1, 2): 0.15,
    (2, 1): 0.05,
    (2, 2): 0.02,
    (1, 3): 0.06,
    (3, 1): 0.02,
    (1, 4): 0.04,
    (4, 1): 0.01,
    (1, 0): 0.02,
    (0, 1): 0.02,
}
MIN_PRIOR = 0.005
"""Floor of a re-estimated prior: a shape unseen in the first pass stays possible."""
ANCHOR_WEIGHT = 9.0
"""Cost units that a perfect anchor match (weighted Dice 1.0) takes off a bead."""
SENTENCE_WEIGHT = 1.2
"""Cost per sentence of difference between the two sides of a bead."""
HEADING_SKIP = 0.5
"""Cost of leaving a heading unaligned: headings are often dropped or glued, so it is cheap."""
HEADING_GLUE = 1.0
"""Extra cost of a heading leading a bead of rules (heading text glued to the first sentence)."""
HEADING_TEXT = 0.5
"""Extra cost of a heading matched alone to a rule on the other side."""
MIN_VARIANCE = 4.0
"""Floor of the length variance per character (Gale & Church measured 6.8 for en-fr)."""
MAX_SIDE = max(max(shape) for shape in PRIOR)
"""Most rules on one side of a bead."""
MAX_GLUED = 4
"""Most headings glued to the start of one bead."""
BAND = 12
"""Half-width, in units, of the first pass's search band around the diagonal (in characters).
A missing or extra stretch much longer than this many units cannot be aligned around."""
GAP_NEIGHBOURS = 3
"""Units on each side of a 1-0 / 0-1 link whose anchors its score is compared with."""
CORRIDOR = 3
"""Half-width, in units, of the second pass's search around the first pass's path."""

# Kinds of bead, in the order the DP tests them: the last three involve anchors.
_SKIP, _GAP, _HEADINGS, _HEADING_TEXT, _RULES = range(5)

_SQRT2 = math.sqrt(2.0)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = LETTER_WORD
# Marks that a translation keeps: ">>" (also "> >"), brackets, quotes, list and ratio signs.
_MARK = re.compile(r">\s?>|[(\[«《<\"“”:/!?+]")
_QUOTES = str.maketrans({"“": '"', "”": '"'})


# How alike two runs of units read by another measure (0-1): source range, target range.
Likeness = Callable[[int, int, int, int], float]


@dataclass(frozen=True)
class Unit:
    """A rule or a section heading, prepared for alignment."""

    id: str
    text: str
    heading: bool
    length: int
    sentences: int
    anchors: Counter[str] = field(compare=False)


@dataclass(frozen=True)
class Bead:
    """One step of the alignment path: units ``src[i0:i1]`` with ``tgt[j0:j1]``."""

    i0: int
    i1: int
    j0: int
    j1: int
    cost: float
    score: float
    anchored: bool


def _anchors(text: str, glossary: Glossary, forms: list[Rendering]) -> Counter[str]:
    """Numbers, marks, glossary terms (``forms`` are those of the text's language) and words."""
    text = text.translate(_QUOTES)
    found: Counter[str] = Counter()
    found.update("n:" + n.replace(",", ".") for n in _NUMBER.findall(text))
    found.update("p:" + m.replace(" ", "") for m in _MARK.findall(text))
    found.update("t:" + t for t in term_ids(glossary, text, forms))
    found.update("w:" + w for w in map(plural_key, _WORD.findall(text)) if len(w) > 1)
    return found


def _keep_shared_words(src: list[Unit], tgt: list[Unit]) -> None:
    """Drop word anchors that occur on one side only.

    Between two languages the words both documents use are the ones a translation left as
    they were (names, untranslated terms) or the few spelled alike; every other word would
    only dilute the overlap of the anchors that matter.
    """
    words = [{a for u in side for a in u.anchors if a.startswith("w:")} for side in (src, tgt)]
    shared = words[0] & words[1]
    for unit in (*src, *tgt):
        for anchor in [a for a in unit.anchors if a.startswith("w:") and a not in shared]:
            del unit.anchors[anchor]


def reading_order(result: DocumentResult) -> list[tuple[str, str, bool]]:
    """(id, text, is_heading) of a document's section headings and rules, in reading order.

    A rule belongs to the section opened by the last heading before it, so sorting headings
    before their section's rules restores the text order even when every rule of a glued
    translation carries the same line number. The root section (the document title from the
    manifest) is not text of the document and is left out.
    """
    order = {s.id: s.ord for s in result.sections}
    items: list[tuple[tuple[int, int], str, str, bool]] = [
        ((s.ord, -1), s.id, s.title, True) for s in result.sections if s.parent is not None
    ]
    items += [((order.get(r.section, 0), r.ord), r.id, r.text, False) for r in result.rules]
    return [(i, t, h) for _, i, t, h in sorted(items)]


def prepare_units(result: DocumentResult, glossary: Glossary, forms: list[Rendering]) -> list[Unit]:
    """The headings and rules of a document as units, with their anchors."""
    units = []
    for uid, text, heading in reading_order(result):
        sentences = 0 if heading else len(split_sentences(text))
        units.append(
            Unit(
                uid,
                text,
                heading,
                len(text),
                sentences,
                _anchors(text, glossary, forms),
            )
        )
    return units


@dataclass
class _Model:
    """Parameters of the bead cost: length ratio and variance, shape priors."""

    ratio: float
    variance: float
    prior: dict[tuple[int, int], float]

    def __post_init__(self) -> None:
        self.prior_cost = {shape: -math.log(p) for shape, p in self.prior.items()}

    def length_probability(self, ls: int, lt: int) -> float:
        """Two-sided probability of a length difference at least this large (Gale & Church)."""
        mean = (ls + lt / self.ratio) / 2.0
        if mean <= 0:
            return 1.0
        delta = (lt - ls * self.ratio) / math.sqrt(self.variance * mean)
        return max(math.erfc(abs(delta) / _SQRT2), 1e-12)


class _Aligner:
    """Dynamic programming over two unit sequences.

    A move of the DP takes ``a`` rules of the source and ``b`` rules of the target (a bead
    shape of PRIOR), optionally with the run of headings just before them on either side
    (heading text glued to the first sentence; in a glued translation several headings can
    end up in one sentence), or a single heading alone: skipped, or matched to one unit.
    What does not depend on the model (anchor overlap, lengths, sentence counts) is computed
    once per bead and reused by the second pass.
    """

    def __init__(
        self, src: Sequence[Unit], tgt: Sequence[Unit], likeness: Likeness | None = None
    ) -> None:
        self.src, self.tgt = src, tgt
        self.likeness = likeness
        self.weight = self._weights()
        self._src_sums = self._prefix_sums(src)
        self._tgt_sums = self._prefix_sums(tgt)
        self._src_runs = self._heading_runs(src)
        self._tgt_runs = self._heading_runs(tgt)
        self._anchor_cache: dict[tuple[int, int, int], tuple[dict[str, int], float]] = {}
        self._static: dict[tuple[int, int, int, int], tuple] = {}
        self._sim: dict[tuple[int, int, int, int], tuple[float, bool]] = {}

    def _weights(self) -> dict[str, float]:
        """Inverse document frequency of each anchor over the units of both documents."""
        df: Counter[str] = Counter()
        for unit in (*self.src, *self.tgt):
            df.update(set(unit.anchors))
        total = len(self.src) + len(self.tgt)
        return {a: math.log(1.0 + total / n) for a, n in df.items()}

    @staticmethod
    def _prefix_sums(units: Sequence[Unit]) -> tuple[list[int], list[int], list[int]]:
        """Running totals of length, sentences and headings, for O(1) sums over a run."""
        sums: tuple[list[int], list[int], list[int]] = ([0], [0], [0])
        for u in units:
            sums[0].append(sums[0][-1] + u.length)
            sums[1].append(sums[1][-1] + u.sentences)
            sums[2].append(sums[2][-1] + u.heading)
        return sums

    @staticmethod
    def _heading_runs(units: Sequence[Unit]) -> list[int]:
        """runs[k]: how many headings come just before position k (capped at MAX_GLUED)."""
        runs = [0]
        for u in units:
            runs.append(min(MAX_GLUED, runs[-1] + 1) if u.heading else 0)
        return runs

    def _group(self, side: int, i0: int, i1: int) -> tuple[dict[str, int], float]:
        """Merged anchors of a run of units and their weighted mass."""
        key = (side, i0, i1)
        cached = self._anchor_cache.get(key)
        if cached is None:
            merged: Counter[str] = Counter()
            for unit in (self.src if side == 0 else self.tgt)[i0:i1]:
                merged.update(unit.anchors)
            w = self.weight
            cached = (dict(merged), sum(w[k] * n for k, n in merged.items()))
            self._anchor_cache[key] = cached
        return cached

    def similarity(self, i0: int, i1: int, j0: int, j1: int) -> tuple[float, bool]:
        """Weighted Dice of the anchors of two unit ranges, and whether either side has any."""
        key = (i0, i1, j0, j1)
        cached = self._sim.get(key)
        if cached is not None:
            return cached
        a, mass_a = self._group(0, i0, i1)
        b, mass_b = self._group(1, j0, j1)
        total = mass_a + mass_b
        if not total:
            result = (0.0, False)
        else:
            if len(a) > len(b):
                a, b = b, a
            w = self.weight
            shared = sum(w[k] * min(n, b[k]) for k, n in a.items() if k in b)
            result = (2.0 * shared / total, True)
        if self.likeness is not None:
            # Another measure of how alike the two sides read (a learned word list).
            other = self.likeness(i0, i1, j0, j1)
            if other > result[0]:
                result = (other, True)
        self._sim[key] = result
        return result

    def _static_part(self, i0: int, i1: int, j0: int, j1: int) -> tuple:
        """(kind, rule shape, glued headings, ls, lt, sentence cost) of a move."""
        sl, ss, sh = self._src_sums
        tl, ts, th = self._tgt_sums
        hs, ht = sh[i1] - sh[i0], th[j1] - th[j0]
        rules = (i1 - i0 - hs, j1 - j0 - ht)
        if i1 == i0 or j1 == j0:
            kind = _SKIP if hs or ht else _GAP
            return (kind, rules, 0, 0, 0, 0.0)
        if rules == (0, 0):
            kind = _HEADINGS
        elif rules[0] == 0 or rules[1] == 0:
            kind = _HEADING_TEXT
        else:
            kind = _RULES
        ns, nt = ss[i1] - ss[i0], ts[j1] - ts[j0]
        sentence_cost = SENTENCE_WEIGHT * abs(ns - nt) if ns and nt else 0.0
        return (kind, rules, hs + ht, sl[i1] - sl[i0], tl[j1] - tl[j0], sentence_cost)

    def static(self, i0: int, i1: int, j0: int, j1: int) -> tuple:
        key = (i0, i1, j0, j1)
        part = self._static.get(key)
        if part is None:
            part = self._static[key] = self._static_part(*key)
        return part

    @staticmethod
    def _starts(units: Sequence[Unit], sums: list[int], runs: list[int]) -> list[list[list[int]]]:
        """starts[k][a]: where a move taking ``a`` rules that end at position k may begin.

        The ``a`` units before k must all be rules; a move that takes rules on both sides
        may also take the headings just before them (all glued to its first sentence).
        Index ``a`` of MAX_SIDE + 1 holds the start without headings, for 1-0 and 0-1 moves.
        """
        starts = []
        for k in range(len(units) + 1):
            row: list[list[int]] = [[] for _ in range(MAX_SIDE + 2)]
            for a in range(1, MAX_SIDE + 1):
                first = k - a
                if first < 0 or sums[k] - sums[first]:
                    continue
                row[a] = [first - glued for glued in range(runs[first] + 1)]
            row[MAX_SIDE + 1] = row[1][:1]
            row[0] = [k]
            starts.append(row)
        return starts

    @staticmethod
    def base_cost(model: _Model, part: tuple) -> float:
        """The cost of a move before its anchors are taken into account."""
        kind, rules, glued, ls, lt, sentence_cost = part
        if kind == _SKIP:
            return HEADING_SKIP
        if kind == _GAP:
            return model.prior_cost.get(rules, -math.log(MIN_PRIOR))
        if kind == _RULES:
            if rules not in model.prior_cost:
                return math.inf
            prior_cost = model.prior_cost[rules] + HEADING_GLUE * glued
        else:
            prior_cost = model.prior_cost[(1, 1)]
            if kind == _HEADING_TEXT:
                prior_cost += HEADING_TEXT
        return prior_cost - math.log(model.length_probability(ls, lt)) + sentence_cost

    def bead(self, model: _Model, i0: int, i1: int, j0: int, j1: int) -> Bead:
        part = self.static(i0, i1, j0, j1)
        kind, _, _, ls, lt, _ = part
        cost = self.base_cost(model, part)
        if kind in (_SKIP, _GAP):
            return Bead(i0, i1, j0, j1, cost, 0.0, False)
        sim, anchored = self.similarity(i0, i1, j0, j1)
        p_len = model.length_probability(ls, lt)
        score = (p_len + sim) / 2.0 if anchored else p_len / 2.0
        return Bead(i0, i1, j0, j1, cost - ANCHOR_WEIGHT * sim, score, anchored)

    def run(self, model: _Model, corridor: list[Bead] | None = None) -> list[Bead]:
        """Best path; within BAND of the diagonal, or within CORRIDOR units of an earlier path.

        A bead's anchor overlap is only computed when the bead could still beat the best
        candidate so far with a perfect overlap: most candidates lose on length alone.
        """
        n, m = len(self.src), len(self.tgt)
        windows = self._spans(corridor) if corridor else self._band()
        inf = math.inf
        best = [[inf] * (m + 1) for _ in range(n + 1)]
        back: list[list[tuple[int, int] | None]] = [[None] * (m + 1) for _ in range(n + 1)]
        best[0][0] = 0.0
        shapes = sorted(model.prior, key=lambda shape: -model.prior[shape])
        static, base_cost, similarity = self._static, self.base_cost, self.similarity
        bonus = ANCHOR_WEIGHT
        src_starts = self._starts(self.src, self._src_sums[2], self._src_runs)
        tgt_starts = self._starts(self.tgt, self._tgt_sums[2], self._tgt_runs)
        gap = MAX_SIDE + 1
        for i in range(n + 1):
            lo, hi = windows[i]
            src_row = src_starts[i]
            src_heading = i > 0 and self.src[i - 1].heading
            for j in range(lo, hi + 1):
                if i == 0 and j == 0:
                    continue
                tgt_row = tgt_starts[j]
                tgt_heading = j > 0 and self.tgt[j - 1].heading
                # A heading alone: skipped, or matched to the unit before (i, j) on the other side.
                candidates: list[tuple[int, int]] = []
                if src_heading:
                    candidates.append((i - 1, j))
                    if j > 0:
                        candidates.append((i - 1, j - 1))
                if tgt_heading:
                    candidates.append((i, j - 1))
                    if i > 0 and not src_heading:
                        candidates.append((i - 1, j - 1))
                for a, b in shapes:
                    if a == 0:
                        candidates += [(i, j0) for j0 in tgt_row[gap]]
                    elif b == 0:
                        candidates += [(i0, j) for i0 in src_row[gap]]
                    else:
                        starts = tgt_row[b]
                        if starts:
                            candidates += [(i0, j0) for i0 in src_row[a] for j0 in starts]
                here, step = inf, None
                for i0, j0 in candidates:
                    before = best[i0][j0]
                    if before == inf:
                        continue
                    key = (i0, i, j0, j)
                    part = static.get(key)
                    if part is None:
                        part = static[key] = self._static_part(*key)
                    total = before + base_cost(model, part)
                    if part[0] >= _HEADINGS:
                        if total - bonus >= here:
                            continue
                        total -= ANCHOR_WEIGHT * similarity(*key)[0]
                    if total < here:
                        here, step = total, (i0, j0)
                best[i][j], back[i][j] = here, step
        path: list[Bead] = []
        i, j = n, m
        while i or j:
            step = back[i][j]
            if step is None:
                raise RuntimeError("align: no alignment path (band too narrow)")
            path.append(self.bead(model, step[0], i, step[1], j))
            i, j = step
        return path[::-1]

    def _band(self) -> list[tuple[int, int]]:
        """For each source position, the target positions within BAND of the diagonal.

        The diagonal in characters, not in units: a variant with twice as many (shorter)
        units as its source still has its true path within a few units of it.
        """
        sl, tl = self._src_sums[0], self._tgt_sums[0]
        scale = tl[-1] / sl[-1] if sl[-1] else 0.0
        m = len(self.tgt)
        centres = [bisect.bisect_left(tl, length * scale) for length in sl]
        return _connected([(max(0, c - BAND), min(m, c + BAND)) for c in centres], m)

    def _spans(self, path: list[Bead]) -> list[tuple[int, int]]:
        """For each source position, the target positions within CORRIDOR of ``path``."""
        n, m = len(self.src), len(self.tgt)
        lo, hi = [m] * (n + 1), [0] * (n + 1)
        for bead in path:
            for i in range(bead.i0, bead.i1 + 1):
                lo[i], hi[i] = min(lo[i], bead.j0), max(hi[i], bead.j1)
        spans = []
        for i in range(n + 1):
            near = range(max(0, i - CORRIDOR), min(n, i + CORRIDOR) + 1)
            first = max(0, min(lo[k] for k in near) - CORRIDOR)
            last = min(m, max(hi[k] for k in near) + CORRIDOR)
            spans.append((first, last))
        return _connected(spans, m)


def _connected(windows: list[tuple[int, int]], m: int) -> list[tuple[int, int]]:
    """Search windows that always contain a path from (0, 0) to (n, m).

    The first window starts at 0, the last ends at m, and each one starts no later than the
    previous one ends, so 1-0 and 0-1 moves can always get through (one very long source rule
    would otherwise move the diagonal past a whole window).
    """
    out: list[tuple[int, int]] = []
    for i, (lo, hi) in enumerate(windows):
        start = 0 if i == 0 else min(lo, out[-1][1])
        end = m if i == len(windows) - 1 else hi
        out.append((start, max(start, end)))
    return out


def _first_model(src: Sequence[Unit], tgt: Sequence[Unit]) -> _Model:
    ls = sum(u.length for u in src if not u.heading) or 1
    lt = sum(u.length for u in tgt if not u.heading) or 1
    return _Model(ratio=lt / ls, variance=MIN_VARIANCE * 2, prior=dict(PRIOR))


def _refit(src: Sequence[Unit], tgt: Sequence[Unit], path: list[Bead]) -> _Model:
    """Length ratio, variance and shape priors re-estimated from a first alignment."""
    pairs: list[tuple[int, int]] = []
    shapes: Counter[tuple[int, int]] = Counter()
    for bead in path:
        s = [u for u in src[bead.i0 : bead.i1] if not u.heading]
        t = [u for u in tgt[bead.j0 : bead.j1] if not u.heading]
        if s or t:
            shapes[(len(s), len(t))] += 1
        if s and t and bead.i1 - bead.i0 == len(s) and bead.j1 - bead.j0 == len(t):
            pairs.append((sum(u.length for u in s), sum(u.length for u in t)))
    if not pairs:
        return _first_model(src, tgt)
    ratio = sum(t for _, t in pairs) / max(1, sum(s for s, _ in pairs))
    variance = sum((t - s * ratio) ** 2 for s, t in pairs) / max(1, sum(s for s, _ in pairs))
    total = sum(shapes.values()) + len(PRIOR)
    prior = {
        shape: max(MIN_PRIOR, (shapes[shape] + 1) / total) for shape in PRIOR
    }  # add-one smoothing keeps every shape possible
    return _Model(ratio=ratio, variance=max(MIN_VARIANCE, variance), prior=prior)


def align_units(
    src: Sequence[Unit], tgt: Sequence[Unit], likeness: Likeness | None = None
) -> list[Bead]:
    """The best bead path between two unit sequences (two passes: fit, then refit);
    ``likeness`` (0-1, of unit ranges) counts as anchor overlap where it is higher."""
    aligner = _Aligner(src, tgt, likeness)
    path = aligner.run(_first_model(src, tgt))
    path = aligner.run(_refit(src, tgt, path), corridor=path)
    return [_with_gap_score(aligner, bead) for bead in path]


def _with_gap_score(aligner: _Aligner, bead: Bead) -> Bead:
    """A 1-0 or 0-1 bead scored by how little its unit shares with the units around it.

    Weighted containment, not Dice: a short source rule whose words all reappear inside a long
    neighbouring target sentence ("Cast an Addition card" in "... Cast một thẻ Addition ...")
    was probably merged into it, not left untranslated, and gets a low score.
    """
    if (bead.i1 > bead.i0) == (bead.j1 > bead.j0):
        return bead
    if bead.i1 > bead.i0:
        unit, others, at = aligner.src[bead.i0], aligner.tgt, bead.j0
    else:
        unit, others, at = aligner.tgt[bead.j0], aligner.src, bead.i0
    if unit.heading:
        return bead
    w = aligner.weight
    mass = sum(w[k] * n for k, n in unit.anchors.items())
    if not mass:
        return Bead(bead.i0, bead.i1, bead.j0, bead.j1, bead.cost, 0.5, False)
    best = 0.0
    for other in others[max(0, at - GAP_NEIGHBOURS) : at + GAP_NEIGHBOURS]:
        shared = sum(w[k] * min(n, other.anchors[k]) for k, n in unit.anchors.items())
        best = max(best, shared / mass)
    return Bead(bead.i0, bead.i1, bead.j0, bead.j1, bead.cost, 1.0 - best, False)


def beads_to_links(
    source_doc: str,
    target_doc: str,
    src: Sequence[Unit],
    tgt: Sequence[Unit],
    path: list[Bead],
) -> list[Link]:
    """Links between rules; beads that hold only headings give none.

    ``method`` says how a link was found: ``dp:anchors+length`` (the two sides share anchors),
    ``dp:length`` (they share none), ``dp:heading`` (a rule matched a section heading of the
    other document, so it has no counterpart among the rules), ``dp:gap`` (no counterpart).
    """
    links = []
    for bead in path:
        s = tuple(u.id for u in src[bead.i0 : bead.i1] if not u.heading)
        t = tuple(u.id for u in tgt[bead.j0 : bead.j1] if not u.heading)
        if not s and not t:
            continue
        method = _method(bead, bool(s), bool(t))
        links.append(Link(source_doc, target_doc, s, t, round(bead.score, 4), method))
    return links


def _method(bead: Bead, rules_src: bool, rules_tgt: bool) -> str:
    if rules_src and rules_tgt:
        return "dp:anchors+length" if bead.anchored else "dp:length"
    if bead.i1 > bead.i0 and bead.j1 > bead.j0:
        return "dp:heading"
    return "dp:gap"


def stretch_aligner(
    src: Sequence[Unit], tgt: Sequence[Unit], likeness: Callable[[list[int], list[int]], float]
) -> Stretch:
    """Aligns runs of positions of ``src`` and ``tgt`` by the dynamic programme, reading
    ``likeness`` of positions too (for ingest/align_numbered.py, between its number links)."""

    def run(src_pos: list[int], tgt_pos: list[int]) -> list[Group]:
        if not src_pos or not tgt_pos:
            return [([i], [], 1.0, "dp:gap") for i in src_pos] + [
                ([], [j], 1.0, "dp:gap") for j in tgt_pos
            ]

        def local(i0: int, i1: int, j0: int, j1: int) -> float:
            return likeness(src_pos[i0:i1], tgt_pos[j0:j1])

        path = align_units([src[i] for i in src_pos], [tgt[j] for j in tgt_pos], local)
        groups = []
        for bead in path:
            s = src_pos[bead.i0 : bead.i1]
            t = tgt_pos[bead.j0 : bead.j1]
            has_s = any(not src[i].heading for i in s)
            has_t = any(not tgt[j].heading for j in t)
            groups.append((s, t, round(bead.score, 4), _method(bead, has_s, has_t)))
        return groups

    return run


def align_pair(source: DocumentResult, target: DocumentResult, glossary: Glossary) -> list[Link]:
    """Links between the rules of ``source`` and of its translation ``target``."""
    game = source.doc.spec.game
    src = prepare_units(source, glossary, glossary_forms(glossary, source.doc.lang, game))
    tgt = prepare_units(target, glossary, glossary_forms(glossary, target.doc.lang, game))
    _keep_shared_words(src, tgt)
    path = align_units(src, tgt)
    return beads_to_links(source.doc.doc_id, target.doc.doc_id, src, tgt, path)


def translation_pairs(
    documents: Sequence[DocumentResult],
) -> list[tuple[DocumentResult, DocumentResult]]:
    """(source, variant) for every translation variant whose source is in ``documents``."""
    by_id = {d.doc.doc_id: d for d in documents}
    return [
        (by_id[d.doc.translation_of], d)
        for d in documents
        if d.doc.translation_of and d.doc.translation_of in by_id
    ]


def align_corpus(
    documents: Sequence[DocumentResult], glossary: Glossary
) -> tuple[Sequence[Link], list[Check]]:
    """Links between every translation and its source document, and the checks on them: a
    translation numbered like its source by number and content (ingest/align_numbered.py),
    any other by the dynamic programme. Each pair's two documents are loaded when it is
    aligned (ingest/spill.py), and each pair's sides computed again each time they are needed
    (three times a pair), and the links are kept in a temporary file as they are found:
    holding every pair's at once grew the build's memory with the corpus."""
    docs = spill.view(documents)
    pairs = translation_pairs(docs.heads)  # what each document is: no rules needed to pair

    def loaded(source: DocumentResult, target: DocumentResult) -> tuple[DocumentResult, ...]:
        return docs.by_id(source.doc.doc_id), docs.by_id(target.doc.doc_id)

    def side_of(d: DocumentResult) -> Side:
        return side(d, reading_order(d))

    def numbered_sides(languages: tuple[str, str]) -> Iterator[tuple[Side, Side]]:
        for s, t in pairs:
            if numbered(s, t) and (s.doc.lang, t.doc.lang) == languages:
                source, target = loaded(s, t)
                yield side_of(source), side_of(target)

    lexicons = {
        languages: learn_lexicon(partial(numbered_sides, languages))
        for languages in sorted({(s.doc.lang, t.doc.lang) for s, t in pairs})
    }
    links: spill.Stored[Link] = spill.Stored()
    for source, target in (loaded(s, t) for s, t in pairs):
        if not numbered(source, target):
            links.extend(align_pair(source, target, glossary))
            continue
        game = source.doc.spec.game
        src = prepare_units(source, glossary, glossary_forms(glossary, source.doc.lang, game))
        tgt = prepare_units(target, glossary, glossary_forms(glossary, target.doc.lang, game))
        _keep_shared_words(src, tgt)
        lexicon = lexicons[(source.doc.lang, target.doc.lang)]
        src_side, tgt_side = side_of(source), side_of(target)
        likeness = words_likeness(src_side, tgt_side, lexicon)
        links.extend(
            align_numbered(
                source, target, src_side, tgt_side, lexicon, stretch_aligner(src, tgt, likeness)
            )
        )
    return links, check_links(links, documents, glossary)
