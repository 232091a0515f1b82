"""What the website shows beside a rule wherever the rule is shown, as plain data.

Every page that lists rules (a section, search results, an answer's passages, a card's
rulings, a timing chart's moments, a comparison table, a whole document, a glossary term)
shows the same things next to each rule:
- ``notes``: the ruling-change note of each card the rule names (Honest's 2014 change), so an
  old ruling is never read as current;
- ``glosses``: curated readings in another language (the English glosses of the Vietnamese
  Damage Step rulings), marked as community glosses;
- ``translations``: the rules aligned with it in other languages (or its source), both ways,
  and ``side_by_side``: its row of the comparison table, where they are read together;
- ``current``: for a rule of a superseded rulebook, the same rule in the current version
  (followed through the version diff, else by number), or that it was removed;
- ``changed``: for a rule of a newer version, how it changed from the version before (new,
  moved, reworded), with its history page.

``rule_extras`` returns only the rules that have one of them, so the JSON stays small.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from ...lookups.labels import authority, language_name, name_sources
from ..urls import anchor, card_url, compare_url, history_url, rule_url

if TYPE_CHECKING:
    from ...api import KnowledgeBase

# Old versions followed at most this far (a rulebook with this many versions is not expected).
MAX_HOPS = 10


def _current(kb: KnowledgeBase, docs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Rule id (of a superseded rulebook) -> the same rule in the current version."""
    old = [rid for rid, d in docs.items() if d["superseded_by"]]
    out: dict[str, Any] = {}
    follow = {rid: rid for rid in old}  # where each old rule has got to
    for _ in range(MAX_HOPS):
        if not follow:
            break
        nxt: dict[str, str] = {}
        found = {
            row["rule"]: row for row in kb.rows("current_versions", ids=list(set(follow.values())))
        }
        for start, at in follow.items():
            row = found.get(at)
            if row is None:
                continue
            if not row["id"]:
                out[start] = {"kind": "removed", "version": row["version"], "id": None}
                continue
            nxt[start] = row["id"]
            out[start] = {
                "kind": row["kind"],
                "id": row["id"],
                "number": row["number"],
                "version": row["version"],
                "document": row["document"],
                "url": rule_url(row["id"]),
            }
        # Stop where the rule reached a current document.
        still = {
            r["id"]
            for r in kb.rows("rules_documents", ids=list(nxt.values()))
            if r["superseded_by"]
        }
        follow = {s: a for s, a in nxt.items() if a in still}
    for rid in old:  # no version diff for it: the same number in the newer version
        if rid in out or not docs[rid]["number"]:
            continue
        row = next(
            iter(
                kb.rows(
                    "rule_in_document",
                    document=docs[rid]["superseded_by"],
                    number=docs[rid]["number"],
                )
            ),
            None,
        )
        if row:
            out[rid] = {
                "kind": "same number",
                "id": row["id"],
                "number": row["number"],
                "version": row["version"],
                "document": docs[rid]["superseded_by"],
                "url": rule_url(row["id"]),
            }
    return out


def _side_by_side(rule_id: str, translations: list[dict[str, Any]]) -> str | None:
    """The comparison table's row of a rule and its translations: the rule's own row when it is
    the source, its source's row when it is a translation."""
    if not translations:
        return None
    source = next((t for t in translations if t["variant"] == "original"), None)
    source_id = source["id"] if source else rule_id
    document = source_id.split(":", 1)[0]
    return compare_url(document) + "?" + urlencode({"jump": anchor(source_id, document)})


def readable(kb: KnowledgeBase, text: str) -> str:
    """A curated note as a reader sees it: a source it cites by file number or document id
    ("the 2010-era TCG rulings (003)") cited by the document's title."""
    return name_sources(text, kb.rows("documents", game="")) if text else text


def rule_extras(kb: KnowledgeBase, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Rule id -> its notes, glosses, translations and current version (see the module)."""
    wanted = list(dict.fromkeys(i for i in ids if i))
    if not wanted:
        return {}
    out: dict[str, dict[str, Any]] = {}

    def entry(rid: str) -> dict[str, Any]:
        return out.setdefault(
            rid,
            {
                "notes": [],
                "glosses": [],
                "translations": [],
                "side_by_side": None,
                "current": None,
                "changed": None,
            },
        )

    for row in kb.rows("rule_card_notes", ids=wanted):
        entry(row["rule"])["notes"].append(
            {
                "card": row["id"],
                "name": row["name"],
                "url": card_url(row["id"]),
                "note": readable(kb, row["notes"]),
            }
        )
    for row in kb.rows("rules_glosses", ids=wanted):
        entry(row["rule"])["glosses"].append(
            {
                "lang": row["lang"],
                "language_name": language_name(row["lang"]),
                "text": row["text"],
                "note": row["note"],
                "source": row["source"],
                "provenance_label": authority("gloss"),
            }
        )
    for row in kb.rows("rules_translations", ids=wanted):
        entry(row["rule"])["translations"].append(
            {
                "id": row["id"],
                "url": rule_url(row["id"]),
                "lang": row["lang"],
                "language_name": language_name(row["lang"]),
                "variant": row["variant"],
                "provenance": row["provenance"],
            }
        )
    for row in kb.rows("rule_changed_in", ids=wanted):
        entry(row["rule"])["changed"] = {
            "kind": row["kind"],
            "version": row["version"],
            "old_version": row["old_version"],
            "old_number": row["old_number"],
            "url": history_url(row["rule"]),
        }
    for rid, x in out.items():
        x["side_by_side"] = _side_by_side(rid, x["translations"])
    docs = {row["id"]: row for row in kb.rows("rules_documents", ids=wanted)}
    for rid, current in _current(kb, docs).items():
        entry(rid)["current"] = current
    return out


def notes_of(extras: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The distinct card notes of a page's rules (for one warning at the top of a page)."""
    seen: dict[str, dict[str, Any]] = {}
    for x in extras.values():
        for n in x["notes"]:
            seen.setdefault(n["card"], n)
    return list(seen.values())
