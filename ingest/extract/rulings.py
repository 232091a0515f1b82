"""Rulings: every rule that names a card, and the structured worked examples and FAQ entries.

A worked example (``Ví dụ 4: Honest Vs. Honest``) is stored as its situation, what the source
rules, and the sequence of its sentences, each read as an event (setup, attack, activate,
respond, cannot, resolve, result) with its actor and the cards it names, using the
multilingual patterns of data/rulings.toml. FAQ entries keep their question and answer.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from ..records import DocumentResult, Rule, Ruling, RulingStep
from ..sentences import split_sentences


@cache
def _patterns() -> dict[str, Any]:
    text = resources.files("ingest").joinpath("data/rulings.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)

    def compile_all(entries: list[dict[str, Any]], key: str) -> list[tuple[str, re.Pattern[str]]]:
        return [
            (e[key], re.compile("|".join(f"(?:{p})" for p in e["patterns"]), re.IGNORECASE))
            for e in entries
        ]

    return {
        "actors": compile_all(data["actors"], "actor"),
        "events": compile_all(data["events"], "event"),
        "pronoun": re.compile("|".join(f"(?:{p})" for p in data["pronouns"]["patterns"])),
    }


def classify(sentence: str, previous_actor: str = "") -> tuple[str, str]:
    """(event, actor) of one sentence of a worked example.

    The actor is the first player the sentence names; a sentence that opens with a pronoun is
    about the actor of the sentence before it.
    """
    p = _patterns()
    event = next((e for e, pattern in p["events"] if pattern.search(sentence)), "other")
    if p["pronoun"].search(sentence):
        return event, previous_actor
    hits = [(m.start(), a) for a, pattern in p["actors"] if (m := pattern.search(sentence))]
    return event, min(hits)[1] if hits else ""


def _cards_in(text: str, names: list[tuple[str, str]]) -> tuple[str, ...]:
    """Cards named in ``text``, in order, longest name first where names overlap."""
    found: list[tuple[int, int, str]] = []
    for alias, cid in names:  # longest first
        for m in re.finditer(rf"(?<!\w){re.escape(alias)}(?!\w)", text):
            if not any(s < m.end() and m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), cid))
    ordered: list[str] = []
    for _, _, cid in sorted(found):
        if cid not in ordered:
            ordered.append(cid)
    return tuple(ordered)


def _owners(steps: list[RulingStep]) -> dict[str, set[str]]:
    """Which player has which card, from the setup sentences."""
    owners: dict[str, set[str]] = {}
    for step in steps:
        if step.event == "setup" and step.actor:
            for cid in step.cards:
                owners.setdefault(cid, set()).add(step.actor)
    return owners


def extract_rulings(
    documents: Sequence[DocumentResult],
    mentions: dict[str, list[str]],
    rule_node: dict[str, str],
    aliases: list[tuple[str, str]],
) -> tuple[list[Ruling], list[RulingStep]]:
    """Rulings and the steps of worked examples. ``aliases`` are (alias, card id) pairs."""
    names = sorted(aliases, key=lambda a: -len(a[0]))
    rulings: list[Ruling] = []
    steps: list[RulingStep] = []
    for d in documents:
        children: dict[str, list[Rule]] = {}
        for rule in d.rules:
            if rule.parent:
                children.setdefault(rule.parent, []).append(rule)
        in_faq: set[str] = set()
        for rule in d.rules:
            if rule.kind == "question":
                answers = [c for c in children.get(rule.id, []) if c.kind == "answer"]
                in_faq.update(a.id for a in answers)
                cards: list[str] = []
                for r in (rule, *answers):
                    cards += [c for c in mentions.get(r.id, []) if c not in cards]
                rulings.append(
                    Ruling(
                        rule.id,
                        tuple(cards),
                        rule_node.get(rule.id),
                        "faq",
                        rule.title or rule.text,
                        rule.text,
                        "\n".join(a.text for a in answers),
                    )
                )
            elif rule.kind == "example":
                ruling_steps: list[RulingStep] = []
                actor = ""
                for i, sentence in enumerate(split_sentences(rule.text), start=1):
                    event, actor = classify(sentence, actor)
                    cards_here = _cards_in(sentence, names)
                    if event in ("activate", "respond") and cards_here and not actor:
                        # An activation without a named player: the player who has the card.
                        owner = _owners(ruling_steps).get(cards_here[0], set())
                        actor = next(iter(owner)) if len(owner) == 1 else ""
                    ruling_steps.append(RulingStep(rule.id, i, sentence, event, actor, cards_here))
                situation = [s.text for s in ruling_steps if s.event in ("setup", "attack")]
                outcome = [s.text for s in ruling_steps if s.event not in ("setup", "attack")]
                steps += ruling_steps
                rulings.append(
                    Ruling(
                        rule.id,
                        tuple(mentions.get(rule.id, [])),
                        rule_node.get(rule.id),
                        "example",
                        rule.title or rule.label,
                        " ".join(situation),
                        " ".join(outcome),
                    )
                )
            elif rule.id in mentions and rule.id not in in_faq:
                rulings.append(
                    Ruling(
                        rule.id,
                        tuple(mentions[rule.id]),
                        rule_node.get(rule.id),
                        rule.kind,
                        rule.title,
                        "",
                        rule.text,
                    )
                )
    return rulings, steps
