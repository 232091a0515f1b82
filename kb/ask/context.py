"""The state the understanding passes share while they read one question."""

from __future__ import annotations

import sqlite3
from typing import Any

from ..lexicon.phrases import Span
from ..lexicon.words import Token
from ..store.vocabulary import Vocabulary
from .question import Understood


class Context:
    """One question being read: the passes take what earlier passes left here."""

    def __init__(
        self, conn: sqlite3.Connection, vocab: Vocabulary, typed: str, game: str = ""
    ) -> None:
        self.conn = conn
        self.vocab = vocab
        self.typed = typed  # the question as typed (NFC, spaces collapsed by read_text)
        self.game = game  # the game the caller asked for ("" = any)
        self.text = ""  # the question with misspellings corrected
        self.folded = ""  # ``text`` folded
        self.tokens: list[Token] = []
        self.used: list[Span] = []  # spans of the question already read
        self.vs_at: int | None = None  # token index of the "vs" of "X vs Y"
        self.cards_vocab: list[dict[str, Any]] = []
        self.timing_vocab: list[dict[str, Any]] = []
        self.terms_vocab: list[dict[str, Any]] = []
        self.result = Understood(text="", lang="en")

    @property
    def game_words(self) -> set[str]:
        """Every folded game name and alias."""
        return {a for aliases in self.vocab.games.values() for a in aliases}
