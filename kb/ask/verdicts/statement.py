"""Yes or no from one sentence of the best passage: "can a rested resonator block" is answered
by the sentence "A rested J/resonator cannot block" when the passage kb ask ranks first holds
it.

A sentence answers when it holds every content word the question holds (by stem; a glossary
term the question names may be held by its English name), states a modality (can, cannot,
must) and nothing that limits it (a condition, an exception, an "only"). The question's own
modality decides how the sentence's reads: "can X" is yes for "X can", no for "X cannot";
"must X" is yes for "X must". Sentences of the top passages that disagree give no verdict.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.sentences import split_sentences
from ingest.text import fold, stem, words

from ... import datafiles
from ...db import run
from ...vocabulary import load_vocabulary
from ..question import Understood, stopwords
from .asked import Asked, cue_words, lexicon
from .common import Verdict, because

# The passages a sentence may come from: the first ones kb ask ranks, covering this share of
# the question at least (kb ask's coverage feature).
PASSAGES = 3
MIN_COVERAGE = 0.7

# (question modality, sentence modality) -> verdict; pairs not listed give none ("must X?"
# is not answered by "X can").
READINGS = {
    ("can", "can"): "yes",
    ("can", "cannot"): "no",
    ("", "can"): "yes",
    ("", "cannot"): "no",
    ("must", "must"): "yes",
    ("", "must"): "yes",
}


@cache
def _limiting_words() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Words that limit what a sentence allows (conditions, exceptions) and words that negate
    a question: both from kb/data/statements.toml."""
    data = datafiles.load("statements")
    conditions = [w for lang in ("en", "vi", "zh") for w in data["conditions"][lang]]
    limits = [w for entry in data["limits"].values() for w in entry] + conditions
    negations = [w for entry in data["negations"].values() for w in entry]

    def alternation(ws: list[str]) -> re.Pattern[str]:
        body = "|".join(re.escape(fold(w)) for w in sorted(ws, key=len, reverse=True))
        return re.compile(rf"(?<!\w)(?:{body})(?!\w)")

    return alternation(limits), alternation(negations)


def _stems(text: str) -> set[str]:
    return {stem(w) for w in words(fold(text))}


def _skipped(conn: sqlite3.Connection) -> set[str]:
    """Words a question holds that say nothing of its subject: function and cue words, the
    names of the games."""
    skip = set(stopwords()) | cue_words()
    return skip | {fold(a) for aliases in load_vocabulary(conn).games.values() for a in aliases}


def _required(conn: sqlite3.Connection, u: Understood) -> list[set[str]]:
    """The question's content words a sentence must hold, each as the stems that may stand
    for it: its own, or the English name of the glossary term it is part of."""
    folded = fold(u.text)
    skip = _skipped(conn)
    terms = [t for t in u.terms if "start" in t]
    out = []
    for m in re.finditer(r"\w+", folded):
        word = u.corrections.get(m.group(), m.group())
        if word in skip or re.fullmatch(r"[\d.,]+", word) or lexicon().modality(word):
            continue  # the question's modality is read on its own
        alternatives = {stem(word)}
        for t in terms:
            if t["start"] <= m.start() < t["end"]:
                alternatives |= {"|".join(sorted(_stems(t["term"].replace("-", " "))))}
        out.append(alternatives)
    return out


def _holds(sentence_stems: set[str], required: list[set[str]]) -> bool:
    for alternatives in required:
        if not any(set(a.split("|")) <= sentence_stems for a in alternatives):
            return False
    return True


def _reading(sentence: str, asked_stems: set[str], skip: set[str], modality: str) -> str:
    """The verdict a sentence holding the question's words gives, or "": one modality, said
    of a subject the question names in full (not "A J/resonator with [Swiftness]" for "a
    resonator"), with nothing limiting it and no number bounding it ("up to four")."""
    limits, _ = _limiting_words()
    folded = fold(sentence)
    marks = lexicon().modal_marks(sentence)
    if len({k for _, _, k in marks}) != 1 or limits.search(folded):
        return ""
    if any(bound for bound, _, _ in lexicon().quantities(sentence)):
        return ""
    subject = [w for w in words(folded[: marks[0][0]]) if w not in skip and len(w) > 1]
    if not {stem(w) for w in subject} <= asked_stems:
        return ""
    return READINGS.get((modality, marks[0][2]), "")


def _sentences(conn: sqlite3.Connection, passage: dict[str, Any]) -> list[str]:
    """The passage's sentences, and those of its curated English gloss (a rule of the
    Vietnamese article is read in the English a judge is shown beside it)."""
    glosses = [g["text"] for g in run(conn, "rule_glosses", id=passage["id"])]
    return [s for text in (passage["text"], *glosses) for s in split_sentences(text)]


def modal_sentence(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Yes or no, read from the sentence of the best passages that states the question."""
    _, negations = _limiting_words()
    if asked.unknown or asked.unresolved or negations.search(fold(u.text)):
        return None
    required = _required(conn, u)
    if len(required) < 2:
        return None  # too little said to find the sentence that says it
    asked_stems = {a for alternatives in required for a in alternatives for a in a.split("|")}
    skip = _skipped(conn)
    top = [p for p in asked.passages[:PASSAGES] if p["features"]["coverage"] >= MIN_COVERAGE]
    readings = [
        (p, verdict, sentence)
        for p in top
        for sentence in _sentences(conn, p)
        if _holds(_stems(sentence), required)
        and (verdict := _reading(sentence, asked_stems, skip, asked.modality))
    ]
    if not readings or len({v for _, v, _ in readings}) != 1:
        return None
    _, verdict, sentence = readings[0]
    cited = [
        because(conn, {"id": f"{p['id']}#sentence", "rule": p["id"], "quote": s})
        for p, _, s in readings
    ]
    opening = {"yes": "Yes", "no": "No"}[verdict]
    return Verdict(verdict, f"{opening}: {sentence}", cited, kind="statement")


__all__ = ["modal_sentence"]
