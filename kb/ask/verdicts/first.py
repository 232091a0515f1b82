"""Which comes first, read from the best passages: what a clause stating the question puts
first ("the turn player has priority", "the player who chose to play first chooses ..., then
the other player does the same"), by the patterns of kb/data/query.toml [first]. The clause
is read in English where its rule has an English gloss. Of a question naming its
alternatives ("the turn player or the opponent?") the answer must be one of them; the first
two answers must agree."""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.text import fold

from ...lexicon.words import has_cue, query_data, stopwords
from ..question import Understood
from . import passages, words
from .common import Asked, Fact, Verdict, because
from .happens import in_english


@cache
def _patterns() -> list[re.Pattern[str]]:
    """The clause patterns whose group ``first`` is what comes first; ``{np}`` in a pattern is
    a phrase opening the sentence, or following a comma or "then"."""
    data = query_data()["first"]
    return [re.compile(p.replace("{np}", data["np"]), re.IGNORECASE) for p in data["patterns"]]


def _first_in(clause: str) -> str:
    """What the clause puts first, or "": a phrase naming something (opening the sentence,
    or with its article or quoted within it: not "..., determine who starts first"), not
    pointing back to it ("it", "this") nor saying every one ("each player"). A clause
    putting two things first ("resolve the last card ..., then the turn player gains
    priority") says no one thing."""
    data = query_data()["first"]
    found = set()
    for pattern in _patterns():
        for m in pattern.finditer(clause):
            phrase = m.group("first").strip()
            opening = fold(phrase).split()[0] if phrase else ""
            named = not m.start("first") or opening in data["articles"] or phrase[0] in '"“'
            if named and opening not in data["not_a_party"]:
                found.add(phrase.strip('"“” '))
    return found.pop() if len(found) == 1 else ""


def _offered(text: str) -> set[str]:
    """The content words of the part of the question offering its alternatives ("the turn
    player or the opponent"); none when it offers none."""
    alternatives = query_data()["first"]["alternatives"]
    offering = [p for p in re.split(r"[,;:?!，；：？！。]", fold(text)) if has_cue(p, alternatives)]
    return words.content(offering[-1], set(stopwords())) if offering else set()


def _answer(asked: Asked, p: dict[str, Any]) -> tuple[str, Fact] | None:
    """(what comes first, the deciding fact) from one passage, or None."""
    for fact in passages.stating(asked.conn, p, asked.required)[1]:
        read = in_english(asked.conn, fact)
        if first := _first_in(read["quote"]):
            return first, fact
    return None


def in_passages(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """What comes first, by the first best passages that say it, when the first two agree."""
    answers = [a for p in passages.best(asked) if (a := _answer(asked, p))]
    if not answers or len({fold(a) for a, _ in answers[:2]}) != 1:
        return None
    first, fact = answers[0]
    offered = _offered(u.text)
    if offered and not offered & words.content(first, set(stopwords())):
        return None  # not one of the alternatives the question offers
    text = f"{first[:1].upper()}{first[1:]}: {in_english(conn, fact)['quote']}"
    cited = [because(conn, f) for _, f in answers[:2]]
    return Verdict(first.lower(), text, cited, kind="first", moment=fact["moment"])
