"""What retrieval needs to know of a question: the ``Understanding`` the ask engine's passes
produce (kb.ask.question.Understood has every field), declared here so that retrieval does not
import the engine that calls it.
"""

from __future__ import annotations

from typing import Any, Protocol

from ingest.text import fold


class Understanding(Protocol):
    text: str
    lang: str
    game: str | None
    game_hint: str | None
    cards: list[dict[str, Any]]
    vs: tuple[dict[str, Any], dict[str, Any]] | None
    timing: list[dict[str, Any]]
    terms: list[dict[str, Any]]
    words: list[str]
    around: list[str]
    expansions: dict[str, list[str]]
    facts: list[str]
    years: list[str]
    definition: bool
    quantity: bool
    qualified_from: list[str]

    def concepts(self) -> list[tuple[str, str]]: ...

    def concept_games(self) -> set[str]: ...


def typed_spans(u: Understanding) -> list[str]:
    """What the question typed for each card, moment and term it names (folded)."""
    text = fold(u.text)
    spans = [c["typed"] for c in u.cards]
    spans += [
        text[t["start"] : t["end"]]
        for t in [*u.timing, *u.terms]
        if t.get("end", 0) > t.get("start", 0)
    ]
    return [fold(s) for s in spans if s.strip()]
