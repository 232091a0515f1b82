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


def _found(lexicon: Lexicon, key: str, text: str) -> list[re.Match[str]]:
    """The words of ``key`` in ``text``, as it types them (ingest.statements.typed_as)."""
    return typed_hits(text, _words(lexicon, key).finditer(fold(text)), _written(lexicon, key))


def _blanked(lexicon: Lexicon, key: str, text: str) -> str:
    """``text`` with the words of ``key`` blanked, each character a space (where folding
    keeps its positions): words that hold a polarity word and negate nothing ("不过")."""
    if len(fold(text)) != len(text):
        return text
    chars = list(text)
    for m in _words(lexicon, key).finditer(fold(text)):
        chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(chars)


def _connectives_end(lexicon: Lexicon, clause: str) -> int:
    """Where the words that tie a clause to what comes before it end ("However,", "and",
    "also"): not a limit on the clause itself."""
    found = {m.start(): m.end() for m in _found(lexicon, "connectives", clause)}
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
        polar = _found(lexicon, "polarity", _blanked(lexicon, "not_polarity", outcome))
        modality = "does-not" if polar else "does"
    subject = fold(outcome)[: marks[0][0]].strip() if marks else ""
    limits = " ".join(dict.fromkeys(m.group() for m in _found(lexicon, "exceptions", outcome)))
    return {
        "modality": modality,
        "subject": subject,
        "condition": condition.strip(" ,"),
        "outcome": outcome.strip(" ,"),
        "limits": limits,
    }
