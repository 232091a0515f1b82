"""When, read from the best passages: the phrase saying when of the clause that states what the
question asks, or its passage's moment. The clause must say the thing happens; a question
about a card is answered only by a passage naming it; the first two answers must agree."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import fold

from ...lexicon.words import query_data, stopwords
from ...lookups.labels import narrate
from ...store.db import first, run
from ..passes_asks import lexicon
from ..question import Understood
from . import passages, words
from .common import Asked, Fact, Verdict, because, moment_name, threshold
from .words import stems

# The modalities of a clause telling when a thing happens; when it may be done, when allowed.
_HAPPENS = ("can", "must", "does", "only")
_ALLOWS = ("can", "only")
# A phrase saying when is at most this many words.
_TIME_WORDS = 12
# A situation set out before the sentence that asks has at least this many words.
_SITUATION_WORDS = 3


def _time_of(clause: str) -> str:
    """The phrase of a clause saying when, cut before any verb of the clause but its own
    ("after battle damage is inflicted")."""
    every = lexicon().time_phrase(clause).split()
    if len(every) > _TIME_WORDS:
        return ""
    data = query_data()["time_phrase"]
    verbs, auxiliaries = set(data["verbs"]), set(data["auxiliaries"])
    for i, word in enumerate(every[1:], start=1):
        if lexicon().modality(word) or lexicon().actions(word) or word.lower() in verbs:
            if word.lower() in auxiliaries or every[i - 1].lower() in auxiliaries:
                break  # a verb of the phrase itself: "after battle damage is inflicted"
            return " ".join(every[:i]).rstrip(" ,.")
    return " ".join(every).rstrip(" ,.")


def _answer(asked: Asked, p: dict[str, Any], asking: list[set[str]]) -> tuple[str, Fact] | None:
    """(when, the deciding fact) from one passage, or None. The clause must say the action
    asked is done and hold the ``asking`` sentence's words."""
    conn, u = asked.conn, asked.u
    cards = {c["id"] for c in u.cards}
    if cards and not cards <= set((p.get("card_ids") or "").split()):
        return None
    # A passage naming the card asked about may state it in other words.
    for fact in passages.stating(conn, p, [] if cards else asked.required)[1]:
        clause = f"{fact['condition']} {fact['outcome']}"
        if (
            fact["modality"] not in (_ALLOWS if u.modality == "can" else _HAPPENS)
            # "it is flipped face-up at this time" does not say its Flip Effect activates
            or (u.action and u.action not in fact["action"].split())
            # "triggers at the start of the Unfurl step" says not when it is put on ...
            or not words.holds_all(stems(clause), asking)
        ):
            continue
        # What the rule says happens says when; else its condition does.
        time = _time_of(fact["outcome"] if lexicon().time_phrase(fact["outcome"]) else clause)
        if _points_back(time):
            continue  # "during this time": the time is named before
        if time and _question_share(time, u.text) < 1:  # the question's own "until end of turn"
            return time, fact
        if (
            fact["condition"]
            and not cards
            and _names_a_time(fact["condition"])
            # the question's own condition ("when does 'at the beginning of battle phase'
            # happen": not "when an effect triggers 'at the beginning of battle phase'")
            and _question_share(fact["condition"], u.text) < threshold("min_condition_share")
        ):
            # "may initiate battle if it is main timing"
            return narrate("when_condition", condition=fact["condition"]), fact
        # A moment the question names already ("when in the Damage Step"): no answer.
        named = {t["node"] for t in u.timing}
        if nodes := [n for n in (p.get("nodes") or "").split() if n not in named]:
            return "; ".join(dict.fromkeys(_where(conn, n) for n in nodes)), fact
    return None


def _points_back(time: str) -> bool:
    """The phrase points back to a time it does not name ("during this time", "then"): a
    pointing word opens it or follows its preposition ("that player" is no time)."""
    said, pointing = time.lower().split()[:2], query_data()["time_phrase"]["pointing"]
    return bool(said) and (said[0] in pointing or said[-1] in pointing)


def _question_share(phrase: str, question: str) -> float:
    """How much of the phrase's content is the question's own words."""
    said = words.content(phrase, set(stopwords()))
    return len(said & stems(question)) / len(said) if said else 0.0


def _names_a_time(condition: str) -> bool:
    """The condition says when ("it is main timing", "at the end of turn"), not a state."""
    moments = lexicon().data["times"]["moment_words"]
    return bool(lexicon().times.finditer(condition)) or any(
        re.search(rf"(?<!\w){re.escape(w)}(?!\w)", condition.lower()) for w in moments
    )


def _where(conn: sqlite3.Connection, node: str) -> str:
    """A moment's name, and for a numbered sub-step its number and the step before it."""
    name = moment_name(conn, node)
    row = first(conn, "timing_node", id=node)
    if not row or not row["label"] or not row["parent"]:
        return name
    siblings = run(conn, "timing_siblings", parent=row["parent"], tree=row["tree"])
    ids = [s["id"] for s in siblings]
    at = ids.index(node) if node in ids else 0
    following = narrate("following", step=siblings[at - 1]["en"]) if at > 0 else ""
    return narrate("sub_step", moment=name, label=row["label"], following=following)


def _base(when: str) -> str:
    """A moment's name before any ruleset or detail: "After damage calculation"."""
    return re.split(r" \(|: |; |, sub-step", when)[0].strip().lower()


def _asking_words(asked: Asked) -> list[set[str]]:
    """The required words of the asking sentence after a situation ("... When does it get put
    on the Updraft?"), but the moments and terms it names; none for a question of one sentence."""
    conn, u = asked.conn, asked.u
    folded = fold(u.text)
    at = folded.rfind(fold(passages.asking_sentence(u.text)))
    if at <= 0 or len(folded[:at].split()) < _SITUATION_WORDS:
        return []
    # Not the moments and terms it names: the passages were found by them
    named = [(t["start"], t["end"]) for t in [*u.timing, *u.terms] if "start" in t]
    return words.required_words(conn, u, apart=[(0, at), *named])


def in_passages(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """When the thing asked happens, by the first passages that state it."""
    asking = _asking_words(asked)
    answers = [a for p in passages.best(asked) if (a := _answer(asked, p, asking))]
    if not answers:
        return None
    (when, fact), cited = answers[0], [because(conn, f) for _, f in answers[:2]]
    if len({_base(w) for w, _ in answers[:2]}) != 1:
        # One statement standing at two moments happens at both; else they disagree.
        (other, second) = answers[1]
        if fold(second["outcome"]) != fold(fact["outcome"]):
            return None
        when = narrate("two_moments", first=when, second=other)
    text = f"{when[:1].upper()}{when[1:]}: {fact['quote']}"
    return Verdict(when.split("; ")[0].lower(), text, cited, kind="when", moment=fact["moment"])
