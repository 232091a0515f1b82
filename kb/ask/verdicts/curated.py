"""The curated words verdicts are read with (ingest/data/statements.toml, kb/data/query.toml),
folded and compiled once per process: one place reads the data files for every module."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ingest.text import fold, stem, words

from ...lexicon.words import query_data, stopwords
from ...store import datafiles
from ..passes_asks import cue_words


def _alternation(phrases: list[str]) -> str:
    """Folded phrases as a regular expression's alternatives, the longest first."""
    return "|".join(re.escape(fold(w)) for w in sorted(phrases, key=len, reverse=True))


def _phrase_words(by_lang: dict[str, list[str]]) -> frozenset[str]:
    return frozenset(w for phrases in by_lang.values() for p in phrases for w in fold(p).split())


@cache
def curated() -> dict[str, Any]:
    """The word sets and patterns, by name (each commented with what it reads)."""
    data, query = datafiles.load("statements"), query_data()
    clauses = [w for lang in ("en", "vi", "zh") for w in data["clauses"].get(lang, [])]
    clitics = query["clitics"]
    not_after = "".join(f"(?<!{re.escape(w)})" for w in clitics["negation_not_after"])
    negation = re.escape(clitics["negation"])
    endings = "|".join(re.escape(e) for e in clitics["after_apostrophe"])
    synonyms: dict[str, frozenset[str]] = {}
    for group in query["synonyms"]["groups"]:
        group_stems = frozenset(stem(fold(w)) for w in group)
        synonyms |= dict.fromkeys(group_stems, group_stems)
    pronouns = _alternation([w for ws in data["pronouns"].values() for w in ws])
    openers = "|".join(re.escape(fold(w)) for w in query["pronoun_openers"]["words"])
    referring = "|".join(re.escape(w) for ws in data["referring"].values() for w in ws)
    passive = "|".join(re.escape(w) for w in data["voice"]["passive_before"])
    implied = query["conditions"]["implied"]
    qualifiers = {fold(c) for cues in query["qualifiers"].values() for c in cues}
    times = [w for ws in data["times"].values() for w in ws]
    counting = query["quantity"]
    prefixes = "|".join(re.escape(p) for p in counting["negating_prefixes"])
    return {
        # One-word connectives opening a clause ("but", "nhưng"), the words of a number's
        # bounds ("exactly", "at least"), those making a clause negative ("doesn't", "không").
        "connectives": frozenset(fold(w) for w in clauses if " " not in w),
        "bounds": _phrase_words(data["bounds"]),
        "polar": _phrase_words(data["polarity"]),
        # The clitics: "don't" is "do" and "n't".
        "clitic": re.compile(rf"{not_after}{negation}\b|'(?:{endings})\b"),
        # Each stem of an everyday word to the stems of its group of synonyms.
        "synonyms": synonyms,
        # The words negating a question, by language; a pronoun standing for the rule's topic
        # opening a clause (after "and", "also"...); words tying an outcome to the sentence
        # before ("You also win").
        "negations": {
            lang: re.compile(rf"(?<!\w)(?:{_alternation(ws)})(?!\w)")
            for lang, ws in data["negations"].items()
            if ws
        },
        "pronoun": re.compile(rf"^\W*(?:(?:{openers})\s+)*(?:{pronouns})(?!\w)"),
        "referring": re.compile(rf"\s*(?<!\w)(?:{referring})(?!\w)", re.IGNORECASE),
        # The stems of words any question supposes ("player").
        "implied": frozenset(stem(w) for phrase in implied for w in words(fold(phrase))),
        # A verb done to its subject ("being challenged"), and done by it ("challenging").
        "passive": re.compile(rf"(?<!\w)(?:{passive})\s+(\w+ed)(?!\w)"),
        "active": re.compile(r"(?<!\w)(\w+ing)(?!\w)"),
        # Qualifiers of moments ("at the start of"), and the words placing something at one
        # ("during the", "vào lúc").
        "qualifiers": tuple(qualifiers),
        "placing": tuple({fold(w) for w in times if isinstance(w, str)} | qualifiers),
        # Counting: concepts too general to tell two counts apart, prefixes negating a
        # qualifier ("non-basic").
        "generic": frozenset(f"term:{t}" for t in counting["generic"]),
        "negated": re.compile(rf"\b(?:{prefixes})(\w+)"),
        "count_skip": frozenset(stopwords()) | cue_words(),
    }
