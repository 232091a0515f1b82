"""The vocabulary ``kb ask`` matches questions against: games, card names, timing names and
glossary terms, with their match keys already folded.

``kb build`` precomputes it into the ``meta`` table (folding hundreds of names on every
question would cost more than the search itself); ``kb ask`` loads it from there. Standard
library, ``ingest.text`` and ``kb.store.db`` only: the store writes it without importing the ask
engine.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import weakref
from typing import Any

from ingest.text import CJK_RUN, cjk_bigrams, fold, name_key, words

from .db import execute, run, stored_json


class Vocabulary:
    """Everything names can be matched against, with match keys already folded.

    A plain class, as every class on the ``kb ask`` path: a dataclass costs the import of
    ``dataclasses`` (and ``inspect``) and code generation at every process start.
    """

    __slots__ = ("games", "cards", "timing", "terms", "game_rules", "mentions", "game_langs")

    def __init__(
        self,
        games: dict[str, list[str]],  # game id -> folded aliases
        cards: list[dict[str, Any]],  # card_aliases rows with "key" (normalized alias)
        timing: list[dict[str, Any]],  # {"node", "tree", "game", "key", "text"}
        terms: list[dict[str, Any]],  # {"term", "game", "key", "text", "en"}
        game_rules: dict[str, int] | None = None,  # game id -> rules of the game
        # key of an alias, term or moment -> {game: rules of the game holding it}: whether a
        # name of one game is an everyday word of another (kb.ask.passes_names.game_named)
        mentions: dict[str, dict[str, int]] | None = None,
        game_langs: dict[str, list[str]] | None = None,  # game id -> languages of its rules
    ) -> None:
        self.games, self.cards, self.timing, self.terms = games, cards, timing, terms
        self.game_rules = game_rules or {}
        self.mentions = mentions or {}
        self.game_langs = game_langs or {}

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "cards": self.cards,
            "timing": self.timing,
            "terms": self.terms,
            "game_rules": self.game_rules,
            "mentions": self.mentions,
            "game_langs": self.game_langs,
        }


# The meta row holding the vocabulary, precomputed by ``kb build`` (folding hundreds of names
# on every question would cost more than the search itself).
VOCABULARY_KEY = "ask_vocabulary"


# The vocabulary read from each open connection: decoding it is most of what reading it costs,
# and one question reads it in several places.
_LOADED: weakref.WeakKeyDictionary[sqlite3.Connection, Vocabulary] = weakref.WeakKeyDictionary()


def load_vocabulary(conn: sqlite3.Connection) -> Vocabulary:
    """The precomputed vocabulary of the database, or computed now for a database without it."""
    if conn in _LOADED:
        return _LOADED[conn]
    stored = stored_json(conn, VOCABULARY_KEY)
    vocab = Vocabulary(**stored) if stored is not None else compute_vocabulary(conn)
    with contextlib.suppress(TypeError):  # a plain connection: read it again next time
        _LOADED[conn] = vocab
    return vocab


def _key(text: str) -> str:
    return " ".join(words(fold(text)))


def _phrase_rows(conn: sqlite3.Connection, query: str) -> list[dict[str, Any]]:
    """Rows with a ``text`` column, each with its match key: the text's folded words; a term's
    row also with its English term's (``en_key``), whose rendering the text is."""
    return [
        {**row, "key": _key(row["text"]), **({"en_key": _key(row["en"])} if "en" in row else {})}
        for row in run(conn, query)
    ]


def compute_vocabulary(conn: sqlite3.Connection) -> Vocabulary:
    # Distinct folded names, shortest first; names of one length keep the manifest's order
    # (dict.fromkeys, not a set: a set's order changes with the hash seed, and so would the
    # stored vocabulary from one build to the next).
    games = {
        row["id"]: sorted(
            dict.fromkeys(fold(a) for a in [row["id"], row["name"], *json.loads(row["aliases"])]),
            key=len,
        )
        for row in run(conn, "game_aliases")
    }
    cards = [{**row, "key": name_key(row["alias"])} for row in run(conn, "vocabulary_cards")]
    timing = _phrase_rows(conn, "vocabulary_timing")
    terms = _phrase_rows(conn, "vocabulary_terms")
    keys = [*(a for aliases in games.values() for a in aliases)]
    keys += [row["key"] for row in timing + terms]
    keys += [row["en_key"] for row in terms]
    return Vocabulary(
        games,
        cards,
        timing,
        terms,
        game_rule_counts(conn),
        mentions(conn, keys),
        game_languages(conn),
    )


def phrase_expression(key: str) -> str:
    """The FTS5 phrase (folded column) of a folded key: its words in order, CJK as bigrams."""
    tokens: list[str] = []
    for word in words(key):
        tokens += cjk_bigrams(word) if CJK_RUN.fullmatch(word) and len(word) > 1 else [word]
    return '{folded} : "' + " ".join(t.replace('"', '""') for t in tokens) + '"' if tokens else ""


def mentions(conn: sqlite3.Connection, keys: list[str]) -> dict[str, dict[str, int]]:
    """For each key, how many rules of each game hold it as a phrase."""
    out: dict[str, dict[str, int]] = {}
    for key in sorted(set(keys)):
        expression = phrase_expression(key)
        if not expression:
            continue
        try:
            found = {
                row["game"]: row["rules"]
                for row in run(conn, "phrase_games", expression=expression)
            }
        except sqlite3.OperationalError:  # a key FTS5 cannot read as a phrase
            continue
        if found:
            out[key] = found
    return out


def game_rule_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """How many rules each game has (stored in the vocabulary: a full count per question
    would cost on a large corpus)."""
    return {row["game"]: row["rules"] for row in run(conn, "game_rule_counts")}


def game_languages(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """The languages each game has rules in."""
    out: dict[str, list[str]] = {}
    for row in run(conn, "game_languages"):
        out.setdefault(row["game"], []).append(row["lang"])
    return out


def store_vocabulary(conn: sqlite3.Connection) -> None:
    """Precompute the vocabulary into ``meta`` (called by ``kb build`` on the new database)."""
    value = json.dumps(compute_vocabulary(conn).as_json(), ensure_ascii=False)
    execute(conn, "meta_store", key=VOCABULARY_KEY, value=value)
