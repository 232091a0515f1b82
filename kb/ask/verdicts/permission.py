"""May a card (or a class of cards) be activated at a moment? Yes/no and "when", by inference
over permission facts.

At a moment, the facts that name the card decide first (the rules single it out); otherwise
the facts about card classes do, by the card facts' membership: a card only in forbidden
classes cannot, a card only in allowed classes can, a card in neither cannot where the rules
list the only things allowed, and a card in both is a conflict, shown with both sources.
A question about a later Chain meets the facts that allow only the first.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...db import column, run
from ..question import Understood
from .asked import Asked
from .common import Verdict, because, moment_name

Fact = dict[str, Any]
_ALLOW = ("can", "only")


class Decision:
    """The verdict at one moment: yes, no or conflict, with the facts that decide it."""

    def __init__(self, verdict: str, facts: list[Fact], node: str, why: str = "") -> None:
        self.verdict, self.facts, self.node, self.why = verdict, facts, node, why


def _members(conn: sqlite3.Connection, cls: str, cache: dict[str, set[str]]) -> set[str]:
    if cls not in cache:
        cache[cls] = set(column(conn, "class_member_cards", cls=cls))
    return cache[cls]


def _later_chain(facts: list[Fact], applies: list[Fact], node: str) -> Decision | None:
    """A question about a second Chain meets a fact allowing only the first."""
    first_only = [f for f in applies if f["modality"] == "only" and f["chain"] == "first"]
    return Decision("no", first_only, node, "only in the first Chain") if first_only else None


def _specific(facts: list[Fact], node: str) -> Decision | None:
    """The facts that name the card itself."""
    said = [f for f in facts if f["chain"] in ("", "first")]
    allow = [f for f in said if f["modality"] in _ALLOW]
    deny = [f for f in said if f["modality"] == "cannot"]
    if allow and deny:
        return Decision("conflict", allow + deny, node)
    if allow or deny:
        return Decision("yes" if allow else "no", allow or deny, node)
    return None


def _by_class(
    general: list[Fact], cards: set[str], members: Any, node: str, known: bool
) -> Decision | None:
    """The facts about classes, by which of them hold the card(s) asked about. Of a card
    whose facts are unknown, only what holds for every card can be said. A limit on Chains
    ("only one Chain") says nothing of what may start the first."""
    said = [f for f in general if f["chain"] == ""]

    def holds(f: Fact) -> bool:
        return f["subject"] == "*" or (known and bool(cards & members(f["subject"][6:])))

    allow = [f for f in said if f["modality"] in _ALLOW and holds(f)]
    deny = [f for f in said if f["modality"] == "cannot" and holds(f)]
    if allow and deny:
        return Decision("conflict", allow + deny, node)
    if allow or deny:
        return Decision("yes" if allow else "no", allow or deny, node)
    exclusive = [f for f in said if f["modality"] == "only" and f["subject"] != "*"]
    if exclusive and known:
        return Decision("no", exclusive, node, "not among the only ones allowed")
    return None


def decide_at(
    conn: sqlite3.Connection,
    cards: set[str],
    node: str,
    asked: Asked,
    cache: dict[str, set[str]],
    known: bool = True,
) -> Decision | None:
    """The verdict for ``cards`` (one card, or a class's members) at one moment; ``known``:
    the card facts say which classes they are in."""
    facts = run(conn, "verdict_permissions", moment=node)
    specific = [f for f in facts if f["subject"][5:] in cards and f["subject"].startswith("card:")]
    general = [f for f in facts if f["subject"] == "*" or f["subject"].startswith("class:")]

    def members(cls: str) -> set[str]:
        return _members(conn, cls, cache)

    if asked.chain == "later":
        applies = specific + [
            f for f in general if f["subject"] == "*" or cards & members(f["subject"][6:])
        ]
        return _later_chain(facts, applies, node)
    if len(cards) == 1:
        decided = _specific(specific, node)
        if decided:
            return decided
    return _by_class(general, cards, members, node, known)


def _subject(conn: sqlite3.Connection, u: Understood, asked: Asked) -> tuple[set[str], str, bool]:
    """(the cards asked about, how to name them, whether their card facts are known)."""
    if u.cards:
        card = u.cards[0]
        known = bool(column(conn, "card_classes_of", card=card["id"]))
        return {card["id"]}, card["name"], known
    if asked.classes:
        cls = asked.classes[0]
        return set(column(conn, "class_member_cards", cls=cls["class"])), cls["text"], True
    return set(), "", False


def _nodes(conn: sqlite3.Connection, u: Understood, asked: Asked) -> list[str]:
    nodes = list(dict.fromkeys(t["node"] for t in u.timing))
    if asked.rulesets:
        nodes = [n for n in nodes if any(f"-{r}-" in n for r in asked.rulesets)]
    return nodes


def _sentence(verdict: str, name: str, decisions: list[Decision], conn: sqlite3.Connection) -> str:
    parts = []
    for d in decisions:
        verb = "can" if d.verdict == "yes" else "cannot"
        why = f" ({d.why})" if d.why else ""
        moment = moment_name(conn, d.node)
        parts.append(f"{verb} be activated {moment[:1].lower()}{moment[1:]}{why}")
    where = "; ".join(parts)
    opening = {"yes": "Yes", "no": "No", "depends": "It depends"}[verdict]
    return f"{opening}: {name} {where}."


def yes_no(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Can the card or class asked about be activated at the moment asked about?"""
    cards, name, known = _subject(conn, u, asked)
    nodes = _nodes(conn, u, asked)
    # A card at a moment with no other action named ("Shrink at damage calc, ok?") is about
    # activating it.
    action = asked.action or ("activate" if u.cards or asked.classes else "")
    if not cards or not nodes or asked.unresolved or action not in ("activate", "chain"):
        return None
    cache: dict[str, set[str]] = {}
    decisions = [d for n in nodes if (d := decide_at(conn, cards, n, asked, cache, known))]
    if not decisions:
        return None
    conflicts = [[because(conn, f) for f in d.facts] for d in decisions if d.verdict == "conflict"]
    if conflicts:  # never resolved silently: no verdict, both sides shown
        asked.conflicts = conflicts
        return None
    verdicts = {d.verdict for d in decisions}
    verdict = verdicts.pop() if len(verdicts) == 1 else "depends"
    cited = [because(conn, f) for d in decisions for f in d.facts]
    text = _sentence(verdict, name, decisions, conn)
    return Verdict(
        verdict, text, cited, kind="permission", conflicts=conflicts,
        moment=decisions[0].node, cards=sorted(cards) if u.cards else [],
    )  # fmt: skip


def when(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """When may the card asked about be activated: the one moment the rules allow it at."""
    if len(u.cards) != 1:
        return None
    card = u.cards[0]
    facts = run(conn, "verdict_allowed_moments", card=card["id"])
    specific = [f for f in facts if f["specific"]] or facts
    if asked.rulesets:
        specific = [f for f in specific if any(f"-{r}-" in f["moment"] for r in asked.rulesets)]
    names = {moment_name(conn, f["moment"]).split(" (")[0] for f in specific}
    if len(names) != 1:
        return None
    where = ", ".join(dict.fromkeys(moment_name(conn, f["moment"]) for f in specific))
    return Verdict(
        names.pop().lower(),
        f"{card['name']} can be activated: {where}.",
        [because(conn, f) for f in specific],
        kind="permission",
        moment=specific[0]["moment"],
        cards=[card["id"]],
    )
