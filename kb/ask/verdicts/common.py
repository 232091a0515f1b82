"""What every verdict carries: the verdict, the sentence a judge reads first, the deciding
facts with their rules, and conflicts between facts (shown with both sources)."""

from __future__ import annotations

import sqlite3
from typing import Any

from ...lexicon.words import query_data
from ...store import datafiles
from ...store.db import first
from ..answers.common import quote_gloss, source
from ..question import Understood
from .words import Forms


class Asked:
    """One question being decided: its kind, the ranked passages a verdict may be read from,
    and what the resolvers and filters found (conflicts, words unaccounted for, the filter
    that stopped it)."""

    def __init__(self, conn: sqlite3.Connection, u: Understood) -> None:
        self.conn, self.u, self.kind = conn, u, u.kind
        self.passages: list[dict[str, Any]] = []  # the ranked passages (kb.ask.rank rows)
        # Facts contradicting each other (filled by a resolver): shown instead of a verdict.
        self.conflicts: list[list[dict[str, Any]]] = []
        self.unaccounted: list[str] = []  # words neither read nor quoted (verdicts.account)
        self.stopped_by = ""  # the filter that stopped the question or its verdicts
        self.forms = Forms(conn)  # the ways of writing its concepts, looked up once


class Verdict:
    """A composed verdict: ``verdict`` is yes, no, depends, or a short outcome."""

    def __init__(
        self,
        verdict: str,
        text: str,
        because: list[dict[str, Any]],
        *,
        kind: str,
        conflicts: list[list[dict[str, Any]]] | None = None,
        moment: str | None = None,
        cards: list[str] | None = None,
    ) -> None:
        self.verdict = verdict
        self.text = text
        self.because = because
        self.kind = kind
        self.conflicts = conflicts or []
        self.moment = moment
        self.cards = cards or []


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
