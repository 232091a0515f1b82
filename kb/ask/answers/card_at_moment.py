"""A card at a moment ("can Shrink be activated during damage calculation"): the sentences of
the moment's rules that name the card say whether it can be activated.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ...store.db import column, run
from ..question import Understood
from .common import answer, lower_first, node, ruleset, ruling_data, source, window_nuances


@cache
def _polarity() -> tuple[re.Pattern[str], re.Pattern[str]]:
    p = ruling_data()["polarity"]
    return (
        re.compile("|".join(f"(?:{x})" for x in p["can"]), re.IGNORECASE),
        re.compile("|".join(f"(?:{x})" for x in p["cannot"]), re.IGNORECASE),
    )


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?。])\s+", text) if s]


def card_polarity(sentence: str, card_names: list[str]) -> bool | None:
    """True if the sentence says the card can be activated, False if it cannot, None if silent."""
    can, cannot = _polarity()
    lowered = sentence.casefold()
    pos = min(
        (lowered.find(n.casefold()) for n in card_names if n.casefold() in lowered), default=-1
    )
    if pos < 0:
        return None
    markers = sorted(
        [(m.start(), True) for m in can.finditer(sentence)]
        + [(m.start(), False) for m in cannot.finditer(sentence)]
    )
    after = [m for m in markers if m[0] > pos]
    if after:
        return after[0][1]
    before = [m for m in markers if m[0] < pos]
    return before[-1][1] if before else None


def _verdicts(
    conn: sqlite3.Connection, u: Understood, aliases: list[str]
) -> list[tuple[dict[str, Any], str, bool, str]]:
    """(moment, rule id, can, sentence) for every sentence of the named moments' rules that
    says whether the card can be activated."""
    out = []
    for node_id in dict.fromkeys(t["node"] for t in u.timing):
        moment = node(conn, node_id)
        for rule in run(conn, "timing_node_rules", node=node_id):
            for sentence in _sentences(rule["text"]):
                verdict = card_polarity(sentence, aliases)
                if verdict is not None:
                    out.append((moment, rule["id"], verdict, sentence))
    return out


def card_at_moment_answer(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    card = u.cards[0]
    aliases = column(conn, "ask_concept_forms", kind="card", id=card["id"])
    verdicts = _verdicts(conn, u, aliases)
    if not verdicts:
        return None
    moment, rule_id, can, sentence = verdicts[0]
    rs = f" ({ruleset(moment)})" if ruleset(moment) else ""
    key = "can_activate" if can else "cannot_activate"
    props = moment["properties"]
    reason = next((p for p in props if p["key"] == key and p["rule"] == rule_id), None)
    reason = reason or next((p for p in props if p["key"] == key), None)
    why = f": {lower_first(reason['display'])}" if reason else ""
    text = (
        f"{'Yes' if can else 'No'}: {card['name']} {'can' if can else 'cannot'} be activated "
        f"{moment['en'].lower()}{rs}{why}."
    )
    sources = [source(conn, rule_id)] + ([source(conn, reason["rule"])] if reason else [])
    sequence = [f"Where this is: {moment['path']}{rs}."]
    for other, other_rule, other_can, _ in verdicts[1:]:
        if other["id"] != moment["id"]:
            other_rs = f" ({ruleset(other)})" if ruleset(other) else ""
            verb = "can" if other_can else "cannot"
            sequence.append(f"{other['en']}{other_rs}: {verb} be activated [{other_rule}].")
            sources.append(source(conn, other_rule))
    return answer(
        conn,
        "card_at_timing",
        text,
        sequence=sequence,
        nuances=window_nuances(conn, moment, exclude=set()),
        sources=sources,
        moment=moment,
        card_ids=[card["id"]],
        ruling_id=rule_id,
        quote=sentence,
    )
