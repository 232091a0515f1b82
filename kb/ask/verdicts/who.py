"""Who first, from the clause of the best passages that states what the question asks: the
party it opens with ("FoW: who chooses the cards to change first": "The first player must
choose which cards to change first"). A party is a short phrase ending with a word of
kb/data/query.toml [who] parties ("the turn player"); one followed by "who", "that" or "of"
("the player who chose to play first", "the controller of the effect ...") is not delimited
and answers nothing; nor does a clause under a condition (a case, not the rule). The clauses
of the first passage with one must all name the same party.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import fold, stem
from ingest.text import words as text_words

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...store.db import run
from ..question import Understood
from . import passages, statement, words
from .asked import Asked, lexicon
from .common import Verdict, because
from .named import stems


def _party(clause: str) -> str:
    """The party a clause opens with ("the turn player"), or "" (also for one that runs on
    into a relative clause or a complement: "the player who chose ...")."""
    data = query_data()["who"]
    ws = clause.split()
    if not ws or fold(ws[0]) not in data["determiners"]:
        return ""
    for i, w in enumerate(ws[1 : data["words"] + 2], start=1):
        if re.sub(r"\W+$", "", fold(w)).removesuffix("s") in data["parties"]:
            after = fold(ws[i + 1]) if i + 1 < len(ws) else ""
            return "" if after in data["runs_on"] else " ".join(ws[: i + 1]).rstrip(",.;")
    return ""


def _asked(text: str) -> tuple[set[str], set[str]]:
    """The stems that may stand for the verb right after the cue ("who has to choose first":
    choose, pick, select), and the words of "first" a clause must say when the question
    asks who is first (none when it does not)."""
    folded = fold(text)
    m = cue_pattern(tuple(query_data()["who"]["cues"])).search(folded)
    after = text_words(folded[m.end() :]) if m else []
    verb = next((w for w in after if w not in stopwords() and not lexicon().modality(w)), "")
    firsts = {fold(w) for w in query_data()["kinds"]["steps"]["first"]}
    verbs = set(words.synonyms().get(stem(verb), {stem(verb)})) if verb else set()
    return verbs, firsts if firsts & set(after) else set()


def _parties(
    conn: sqlite3.Connection,
    p: dict[str, Any],
    required: list[set[str]],
    asked: tuple[set[str], set[str]],
) -> list[tuple[str, dict[str, Any]]]:
    """The parties of the passage's clauses that state it; ``asked``: ``_asked``."""
    facts = [f for f in run(conn, "verdict_rule_statements", ids=[p["id"]]) if f["lang"] == "en"]
    verbs, firsts = asked
    quotes = " ".join(dict.fromkeys(f["quote"] for f in facts))
    around = stems(" ".join([*statement.context(conn, p), quotes]))
    found = []
    for f in facts:
        if f["limits"] or f["condition"]:
            continue  # "If the turn player doesn't play any ..., the non-turn player ...": a case
        party = _party(f["outcome"])
        if not party or not statement.answering(f["outcome"], around, required):
            continue
        # The clause says the question's verb, and that the party is first when asked so
        # ("each player moves the top five cards ..." says nothing of who chooses first).
        said = set(text_words(fold(f["outcome"])))
        if verbs & stems(f["outcome"]) and (not firsts or firsts & said):
            found.append((party, f))
    return found


def first_party(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Who does it first: the party of the clause that states it (see the module docstring)."""
    if not cue_pattern(tuple(query_data()["who"]["cues"])).search(fold(u.text)):
        return None
    required = words.required_words(conn, u)
    if len(required) < 2:
        return None
    verb = _asked(u.text)
    for p in passages.best(u, asked):
        found = _parties(conn, p, required, verb)
        if not found:
            continue
        if len({fold(party) for party, _ in found}) != 1:
            return None
        party, fact = found[0]
        return Verdict(party.lower(), f"{party[:1].upper()}{party[1:]}: {fact['quote']}",
                       [because(conn, f) for _, f in found], kind="statement")  # fmt: skip
    return None


__all__ = ["first_party"]
