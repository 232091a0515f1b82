"""What happens, read from the best passages: the outcome of the clause whose condition is the
situation asked about ("If there are no cards in your deck, you lose immediately"), or of the
clause stating what a "what happens to X" question asks. The first passage answering decides;
a second answering differently takes the verdict away."""

from __future__ import annotations

import sqlite3
from typing import Any

from ingest.text import fold, stem
from ingest.text import words as text_words

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...lookups.labels import narrate
from ..passes_asks import lexicon
from ..question import Understood
from . import passages, words
from .common import Asked, Fact, Verdict, because, threshold
from .curated import curated

_STATES = ("does", "does-not", "must", "cannot")


def _answer(asked: Asked, p: dict[str, Any], about_thing: set[str]) -> Fact | None:
    """The clause of the passage saying what happens, and the rule's next sentence, which goes
    on telling it; or None."""
    facts, stating = passages.stating(asked.conn, p, asked.required)
    fitting = [
        f
        for f in stating
        if f["modality"] in _STATES
        and f["outcome"].strip()
        and passages.condition_share(f, asked.stems) >= threshold("min_condition_share")
    ]
    # A clause under the condition the question describes says what happens then; else, of
    # "what happens to unused will", the plain statement naming the thing.
    conditioned = [f for f in fitting if f["condition"]] or [
        f for f in fitting if about_thing and about_thing <= words.stems(f["outcome"])
    ]
    if not conditioned:
        return None
    quotes = list(dict.fromkeys(f["quote"] for f in facts))
    at = quotes.index(conditioned[0]["quote"])
    return {**conditioned[0], "next": quotes[at + 1] if at + 1 < len(quotes) else ""}


def _outcome(fact: Fact) -> str:
    """What follows the condition, to the end of its sentence, without the words tying it to
    the sentence before ("You also win")."""
    parts = lexicon().split_condition(fact["quote"])
    outcome = parts[1] if parts else fact["outcome"]
    return (curated()["referring"].sub("", outcome).strip() or outcome).rstrip(" .")


def _lead(fact: Fact) -> str:
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
    thing: list[str] = []
    for w in text_words(folded[m.end() :]) if m else []:
        if w in stopwords() and thing:
            break
        if w not in stopwords():
            thing.append(w)
    return {stem(w) for w in thing}


def in_passages(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """What happens, by the first best passages that say it, when the first two agree."""
    about_thing = _thing_asked(u.text)
    found = [f for p in passages.best(asked) if (f := _answer(asked, p, about_thing))]
    if not found or len({fold(_outcome(f)) for f in found[:2]}) != 1:
        return None
    fact = passages.in_english(conn, found[0])
    outcome = _outcome(fact)
    if fact["next"]:
        outcome = f"{outcome}; {fact['next'][:1].lower()}{fact['next'][1:].rstrip(' .')}"
    cited, text = [because(conn, f) for f in found[:2]], f"{_lead(fact)}{outcome}."
    return Verdict(outcome, text, cited, kind="outcome", moment=fact["moment"])
