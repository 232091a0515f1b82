"""The filters a verdict passes, named and in order: each stops a question (before any
resolver) or a verdict; the name of the one that stopped it is ``Asked.stopped_by``, counted by
bench/verdicts.py. Each has a case file, tests/fixtures/ask/filters/<name>.txt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..passes_asks import asks_twice
from .account import unaccounted
from .common import Asked, Verdict


def unknown_word(asked: Asked) -> bool:
    """A word no rule holds ("digimon", an unread Chinese word): whatever the facts say of the
    rest, they do not cover what the question is about."""
    return bool(asked.u.unknown)


def two_questions(asked: Asked) -> bool:
    """One answer cannot answer two questions ("can I chain it, and does it resolve?"; "how
    many in the rune deck, how many master runes?")."""
    return asks_twice(asked.u.text, asked.kind, asked.u.lang)


def several_games(asked: Asked) -> bool:
    """The question names no game (a phrase may have guessed one), and the moments or terms it
    names are several games' ("end phase" is Yu-Gi-Oh!'s and Force of Will's): a verdict read
    from one game's rules would answer a judge at the other's table, where they may differ."""
    u = asked.u
    return (not u.game or u.game_guessed) and len(u.concept_games()) > 1


def unaccounted_word(asked: Asked, v: Verdict) -> bool:
    """A word of the question neither read by the parse nor said by the clauses the verdict
    quotes: the verdict never weighed it ("a second Chain in the Battle Step"). The words are
    kept for the answer to name."""
    missing = unaccounted(asked, v)
    asked.unaccounted = asked.unaccounted or missing
    return bool(missing)


# In order: the first that holds stops the question (or that resolver's verdict).
QUESTION: dict[str, Callable[[Asked], bool]] = {
    "unknown_word": unknown_word,
    "two_questions": two_questions,
    "several_games": several_games,
}
VERDICT: dict[str, Callable[[Asked, Verdict], bool]] = {"unaccounted_word": unaccounted_word}
# Filters switched off, by name: bench/verdicts.py measures what each one prevents.
DISABLED: set[str] = set()


def stopping(named: dict[str, Callable[..., bool]], *args: Any) -> str:
    """The first filter of ``named`` (and not disabled) that stops ``args``, or ""."""
    return next((n for n, stops in named.items() if n not in DISABLED and stops(*args)), "")
