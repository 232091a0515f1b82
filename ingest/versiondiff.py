"""Stage 9, version diff: how each rule changed between two versions of a rulebook.

Which documents are compared comes from the data, not from document ids: documents of the same
game, ruleset, language and variant that carry a ``spec.version`` or an ``effective`` date are
ordered (by effective date when every one of them has one, a version number not being printed
on every edition: Lorcana's rules of 2025-02-28 have none, the next ones are 2.0.0; else by
version) and each one is compared with the next.

Only numbered rules (``kind == "rule"``) take part. Unnumbered paragraphs of a comprehensive-rules
file are its title and dates, which differ in every version by definition; section headings are
not rules either.

Every old rule ends up in exactly one change that is not ``added`` and every new rule in exactly
one change that is not ``removed``, so per pair::

    old rules = unchanged + reworded + moved + removed
    new rules = unchanged + reworded + moved + added

Kinds and their ``detail``:

``unchanged``  same number, same words. Differences in whitespace, punctuation, quotation marks
               or letter case do not count as a change (a PDF extraction that glues "game wins"
               into "gamewins" or drops the quotes around 'ruler' says the same rule); they are
               noted as ``cosmetic: <word diff>``.
``reworded``   same number, different words; ``detail`` is a compact word diff.
``moved``      a different number: ``"314.3a -> 316.3a"`` (cosmetic differences are not
               noted), or ``"710.2d -> 712.2d; reworded: <word diff>"`` when the words changed
               too. Moved-and-reworded is one ``moved`` change: the kind says where to look for
               the rule, the detail says whether its words changed.
``added``      a new rule with no counterpart; ``"split from 805.2"`` when its text was a piece
               of an old rule's text, and then ``old_id`` is that rule (so history follows the
               piece back to it).
``removed``    an old rule with no counterpart; ``"merged into 905.3"`` when its text became a
               piece of a new rule's text, and then ``new_id`` is that rule.

Word diffs (ingest.worddiff) use the wdiff notation ``[-old words-] {+new words+}`` with a few
words of context and ``…`` for elided text.

Matching is global, not rule by rule, in three passes:

1. anchors: same number, same words and, for a sub-rule, a similar parent;
2. best first: every remaining old/new pair is scored with rapidfuzz (``fuzz.ratio`` on the
   case-folded words, one C call per old rule) and pairs are taken greedily, highest score
   first, each rule at most once. A pair qualifies with :data:`MOVED_MIN` similarity;
   :data:`SAME_NUMBER_MIN` is enough when the number is kept, and any similarity when the
   number is kept and one text contains the other (a rule extended under its number). The
   score is the similarity plus bonuses for evidence of identity: :data:`PARENT_BONUS` for
   sub-rules of similar parents (or two top-level rules), :data:`NUMBER_BONUS` for a kept
   number, :data:`SECTION_BONUS` for a section of the same title. So "[Barrier] is a
   continuous ability." pairs with 8.01's "[Barrier] is a continuous ability held by a card or
   player.", not with the closer "Crest is a continuous ability." under [Crest]; and of two
   identical boilerplate sub-rules ("In other instances, the card moves as specified.") each
   follows its own parent through a renumbered block. Exact ties go to the pair whose parents
   and neighbours match best;
3. same slot: an old rule left over between two matched rules is paired with a left-over new
   rule between their counterparts at :data:`SLOT_MIN`, since the position is evidence too.

Splits and merges keep the five kinds: the part of a split rule that keeps its place is
``reworded`` or ``moved`` (an extended rule, or a split one whose first piece keeps the number,
is found by its words being all there), the new piece is ``added`` with ``split from`` and the
old rule as its ``old_id``; a rule absorbed by another is ``removed`` with ``merged into`` and
that rule as its ``new_id``. So a rule is the old side of one change that is not ``added`` and
the new side of one that is not ``removed``, plus the pieces split from or merged into it. A
piece must have :data:`PIECE_MIN` of its words in order in the longer text, and must be new
there (the longer rule's counterpart does not hold it), so parallel wording ("A main deck is a
pile of cards..." / "An extra deck is a pile of cards...") is not a split.
"""

from __future__ import annotations

import bisect
import difflib
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from . import spill, worddiff
from .records import Change, DocumentResult, Rule
from .text import compare_form, version_key

SAME_NUMBER_MIN = 50.0
"""Similarity (0-100) above which a rule that keeps its number is the same rule, reworded."""
MOVED_MIN = 75.0
"""Similarity above which a rule with a different number is the same rule, moved."""
PIECE_MIN = 0.95
"""Share of a text's words found, in order, in a longer one for it to be a piece of it."""
PLACE_MIN = 63.0
"""Similarity above which a rule with a different number is the same rule, moved, when it stays
under the same chapter and section titles (a rewrite renumbers and rewords at once: Lorcana's
8.1.4 "If an effect allows a player to look at one of their private zones..." in ZONES ›
General is 7.1.4 in 2.0.0, at 63). Measured on Lorcana 2025-02-28 -> 2.0.0: the pairs from 63 to
75 read as the same rule; at 62 a Shift rule paired with another Shift rule."""
SLOT_MIN = 65.0
"""Similarity above which a rule between the same matched neighbours is the same rule."""
NUMBER_BONUS = 10.0
"""Added to a candidate pair's score when the rule keeps its number."""
SECTION_BONUS = 10.0
"""Added to a candidate pair's score when the rule stays in a section of the same title."""
PARENT_BONUS = 15.0
"""Added when both are top-level rules or sub-rules of similar parents: more than a kept
number, since "6.1a" under another parent than 6.1's is another rule."""
DIFF_CONTEXT = 3
"""Words of unchanged context kept on each side of a change in a ``detail`` word diff."""


@dataclass(frozen=True)
class _Item:
    """A numbered rule prepared for matching."""

    rule: Rule
    form: str  # case-folded words separated by single spaces: what similarity is computed on
    key: str  # ``form`` without spaces: equal keys mean the same words (glued or not)
    words: frozenset[str]


def version_pairs(
    documents: Sequence[DocumentResult],
) -> list[tuple[DocumentResult, DocumentResult]]:
    """Consecutive versions of the same rulebook: same game, ruleset, language and variant."""
    groups: dict[tuple[str, str, str, str], list[DocumentResult]] = defaultdict(list)
    for result in documents:
        spec = result.doc.spec
        if spec.version or spec.effective:
            groups[(spec.game, spec.ruleset, result.doc.lang, result.doc.variant)].append(result)
    pairs = []
    for group in groups.values():
        dated = all(r.doc.spec.effective for r in group)
        group.sort(
            key=lambda r: (
                r.doc.spec.effective if dated else "",
                version_key(r.doc.spec.version),
                r.doc.spec.effective,
                r.doc.doc_id,
            )
        )
        pairs += list(zip(group, group[1:], strict=False))
    return pairs


def superseded(documents: Sequence[DocumentResult]) -> dict[str, str]:
    """Document id -> the id of the newest version of the same rulebook, for every version
    that is not the newest (the newest is current)."""
    newest: dict[str, str] = {}
    chains: dict[str, list[str]] = {}
    for old, new in version_pairs(spill.view(documents).heads):
        chains.setdefault(new.doc.doc_id, [])
        chains[new.doc.doc_id] = [
            *chains.pop(old.doc.doc_id, []),
            old.doc.doc_id,
            *chains[new.doc.doc_id],
        ]
    for latest, older in chains.items():
        for doc_id in older:
            newest[doc_id] = latest
    return newest


def detail_diff(old: str, new: str, context: int | None = DIFF_CONTEXT, exact: bool = False) -> str:
    """A ``detail`` word diff in wdiff notation (``[-removed-] {+added+}``), ``""`` when the
    texts read the same; ``context`` words of unchanged text are kept on each side of a change
    (``None`` keeps the whole text). See ingest.worddiff for how words are compared."""
    segments = worddiff.diff(old, new, exact=exact)
    if not worddiff.changed(segments):
        return ""
    return worddiff.to_text(segments if context is None else worddiff.elide(segments, context))


class _Matcher:
    """Pairs the numbered rules of two versions (see the module docstring for the method)."""

    def __init__(
        self,
        old: Sequence[_Item],
        new: Sequence[_Item],
        sections: Mapping[str, str],
        paths: Mapping[str, str] | None = None,
    ) -> None:
        self.old, self.new = old, new
        self.pairs: dict[int, tuple[int, float]] = {}  # old index -> (new index, similarity)
        self.taken: set[int] = set()
        old_index = {it.rule.id: i for i, it in enumerate(old)}
        new_index = {it.rule.id: j for j, it in enumerate(new)}
        self._old_parent = [old_index.get(it.rule.parent or "") for it in old]
        self._new_parent = [new_index.get(it.rule.parent or "") for it in new]
        self._old_section = [compare_form(sections.get(it.rule.section, "")) for it in old]
        self._new_section = [compare_form(sections.get(it.rule.section, "")) for it in new]
        paths = paths or {}
        self._old_path = [compare_form(paths.get(it.rule.section, "")) for it in old]
        self._new_path = [compare_form(paths.get(it.rule.section, "")) for it in new]

    def run(self) -> dict[int, tuple[int, float]]:
        self._same_number_and_words()
        self._best_first()
        self._same_slot()
        return self.pairs

    def _pair(self, i: int, j: int, sim: float) -> None:
        self.pairs[i] = (j, sim)
        self.taken.add(j)

    def _same_number_and_words(self) -> None:
        by_number = {it.rule.number: j for j, it in enumerate(self.new)}
        for i, it in enumerate(self.old):
            j = by_number.get(it.rule.number)
            if j is not None and self.new[j].key == it.key and self._parents_agree(i, j):
                self._pair(i, j, 100.0)

    def _best_first(self) -> None:
        """Greedy assignment over all remaining pairs, best score first."""
        free = [j for j in range(len(self.new)) if j not in self.taken]
        choices = [self.new[j].form for j in free]
        free_by_number = {self.new[j].rule.number: j for j in free}
        candidates = []
        for i, it in enumerate(self.old):
            if i in self.pairs:
                continue
            same_number = free_by_number.get(it.rule.number)
            scored = {
                free[k]: sim
                for _, sim, k in process.extract(
                    it.form, choices, scorer=fuzz.ratio, score_cutoff=SAME_NUMBER_MIN, limit=None
                )
            }
            if (
                same_number is not None
                and same_number not in scored
                and self._extends(i, same_number)
            ):
                scored[same_number] = fuzz.ratio(it.form, self.new[same_number].form)
            for j, sim in scored.items():
                if j == same_number or sim >= MOVED_MIN or self._same_place(i, j, sim):
                    candidates.append(
                        (-self._score(i, j, sim, j == same_number), -self._context(i, j), i, j, sim)
                    )
        candidates.sort()
        for _, _, i, j, sim in candidates:
            if i not in self.pairs and j not in self.taken:
                self._pair(i, j, sim)

    def _score(self, i: int, j: int, sim: float, same_number: bool) -> float:
        if same_number and self._extends(i, j):
            # Extended, or split with the first piece kept, under its own number: the words
            # are all there, however much was added or moved out.
            sim = max(sim, 100.0)
        score = sim + (NUMBER_BONUS if same_number else 0.0)
        if self._old_section[i] and self._old_section[i] == self._new_section[j]:
            score += SECTION_BONUS
        if self._parents_agree(i, j):
            score += PARENT_BONUS
        return score

    def _same_slot(self) -> None:
        """Pair leftovers that sit between the same matched neighbours in both versions.

        The slot is evidence of identity, so a lower threshold applies: "903.2j" reworded and
        pushed to "903.2k" by an inserted rule is still found.
        """
        candidates = []
        matched = sorted(self.pairs)
        for i in range(len(self.old)):
            if i in self.pairs:
                continue
            k = bisect.bisect(matched, i)
            low = self.pairs[matched[k - 1]][0] if k > 0 else -1
            high = self.pairs[matched[k]][0] if k < len(matched) else len(self.new)
            for j in range(low + 1, high):
                if j not in self.taken and self._same_section(i, j):
                    sim = fuzz.ratio(self.old[i].form, self.new[j].form)
                    if sim >= SLOT_MIN:
                        candidates.append((-sim, -self._context(i, j), i, j))
        candidates.sort()
        for sim, _, i, j in candidates:
            if i not in self.pairs and j not in self.taken:
                self._pair(i, j, -sim)

    def _same_place(self, i: int, j: int, sim: float) -> bool:
        """Similar enough, under the same chapter and section titles (see PLACE_MIN)."""
        old, new = self._old_path[i], self._new_path[j]
        return sim >= PLACE_MIN and bool(old) and old == new

    def _same_section(self, i: int, j: int) -> bool:
        """Both in sections of similar titles (or either without one): a rule left over in a
        removed section and one in an inserted section share a slot, not an identity."""
        old, new = self._old_section[i], self._new_section[j]
        return not old or not new or fuzz.ratio(old, new) >= MOVED_MIN

    def _extends(self, i: int, j: int) -> bool:
        """One text contains the other: a rule extended (or cut) under the same number."""
        shorter, longer = sorted((self.old[i], self.new[j]), key=lambda it: len(it.form))
        return _coverage(shorter, longer) >= PIECE_MIN

    def _parent_similarity(self, i: int, j: int) -> float:
        """100 for two top-level rules, the parents' similarity for two sub-rules, else 0."""
        po, pn = self._old_parent[i], self._new_parent[j]
        if po is None or pn is None:
            return 100.0 if po is None and pn is None else 0.0
        return fuzz.ratio(self.old[po].form, self.new[pn].form)

    def _parents_agree(self, i: int, j: int) -> bool:
        """A sub-rule under the same parent (reworded or moved, but recognisably the same)."""
        return self._parent_similarity(i, j) >= MOVED_MIN

    def _context(self, i: int, j: int) -> float:
        """How well the surroundings of old rule ``i`` and new rule ``j`` agree (0-300).

        The similarity of their parents and of the previous and next rules: a tie-breaker
        between equally good candidates.
        """
        score = self._parent_similarity(i, j)
        for d in (-1, 1):
            if 0 <= i + d < len(self.old) and 0 <= j + d < len(self.new):
                score += fuzz.ratio(self.old[i + d].form, self.new[j + d].form)
        return score


def _item(rule: Rule) -> _Item:
    form = compare_form(rule.text)
    return _Item(rule, form, form.replace(" ", ""), frozenset(form.split()))


def _coverage(piece: _Item, whole: _Item) -> float:
    """Share of ``piece``'s words that appear, in order, in ``whole`` (0 when clearly few).

    Counted in words, not characters: "Crest is a continuous ability" is not contained in
    "Barrier is a continuous ability", though nearly all its characters are.
    """
    if len(piece.words & whole.words) < PIECE_MIN * len(piece.words):  # fast filter
        return 0.0
    words = piece.form.split()
    matcher = difflib.SequenceMatcher(None, words, whole.form.split(), autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / max(len(words), 1)


def _piece_of(
    piece: _Item, wholes: Sequence[tuple[_Item, _Item | None]]
) -> tuple[_Item, float] | None:
    """The rule whose text held ``piece`` and whose counterpart in the other version does not.

    ``wholes`` are (rule, its counterpart or None) pairs; the share of ``piece``'s words found
    in the rule (0-100) comes with it. The counterpart test keeps a sentence repeated in both
    versions from reading as a split: the text must have left (or be new in) its rule.
    """
    best: tuple[_Item, float] | None = None
    for whole, counterpart in wholes:
        if len(whole.form) <= len(piece.form):
            continue
        share = _coverage(piece, whole)
        if (
            share >= PIECE_MIN
            and (best is None or share > best[1])
            and (counterpart is None or _coverage(piece, counterpart) < PIECE_MIN)
        ):
            best = whole, share
    return (best[0], 100.0 * best[1]) if best else None


def diff_rules(
    old_document: str,
    new_document: str,
    old_rules: Sequence[Rule],
    new_rules: Sequence[Rule],
    sections: Mapping[str, str] | None = None,
    paths: Mapping[str, str] | None = None,
) -> list[Change]:
    """The changes from ``old_rules`` to ``new_rules``, in the new version's reading order.

    ``sections`` maps section ids to titles: a rule that stays in a section of the same title
    (whatever its number) is preferred to an equally similar one elsewhere; ``paths`` maps them
    to their paths (chapter › section), under which a less similar rule still counts as moved.
    Removed rules come right after the change of the old rule that preceded them.
    """
    old = [_item(r) for r in old_rules if r.kind == "rule" and r.number]
    new = [_item(r) for r in new_rules if r.kind == "rule" and r.number]
    pairs = _Matcher(old, new, sections or {}, paths).run()
    back = {j: i for i, (j, _) in pairs.items()}
    # Only a rule whose words changed can have lost (or gained) a piece of text.
    after = [new[pairs[i][0]] if i in pairs else None for i in range(len(old))]
    before = [old[back[j]] if j in back else None for j in range(len(new))]
    changed_old = [(o, c) for o, c in zip(old, after, strict=True) if c is None or c.key != o.key]
    changed_new = [(n, c) for n, c in zip(new, before, strict=True) if c is None or c.key != n.key]
    ids = (old_document, new_document)
    ordered: list[tuple[tuple[int, int, int], Change]] = []
    for i, (j, sim) in pairs.items():
        ordered.append(((j, 0, 0), _paired(old_document, new_document, old[i], new[j], sim)))
    for j, n in enumerate(new):
        if j not in back:
            found = _piece_of(n, changed_old)
            detail = f"split from {found[0].rule.number}" if found else ""
            sim = found[1] if found else 0.0
            source = found[0].rule.id if found else None
            ordered.append(((j, 0, 0), Change(*ids, source, n.rule.id, "added", sim, detail)))
    slot = -1  # the latest new index reached by an earlier old rule
    for i, o in enumerate(old):
        if i in pairs:
            slot = max(slot, pairs[i][0])
        else:
            found = _piece_of(o, changed_new)
            detail = f"merged into {found[0].rule.number}" if found else ""
            sim = found[1] if found else 0.0
            target = found[0].rule.id if found else None
            ordered.append(((slot, 1, i), Change(*ids, o.rule.id, target, "removed", sim, detail)))
    ordered.sort(key=lambda entry: entry[0])
    return [change for _, change in ordered]


def _paired(old_document: str, new_document: str, o: _Item, n: _Item, sim: float) -> Change:
    """The change between two rules found to be the same rule."""
    ids = (old_document, new_document, o.rule.id, n.rule.id)
    same_words = o.key == n.key
    if o.rule.number == n.rule.number:
        if same_words:
            cosmetic = detail_diff(o.rule.text, n.rule.text, exact=True)
            return Change(*ids, "unchanged", 100.0, f"cosmetic: {cosmetic}" if cosmetic else "")
        return Change(*ids, "reworded", sim, detail_diff(o.rule.text, n.rule.text))
    detail = f"{o.rule.number} -> {n.rule.number}"
    if not same_words:
        detail += f"; reworded: {detail_diff(o.rule.text, n.rule.text)}"
    return Change(*ids, "moved", 100.0 if same_words else sim, detail)


def diff_corpus(documents: Sequence[DocumentResult]) -> Iterator[Change]:
    """Changes between consecutive versions of every rulebook that has several versions, one
    pair of documents at a time (loaded when compared: ingest/spill.py); the build writes
    them as they come."""
    docs = spill.view(documents)
    for old_head, new_head in version_pairs(docs.heads):
        old, new = docs.by_id(old_head.doc.doc_id), docs.by_id(new_head.doc.doc_id)
        titles = {s.id: s.title for result in (old, new) for s in result.sections}
        paths = {s.id: s.path for result in (old, new) for s in result.sections}
        yield from diff_rules(old.doc.doc_id, new.doc.doc_id, old.rules, new.rules, titles, paths)
