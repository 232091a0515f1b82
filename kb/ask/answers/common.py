"""What every composed answer shares: moments with their properties, citations of rules,
warnings about where a ruling comes from, and the answer's shape.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...lookups.labels import authority, authority_noun, language_name
from ...lookups.timing import node_path
from ...store import datafiles
from ...store.db import first, run


def ruling_data() -> dict[str, Any]:
    """ingest/data/rulings.toml: the build reads worked examples with it, answers their
    wording (see kb.store.datafiles)."""
    return datafiles.load("rulings")


def node(conn: sqlite3.Connection, node_id: str) -> dict[str, Any]:
    """A timing moment with its path and what may happen there (``properties``)."""
    found = first(conn, "timing_node", id=node_id)
    assert found is not None, node_id
    found["path"] = node_path(conn, node_id)
    found["properties"] = run(conn, "timing_node_properties", node=node_id)
    return found


def ruleset(moment: dict[str, Any]) -> str:
    """ "TCG", "OCG", or "" for a moment of every ruleset."""
    return moment["ruleset"].upper() if moment["ruleset"] != "*" else ""


def where(moment: dict[str, Any]) -> str:
    """A moment's name with its ruleset: "During damage calculation (TCG)"."""
    return f"{moment['en']} ({ruleset(moment)})" if ruleset(moment) else moment["en"]


def source(conn: sqlite3.Connection, rule_id: str) -> dict[str, Any]:
    """A rule's citation: document, language, era, provenance, file and line."""
    r = first(conn, "rule_source", id=rule_id)
    assert r is not None, rule_id
    return {
        "id": r["id"],
        "document": r["document"],
        "lang": r["lang"],
        "era": r["era"],
        "provenance": r["provenance"],
        "authority": authority(r["provenance"]),
        "file": r["file"],
        "line": r["line_start"],
        "superseded_by": r["superseded_by"],
    }


def warnings(
    conn: sqlite3.Connection, sources: list[dict[str, Any]], card_ids: list[str]
) -> list[str]:
    """An unofficial or machine-translated source, and a card's rulings known to have
    changed, are said before a judge acts on the answer."""
    out: list[str] = []
    for s in {(s["provenance"], s["era"], s["lang"], s["document"]): s for s in sources}.values():
        if s["provenance"] != "official":
            out.append(
                f"{s['document']} is a {authority_noun(s['provenance'])} in "
                f"{language_name(s['lang'])} ({s['era']}), not an official ruling."
            )
    # An old version cited alone: the judge must know a newer one exists.
    cited = {s["document"] for s in sources}
    for s in {s["document"]: s for s in sources}.values():
        newer = s.get("superseded_by")
        if newer and newer not in cited:
            out.append(
                f"{s['document']} is superseded by {newer}: check the current wording "
                f"(kb history {s['id']})."
            )
    for card_id in dict.fromkeys(card_ids):
        card = first(conn, "card_note", id=card_id)
        if card and card["notes"]:
            out.append(f"{card['name']}: {card['notes']}")
    return out


def names(conn: sqlite3.Connection, ids: list[str]) -> list[str]:
    """Card names of card ids, in order."""
    found = {i: first(conn, "card_note", id=i) for i in dict.fromkeys(ids)}
    return [found[i]["name"] if found[i] else i for i in ids]  # type: ignore[index]


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def window_nuances(
    conn: sqlite3.Connection, moment: dict[str, Any] | None, exclude: set[str]
) -> list[dict[str, Any]]:
    """What else the rules say about the moment, one line per property, with its rules."""
    if not moment:
        return []
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for p in moment["properties"]:
        if p["key"] in exclude:
            continue
        entry = seen.setdefault((p["key"], p["value"]), {"text": p["display"], "rules": []})
        entry["rules"].append(p["rule"])
    return [{"text": f"{where(moment)}: {e['text']}.", "rules": e["rules"]} for e in seen.values()]


def quote_gloss(
    conn: sqlite3.Connection, rule_id: str, quote: str, lang: str
) -> dict[str, str] | None:
    """The English of a quote from a rule in ``lang``, another language than English: the
    sentence of the rule's curated English gloss standing where the quote stands in the rule
    (when the two have as many sentences), with the gloss's provenance; None when there is
    none."""
    if lang == "en":
        return None  # most quotes: no lookup
    from ingest.sentences import split_sentences

    rule = first(conn, "rule_text", id=rule_id)
    if rule is None:
        return None
    gloss = next((g for g in run(conn, "rule_glosses", id=rule_id) if g["lang"] == "en"), None)
    if gloss is None:
        return None
    said, glossed = split_sentences(rule["text"]), split_sentences(gloss["text"])
    if quote in glossed or quote == gloss["text"]:
        return None  # the quote is the English already
    at = next((i for i, s in enumerate(said) if quote.strip() in s or s in quote), None)
    if at is None or len(said) != len(glossed):
        return None
    return {"text": glossed[at], "lang": "en", "authority": authority("gloss")}


def _ruling_gloss(
    conn: sqlite3.Connection, ruling_id: str | None, quote: str, sources: list[dict[str, Any]]
) -> dict[str, str] | None:
    """The English gloss of the deciding rule's quote (its language from its source)."""
    if not ruling_id or not quote:
        return None
    cited = next((s for s in sources if s["id"] == ruling_id), None) or source(conn, ruling_id)
    return quote_gloss(conn, ruling_id, quote, cited["lang"])


def answer(
    conn: sqlite3.Connection,
    kind: str,
    ruling: str,
    *,
    sequence: list[str] | None = None,
    nuances: list[dict[str, Any]] | None = None,
    sources: list[dict[str, Any]],
    moment: dict[str, Any] | None = None,
    card_ids: list[str] | None = None,
    ruling_id: str | None = None,
    quote: str = "",
) -> dict[str, Any]:
    """The shape of every composed answer (documented in the README under kb ask --json)."""
    unique = list({s["id"]: s for s in sources}.values())
    cards = list(dict.fromkeys(card_ids or []))
    return {
        "type": kind,
        "ruling": ruling,
        "sequence": sequence or [],
        "nuances": nuances or [],
        "sources": unique,
        "warnings": warnings(conn, unique, cards),
        "timing": {"id": moment["id"], "path": moment["path"], "ruleset": moment["ruleset"]}
        if moment
        else None,
        "cards": names(conn, cards),
        "ruling_id": ruling_id,
        "quote": quote,
        "quote_gloss": _ruling_gloss(conn, ruling_id, quote, unique),
        "verdict": None,
        "because": [],
        "conflicts": [],
    }
