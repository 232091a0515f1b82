"""What a question asks about, as groups of forms (a word with its expansions, or a
concept's names), each weighed by rarity, and the text features computed from them: how much of
the question a passage covers, how close its words stand, whether it defines what is asked,
whether it states a number.

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache, lru_cache
from typing import Any

from ingest.text import fold, words

from ..lexicon.forms import QuestionForms, group_frequency
from ..lexicon.matching import PLURAL, STEM, Passage, Span, form_grams, form_keys
from ..lexicon.words import query_data


class Group:
    """One thing the question asks about: a word with its expansions, or a concept's forms."""

    __slots__ = ("forms", "weight", "concept", "keys", "grams")

    def __init__(self, forms: tuple[str, ...], weight: float, concept: bool = False) -> None:
        self.forms = forms
        self.weight = weight  # inverse document frequency: rare words matter more
        self.concept = concept
        # A concept's names, and the word the judge typed, in any inflection; the everyday
        # phrases added for a word list their own variants (kb/data/query.toml).
        levels = [STEM] * len(forms) if concept else [STEM] + [PLURAL] * (len(forms) - 1)
        self.keys = tuple(
            (keys, level)
            for f, level in zip(forms, levels, strict=True)
            if (keys := form_keys(f, level))
        )
        self.grams = tuple(g for f in forms if (g := form_grams(f)))

    def spans(self, passage: Passage) -> list[Span]:
        """Where the passage mentions it (an everyday word's forms loosely: a paraphrase may
        put other words between theirs)."""
        memo = (self.keys, self.concept)
        found = passage.found.get(memo)
        if found is None:
            loose = not self.concept
            found = [
                s
                for keys, level in self._held(passage)
                for s in passage.find(keys, level, loose=loose)
            ]
            if len(passage.found) >= 256:  # a long-running server asks many questions
                passage.found.clear()
            passage.found[memo] = found
        return found

    def found_in(self, passage: Passage) -> bool:
        """One of its forms is in the passage (stops at the first)."""
        loose = not self.concept
        return any(
            passage.find(keys, level, loose=loose, first=True)
            for keys, level in self._held(passage)
        )

    def _held(self, passage: Passage) -> list[tuple[tuple[str, ...], str]]:
        """Its forms whose every word the passage holds: only those can stand in it (most of
        a concept's many forms are not, and looking each up costs a call)."""
        wheres = {level: passage.index(level) for level in {level for _, level in self.keys}}
        return [(keys, level) for keys, level in self.keys if all(k in wheres[level] for k in keys)]


def query_groups(q: QuestionForms) -> list[Group]:
    """The question's groups: each content word, then each concept, weighed by rarity."""
    groups = [(tuple(forms), False) for forms in q.words]
    groups += [(tuple(forms), True) for _, forms in q.concepts]
    total, df = q.total, q.df

    def idf(form: str) -> float:
        ws = words(fold(form))
        if not ws:
            return 0.0
        # A phrase is as rare as its rarest word; CJK and unknown words count as rare.
        return max(math.log(1 + total / max(1, df.get(w, 1))) for w in ws)

    out = []
    for forms, concept in groups:
        if concept:
            # A concept is found by any of its forms: it is as common as all of them together
            # (the rare machine rendering of "opponent" does not make "opponent" rare).
            weight = 1.5 * math.log(1 + total / max(1, group_frequency(list(forms), df)))
        else:
            # As rare as what the judge typed: the forms added for it ("can't" for "cannot",
            # rare in the corpus) do not make it rarer.
            weight = idf(forms[0])
        out.append(Group(forms, weight, concept))
    return out


def _present(group: Group, passage: Passage) -> float:
    """1 if one of the group's forms is in the passage (English words by their stems, Chinese
    by its bigrams), 0.8 for a word typed with a typo, else 0."""
    if group.found_in(passage) or any(passage.has_grams(g) for g in group.grams):
        return 1.0
    w = fold(group.forms[0])
    if group.concept or len(w) < 4:
        return 0.0
    checked, typos = _typos_of(w)
    held = passage.word_set()
    # Each passage word is compared with the question's word once per process: a question
    # meets the same words in every candidate and feature (a question of 40 unknown words
    # cost half a second of CPU when each passage compared anew).
    for t in held - checked:
        if _typo(w, t):
            typos.add(t)
    checked |= held
    return 0.0 if typos.isdisjoint(held) else 0.8


@lru_cache(maxsize=256)
def _typos_of(w: str) -> tuple[set[str], set[str]]:
    """The passage words compared with ``w`` so far, and those that are ``w`` with a typo."""
    return set(), set()


@lru_cache(maxsize=256)
def _letters(w: str) -> tuple[tuple[str, int], ...]:
    """The letter counts of a question's word (counted once, not once per passage word)."""
    return tuple(Counter(w).items())


def _typo(w: str, t: str) -> bool:
    """``t`` is ``w`` typed with a typo: an edit similarity of 80 or more."""
    if 5 * abs(len(t) - len(w)) > len(t) + len(w):
        return False
    # Only words that share enough letters can reach a ratio of 80 (an upper bound counted
    # without rapidfuzz, which is slow to import and is then loaded only when needed).
    letters = Counter(t)
    shared = sum(min(n, letters.get(c, 0)) for c, n in _letters(w))
    if 200 * shared < 80 * (len(t) + len(w)):
        return False
    from rapidfuzz import fuzz

    return fuzz.ratio(w, t, score_cutoff=80) > 0


@lru_cache(maxsize=1024)
def read(text: str) -> Passage:
    """A passage read once for every feature and every question of a process (where each
    group of a question stands is remembered on it, by the group's forms)."""
    return Passage(text)


def _shadowed(groups: list[Group], passage: Passage) -> set[int]:
    """Concepts whose every mention in the passage lies inside a longer mention of another
    concept: "quasi-restricted card" is Semi-Limited, not also Limited ("restricted card")."""
    spans = {i: g.spans(passage) for i, g in enumerate(groups) if g.concept}
    out = set()
    for i, mine in spans.items():
        others = [s for j, theirs in spans.items() if j != i for s in theirs]
        if mine and all(
            any(a <= start and end <= b and (b - a) > (end - start) for a, b in others)
            for start, end in mine
        ):
            out.add(i)
    return out


def _share(group: Group, passage: Passage) -> float:
    """``_present``, or for a word written in unsegmented Chinese the share of its character
    bigrams the passage holds."""
    present = _present(group, passage)
    if present or group.concept or not group.grams:
        return present
    return max(len(g & passage.grams) / len(g) for g in group.grams)


def coverage(groups: list[Group], text: str, *, chinese_share: bool = False) -> float:
    """Share of the question's weight (rare words weigh more) that the passage covers.

    With ``chinese_share``, a word of unsegmented Chinese counts by the share of its character
    bigrams the passage holds: a question typed as one run of characters ("护卫的角色必须以力竭
    状态进场吗") is a single word no passage holds whole, so its plain coverage is 0 however
    well a passage answers it (kb ask's confidence gate reads it so; the ranking does not)."""
    total = sum(g.weight for g in groups)
    if not total:
        return 0.0
    passage = read(text)
    shadowed = _shadowed(groups, passage) if sum(g.concept for g in groups) > 1 else set()
    present = _share if chinese_share else _present
    covered = sum(g.weight * present(g, passage) for i, g in enumerate(groups) if i not in shadowed)
    return covered / total


@cache
def _number_words() -> re.Pattern[str]:
    alternation = "|".join(re.escape(fold(w)) for w in query_data()["quantity"]["numbers"])
    return re.compile(rf"\d|(?<!\w)(?:{alternation})(?!\w)")


@cache
def _limits() -> re.Pattern[str]:
    data = query_data()["quantity"]
    cues = "|".join(re.escape(fold(w)) for w in data["limits"])
    numbers = "|".join(re.escape(fold(w)) for w in data["numbers"])
    return re.compile(rf"(?<!\w)(?:{cues})\s+(?:\S+\s+){{0,2}}?(?:\d+|{numbers})(?!\w)")


def states_number(text: str) -> float:
    """1 when the passage sets a limit ("exactly 50", "up to four"), 0.5 when it only states a
    quantity (digits or a number word)."""
    folded = fold(text)
    if _limits().search(folded):
        return 1.0
    return 0.5 if _number_words().search(folded) else 0.0


def literal(typed: list[str], text: str) -> float:
    """Share of the names the question typed that the passage writes the same way (闪电 in a
    Chinese list beats its English alias "lightning")."""
    if not typed:
        return 0.0
    folded = fold(text)
    return sum(1 for t in typed if t in folded) / len(typed)


def proximity(groups: list[Group], text: str, window: int = 4) -> float:
    """Share of neighbouring pairs of the question's words that stand close in the passage."""
    ordered = [g for g in groups if not g.concept] + [g for g in groups if g.concept]
    if len(ordered) < 2:
        return 0.0
    passage = read(text)
    positions = [[start for start, _ in g.spans(passage)] for g in ordered]
    close = sum(
        1
        for a, b in zip(positions, positions[1:], strict=False)
        if a and b and min(abs(x - y) for x in a for y in b) <= window
    )
    return close / (len(ordered) - 1)


def defines(groups: list[Group], row: dict[str, Any]) -> bool:
    """The passage defines what the question names: it is titled with it, or one of its
    sentences opens with it followed by "is", "là", "means" or a colon."""
    title = " ".join(words(fold(row["title"] or "")))
    sentences = [" ".join(words(fold(s))) for s in re.split(r"(?<=[.!?。])\s+", row["text"])]
    for g in groups:
        for f in g.forms:
            key = " ".join(words(fold(f)))
            if not key:
                continue
            if title == key or any(
                re.match(rf"{re.escape(key)} (?:is|are|la|means|nghia la)\b", s) for s in sentences
            ):
                return True
            if fold(row["text"]).lower().startswith(key + ":"):
                return True
    return False
