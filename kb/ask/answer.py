"""Composed answers for timing questions, built from the stored structure.

Three shapes, each from rows of the knowledge base and never from text written for one
question:

* **vs**: two cards (``Honest vs Honest``). The worked example naming both is read from its
  event steps (attack, activate, respond, cannot, resolve, result); the timing window it sits
  in supplies the limits (one Chain, no responses) and the tree its Chain order.
* **card at a moment** (``can Shrink be activated during damage calculation``): the sentences
  of that window's rules that name the card say whether it can be activated.
* **a moment** (``how many chains during damage calculation``): what the window's rules say.

Every statement carries the rule ids it comes from; warnings say when the source is old,
unofficial or machine-translated, and when a card's rulings are known to have changed.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.text import CJK_RUN, fold

from .. import datafiles
from ..labels import authority, authority_noun, language_name
from ..timing import node_path
from .understand import Understood, query_data


def _ruling_data() -> dict[str, Any]:
    # The same curated file the build reads the steps with (see kb.datafiles).
    return datafiles.load("rulings")


@cache
def _polarity() -> tuple[re.Pattern[str], re.Pattern[str]]:
    p = _ruling_data()["polarity"]
    return (
        re.compile("|".join(f"(?:{x})" for x in p["can"]), re.IGNORECASE),
        re.compile("|".join(f"(?:{x})" for x in p["cannot"]), re.IGNORECASE),
    )


def _rows(conn: sqlite3.Connection, sql: str, *params: Any) -> list[dict[str, Any]]:
    return [dict(r) for r in conn.execute(sql, params)]


def _node(conn: sqlite3.Connection, node_id: str) -> dict[str, Any]:
    node = _rows(
        conn,
        "SELECT n.*, t.title AS tree_title, t.chain_order FROM timing_nodes n "
        "JOIN timing_trees t ON t.id = n.tree WHERE n.id = ?",
        node_id,
    )[0]
    node["path"] = node_path(conn, node_id)
    node["properties"] = _rows(
        conn,
        "SELECT key, value, display, rule FROM timing_properties WHERE node = ? ORDER BY id",
        node_id,
    )
    return node


def _ruleset(node: dict[str, Any]) -> str:
    return node["ruleset"].upper() if node["ruleset"] != "*" else ""


def _source(conn: sqlite3.Connection, rule_id: str) -> dict[str, Any]:
    r = _rows(
        conn,
        "SELECT r.id, r.document, r.lang, r.era, r.line_start, d.file, d.provenance, d.title "
        "FROM rules r JOIN documents d ON d.id = r.document WHERE r.id = ?",
        rule_id,
    )[0]
    return {
        "id": r["id"],
        "document": r["document"],
        "lang": r["lang"],
        "era": r["era"],
        "provenance": r["provenance"],
        "authority": authority(r["provenance"]),
        "file": r["file"],
        "line": r["line_start"],
    }


def _warnings(
    conn: sqlite3.Connection, sources: list[dict[str, Any]], card_ids: list[str]
) -> list[str]:
    out: list[str] = []
    for s in {(s["provenance"], s["era"], s["lang"], s["document"]): s for s in sources}.values():
        if s["provenance"] != "official":
            out.append(
                f"{s['document']} is a {authority_noun(s['provenance'])} in "
                f"{language_name(s['lang'])} ({s['era']}), not an official ruling."
            )
    for card_id in dict.fromkeys(card_ids):
        notes = _rows(conn, "SELECT name, notes FROM cards WHERE id = ?", card_id)
        if notes and notes[0]["notes"]:
            out.append(f"{notes[0]['name']}: {notes[0]['notes']}")
    return out


def _names(conn: sqlite3.Connection, ids: list[str]) -> list[str]:
    return [_rows(conn, "SELECT name FROM cards WHERE id = ?", i)[0]["name"] for i in ids]


def _player(actor: str) -> str:
    return f"Player {actor}" if actor else "A player"


def _result_text(step: dict[str, Any], names: list[str]) -> str:
    for entry in _ruling_data().get("results", []):
        if any(re.search(p, step["text"], re.IGNORECASE) for p in entry["patterns"]):
            try:
                return entry["template"].format(*names)
            except IndexError:
                continue
    return ""


# ---- X vs Y ----------------------------------------------------------------------------------
def _vs_ruling(conn: sqlite3.Connection, a: str, b: str) -> dict[str, Any] | None:
    """The worked example (else any ruling) naming both cards; the same card twice must be
    activated twice in it."""
    rows = _rows(
        conn,
        "SELECT ru.*, (SELECT count(*) FROM ruling_steps s WHERE s.ruling = ru.id "
        "  AND s.event IN ('activate', 'respond') AND (' ' || s.cards || ' ') LIKE '% ' || ? || ' "
        "%') AS uses "
        "FROM rulings ru WHERE ru.id IN (SELECT ruling FROM ruling_cards WHERE card = ?) "
        "AND ru.id IN (SELECT ruling FROM ruling_cards WHERE card = ?) ORDER BY ru.kind != "
        "'example', ru.id",
        a,
        a,
        b,
    )
    if a == b:
        rows = [r for r in rows if r["uses"] >= 2]
    return rows[0] if rows else None


def _vs_answer(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    assert u.vs is not None
    a, b = u.vs[0]["id"], u.vs[1]["id"]
    ruling = _vs_ruling(conn, a, b) or _vs_ruling(conn, b, a)
    if ruling is None:
        return None
    steps = _rows(conn, "SELECT * FROM ruling_steps WHERE ruling = ? ORDER BY ord", ruling["id"])
    node = _node(conn, ruling["timing"]) if ruling["timing"] else None
    props = {p["key"]: p for p in node["properties"]} if node else {}
    window = node["en"].lower() if node else "this moment"
    sources = [_source(conn, ruling["id"])]
    sequence: list[str] = []
    links: list[tuple[str, str]] = []  # (actor, card name) per Chain Link
    cannot_note = ""
    result = ""
    for step in steps:
        names = _names(conn, step["cards"].split()) if step["cards"] else []
        if step["event"] == "attack" and names:
            target = names[0]
            attacker = f" with {names[1]}" if len(names) > 1 else ""
            sequence.append(
                f"{_player(step['actor'])} attacks {target}{attacker}; the Damage Step begins."
            )
        elif step["event"] == "activate" and names:
            links.append((step["actor"], names[0]))
            sequence.append(
                f"{node['en'] if node else 'Then'}: {_player(step['actor'])} activates {names[0]} "
                f"(Chain Link {len(links)})."
            )
        elif step["event"] == "respond" and names:
            links.append((step["actor"], names[0]))
            reason = ""
            if props.get("chains", {}).get("value") == "one":
                reason = (
                    f" Only one Chain is allowed {window}, so this is the only chance to use it."
                )
                sources.append(_source(conn, props["chains"]["rule"]))
            sequence.append(
                f"{_player(step['actor'])} chains {names[0]} to it (Chain Link "
                f"{len(links)}).{reason}"
            )
        elif step["event"] == "cannot":
            prop = (
                next((p for p in node["properties"] if p["rule"] == ruling["id"]), None)
                if node
                else None
            )
            if prop:
                cannot_note = (
                    f"{_player(step['actor'])} cannot wait for a later Chain. {prop['display']}."
                )
            elif names:
                limit = props.get("cannot_activate")
                why = f": {_lower_first(limit['display'])} {window}" if limit else ""
                cannot_note = f"{_player(step['actor'])} cannot respond with {names[0]}{why}."
                if limit:
                    sources.append(_source(conn, limit["rule"]))
            if cannot_note:
                sequence.append(cannot_note)
        elif step["event"] == "result" and names:
            result = _result_text(step, names)
            if result:
                sequence.append(f"Result, as the source states: {result}.")
    order = node["chain_order"] if node else ""
    if len(links) > 1:
        resolution = ", then ".join(
            f"Chain Link {i} ({_player(actor)}'s {card})"
            for i, (actor, card) in reversed(list(enumerate(links, 1)))
        )
        how = "last in, first out" if order == "last in, first out" else order or "in reverse order"
        insert_at = next(
            (i for i, s in enumerate(sequence) if s.startswith("Result")), len(sequence)
        )
        sequence.insert(insert_at, f"The Chain resolves {how}: {resolution}.")
    first, second = (links + [("", ""), ("", "")])[:2]
    if len(links) > 1:
        one_chain = (
            "in a single Chain"
            if props.get("chains", {}).get("value") == "one"
            else "in the same Chain"
        )
        ruling_text = (
            f"Both cards are activated {window}, {one_chain}: {_player(second[0])} must chain "
            f"{second[1]} to "
            f"{_player(first[0])}'s {first[1]}; the Chain resolves {order or 'in reverse order'}, "
            f"so "
            f"{_player(second[0])}'s {second[1]} resolves first"
        )
        ruling_text += f", and {result}." if result else "."
    elif cannot_note:
        ruling_text = f"{_ruling_subject(first)}{cannot_note}"
    elif result:
        ruling_text = f"{result[0].upper()}{result[1:]}."
    else:
        return None
    nuances = _window_nuances(conn, node, exclude={"chains"} if len(links) > 1 else set())
    sources += (
        [_source(conn, p["rule"]) for p in node["properties"] if p["key"] == "responses"]
        if node
        else []
    )
    return _answer(conn, "vs", ruling_text, sequence, nuances, sources, node, [a, b], ruling["id"])


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _ruling_subject(first: tuple[str, str]) -> str:
    return f"When {_player(first[0])} activates {first[1]}: " if first[1] else ""


def _window_nuances(
    conn: sqlite3.Connection, node: dict[str, Any] | None, exclude: set[str]
) -> list[dict[str, Any]]:
    if not node:
        return []
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for p in node["properties"]:
        if p["key"] in exclude:
            continue
        entry = seen.setdefault((p["key"], p["value"]), {"text": p["display"], "rules": []})
        entry["rules"].append(p["rule"])
    where = f"{node['en']} ({_ruleset(node)})" if _ruleset(node) else node["en"]
    return [{"text": f"{where}: {e['text']}.", "rules": e["rules"]} for e in seen.values()]


# ---- a card at a moment -------------------------------------------------------------------
def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?。])\s+", text) if s]


def card_polarity(sentence: str, names: list[str]) -> bool | None:
    """True if the sentence says the card can be activated, False if it cannot, None if silent."""
    can, cannot = _polarity()
    lowered = sentence.casefold()
    pos = min((lowered.find(n.casefold()) for n in names if n.casefold() in lowered), default=-1)
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


def _card_at_timing(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    card = u.cards[0]
    aliases = [
        r["alias"] for r in _rows(conn, "SELECT alias FROM card_aliases WHERE card = ?", card["id"])
    ]
    verdicts = []
    for node_id in dict.fromkeys(t["node"] for t in u.timing):
        node = _node(conn, node_id)
        rules = _rows(
            conn,
            "SELECT r.id, r.text FROM timing_rules t JOIN rules r ON r.id = t.rule WHERE t.node = "
            "? "
            "ORDER BY r.seq",
            node_id,
        )
        for rule in rules:
            for sentence in _sentences(rule["text"]):
                verdict = card_polarity(sentence, aliases)
                if verdict is not None:
                    verdicts.append((node, rule["id"], verdict, sentence))
    if not verdicts:
        return None
    node, rule_id, can, sentence = verdicts[0]
    ruleset = f" ({_ruleset(node)})" if _ruleset(node) else ""
    reason_key = "can_activate" if can else "cannot_activate"
    reason = next(
        (p for p in node["properties"] if p["key"] == reason_key and p["rule"] == rule_id), None
    )
    reason = reason or next((p for p in node["properties"] if p["key"] == reason_key), None)
    why = f": {reason['display'][0].lower()}{reason['display'][1:]}" if reason else ""
    ruling_text = (
        f"{'Yes' if can else 'No'}: {card['name']} {'can' if can else 'cannot'} be activated "
        f"{node['en'].lower()}{ruleset}{why}."
    )
    sources = [_source(conn, rule_id)] + ([_source(conn, reason["rule"])] if reason else [])
    sequence = [f"Where this is: {node['path']}{ruleset}."]
    for other_node, other_rule, other_can, _ in verdicts[1:]:
        if other_node["id"] != node["id"]:
            other_ruleset = f" ({_ruleset(other_node)})" if _ruleset(other_node) else ""
            sequence.append(
                f"{other_node['en']}{other_ruleset}: {'can' if other_can else 'cannot'} be "
                f"activated "
                f"[{other_rule}]."
            )
            sources.append(_source(conn, other_rule))
    nuances = _window_nuances(conn, node, exclude=set())
    return _answer(
        conn,
        "card_at_timing",
        ruling_text,
        sequence,
        nuances,
        sources,
        node,
        [card["id"]],
        rule_id,
        quote=sentence,
    )


# ---- a moment ---------------------------------------------------------------------------------
# Which properties to state first, by what the question asks about.
_PROPERTY_ORDER = (
    "chains",
    "responses",
    "priority",
    "can_activate",
    "cannot_activate",
    "damage_calculation",
)
_ASKS_ABOUT = {"chain": ("chains", "responses"), "activate": ("can_activate", "cannot_activate")}


def _timing_answer(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    nodes = [_node(conn, n) for n in dict.fromkeys(t["node"] for t in u.timing)]
    nodes = [n for n in nodes if n["properties"]]
    if not nodes:
        return None
    first = [k for term in u.terms for k in _ASKS_ABOUT.get(term["term"], ())]
    first += [
        k for w in u.words for key, ks in _ASKS_ABOUT.items() if w.startswith(key) for k in ks
    ]
    order = list(dict.fromkeys([*first, *_PROPERTY_ORDER]))
    parts, sources = [], []
    for node in nodes:
        shown: dict[tuple[str, str], dict[str, Any]] = {}
        for p in sorted(
            node["properties"], key=lambda p: order.index(p["key"]) if p["key"] in order else 99
        ):
            shown.setdefault((p["key"], p["value"]), p)
        ruleset = f" ({_ruleset(node)})" if _ruleset(node) else ""
        statements = [p["display"] for p in shown.values()]
        parts.append(
            f"{node['en']}{ruleset}: " + "; ".join(_lower_first(x) for x in statements) + "."
        )
        sources += [_source(conn, p["rule"]) for p in shown.values()]
    node = nodes[0]
    siblings = _rows(
        conn,
        "SELECT en, label, id FROM timing_nodes WHERE parent IS ? AND tree = ? ORDER BY ord",
        node["parent"],
        node["tree"],
    )
    sequence = [
        f"{s['label'] + '. ' if s['label'] else ''}{s['en']}"
        + ("  ← this moment" if s["id"] == node["id"] else "")
        for s in siblings
    ]
    return _answer(conn, "timing", " ".join(parts), sequence, [], sources, node, [], None)


def _answer(
    conn: sqlite3.Connection,
    kind: str,
    ruling: str,
    sequence: list[str],
    nuances: list[dict[str, Any]],
    sources: list[dict[str, Any]],
    node: dict[str, Any] | None,
    card_ids: list[str],
    ruling_id: str | None,
    quote: str = "",
) -> dict[str, Any]:
    unique = list({s["id"]: s for s in sources}.values())
    return {
        "type": kind,
        "ruling": ruling,
        "sequence": sequence,
        "nuances": nuances,
        "sources": unique,
        "warnings": _warnings(conn, unique, card_ids),
        "timing": {"id": node["id"], "path": node["path"], "ruleset": node["ruleset"]}
        if node
        else None,
        "cards": _names(conn, list(dict.fromkeys(card_ids))),
        "ruling_id": ruling_id,
        "quote": quote,
    }


def _asks_restriction(u: Understood) -> bool:
    folded = fold(u.text)
    return any(
        re.search(rf"(?<!\w){re.escape(fold(c))}(?!\w)", folded)
        or (CJK_RUN.search(c) and c in u.text)
        for c in query_data()["restriction"]["cues"]
    )


def _restriction_answer(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    """Where the named cards stand on the restriction lists the corpus has (kb.restrictions)."""
    parts, sources, cards = [], [], []
    for card in u.cards:
        rows = _rows(
            conn,
            "SELECT x.list, x.status, x.name, x.rule FROM restrictions x JOIN rules r ON r.id = "
            "x.rule WHERE x.card = ? ORDER BY r.seq, x.ord",
            card["id"],
        )
        if not rows:
            continue
        cards.append(card["id"])
        listed = "; ".join(
            f"{r['status']} on list {r['list']}"
            + (f" (listed as {r['name']})" if fold(r["name"]) != fold(card["name"]) else "")
            for r in rows
        )
        parts.append(f"{card['name']}: {listed}.")
        sources += [_source(conn, r["rule"]) for r in rows]
    if not parts:
        return None
    return _answer(conn, "restriction", " ".join(parts), [], [], sources, None, cards, None)


def compose(conn: sqlite3.Connection, u: Understood) -> dict[str, Any] | None:
    """A composed answer when the question names two cards, a card and a moment, a moment, or
    a card and its restriction status."""
    if u.cards and not u.timing and _asks_restriction(u):
        return _restriction_answer(conn, u)
    if u.vs:
        return _vs_answer(conn, u)
    if u.cards and u.timing:
        return _card_at_timing(conn, u)
    if u.timing and not u.cards:
        return _timing_answer(conn, u)
    return None
