"""A rule's clauses read as statements: what each says of its action (a modality, or the
plain fact that something happens or does not), under which condition, with which limits.

"You may change freely the order of cards in your hand" reads as (can, change the order of
cards in your hand); "However, if this is the first turn of the game, the player doesn't
draw a card" as (does not, the player doesn't draw a card, under the condition "this is the
first turn of the game"). kb ask answers a yes/no question from the clause of its best
passages that states what it asks (kb.ask.verdicts.statement).
"""

from __future__ import annotations

import re
from functools import cache

from ..statements import Lexicon, alternation, typed_hits, written_forms
from ..text import fold


@cache
def _words(lexicon: Lexicon, *keys: str) -> re.Pattern[str]:
    """The folded words of ``keys`` in data/statements.toml (each a table of per-language
    lists): whole words, a Chinese word anywhere (its neighbours are letters too)."""
    return alternation([w for key in keys for ws in lexicon.data[key].values() for w in ws])


@cache
def _written(lexicon: Lexicon, *keys: str) -> dict[str, set[str]]:
    return written_forms(w for key in keys for ws in lexicon.data[key].values() for w in ws)


def _found(lexicon: Lexicon, text: str, *keys: str) -> list[re.Match[str]]:
    """The words of ``keys`` in ``text``, as it types them (ingest.statements.typed_as)."""
    return typed_hits(text, _words(lexicon, *keys).finditer(fold(text)), _written(lexicon, *keys))


def _connectives_end(lexicon: Lexicon, clause: str) -> int:
    """Where the words that tie a clause to what comes before it end ("However,", "and",
    "also"): not a limit on the clause itself."""
    found = {m.start(): m.end() for m in _found(lexicon, clause, "connectives")}
    folded, end = fold(clause), 0
    while (start := _past_non_word(folded, end)) in found:
        end = found[start]
    return _past_non_word(folded, end) if end else 0


def _past_non_word(text: str, at: int) -> int:
    """The first word character of ``text`` from ``at`` (or its end)."""
    while at < len(text) and not (text[at].isalnum() or text[at] == "_"):
        at += 1
    return at


def reading(lexicon: Lexicon, clause: str) -> dict[str, str] | None:
    """(modality, subject, condition, outcome, limits) of one clause, or None when it states
    nothing a verdict could rest on. ``modality`` is can / cannot / must / needn't / only, or
    does / does-not for a clause that says what happens; ``subject`` is what stands before
    the modality (folded); ``limits`` the exception words it holds ("unless", "except")."""
    text = clause[_connectives_end(lexicon, clause) :]
    parts = lexicon.split_condition(text)
    condition, outcome = parts if parts else ("", text)
    if parts and not outcome.strip():
        return None
    modality = lexicon.clause_modality(outcome)
    marks = lexicon.modal_marks(outcome)
    if not modality and marks:
        return None  # several modalities: which one governs what is asked is not clear
    if not modality:
        # A word holding a polarity word and negating nothing ("不过", however) is found as
        # the longer word, and is no negation.
        negating = _found(lexicon, outcome, "polarity", "not_polarity")
        polar = any(m.group() not in _written(lexicon, "not_polarity") for m in negating)
        modality = "does-not" if polar else "does"
    subject = fold(outcome)[: marks[0][0]].strip() if marks else ""
    limits = " ".join(dict.fromkeys(m.group() for m in _found(lexicon, outcome, "exceptions")))
    return {
        "modality": modality,
        "subject": subject,
        "condition": condition.strip(" ,"),
        "outcome": outcome.strip(" ,"),
        "limits": limits,
    }
