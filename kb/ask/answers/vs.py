""" "X vs Y": two cards (``Honest vs Honest``). The worked example naming both is read from its
event steps (attack, activate, respond, cannot, result); the moment it sits in supplies the
limits (one Chain, no responses) and its tree the Chain order.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ...store.db import run
from ..question import Understood
from .common import answer, lower_first, names, node, ruling_data, source, window_nuances


def player_name(actor: str) -> str:
    return f"Player {actor}" if actor else "A player"


def _vs_ruling(conn: sqlite3.Connection, a: str, b: str) -> dict[str, Any] | None:
    """The worked example (else any ruling) naming both cards; the same card twice must be
    activated twice in it."""
    rows = run(conn, "vs_rulings", a=a, b=b)
    if a == b:
        rows = [r for r in rows if r["uses"] >= 2]
    return rows[0] if rows else None


def _result_text(step: dict[str, Any], card_names: list[str]) -> str:
    """The example's outcome in the words of rulings.toml [[results]] ("{0} destroys {1}")."""
    for entry in ruling_data().get("results", []):
        if any(re.search(p, step["text"], re.IGNORECASE) for p in entry["patterns"]):
            try:
                return entry["template"].format(*card_names)
            except IndexError:
                continue
    return ""


class ExampleReading:
    """A worked example read step by step."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        ruling: dict[str, Any],
        moment: dict[str, Any] | None,
        sources: list[dict[str, Any]],
    ) -> None:
        self.conn, self.ruling, self.moment, self.sources = conn, ruling, moment, sources
        self.sequence: list[str] = []
        self.links: list[tuple[str, str]] = []  # (actor, card) per Chain Link
        self.steps: dict[str, str] = {}  # the source's sentence of the last link, the result
        self.cannot_note = ""
        self.result = ""

    @property
    def props(self) -> dict[str, dict[str, Any]]:
        return {p["key"]: p for p in self.moment["properties"]} if self.moment else {}

    @property
    def window(self) -> str:
        return self.moment["en"].lower() if self.moment else "this moment"

    def attack(self, step: dict[str, Any], cards: list[str]) -> None:
        attacker = f" with {cards[1]}" if len(cards) > 1 else ""
        self.sequence.append(
            f"{player_name(step['actor'])} attacks {cards[0]}{attacker}; the Damage Step begins."
        )

    def activate(self, step: dict[str, Any], cards: list[str]) -> None:
        self.links.append((step["actor"], cards[0]))
        self.steps["link"] = step["text"]
        when = self.moment["en"] if self.moment else "Then"
        who = player_name(step["actor"])
        self.sequence.append(f"{when}: {who} activates {cards[0]} (Chain Link {len(self.links)}).")

    def respond(self, step: dict[str, Any], cards: list[str]) -> None:
        self.links.append((step["actor"], cards[0]))
        self.steps["link"] = step["text"]
        reason = ""
        if self.props.get("chains", {}).get("value") == "one":
            reason = (
                f" Only one Chain is allowed {self.window}, so this is the only chance to use it."
            )
            self.sources.append(source(self.conn, self.props["chains"]["rule"]))
        self.sequence.append(
            f"{player_name(step['actor'])} chains {cards[0]} to it "
            f"(Chain Link {len(self.links)}).{reason}"
        )

    def cannot(self, step: dict[str, Any], cards: list[str]) -> None:
        props = self.moment["properties"] if self.moment else []
        prop = next((p for p in props if p["rule"] == self.ruling["id"]), None)
        if prop:
            self.cannot_note = (
                f"{player_name(step['actor'])} cannot wait for a later Chain. {prop['display']}."
            )
        elif cards:
            limit = self.props.get("cannot_activate")
            why = f": {lower_first(limit['display'])} {self.window}" if limit else ""
            self.cannot_note = f"{player_name(step['actor'])} cannot respond with {cards[0]}{why}."
            if limit:
                self.sources.append(source(self.conn, limit["rule"]))
        if self.cannot_note:
            self.sequence.append(self.cannot_note)

    def outcome(self, step: dict[str, Any], cards: list[str]) -> None:
        self.result = _result_text(step, cards)
        if self.result:
            self.steps["result"] = step["text"]
            self.sequence.append(f"Result, as the source states: {self.result}.")

    def read(self, steps: list[dict[str, Any]]) -> None:
        handlers = {
            "attack": self.attack,
            "activate": self.activate,
            "respond": self.respond,
            "cannot": self.cannot,
            "result": self.outcome,
        }
        for step in steps:
            cards = names(self.conn, step["cards"].split()) if step["cards"] else []
            handler = handlers.get(step["event"])
            if handler and (cards or step["event"] == "cannot"):
                handler(step, cards)

    @property
    def order(self) -> str:
        return self.moment["chain_order"] if self.moment else ""

    def resolve_chain(self) -> None:
        """How the Chain resolves, inserted before the result."""
        if len(self.links) < 2:
            return
        resolution = ", then ".join(
            f"Chain Link {i} ({player_name(actor)}'s {card})"
            for i, (actor, card) in reversed(list(enumerate(self.links, 1)))
        )
        how = self.order if self.order else "in reverse order"
        at = next((i for i, s in enumerate(self.sequence) if s.startswith("Result")), None)
        self.sequence.insert(
            len(self.sequence) if at is None else at, f"The Chain resolves {how}: {resolution}."
        )

    def ruling_text(self) -> str | None:
        first, second = (self.links + [("", ""), ("", "")])[:2]
        if len(self.links) > 1:
            chains = self.props.get("chains", {}).get("value")
            one_chain = "in a single Chain" if chains == "one" else "in the same Chain"
            text = (
                f"Both cards are activated {self.window}, {one_chain}: {player_name(second[0])} "
                f"must chain {second[1]} to {player_name(first[0])}'s {first[1]}; the Chain "
                f"resolves {self.order or 'in reverse order'}, so {player_name(second[0])}'s "
                f"{second[1]} resolves first"
            )
            return text + (f", and {self.result}." if self.result else ".")
        if self.cannot_note:
            subject = f"When {player_name(first[0])} activates {first[1]}: " if first[1] else ""
            return f"{subject}{self.cannot_note}"
        if self.result:
            return f"{self.result[0].upper()}{self.result[1:]}."
        return None


def example_reading(conn: sqlite3.Connection, a: str, b: str) -> ExampleReading | None:
    """The worked example (else any ruling) naming cards ``a`` and ``b``, read step by step;
    None when no ruling names both."""
    ruling = _vs_ruling(conn, a, b) or _vs_ruling(conn, b, a)
    if ruling is None:
        return None
    moment = node(conn, ruling["timing"]) if ruling["timing"] else None
    reading = ExampleReading(conn, ruling, moment, sources=[source(conn, ruling["id"])])
    reading.read(run(conn, "ruling_steps", id=ruling["id"]))
    reading.resolve_chain()
    return reading


def vs_answer(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    """The composed answer for "X vs Y", or None when no ruling names both cards."""
    assert u.vs is not None
    reading = example_reading(conn, u.vs[0]["id"], u.vs[1]["id"])
    if reading is None:
        return None
    ruling, moment = reading.ruling, reading.moment
    a, b = u.vs[0]["id"], u.vs[1]["id"]
    text = reading.ruling_text()
    if text is None:
        return None
    several = len(reading.links) > 1
    sources = reading.sources + [
        source(conn, p["rule"])
        for p in (moment["properties"] if moment else [])
        if p["key"] == "responses"
    ]
    return answer(
        conn,
        "vs",
        text,
        sequence=reading.sequence,
        nuances=window_nuances(conn, moment, exclude={"chains"} if several else set()),
        sources=sources,
        moment=moment,
        card_ids=[a, b],
        ruling_id=ruling["id"],
    )
