"""Yes or no from one clause of the best passages ("can a rested resonator block": "A rested
J/resonator cannot block").

Every clause of every rule is a statement fact (ingest/extract/clauses.py): a modality (can,
cannot, must, needn't, only; does / does-not), a condition, exception words. A clause answers
when it holds most of the question's words and the rest are said around it, the question
states its condition, it holds no exception and it is said of what the question names; the
question's modality decides how it reads (``reading``). Clauses that disagree give no verdict."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ingest.text import fold, stem
from ingest.text import words as text_words

from ...lexicon.words import query_data
from ...lookups.labels import narrate
from ...store.vocabulary import load_vocabulary
from ..passes_asks import lexicon, stated_numbers
from ..question import Understood
from . import passages, words
from .common import Asked, Verdict, because, threshold
from .curated import curated


def reading(asked: str, said: str) -> str:
    """The verdict a clause of modality ``said`` gives a question of modality ``asked``, or ""
    (kb/data/query.toml [readings])."""
    return query_data()["readings"].get(asked, {}).get(said, "")


def _ids(concepts: str) -> set[str]:
    """Concept ids without their kind: a class and a term of one name are one thing."""
    return {c.partition(":")[2] for c in concepts.split() if not c.startswith("timing:")}


def _reading(fact: dict[str, Any], asked: Asked, topic: set[str]) -> str:
    """The verdict a statement fact gives the question, or "". ``topic``: the concepts the rule
    opens with ("it")."""
    u, said, asked_stems, skip = asked.u, fact["modality"], asked.said, asked.skip
    share = passages.condition_share(fact, asked_stems)
    if fact["limits"] or share < threshold("min_condition_share"):
        return ""
    ids = [*(t["term"] for t in u.terms), *(c["id"] for c in u.cards)]
    ids += [c["class"] for c in u.classes]
    if topic and not topic & set(ids) and curated()["pronoun"].search(fold(fact["outcome"])):
        return ""  # "It can also be activated ..." said of a Field Spell is not of a trap
    if passages.voice_reversed(fold(f"{fact['condition']} {fact['outcome']}"), fold(u.text)):
        return ""  # "while this character is challenging" is not of its being challenged
    clause = words.stems(f"{fact['condition']} {fact['outcome']}")
    if not words.holds_all(clause, words.plain(asked.required)):  # the question's own words
        return ""  # "players may concede" does not say whether an effect can force it
    action = u.action
    if said in ("does", "does-not") and action and action not in fact["action"].split():
        return ""  # "does the starting player draw" is not "... skips his first Draw Phase"
    if said in ("does", "does-not"):
        # What the clause says is done is what is asked ("skip the recovery phase" does not
        # answer "do I get a recovery phase").
        named = asked.forms.stems(fact["concepts"].split())
        own = words.content(fact["outcome"], skip | curated()["polar"]) - named
        if len(own - asked_stems) > threshold("clause_extra_words"):
            return ""
    else:
        # What the modality is said of: the words before it in its part of the clause.
        before = fact["subject"].rpartition(",")[2]
        subject = [
            w
            for w in text_words(before)
            if w not in skip and len(w) > 1 and not lexicon().negated_subjects.search(w)
        ]
        if not {stem(w) for w in subject} <= asked_stems:
            return ""
    if any(bound for bound, _, _ in lexicon().quantities(fact["outcome"])):
        return ""  # a number bounds it ("up to four"): how many, not whether
    return reading(u.modality, said)


def _asked_negation(text: str, lang: str) -> bool:
    """The question asks a negated thing ("can't I ..."), not in the condition it supposes."""
    sentence = passages.asking_sentence(text)
    parts = lexicon().split_condition(sentence)
    negations = curated()["negations"].get(lang or "en")
    return bool(negations and negations.search(fold(parts[1] if parts else sentence)))


def _counts(conn: sqlite3.Connection, u: Understood, classes: list[dict[str, Any]]) -> bool:
    """The question states a count: a number not part of a name ("Spell Speed 1", "thiet
    hai"), nor a year, nor an article ("một")."""
    folded = fold(u.text)
    articles = {fold(w) for w in query_data()["quantity"]["articles"]}
    found = [n for n in stated_numbers(u) if folded[max(0, n[2] - 3) : n[2]] not in articles]
    if not found:
        return False
    vocabulary = load_vocabulary(conn)
    keys = [e["key"] for e in (*vocabulary.terms, *vocabulary.timing) if " " in e["key"]]
    for _, _, end in found:
        token = m.group() if (m := re.search(r"\w+$", folded[:end])) else ""
        named = any(c["start"] < end <= c["start"] + len(c["text"]) for c in classes)
        for key in (k for k in keys if token in k.split() and not named):
            at = folded.find(key)
            while at >= 0 and not named:
                named = at <= end - len(token) and end <= at + len(key)
                at = folded.find(key, at + 1)
        if not named:
            return True
    return False


def modal_sentence(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Yes or no, read from the clause of the best passages that states the question."""
    if _asked_negation(u.text, u.lang):
        return None
    if _counts(conn, u, u.classes):
        return None  # "more than once", "2 copies": a count, which no modality weighs
    readings = []
    for p in passages.top(asked):
        mine, stating = passages.stating(conn, p, asked.required)
        topic = next((_ids(f["concepts"]) for f in mine if _ids(f["concepts"])), set())
        for fact in stating:
            verdict = _reading(fact, asked, topic)
            if verdict:
                readings.append((fact, verdict))
    # A clause under a condition the question states is the more specific rule.
    if any(f["condition"] for f, _ in readings):
        readings = [(f, v) for f, v in readings if f["condition"]]
    if not readings or len({v for _, v in readings}) != 1:
        return None
    fact, verdict = readings[0]
    cited = [because(conn, f) for f, _ in readings]
    text = narrate("quoted", opening=narrate(verdict), quote=fact["quote"])
    return Verdict(verdict, text, cited, kind="statement")
