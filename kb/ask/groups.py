"""What a question asks about, as groups of forms (a word with its expansions, or a
concept's names), each weighed by rarity, and the text features computed from them: how much of
the question a passage covers, how close its words stand, whether it defines what is asked,
whether it states a number.

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

from ingest.text import CJK_RUN, cjk_bigrams, fold, words

from .forms import QuestionForms, group_frequency
from .inflect import crude_stem, form_pattern, needles
from .question import query_data


class Group:
    """One thing the question asks about: a word with its expansions, or a concept's forms."""

    __slots__ = ("forms", "weight", "concept", "patterns", "needles")

    def __init__(
        self,
        forms: tuple[str, ...],
        weight: float,  # inverse document frequency: rare words matter more
        concept: bool = False,
        patterns: tuple[re.Pattern[str], ...] = (),
        # Per pattern, the words a text must contain for the pattern to match: checking them
        # with ``in`` first spares most regex searches.
        needles: tuple[tuple[str, ...], ...] = (),
    ) -> None:
        self.forms, self.weight, self.concept = forms, weight, concept
        self.patterns, self.needles = patterns, needles

    def matching(self, folded: str) -> list[re.Pattern[str]]:
        return [
            p
            for p, words_ in zip(self.patterns, self.needles, strict=True)
            if all(w in folded for w in words_)
        ]


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
        pairs = [(form_pattern(f, loose=not concept), needles(f)) for f in forms]
        pairs = [(p, n) for p, n in pairs if p]
        if concept:
            # A concept is found by any of its forms: it is as common as all of them together
            # (the rare machine rendering of "opponent" does not make "opponent" rare).
            weight = 1.5 * math.log(1 + total / max(1, group_frequency(list(forms), df)))
        else:
            # As rare as what the judge typed: the forms added for it ("can't" for "cannot",
            # rare in the corpus) do not make it rarer.
            weight = idf(forms[0])
        out.append(
            Group(
                forms,
                weight,
                concept,
                tuple(p for p, _ in pairs),  # type: ignore[misc]
                tuple(n for _, n in pairs),
            )
        )
    return out


def _present(group: Group, folded: str, tokens: set[str], grams: set[str]) -> float:
    """1 if one of the group's forms (inflected, or by stem) is in the passage, less for a typo."""
    from rapidfuzz import fuzz, process

    if any(p.search(folded) for p in group.matching(folded)):
        return 1.0
    w = fold(group.forms[0])
    if CJK_RUN.fullmatch(w) and set(cjk_bigrams(w)) <= grams:
        return 1.0
    stem = crude_stem(w)
    if stem and f" {stem}" in folded:
        return 1.0
    if (
        not group.concept
        and len(w) >= 4
        and process.extractOne(w, tokens, scorer=fuzz.ratio, score_cutoff=80)
    ):
        return 0.8
    return 0.0


def _concept_spans(group: Group, folded: str) -> list[tuple[int, int]]:
    return [m.span() for p in group.matching(folded) for m in p.finditer(folded)]


def _shadowed(groups: list[Group], folded: str) -> set[int]:
    """Concepts whose every mention in the passage lies inside a longer mention of another
    concept: "quasi-restricted card" is Semi-Limited, not also Limited ("restricted card")."""
    spans = {i: _concept_spans(g, folded) for i, g in enumerate(groups) if g.concept}
    out = set()
    for i, mine in spans.items():
        others = [s for j, theirs in spans.items() if j != i for s in theirs]
        if mine and all(
            any(a <= start and end <= b and (b - a) > (end - start) for a, b in others)
            for start, end in mine
        ):
            out.add(i)
    return out


def coverage(groups: list[Group], text: str) -> float:
    """Share of the question's weight (rare words weigh more) that the passage covers."""
    total = sum(g.weight for g in groups)
    if not total:
        return 0.0
    folded = " " + " ".join(words(fold(text))) + " "
    tokens = set(folded.split())
    grams = {g for t in tokens if CJK_RUN.fullmatch(t) for g in cjk_bigrams(t)}
    shadowed = _shadowed(groups, folded) if sum(g.concept for g in groups) > 1 else set()
    return (
        sum(
            g.weight * _present(g, folded, tokens, grams)
            for i, g in enumerate(groups)
            if i not in shadowed
        )
        / total
    )


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
    words_only = [g for g in groups if not g.concept] + [g for g in groups if g.concept]
    if len(words_only) < 2:
        return 0.0
    folded = " ".join(words(fold(text)))
    positions = []
    for g in words_only:
        spots = [
            folded.count(" ", 0, m.start()) for p in g.matching(folded) for m in p.finditer(folded)
        ]
        positions.append(spots)
    pairs = close = 0
    for a, b in zip(positions, positions[1:], strict=False):
        pairs += 1
        if a and b and min(abs(x - y) for x in a for y in b) <= window:
            close += 1
    return close / pairs if pairs else 0.0


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
