"""The passages a verdict may be read from: the first kb ask ranks for the question, of its
game (and of the year or version it names), machine translations read in their source, and
saying every content word of the question but perhaps one of a long question, a game's
official rules before any other text of it (a community summary, an unaligned machine
translation); and the one reader of their clauses: which state the question, and how much of a
clause's condition the question states."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Set as AbstractSet
from typing import Any

from ingest.sentences import split_sentences
from ingest.text import stem

from ...lexicon.words import stopwords
from ...retrieve.features import named_versions as versions_in
from ...store.db import column, first, run
from ..answers.common import quote_gloss
from ..passes_asks import lexicon
from ..question import Understood
from . import words
from .common import Asked, Fact, threshold
from .curated import curated
from .words import stems


def original(conn: sqlite3.Connection, passage: dict[str, Any]) -> dict[str, Any]:
    """The rule a machine-translated passage translates, when the alignments know it: a
    verdict cites the source, not its machine translation."""
    if passage["provenance"] != "machine" or not passage["translation_of"]:
        return passage
    ids = [
        t["id"]
        for t in run(conn, "rule_translations", id=passage["id"])
        if t["id"].startswith(f"{passage['translation_of']}:")
    ]
    rows = run(conn, "passages", ids=ids[:1]) if ids else []
    return {**rows[0], "features": passage["features"]} if rows else passage


def top(asked: Asked) -> list[dict[str, Any]]:
    """The first ranked passages covering enough of the question (tuned thresholds), each once."""
    found = [
        original(asked.conn, p)
        for p in asked.passages[: int(threshold("passages"))]
        if p["features"]["coverage"] >= threshold("min_coverage")
    ]
    return list({p["id"]: p for p in found}.values())


def heading(passage: dict[str, Any]) -> str:
    """The passage's title and section path."""
    return f"{passage.get('title') or ''} {passage.get('section_path') or ''}"


def context(conn: sqlite3.Connection, passage: dict[str, Any]) -> list[str]:
    """What a passage is said under: its title, section path, document title and the English
    names of its moments (a Vietnamese heading "Bước Chiến đấu" is the Battle Step)."""
    nodes = (passage.get("nodes") or "").split()
    names = [row["en"] for n in nodes if (row := first(conn, "timing_node", id=n))]
    title = passage.get("document_title") or ""
    return [passage.get("title") or "", passage.get("section_path") or "", title, *names]


def sentences(conn: sqlite3.Connection, passage: dict[str, Any]) -> list[str]:
    """The sentences of the passage, of its reading in official terms and of its English gloss."""
    glosses = [g["text"] for g in run(conn, "rule_glosses", id=passage["id"])]
    texts = [passage["text"], passage.get("reading") or "", *glosses]
    return [s for text in dict.fromkeys(t for t in texts if t) for s in split_sentences(text)]


def stating(
    conn: sqlite3.Connection, passage: dict[str, Any], required: list[set[str]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The passage's statement facts in the rule's order, and those stating the question
    (``answering``), English first: a verdict is read in English. No ``required`` words: every
    fact states it."""
    facts = run(conn, "verdict_rule_statements", ids=[passage["id"]])
    said = " ".join(dict.fromkeys(f["quote"] for f in facts))
    around = stems(" ".join([*context(conn, passage), said]))  # where missing words may be said
    english_first = sorted(facts, key=lambda f: f["lang"] != "en")
    clause = "{condition} {outcome}".format_map
    return facts, [f for f in english_first if answering(clause(f), around, required)]


def answering(clause: str, around: set[str], required: list[set[str]]) -> bool:
    """The clause holds most of the question's words, the rest said around it."""
    own = words.stems(clause)
    held = sum(1 for alternatives in required if words.holds(own, alternatives))
    missing = [options for options in required if not words.holds(own | around, options)]
    slack_from = threshold("slack_from")
    return 2 * held >= len(required) and words.all_but_one(missing, required, slack_from)


def in_english(conn: sqlite3.Connection, fact: Fact) -> Fact:
    """The deciding clause read in its rule's English gloss, when it has one (the fact cited
    stays the rule's own)."""
    gloss = quote_gloss(conn, fact["rule"], fact["quote"], fact["lang"])
    parts = lexicon().split_condition(gloss["text"]) if gloss else None
    if not parts or gloss is None:
        return fact
    english = {**fact, "quote": gloss["text"], "condition": parts[0], "outcome": parts[1]}
    if fact.get("next"):
        following = quote_gloss(conn, fact["rule"], fact["next"], fact["lang"])
        english["next"] = following["text"] if following else ""
    return english


def condition_share(fact: dict[str, Any], asked_stems: AbstractSet[str]) -> float:
    """How much of the fact's condition the question states (1.0 without one)."""
    implied = curated()["implied"]
    condition = words.content(fact["condition"], set(stopwords())) - (implied - asked_stems)
    return len(condition & asked_stems) / len(condition) if condition else 1.0


def voice_reversed(said: str, asked: str) -> bool:
    """The text (folded) says the thing does what the question (folded) says is done to it
    ("while this character is challenging" of "when my character is being challenged")."""
    doing = {stem(m.group(1)) for m in curated()["active"].finditer(said)}
    done = {stem(m.group(1)) for m in curated()["passive"].finditer(asked)}
    return bool(doing & done - {stem(m.group(1)) for m in curated()["active"].finditer(asked)})


def asking_sentence(text: str) -> str:
    """The sentence that asks (of "My ruler doesn't have [Grimoire]. Can I still bring an extra
    deck?", the second)."""
    sentences = [s for s in re.split(r"(?<=[.?!。？！])\s+", text.strip()) if s.strip()]
    asking = [s for s in sentences if s.rstrip().endswith(("?", "？"))]
    return (asking or sentences or [text])[-1]


def says_all(conn: sqlite3.Connection, passage: dict[str, Any], required: list[set[str]]) -> bool:
    """The passage holds every content word of the question; of a long question, one may be
    missing, but not one narrowing what it names ("master rune cards")."""
    said = stems(" ".join([*context(conn, passage), *sentences(conn, passage)]))
    missing = [r for r in required if not words.holds_all(said, [r])]
    return words.all_but_one(missing, required, threshold("slack_passage_from"))


def best(asked: Asked) -> list[dict[str, Any]]:
    """The passages a verdict may be read from (see the module docstring); none for a question
    of no known game."""
    u = asked.u
    game = u.game or u.game_hint or ""
    versions = named_versions(asked.conn, u.text)
    found = [_in_edition(asked.conn, p, u, versions) for p in top(asked) if p["game"] == game]
    saying = [p for p in found if p and says_all(asked.conn, p, asked.required)]
    # Official rules before a community summary or a machine translation (stable otherwise).
    return sorted(saying, key=lambda p: p["provenance"] != "official")


def _in_edition(
    conn: sqlite3.Connection, p: dict[str, Any], u: Understood, versions: set[str]
) -> dict | None:
    """The passage, or the same text in the version the question names ("CR 7.0"), or None."""
    if _of_edition(p, u, versions):
        return p
    for other in run(conn, "passages", ids=p.get("also", [])):
        if _of_edition(other, u, versions):
            return {**other, "features": p["features"], "score": p["score"]}
    return None


def _of_edition(passage: dict[str, Any], u: Understood, versions: set[str]) -> bool:
    """The passage's document is of the year and the version the question names, if any (a
    document of no version is of none)."""
    named = f"{passage.get('era') or ''} {passage.get('document_title') or ''}"
    said = set(re.findall(r"\d{4}", named))
    if u.years and not said & {str(y) for y in u.years}:
        return False
    return not (versions and passage.get("version") not in versions)


def named_versions(conn: sqlite3.Connection, text: str) -> set[str]:
    """The versions of a rulebook a question names ("CR 8.01", "2.2.0") that a document has: a
    rule's number ("CR 10.2.4") names none."""
    named = versions_in(text)
    return named & set(column(conn, "document_versions")) if named else set()
