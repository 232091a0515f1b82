"""The ways of writing a glossary term, a card or a card class, as stems: whether a clause
names what the question names.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3

from ingest.text import CJK_RUN, fold, stem, words

from ...store.db import run
from ...store.vocabulary import load_vocabulary


def stems(text: str) -> set[str]:
    return {stem(w) for w in words(fold(text))}


def alternatives(texts: list[str]) -> set[str]:
    """A phrase's stems as one alternative ("a|b": every stem held) per way of writing it."""
    out = set()
    for text in texts:
        found = stems(text.replace("-", " "))
        if found:
            out.add("|".join(sorted(found)))
    return out


def holds(held: set[str], options: set[str]) -> bool:
    """Some way of writing it is held whole."""
    return any(set(a.split("|")) <= held for a in options)


class Forms:
    """The ways of writing the concepts of one question, looked up once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.cache: dict[str, set[str]] = {}

    def of(self, concept: str) -> set[str]:
        if concept not in self.cache:
            self.cache[concept] = alternatives(self._texts(concept))
        return self.cache[concept]

    def _texts(self, concept: str) -> list[str]:
        kind, _, ident = concept.partition(":")
        vocab = load_vocabulary(self.conn)
        if kind == "term":
            texts = [t["text"] for t in vocab.terms if t["term"] == ident]
            return [ident, *texts]
        if kind == "card":
            return [c["alias"] for c in vocab.cards if c["card"] == ident]
        if kind == "class":
            return [r["text"] for r in run(self.conn, "class_names_of_game", game="")
                    if r["class"] == ident]  # fmt: skip
        return []

    def named(self, concept: str, held: set[str]) -> bool:
        """``held`` (stems) names the concept in one of its non-CJK ways of writing."""
        return holds(held, {a for a in self.of(concept) if not CJK_RUN.search(a)})
