"""What happens, read from the best passages: the outcome of the clause whose condition is the
situation asked about ("If there are no cards in your deck, you lose immediately"), or of the
clause stating what a "what happens to X" question asks. The first passage answering decides;
a second answering differently takes the verdict away.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ingest.text import fold, stem
from ingest.text import words as text_words

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...lookups.labels import narrate
from ..passes_asks import lexicon
from ..question import Understood
from . import passages, statement, words
from .common import Asked, Verdict, because, threshold
from .named import stems
from .outcome import in_english, plain

_STATES = ("does", "does-not", "must", "cannot")


def _answer(conn: sqlite3.Connection, p: dict[str, Any], required: list[set[str]],
            asked_stems: set[str], text: str,
            about_thing: set[str]) -> dict[str, Any] | None:  # fmt: skip
    facts, around = passages.clauses(conn, p)
    fitting = []
    # The English (a gloss's, or the rule's own) first: the verdict is read in English.
    for fact in sorted(facts, key=lambda f: f["lang"] != "en"):
        if fact["modality"] not in _STATES or fact["limits"] or not fact["outcome"].strip():
            continue
        clause = f"{fact['condition']} {fact['outcome']}"
        share = statement.condition_share(fact, asked_stems, text)
        if share < threshold("min_condition_share"):
            continue
        if statement.answering(clause, around, required):
            fitting.append((bool(fact["condition"]), fact))
    # A clause under the condition the question describes says what happens then; the rule's
    # next sentence goes on telling it.
    conditioned = [f for has, f in fitting if has]
    if not conditioned and about_thing:
        # "what happens to unused will": the plain statement naming the thing.
        conditioned = [f for has, f in fitting if not has and about_thing <= stems(f["outcome"])]
    if not conditioned:
        return None
    quotes = list(dict.fromkeys(f["quote"] for f in facts))
    at = quotes.index(conditioned[0]["quote"])
    return {**conditioned[0], "next": quotes[at + 1] if at + 1 < len(quotes) else ""}


def _outcome(fact: dict[str, Any]) -> str:
    """What follows the condition, to the end of its sentence."""
    parts = lexicon().split_condition(fact["quote"])
    rest = parts[1] if parts else fact["outcome"]
    return plain(rest).rstrip(" .")


def _lead(fact: dict[str, Any]) -> str:
    """The condition as the rule opens with it, or "If <condition>: "."""
    if not fact["condition"]:
        return ""
    at = fact["quote"].find(fact["condition"])
    opening = fact["quote"][: at + len(fact["condition"])] if at >= 0 else ""
    if at < 0 or len(opening.split()) > len(fact["condition"].split()) + 2:
        return narrate("if_lead", condition=fact["condition"])
    return f"{opening[:1].upper()}{opening[1:]}: "


def _thing_asked(text: str) -> set[str]:
    """The stems of X in "what happens to X" (up to its first stopword); else none."""
    folded = fold(text)
    m = cue_pattern(tuple(query_data()["happens_to"]["cues"])).search(folded)
    if not m:
        return set()
    thing: list[str] = []
    for w in text_words(folded[m.end() :]):
        if w in stopwords():
            if thing:
                break
            continue
        thing.append(w)
    return {stem(w) for w in thing}


def in_passages(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    required = words.required_words(conn, u)
    if len(required) < 2:
        return None
    asked_stems = {a for alternatives in required for a in alternatives for a in a.split("|")}
    about_thing = _thing_asked(u.text)
    found = [
        f
        for p in passages.best(u, asked)
        if (f := _answer(conn, p, required, asked_stems, u.text, about_thing))
    ]
    if not found:
        return None
    outcomes = {fold(_outcome(f)) for f in found[:2]}
    if len(outcomes) != 1:
        return None
    fact = in_english(conn, found[0])
    outcome = _outcome(fact)
    if fact["next"]:
        outcome = f"{outcome}; {fact['next'][:1].lower()}{fact['next'][1:].rstrip(' .')}"
    return Verdict(outcome, f"{_lead(fact)}{outcome}.", [because(conn, f) for f in found[:2]],
                   kind="outcome", moment=fact["moment"])  # fmt: skip
