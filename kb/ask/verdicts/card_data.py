"""A card's printed data: "Breaker the Magical Warrior ATK?" is 1600, "is Breaker a DARK
monster" is yes, read from the card data the corpus states (table ``card_facts``, each value
citing its rule).

Only a plain question about the printed value is answered: one card, one field, and no other
words ("Breaker's ATK right after it is Normal Summoned" asks about the game, not the card).

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3

from ingest.text import fold, folded_words

from ...lexicon.words import query_data, stopwords
from ...store.db import run
from ..passes_asks import cue_words
from ..question import Understood
from . import NUMERIC
from .asked import Asked
from .common import Verdict, because


def _plain(u: Understood, extra: set[str]) -> bool:
    """The question holds nothing but the card, the field and words that ask (or ask for the
    printed value: "original")."""
    fields = {w for names in query_data()["facts"].values() for n in names
              for w in folded_words(n).split()}  # fmt: skip
    printed = {fold(w) for w in query_data()["printed"]["words"]}
    skip = set(stopwords()) | cue_words() | fields | printed | extra
    return all(w in skip for w in u.words)


def _facts(conn: sqlite3.Connection, u: Understood) -> list[dict[str, str]]:
    rows = run(conn, "card_facts", id=u.cards[0]["id"])
    return [{**r, "id": f"{r['rule']}#{r['field']}", "quote": f"{r['field']}: {r['value']}"}
            for r in rows]  # fmt: skip


def value(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """The number a card prints for the one field asked (ATK, DEF, Level)."""
    fields = [f for f in u.facts if f in NUMERIC]
    # One card, perhaps named twice ("「魔导战士 破坏者」（Breaker the Magical Warrior）").
    if len({c["id"] for c in u.cards}) != 1 or len(fields) != 1 or not _plain(u, set()):
        return None
    found = [f for f in _facts(conn, u) if f["field"] == fields[0]]
    values = {f["value"] for f in found}
    if len(values) != 1 or not re.fullmatch(r"\d+", next(iter(values))):
        return None
    said = values.pop()
    name = u.cards[0]["name"]
    cited = [because(conn, f) for f in found]
    text = f"{said}: {name}'s {fields[0].upper()} is {said}."
    return Verdict(said, text, cited, kind="card", cards=[u.cards[0]["id"]])
