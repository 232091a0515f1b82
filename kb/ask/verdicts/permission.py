"""May a card (or a class of cards) be activated at a moment? Yes/no and "when", from the
permission facts: those naming the card first, else those of the classes holding it (only
forbidden: no; only allowed: yes; neither, where the rules list the only ones allowed: no;
both: a conflict, shown). A later Chain meets the facts allowing only the first."""

from __future__ import annotations

import re
import sqlite3
from typing import Any, NamedTuple

from ingest.text import fold

from ...lexicon.words import query_data, stopwords
from ...lookups.labels import narrate
from ...store.db import column, first, run
from ..passes_asks import cue_words, lexicon
from ..question import Understood
from . import passages
from .common import Asked, Fact, Verdict, at_moment, because, lower_first, moment_name, threshold

_ALLOW = ("can", "only")


class Decision(NamedTuple):
    """The verdict at one moment: yes, no, depends or conflict, with the facts deciding it."""

    verdict: str
    facts: list[Fact]
    node: str
    why: str = ""


class _Question:
    """The cards asked about, what the question states, and the permission facts of the
    moments it is decided at, read once."""

    def __init__(self, asked: Asked, cards: set[str], known: bool):
        u = asked.u
        self.conn, self.cards, self.known, self.chain = asked.conn, cards, known, u.chain
        self.named = {c["id"] for c in u.cards}  # the cards the question names itself
        self.stems = asked.stems
        self.members: dict[str, set[str]] = {}
        self.facts: dict[str, list[Fact]] = {}

    def of(self, node: str) -> list[Fact]:
        if node not in self.facts:
            self.facts[node] = run(self.conn, "verdict_permissions", moment=node)
        return self.facts[node]

    def own(self, node: str, chains: tuple[str, ...] = ("", "first")) -> list[Fact]:
        """The facts naming a card asked about at the moment, of the Chains given."""
        mine = {f"card:{c}" for c in self.cards}
        return [f for f in self.of(node) if f["subject"] in mine and f["chain"] in chains]

    def holds(self, f: Fact, every: bool = False) -> bool:
        """The fact is about every card, or a class holding a card asked about (of known
        cards); ``every``: all the cards asked about."""
        if f["subject"] == "*":
            return True
        kind, _, ident = f["subject"].partition(":")
        if kind == "class" and not self.known:
            return False
        if kind == "class" and ident not in self.members:
            self.members[ident] = set(column(self.conn, "class_member_cards", cls=ident))
        holding = self.members[ident] if kind == "class" else {ident}
        return self.cards <= holding if every else bool(self.cards & holding)

    def met(self, fact: Fact, named: set[str]) -> bool:
        """The question names every card of the fact's condition (of those ``named``), or
        states it."""
        needed = {c[5:] for c in (fact.get("concepts") or "").split() if c.startswith("card:")}
        return (
            not fact["condition"]
            or bool(needed and needed <= named)
            or passages.condition_share(fact, self.stems) >= threshold("min_condition_share")
        )


def _if(fact: Fact) -> str:
    return narrate("if_condition", condition=fact["condition"])


def _own(q: _Question, facts: list[Fact], node: str) -> Decision | None:
    """The facts naming the card itself; under a condition the question does not state, it
    depends on it."""
    allow = [f for f in facts if f["modality"] in _ALLOW]
    deny = [f for f in facts if f["modality"] == "cannot"]
    if allow and deny:
        return Decision("conflict", allow + deny, node)
    decided = allow or deny
    unmet = [f for f in decided if not q.met(f, q.named)]
    if decided and len(unmet) == len(decided):
        return Decision("depends", decided, node, _if(unmet[0]))
    return Decision("yes" if allow else "no", decided, node) if decided else None


def _by_class(q: _Question, node: str) -> Decision | None:
    """The facts about classes holding the card(s) asked about (not limits on Chains)."""
    said = [f for f in q.of(node) if f["chain"] == "" and not f["subject"].startswith("card:")]
    allow = [f for f in said if f["modality"] in _ALLOW and q.holds(f)]
    deny = [f for f in said if f["modality"] == "cannot" and q.holds(f)]
    if not all(q.holds(f, every=True) for f in allow + deny):
        # For some of the cards asked about: it depends.
        return Decision("depends", allow + deny, node, narrate("on_the_card"))
    if allow and deny:
        return Decision("conflict", allow + deny, node)
    unmet = [f for f in allow if not q.met(f, set())]
    if allow and len(unmet) == len(allow):
        # Allowed under a condition the question does not state ("effects that negate them,
        # such as Counter Traps").
        return Decision("depends", allow, node, _if(unmet[0]))
    if allow or deny:
        return Decision("yes" if allow else "no", allow or deny, node)
    exclusive = [f for f in said if f["modality"] == "only" and f["subject"] != "*"]
    if exclusive and q.known:
        return Decision("no", exclusive, node, narrate("not_among_allowed"))
    return None


def _at(q: _Question, node: str) -> Decision | None:
    """The verdict for the cards asked about at one moment. A later Chain: the card's own
    facts of later Chains; a limit to the first Chain; or, where several Chains are allowed,
    what holds for the first."""
    if q.chain != "later":
        return _first_chain(q, node)
    if decided := _own(q, q.own(node, ("later",)), node):
        return decided
    facts = q.of(node)
    only_first = [f for f in facts if f["modality"] == "only" and f["chain"] == "first"]
    if first_only := [f for f in only_first if q.holds(f)]:
        return Decision("no", first_only, node, narrate("first_chain_only"))
    several = [f for f in facts if f["chain"] == "later" and f["modality"] == "can"]
    base = _first_chain(q, node) if several else None
    if base is not None and base.verdict in ("yes", "no"):
        return Decision(base.verdict, several + base.facts, node)
    return None


def _first_chain(q: _Question, node: str) -> Decision | None:
    decided = _own(q, q.own(node), node) if len(q.cards) == 1 else None
    return decided or _by_class(q, node)


def _within(q: _Question, node: str) -> Decision | None:
    """At a moment or one inside it: the card's own facts anywhere inside first, then the
    moment's, then the moments inside (any allowing it, or every one forbidding it). Not
    inside a whole turn ("the turn it was Set" is not answered by what some step allows)."""
    row = first(q.conn, "timing_node", id=node)
    inside = (
        column(q.conn, "timing_descendants", node=node) if row and row["kind"] != "turn" else []
    )
    if len(q.cards) == 1 and q.chain != "later":
        for n in inside:
            if decided := _own(q, q.own(n), n):
                return decided
    decided = _at(q, node)
    if decided or not inside:
        return decided
    below = [d for n in inside if (d := _at(q, n))]
    if yes := [d for d in below if d.verdict == "yes"]:
        return yes[0]
    if below and len(below) == len(inside) and all(d.verdict == "no" for d in below):
        return Decision("no", [f for d in below for f in d.facts], node)
    return None


def _of_rulesets(conn: sqlite3.Connection, u: Understood, nodes: list[str]) -> list[str]:
    """The timing nodes of the rulesets the question names (all when it names none)."""
    if not u.rulesets:
        return nodes
    ruleset = {r["id"]: r["ruleset"] for r in run(conn, "ask_node_rulesets", ids=nodes)}
    return [n for n in nodes if ruleset.get(n, "*") in ("*", *u.rulesets)]


def _named_subject(u: Understood) -> dict[str, Any] | None:
    """The card or class asked about, in the asking clause (the last naming an action): the last
    named before the action, else the first after it, never one in a condition ("... when
    the attacked monster is flipped")."""
    folded = fold(u.text)
    # A condition runs to the next comma (or the end).
    ends = [(m.start(), folded.find(",", m.end())) for m in lexicon().condition.finditer(folded)]
    conditions = [(start, end if end >= 0 else len(folded)) for start, end in ends]
    named = [{**c, "is": "card"} for c in u.cards] + [{**c, "is": "class"} for c in u.classes]
    named = sorted(
        (n for n in named if not any(a <= n["start"] < b for a, b in conditions)),
        key=lambda n: n["start"],
    )
    acts = sorted(m.start() for _, cues in lexicon().actions_ for m in cues.finditer(u.text))
    if not named or not acts:
        return named[0] if named else None
    # The asking clause: from the last clause break before the last action on.
    breaks = [m.end() for m in re.finditer(r"[,;:.?!。？！]|\s-\s", folded[: acts[-1]])]
    clause_start = breaks[-1] if breaks else 0
    inside = [n for n in named if n["start"] >= clause_start]
    if not inside:
        return None  # the asking clause names no card or class: it asks about something else
    at = next((a for a in acts if a >= clause_start), acts[0])
    before = [n for n in inside if n["start"] < at]
    return before[-1] if before else inside[0]


def _bare(u: Understood) -> bool:
    """The question names a card or class, a moment and nothing else ("Shrink at damage calc,
    ok?"): it asks whether the card may be activated then."""
    qualifiers = query_data()["qualifiers"]
    allowed = set(qualifiers) | set(cue_words()) | set(stopwords()) | set(u.rulesets)
    allowed |= {fold(w) for ws in qualifiers.values() for w in ws}
    return not u.terms and all(w in allowed for w in u.words)


def yes_no(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Can the card or class asked about be activated at the moment asked about?"""
    subject = _named_subject(u)
    nodes = _of_rulesets(conn, u, list(dict.fromkeys(t["node"] for t in u.timing)))
    action = u.action or ("activate" if (u.cards or u.classes) and _bare(u) else "")
    if not subject or not nodes or u.unresolved or action not in ("activate", "chain"):
        return None
    if subject["is"] == "card":
        known = bool(column(conn, "card_classes_of", card=subject["id"]))
        cards, name = {subject["id"]}, subject["name"]
    else:
        cards, name = set(column(conn, "class_member_cards", cls=subject["class"])), subject["text"]
        known = True
    if not cards:
        return None
    q = _Question(asked, cards, known)
    decisions = [d for n in nodes if (d := _within(q, n))]
    conflicts = [[because(conn, f) for f in d.facts] for d in decisions if d.verdict == "conflict"]
    if conflicts or not decisions:  # a conflict is never resolved silently: both sides shown
        asked.conflicts = conflicts
        return None
    verdicts = {d.verdict for d in decisions}
    verdict = verdicts.pop() if len(verdicts) == 1 else "depends"
    parts = []
    for d in decisions:
        why = narrate("why", why=d.why) if d.why else ""
        can, moment = "cannot" if d.verdict == "no" else "can", moment_name(conn, d.node)
        parts.append(narrate(f"{can}_activate", moment=at_moment(moment), why=why))
    text = narrate("activated_at", opening=narrate(verdict), name=name, moments="; ".join(parts))
    cited, first_node = [because(conn, f) for d in decisions for f in d.facts], decisions[0].node
    asked_cards = sorted(cards) if u.cards else []
    return Verdict(verdict, text, cited, kind="permission", moment=first_node, cards=asked_cards)


def when(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """When may the card asked about be activated: the one moment the rules allow it at."""
    if len(u.cards) != 1:
        return None
    card = u.cards[0]
    facts = run(conn, "verdict_allowed_moments", card=card["id"])
    specific = [f for f in facts if f["specific"]] or facts
    kept = _of_rulesets(conn, u, [f["moment"] for f in specific])
    specific = [f for f in specific if f["moment"] in kept]
    # The moment both rulesets agree on is the name before the detail ("After damage
    # calculation: battle damage (TCG)" is a part of "After damage calculation (OCG)").
    full = {re.split(r" \(", moment_name(conn, f["moment"]))[0] for f in specific}
    names = {re.split(r": ", name)[0] for name in full}
    if len(names) != 1 or {f["moment"] for f in specific} & {t["node"] for t in u.timing}:
        return None  # ... or "when in the Battle Step can I ...": the moment the question names
    where = ", ".join(dict.fromkeys(moment_name(conn, f["moment"]) for f in specific))
    # One moment (one ruleset asked, or both agreeing): its whole name, detail and all.
    verdict = (full if len(full) == 1 else names).pop().lower()
    # The condition the rules allow it under, when every deciding sentence states the same.
    english = [f for f in specific if f["lang"] == "en"] or specific
    conditions = {(lexicon().split_condition(f["quote"]) or ("", ""))[0] for f in english}
    if len(conditions) == 1 and (condition := lower_first(conditions.pop())):
        verdict = narrate("with_condition", what=verdict, condition=condition)
        where = narrate("with_condition", what=where, condition=condition)
    text = narrate("only_moment", card=card["name"], moments=where)
    cited, moment = [because(conn, f) for f in specific], specific[0]["moment"]
    return Verdict(verdict, text, cited, kind="permission", moment=moment, cards=[card["id"]])
