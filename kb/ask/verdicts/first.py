"""Which comes first, read from the best passages: what a clause stating the question puts
first ("the turn player has priority", "the player who chose to play first chooses ..., then
the other player does the same"), by the patterns of kb/data/query.toml [first]. The clause
is read in English where its rule has an English gloss, and under a condition only when the
question states it. Of a question offering its alternatives ("the attacker or the
blocker?") the answer must be one of them; the first two answers, when there are two, must
agree."""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.text import fold

from ...lexicon.words import cue_pattern, query_data, stopwords
from ..question import Understood
from . import passages, words
from .common import Asked, Fact, Verdict, because, lower_first, threshold


@cache
def _patterns() -> list[re.Pattern[str]]:
    """The clause patterns whose group ``first`` is what comes first (``{np}``: a phrase
    opening the quote or following a comma, semicolon or colon)."""
    data = query_data()["first"]
    return [re.compile(p.replace("{np}", data["np"]), re.IGNORECASE) for p in data["patterns"]]


def _named(phrase: str, opening_sentence: bool) -> bool:
    """The phrase names a party: a quoted name, or words opening the sentence or with their
    article, ending on a word of their own ("the player who" names no one), holding no verb
    of a clause ("a player may perform ...") and not pointing back ("it", "this") nor saying
    every one ("each player")."""
    data = query_data()["first"]
    if re.fullmatch(r'["“][^"“”]+["”]', phrase):
        return True
    said = fold(phrase).split()
    return (
        bool(said)
        and (opening_sentence or said[0] in data["articles"])
        and said[0] not in data["not_a_party"]
        and said[-1] not in stopwords()
        and not set(said) & set(data["not_in_a_name"])
    )


def _first_in(clause: str) -> str:
    """What the clause puts first, or "". A clause putting two things first ("resolve the
    last card ..., then the turn player gains priority") says no one thing."""
    found = {
        m.group("first").strip().strip('"“” ')
        for pattern in _patterns()
        for m in pattern.finditer(clause)
        if _named(m.group("first").strip(), not m.start("first"))
    }
    return found.pop() if len(found) == 1 else ""


def _sides(text: str) -> list[set[str]]:
    """The content words of each alternative the question offers ("the turn player or the
    opponent": {turn, player}, {oppon}); none when it offers none."""
    between = cue_pattern(tuple(query_data()["first"]["alternatives"]))
    parts = re.split(r"[,;:.?!，；：？！。—–]|\s-\s", fold(text))
    offering = [p for p in parts if between.search(p)]
    if not offering:
        return []
    cuts = [0, *(x for m in between.finditer(offering[-1]) for x in m.span()), None]
    sides = [offering[-1][a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True)]
    return [words.content(side, set(stopwords())) for side in sides]


def _one_of(first: str, sides: list[set[str]]) -> bool:
    """What comes first is one alternative offered: it holds every word of exactly one."""
    said = words.content(first, set(stopwords()))
    return all(sides) and sum(side <= said for side in sides) == 1


def _answer(asked: Asked, p: dict[str, Any]) -> tuple[str, Fact, str] | None:
    """(what comes first, the deciding fact, its clause in English) from one passage, or
    None: a clause under a condition the question does not state, or not saying a word of the
    question that turns the order around ("both", "neither"), answers nothing."""
    turning = set(query_data()["first"]["turning"])
    asked_words = set(re.findall(r"\w+", fold(asked.u.text)))
    for fact in passages.stating(asked.conn, p, asked.required)[1]:
        if passages.condition_share(fact, asked.stems) < threshold("min_condition_share"):
            continue
        read = passages.in_english(asked.conn, fact)
        quote, condition = (set(re.findall(r"\w+", fold(read[k]))) for k in ("quote", "condition"))
        # Of an English question: "if both have [First Strike]", "if it is not a consecutive
        # pass".
        if asked.u.lang == "en" and turning & (asked_words ^ quote) & (asked_words | condition):
            continue
        if first := _first_in(read["quote"]):
            return first, fact, read["quote"]
    return None


def in_passages(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """What comes first, by the first best passages that say it, when the first two agree."""
    answers = [a for p in passages.best(asked) if (a := _answer(asked, p))]
    if not answers or len({fold(a[0]).removeprefix("the ") for a in answers[:2]}) != 1:
        return None
    first, fact, quote = answers[0]
    sides = _sides(u.text)
    if sides and not _one_of(first, sides):
        return None  # not one of the alternatives the question offers
    text = f"{first[:1].upper()}{first[1:]}: {quote}"
    cited = [because(conn, a[1]) for a in answers[:2]]
    return Verdict(lower_first(first), text, cited, kind="first", moment=fact["moment"])
