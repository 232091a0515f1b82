"""What every verdict carries: the verdict, the sentence a judge reads first, the deciding
facts with their rules, and conflicts between facts (shown with both sources); the answer it
is given as, or without one, what is missing."""

from __future__ import annotations

import sqlite3
from functools import cached_property
from typing import Any

from ingest.text import fold

from ...lexicon.words import query_data, stopwords
from ...lookups.labels import narrate
from ...store import datafiles
from ...store.db import first, run
from ..answers.common import answer, node, quote_gloss, source
from ..question import Understood
from . import words
from .curated import curated

Fact = dict[str, Any]  # a fact row the build derived from the rules (verdict_* queries)


class Asked:
    """The reader of one question: the question understood, the words of it a clause must hold
    (read once), the ranked passages a verdict may be read from, and what the resolvers and
    filters found (conflicts, words unaccounted for, the filter that stopped it)."""

    def __init__(
        self, conn: sqlite3.Connection, u: Understood, passages: list[dict[str, Any]] | None = None
    ) -> None:
        self.conn, self.u = conn, u
        self.passages = passages or []  # the ranked passages (kb.ask.rank rows)
        # Facts contradicting each other (filled by a resolver): shown instead of a verdict.
        self.conflicts: list[list[dict[str, Any]]] = []
        self.unaccounted: list[str] = []  # words neither read nor quoted (verdicts.account)
        self.stopped_by = ""  # the filter that stopped the question or its verdicts
        self.forms = words.Forms(conn)  # the ways of writing its concepts, looked up once

    @property
    def kind(self) -> str:
        """What the question asks for: yesno, when, which_first, what_happens, how_many, or ""."""
        return self.u.kind

    @cached_property
    def required(self) -> list[set[str]]:
        """The words a clause must hold, each as its ways of writing (words.required_words)."""
        return words.required_words(self.conn, self.u)

    @cached_property
    def stems(self) -> set[str]:
        """Every stem of the required words, in any of their ways of writing."""
        return {s for options in self.required for a in options for s in a.split("|")}

    @cached_property
    def said(self) -> set[str]:
        """Every stem the question holds (cue words too) or stands for (its names' forms)."""
        text = curated()["clitic"].sub(" ", fold(self.u.text))
        return words.content(text, set(stopwords())) | self.stems

    @cached_property
    def skip(self) -> set[str]:
        """The words that say nothing of the question's subject (words.skipped)."""
        return words.skipped(self.conn)


class Verdict:
    """A composed verdict: ``verdict`` is yes, no, depends, or a short outcome; ``kind``: how
    it was decided (permission, statement, quantity...). Not a dataclass: dataclasses is no
    light import for a kb ask process."""

    def __init__(
        self,
        verdict: str,
        text: str,
        because: list[dict[str, Any]],
        *,
        kind: str,
        moment: str | None = None,
        cards: list[str] | None = None,
    ) -> None:
        self.verdict, self.text, self.because, self.kind = verdict, text, because, kind
        self.conflicts: list[list[dict[str, Any]]] = []
        self.moment, self.cards = moment, cards or []


def because(conn: sqlite3.Connection, fact: dict[str, Any]) -> dict[str, Any]:
    """A deciding fact as the answer cites it: the rule, its words (with their English gloss),
    where it comes from."""
    cited_source = source(conn, fact["rule"])
    gloss = quote_gloss(conn, fact["rule"], fact["quote"], cited_source["lang"])
    cited = {"fact": fact["id"], "rule": fact["rule"], "quote": fact["quote"]}
    return {**cited, "quote_gloss": gloss, "source": cited_source}


def moment_name(conn: sqlite3.Connection, node: str) -> str:
    """ "During damage calculation (TCG)": a moment as a judge reads it."""
    row = first(conn, "timing_node", id=node)
    if row is None:
        return node
    ruleset = row["ruleset"]
    return f"{row['en']} ({ruleset.upper()})" if ruleset and ruleset != "*" else row["en"]


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def at_moment(name: str) -> str:
    """A moment's name after a verb: "before damage calculation", "at the start of the
    Damage Step", "in the Battle Step"."""
    lowered = lower_first(name)
    first = lowered.split(" ", 1)[0]
    words = query_data()["moment_after_verb"]
    if first in words["prepositions"]:
        return lowered
    if first in words["parts"]:
        return f"at the {lowered}"
    return f"in the {name}"


def threshold(name: str) -> float:
    """A tuned threshold (kb/data/verdict_thresholds.toml, written by bench/tune_verdicts.py)."""
    return datafiles.load("verdict_thresholds")["thresholds"][name]


def verdict_answer(conn: sqlite3.Connection, u: Understood, verdict: Verdict) -> dict[str, Any]:
    """The composed answer of a verdict (the README's ``kb ask --json`` shape)."""
    moment = node(conn, verdict.moment) if verdict.moment else None
    sources = [b["source"] for b in verdict.because]
    lead = verdict.because[0] if verdict.because else {}
    out = answer(
        conn,
        "verdict",
        verdict.text,
        sources=sources,
        moment=moment,
        card_ids=verdict.cards or [c["id"] for c in u.cards],
        ruling_id=lead.get("rule"),
        quote=lead.get("quote", ""),
    )
    out["verdict"] = verdict.verdict
    out["basis"] = verdict.kind  # how it was decided: permission, statement, quantity...
    out["because"] = verdict.because
    out["conflicts"] = verdict.conflicts
    return out


def not_covered(u: Understood, asked: Asked) -> str:
    """What the knowledge base lacks to answer, said plainly; or the conflicting rules."""
    if asked.conflicts:
        sides = "; ".join(
            f"{c['rule']} (“{c['quote'][:120]}”)" for group in asked.conflicts for c in group
        )
        return narrate("rules_conflict", sides=sides)
    if asked.unaccounted:
        return narrate("words_unsaid", words=", ".join(f"“{w}”" for w in asked.unaccounted))
    if asked.stopped_by == "two_questions":
        return narrate("asks_twice")
    if asked.stopped_by == "several_games":
        names = {r["id"]: r["name"] for r in run(asked.conn, "game_names")}
        games = " and ".join(names.get(g, g) for g in sorted(u.concept_games()))
        return narrate("several_games", games=games)
    named = [c["name"] for c in u.cards] + [t["text"] for t in u.timing if "start" in t]
    named += [c["text"] for c in u.classes]
    what = narrate(f"asks_{asked.kind}")
    if not u.game and not u.game_hint and not named:
        return narrate("names_nothing", what=what)
    about = narrate("for_names", names=", ".join(dict.fromkeys(named))) if named else ""
    unknown = ", ".join(f"“{w}”" for w in dict.fromkeys(u.unknown))
    lacks = narrate("no_rule_mentions", words=unknown) if unknown else ""
    return narrate("not_covered", what=what, about=about, lacks=lacks)
