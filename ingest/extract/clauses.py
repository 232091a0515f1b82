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

from ..statements import Lexicon, as_written
from ..text import fold


@cache
def _words(lexicon: Lexicon, *keys: str) -> re.Pattern[str]:
    """A whole-word alternation of the folded words of ``keys`` in data/statements.toml
    (each a table of per-language lists)."""
    found = as_written(fold(w) for key in keys for ws in lexicon.data[key].values() for w in ws)
    body = "|".join(re.escape(w) for w in sorted(found, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)" if body else "(?!)")


def _connective(lexicon: Lexicon) -> re.Pattern[str]:
    """Words that tie a clause to what comes before it ("However,", "and", "also"): not a
    limit on the clause itself."""
    return re.compile(rf"^(?:\W*(?:{_words(lexicon, 'connectives').pattern}))+\W*")


def reading(lexicon: Lexicon, clause: str) -> dict[str, str] | None:
    """(modality, subject, condition, outcome, limits) of one clause, or None when it states
    nothing a verdict could rest on. ``modality`` is can / cannot / must / needn't / only, or
    does / does-not for a clause that says what happens; ``subject`` is what stands before
    the modality (folded); ``limits`` the exception words it holds ("unless", "except")."""
    body = _connective(lexicon).sub("", fold(clause))
    start = len(fold(clause)) - len(body)
    text = clause[start:]
    parts = lexicon.split_condition(text)
    condition, outcome = parts if parts else ("", text)
    if parts and not outcome.strip():
        return None
    modality = lexicon.clause_modality(outcome)
    marks = lexicon.modal_marks(outcome)
    if not modality and marks:
        return None  # several modalities: which one governs what is asked is not clear
    if not modality:
        polar = _words(lexicon, "polarity").search(fold(outcome))
        modality = "does-not" if polar else "does"
    subject = fold(outcome)[: marks[0][0]].strip() if marks else ""
    limits = " ".join(dict.fromkeys(m.group() for m in _words(lexicon, "exceptions").finditer(
        fold(outcome))))  # fmt: skip
    return {
        "modality": modality,
        "subject": subject,
        "condition": condition.strip(" ,"),
        "outcome": outcome.strip(" ,"),
        "limits": limits,
    }
