""" "X vs Y": two cards (``Honest vs Honest``). The worked example naming both is read from its
event steps (attack, activate, respond, cannot, result); the moment it sits in supplies the
limits (one Chain, no responses) and its tree the Chain order.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from ...lookups.labels import narrate
from ...store.db import run
from ..question import Understood
from .common import answer, lower_first, names, node, ruling_data, source, window_nuances


def player_name(actor: str) -> str:
    return narrate("player", actor=actor) if actor else narrate("any_player")


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
        self.result_at: int | None = None  # where the result stands in ``sequence``

    @property
    def props(self) -> dict[str, dict[str, Any]]:
        return {p["key"]: p for p in self.moment["properties"]} if self.moment else {}

    @property
    def window(self) -> str:
        return self.moment["en"].lower() if self.moment else narrate("this_moment")

    def attack(self, step: dict[str, Any], cards: list[str]) -> None:
        attacker = narrate("attacker", card=cards[1]) if len(cards) > 1 else ""
        who = player_name(step["actor"])
        self.sequence.append(narrate("attack", who=who, target=cards[0], attacker=attacker))

    def activate(self, step: dict[str, Any], cards: list[str]) -> None:
        self.links.append((step["actor"], cards[0]))
        self.steps["link"] = step["text"]
        when = self.moment["en"] if self.moment else narrate("then")
        who = player_name(step["actor"])
        link = len(self.links)
        self.sequence.append(narrate("activate", when=when, who=who, card=cards[0], link=link))

    def respond(self, step: dict[str, Any], cards: list[str]) -> None:
        self.links.append((step["actor"], cards[0]))
        self.steps["link"] = step["text"]
        reason = ""
        if self.props.get("chains", {}).get("value") == "one":
            reason = narrate("only_chance", window=self.window)
            self.sources.append(source(self.conn, self.props["chains"]["rule"]))
        who, link = player_name(step["actor"]), len(self.links)
        self.sequence.append(narrate("respond", who=who, card=cards[0], link=link, reason=reason))

    def cannot(self, step: dict[str, Any], cards: list[str]) -> None:
        props = self.moment["properties"] if self.moment else []
        prop = next((p for p in props if p["rule"] == self.ruling["id"]), None)
        who = player_name(step["actor"])
        if prop:
            self.cannot_note = narrate("cannot_wait", who=who, rule=prop["display"])
        elif cards:
            limit = self.props.get("cannot_activate")
            why = (
                narrate("cannot_why", limit=lower_first(limit["display"]), window=self.window)
                if limit
                else ""
            )
            self.cannot_note = narrate("cannot_respond", who=who, card=cards[0], why=why)
            if limit:
                self.sources.append(source(self.conn, limit["rule"]))
        if self.cannot_note:
            self.sequence.append(self.cannot_note)

    def outcome(self, step: dict[str, Any], cards: list[str]) -> None:
        self.result = _result_text(step, cards)
        if self.result:
            self.steps["result"] = step["text"]
            self.result_at = len(self.sequence)
            self.sequence.append(narrate("result", result=self.result))

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
        resolution = narrate("link_joiner").join(
            narrate("chain_link", link=i, who=player_name(actor), card=card)
            for i, (actor, card) in reversed(list(enumerate(self.links, 1)))
        )
        how = self.order or narrate("reverse_order")
        at = len(self.sequence) if self.result_at is None else self.result_at
        self.sequence.insert(at, narrate("chain_resolves", order=how, links=resolution))

    def ruling_text(self) -> str | None:
        first, second = (self.links + [("", ""), ("", "")])[:2]
        if len(self.links) > 1:
            chains = self.props.get("chains", {}).get("value")
            text = narrate(
                "both_activated",
                window=self.window,
                chain=narrate("single_chain" if chains == "one" else "same_chain"),
                first=player_name(first[0]),
                first_card=first[1],
                second=player_name(second[0]),
                second_card=second[1],
                order=self.order or narrate("reverse_order"),
            )
            return text + (narrate("and_result", result=self.result) if self.result else ".")
        if self.cannot_note:
            who = player_name(first[0])
            subject = narrate("when_activates", who=who, card=first[1]) if first[1] else ""
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
