"""May a card (or a class of cards) be activated at a moment? Yes/no and "when", from the
permission facts: those naming the card first, else those of the classes holding it (only
forbidden: no; only allowed: yes; neither, where the rules list the only ones allowed: no;
both: a conflict, shown). A later Chain meets the facts allowing only the first.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Set as AbstractSet
from typing import Any

from ingest.text import fold

from ...lexicon.words import query_data, stopwords
from ...lookups.labels import narrate
from ...store.db import column, first, run
from ..passes_asks import cue_words, lexicon
from ..question import Understood
from . import statement, words
from .common import Asked, Verdict, at_moment, because, lower_first, moment_name, threshold

Fact = dict[str, Any]
_ALLOW = ("can", "only")


def _if(fact: Fact) -> str:
    return narrate("if_condition", condition=fact["condition"])


class Decision:
    """The verdict at one moment: yes, no, depends or conflict, with the facts deciding it."""

    def __init__(self, verdict: str, facts: list[Fact], node: str, why: str = "") -> None:
        self.verdict, self.facts, self.node, self.why = verdict, facts, node, why


def _met(fact: Fact, asked_cards: set[str], asked_stems: AbstractSet[str], text: str = "") -> bool:
    """The question names every card of the fact's condition, or states it."""
    if not fact["condition"]:
        return True
    needed = {c[5:] for c in (fact.get("concepts") or "").split() if c.startswith("card:")}
    if needed and needed <= asked_cards:
        return True
    return statement.condition_share(fact, asked_stems, text) >= threshold("min_condition_share")


def _specific(
    facts: list[Fact], node: str, asked_cards: set[str], asked_stems: AbstractSet[str] = frozenset()
) -> Decision | None:
    """The facts naming the card itself; under a condition the question does not state, it
    depends on it."""
    allow = [f for f in facts if f["modality"] in _ALLOW]
    deny = [f for f in facts if f["modality"] == "cannot"]
    if allow and deny:
        return Decision("conflict", allow + deny, node)
    if not (allow or deny):
        return None
    decided = allow or deny
    unmet = [f for f in decided if not _met(f, asked_cards, asked_stems)]
    if len(unmet) == len(decided):
        return Decision("depends", decided, node, _if(unmet[0]))
    return Decision("yes" if allow else "no", decided, node)


class _Moments:
    """The permission facts of moments, read once per question, and the cards asked about."""

    def __init__(self, conn: sqlite3.Connection, cards: set[str], known: bool) -> None:
        self.conn, self.cards, self.known = conn, cards, known
        self.stems: set[str] = set()  # the question's words (words.required_words)
        self.narrowed = False  # words after the class narrow it ("that only boosts ATK")
        self.cache: dict[str, set[str]] = {}
        self.facts: dict[str, list[Fact]] = {}

    def members(self, cls: str) -> set[str]:
        if cls not in self.cache:
            self.cache[cls] = set(column(self.conn, "class_member_cards", cls=cls))
        return self.cache[cls]

    def of(self, node: str) -> list[Fact]:
        if node not in self.facts:
            self.facts[node] = run(self.conn, "verdict_permissions", moment=node)
        return self.facts[node]

    def specific(self, node: str, chains: tuple[str, ...] = ("", "first")) -> list[Fact]:
        return [
            f for f in self.of(node)
            if f["subject"].startswith("card:") and f["subject"][5:] in self.cards
            and f["chain"] in chains
        ]  # fmt: skip

    def holds(self, f: Fact) -> bool:
        """The fact is about every card, or a class holding a card asked about (known ones)."""
        if f["subject"] == "*":
            return True
        if f["subject"].startswith("class:"):
            return self.known and bool(self.cards & self.members(f["subject"][6:]))
        return f["subject"][5:] in self.cards

    def holds_all(self, f: Fact) -> bool:
        """The fact is about every card asked about, not some of them."""
        if f["subject"] == "*":
            return True
        if f["subject"].startswith("class:"):
            return self.known and self.cards <= self.members(f["subject"][6:])
        return self.cards == {f["subject"][5:]}


def _by_class(m: _Moments, node: str) -> Decision | None:
    """The facts about classes holding the card(s) asked about (not limits on Chains)."""
    said = [
        f for f in m.of(node)
        if (f["subject"] == "*" or f["subject"].startswith("class:")) and f["chain"] == ""
    ]  # fmt: skip
    allow = [f for f in said if f["modality"] in _ALLOW and m.holds(f)]
    deny = [f for f in said if f["modality"] == "cannot" and m.holds(f)]
    held = allow + deny
    if not all(m.holds_all(f) for f in held):
        # For some of the cards asked about: it depends, unless the question narrows the class.
        return None if m.narrowed else Decision("depends", held, node, narrate("on_the_card"))
    if allow and deny:
        return Decision("conflict", held, node)
    unmet = [f for f in allow if not _met(f, set(), m.stems)]
    if allow and len(unmet) == len(allow):
        # Allowed under a condition the question does not state ("effects that negate them,
        # such as Counter Traps").
        return Decision("depends", allow, node, _if(unmet[0]))
    if allow or deny:
        return Decision("yes" if allow else "no", allow or deny, node)
    exclusive = [f for f in said if f["modality"] == "only" and f["subject"] != "*"]
    if exclusive and m.known:
        return Decision("no", exclusive, node, narrate("not_among_allowed"))
    return None


def _first_chain(m: _Moments, node: str, asked_cards: set[str]) -> Decision | None:
    if len(m.cards) == 1:
        decided = _specific(m.specific(node), node, asked_cards, m.stems)
        if decided:
            return decided
    return _by_class(m, node)


def _later_chain(m: _Moments, node: str, asked_cards: set[str]) -> Decision | None:
    """A later Chain: the card's own facts of later Chains; a limit to the first Chain; or,
    where several Chains are allowed, what holds for the first."""
    later = m.specific(node, ("later",))
    decided = _specific(later, node, asked_cards, m.stems) if later else None
    if decided:
        return decided
    first_only = [
        f for f in m.of(node)
        if f["modality"] == "only" and f["chain"] == "first" and m.holds(f)
    ]  # fmt: skip
    if first_only:
        return Decision("no", first_only, node, narrate("first_chain_only"))
    several = [f for f in m.of(node) if f["chain"] == "later" and f["modality"] == "can"]
    base = _first_chain(m, node, asked_cards)
    if several and base is not None and base.verdict in ("yes", "no"):
        return Decision(base.verdict, several + base.facts, node)
    return None


def decide_at(m: _Moments, node: str, asked: Asked, asked_cards: set[str]) -> Decision | None:
    """The verdict for the cards asked about at one moment."""
    if asked.u.chain == "later":
        return _later_chain(m, node, asked_cards)
    return _first_chain(m, node, asked_cards)


def decide_within(m: _Moments, node: str, asked: Asked, asked_cards: set[str]) -> Decision | None:
    """At a moment or one inside it: the card's own facts anywhere inside first, then the
    moment's, then the moments inside (any allowing it, or every one forbidding it). Not
    inside a whole turn ("the turn it was Set" is not answered by what some step allows)."""
    row = first(m.conn, "timing_node", id=node)
    inside = (
        column(m.conn, "timing_descendants", node=node) if row and row["kind"] != "turn" else []
    )
    if len(m.cards) == 1 and asked.u.chain != "later":
        for n in inside:
            decided = _specific(m.specific(n), n, asked_cards, m.stems)
            if decided:
                return decided
    decided = decide_at(m, node, asked, asked_cards)
    if decided or not inside:
        return decided
    below = [d for n in inside if (d := decide_at(m, n, asked, asked_cards))]
    yes = [d for d in below if d.verdict == "yes"]
    if yes:
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


def _named_subject(u: Understood, asked: Asked) -> dict[str, Any] | None:
    """The card or class asked about, in the asking clause (the last naming an action): the last
    named before the action, else the first after it, never one in a condition ("... when
    the attacked monster is flipped")."""
    folded = fold(u.text)
    named = [{**c, "is": "card"} for c in u.cards] + [{**c, "is": "class"} for c in u.classes]
    # A condition runs to the next comma (or the end).
    ends = [(m.start(), folded.find(",", m.end())) for m in lexicon().condition.finditer(folded)]
    conditions = [(start, end if end >= 0 else len(folded)) for start, end in ends]
    named = sorted(
        (n for n in named if not any(a <= n["start"] < b for a, b in conditions)),
        key=lambda n: n["start"],
    )
    acts = sorted(m.start() for _, cues in lexicon().actions_ for m in cues.finditer(u.text))
    if not named:
        return None
    if not acts:
        return named[0]
    # The asking clause: from the last clause break before the last action on.
    breaks = [m.end() for m in re.finditer(r"[,;:.?!。？！]|\s-\s", folded[: acts[-1]])]
    clause_start = breaks[-1] if breaks else 0
    inside = [n for n in named if n["start"] >= clause_start]
    if not inside:
        return None  # the asking clause names no card or class: it asks about something else
    at = next((a for a in acts if a >= clause_start), acts[0])
    before = [n for n in inside if n["start"] < at]
    return before[-1] if before else inside[0]


def _subject(conn: sqlite3.Connection, u: Understood, asked: Asked) -> tuple[set[str], str, bool]:
    """(the cards asked about, how to name them, whether their card facts are known)."""
    found = _named_subject(u, asked)
    if found is None:
        return set(), "", False
    if found["is"] == "card":
        known = bool(column(conn, "card_classes_of", card=found["id"]))
        return {found["id"]}, found["name"], known
    return set(column(conn, "class_member_cards", cls=found["class"])), found["text"], True


def _sentence(verdict: str, name: str, decisions: list[Decision], conn: sqlite3.Connection) -> str:
    parts = []
    for d in decisions:
        why = narrate("why", why=d.why) if d.why else ""
        moment = at_moment(moment_name(conn, d.node))
        verb = "cannot_activate" if d.verdict == "no" else "can_activate"
        parts.append(narrate(verb, moment=moment, why=why))
    return narrate("activated_at", opening=narrate(verdict), name=name, moments="; ".join(parts))


def _narrowed(u: Understood, asked: Asked) -> bool:
    """Words right after the class asked about narrow it ("that only boosts ATK")."""
    if not u.classes:
        return False
    cls = u.classes[0]
    rest = fold(u.text)[cls["start"] + len(cls["text"]) :].split()
    narrowing = {fold(w) for w in query_data()["classes"]["narrowing"]}
    return bool(rest) and rest[0] in narrowing


def _bare(u: Understood, asked: Asked) -> bool:
    """The question names a card or class, a moment and nothing else ("Shrink at damage calc,
    ok?"): it asks whether the card may be activated then."""
    allowed = set(query_data()["qualifiers"]) | set(cue_words()) | set(stopwords())
    allowed |= {fold(w) for ws in query_data()["qualifiers"].values() for w in ws}
    return not u.terms and all(w in allowed or w in u.rulesets for w in u.words)


def _supposes(text: str) -> bool:
    """The question sets out a situation before it asks (a sentence or a condition)."""
    sentences = [s for s in re.split(r"(?<=[.!。！])\s+", text.strip()) if s.strip()]
    asking = sentences[-1] if sentences else text
    return len(sentences) > 1 or lexicon().split_condition(asking) is not None


def yes_no(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Can the card or class asked about be activated at the moment asked about?"""
    cards, name, known = _subject(conn, u, asked)
    nodes = _of_rulesets(conn, u, list(dict.fromkeys(t["node"] for t in u.timing)))
    action = u.action or ("activate" if (u.cards or u.classes) and _bare(u, asked) else "")
    if not cards or not nodes or u.unresolved or action not in ("activate", "chain"):
        return None
    if u.modality != "can" and _supposes(u.text):
        return None  # "X attacks .... Does its effect activate?": whether its condition is met
    moments = _Moments(conn, cards, known)
    moments.narrowed = not u.cards and _narrowed(u, asked)
    required = words.required_words(conn, u)
    moments.stems = {a for alternatives in required for a in alternatives for a in a.split("|")}
    asked_cards = {c["id"] for c in u.cards}
    decisions = [d for n in nodes if (d := decide_within(moments, n, asked, asked_cards))]
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
    kept = _of_rulesets(conn, u, [f["moment"] for f in specific])
    specific = [f for f in specific if f["moment"] in kept]
    # The moment both rulesets agree on is the name before the detail ("After damage
    # calculation: battle damage (TCG)" is a part of "After damage calculation (OCG)").
    full = {re.split(r" \(", moment_name(conn, f["moment"]))[0] for f in specific}
    names = {re.split(r": ", name)[0] for name in full}
    if len(names) != 1:
        return None
    if {f["moment"] for f in specific} & {t["node"] for t in u.timing}:
        return None  # "when in the Battle Step can I ...": the moment the question names
    where = ", ".join(dict.fromkeys(moment_name(conn, f["moment"]) for f in specific))
    # One moment (one ruleset asked, or both agreeing): its whole name, detail and all.
    verdict = (full if len(full) == 1 else names).pop().lower()
    # The condition the rules allow it under, when every deciding sentence states the same.
    english = [f for f in specific if f["lang"] == "en"] or specific
    conditions = {(lexicon().split_condition(f["quote"]) or ("", ""))[0] for f in english}
    condition = conditions.pop() if len(conditions) == 1 else ""
    if condition:
        verdict = narrate("with_condition", what=verdict, condition=lower_first(condition))
        where = narrate("with_condition", what=where, condition=lower_first(condition))
    return Verdict(
        verdict,
        narrate("only_moment", card=card["name"], moments=where),
        [because(conn, f) for f in specific],
        kind="permission",
        moment=specific[0]["moment"],
        cards=[card["id"]],
    )
