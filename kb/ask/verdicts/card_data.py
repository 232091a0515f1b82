"""A card's printed number ("Breaker the Magical Warrior ATK?": 1600) from table ``card_facts``,
for a plain question only: one card, one field, no other words ("... right after it is Normal
Summoned" asks about the game).

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3

from ingest.text import fold, folded_words

from ...lexicon.words import query_data, stopwords
from ...lookups.labels import narrate
from ...store.db import run
from ..passes_asks import cue_words
from ..question import Understood
from .common import Asked, Verdict, because


def _plain(u: Understood) -> bool:
    """The question holds nothing but the card, the field and words that ask (or ask for the
    printed value: "original")."""
    fields = {w for names in query_data()["facts"].values() for n in names
              for w in folded_words(n).split()}  # fmt: skip
    printed = {fold(w) for w in query_data()["printed"]["words"]}
    skip = set(stopwords()) | cue_words() | fields | printed
    return all(w in skip for w in u.words)


def value(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """The number a card prints for the one field asked (ATK, DEF, Level)."""
    fields = [f for f in u.facts if f in query_data()["facts_numeric"]["fields"]]
    # One card, perhaps named twice ("「魔导战士 破坏者」（Breaker the Magical Warrior）").
    if len({c["id"] for c in u.cards}) != 1 or len(fields) != 1 or not _plain(u):
        return None
    rows = run(conn, "card_facts", id=u.cards[0]["id"])
    found = [{**r, "id": f"{r['rule']}#{r['field']}", "quote": f"{r['field']}: {r['value']}"}
             for r in rows if r["field"] == fields[0]]  # fmt: skip
    values = {f["value"] for f in found}
    if len(values) != 1 or not re.fullmatch(r"\d+", next(iter(values))):
        return None
    said = values.pop()
    text = narrate("card_value", value=said, card=u.cards[0]["name"], field=fields[0].upper())
    cited = [because(conn, f) for f in found]
    return Verdict(said, text, cited, kind="card", cards=[u.cards[0]["id"]])
