"""Translations side by side: ``/compare`` (documents that have translations),
``/compare/<document>?variants=vi-mt1,vi-mt2`` (the source and its variants in columns, one
row per source rule, with the translation checks) and ``/compare/<document>/diff/<rule id>``
(the word diff of two translations of one rule).

Built on kb.lookups.compare (rows aligned by the build, checks of translation quality) and
kb.lookups.variantdiff (the word diff of two translations). A source rule translated by two
sentences has both in its cell; a translation the aligner found no source for gets a row of its
own with an empty source cell. Re-exported by kb.pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ingest import worddiff

from ...lookups.compare import resolve_document
from ...lookups.labels import authority
from ...store.db import KbError
from ..urls import (
    anchor,
    cite,
    compare_url,
    document_url,
    game_url,
    language_name,
    rule_url,
    variant_diff_url,
)
from .extras import rule_extras

if TYPE_CHECKING:
    from ...api import KnowledgeBase

# Worst first: a row takes the class of its worst check.
SEVERITIES = ("error", "warning", "info")


def compare_index(kb: KnowledgeBase) -> dict[str, Any]:
    """The documents that have translation variants, each with its comparison page."""
    docs = []
    for row in kb.rows("translated_documents"):
        variants = sorted(set(row.pop("variants").split(",")))
        docs.append(
            {
                **row,
                "variants": variants,
                "language_name": language_name(row["lang"]),
                "url": compare_url(row["id"]),
                "document_url": document_url(row["id"]),
                "game_url": game_url(row["game"]),
            }
        )
    return {"documents": docs}


def compare_targets(kb: KnowledgeBase, ref: str) -> tuple[str, list[str]] | None:
    """The source document a ref names, and the variants it asks for: an id or file name of a
    source document (no variants: all), or the id of one translation (only that variant)."""
    row = kb.row("document_translation", document=ref)
    if row is not None and row["translation_of"]:
        return row["translation_of"], [row["variant"]]
    try:
        return resolve_document(kb.conn, ref), []
    except KbError:
        return None


def _document_column(doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "document": doc["id"],
        "title": doc["title"],
        "variant": doc["variant"],
        "lang": doc["lang"],
        "language_name": language_name(doc["lang"]),
        "provenance": doc["provenance"],
        "provenance_label": authority(doc["provenance"]),
        "era": doc["era"],
        "file": doc["file"],
        "url": document_url(doc["id"]),
    }


def _worst(checks: list[dict[str, Any]]) -> str:
    found = {c["severity"] for c in checks}
    return next((s for s in SEVERITIES if s in found), "")


def _rule(rule_id: str, rules: dict[str, dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A rule in a cell: its text, anchor and citation (provenance, era, file:line)."""
    info = rules[rule_id]
    return {
        **cite(info),
        "text": info["text"],
        "game": info["game"],
        "number": info["number"],
        "anchor": anchor(rule_id, info["document"]),
        **extra,
    }


def _table_row(
    n: int,
    row: Mapping[str, Any],
    document: str,
    variants: list[str],
    rules: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """One row of the table: the source cell, a cell per variant, the row's checks, and the
    word diff of the first two variants when both have text."""
    source_ids = row["source"]["id"].split() if row["source"] else []
    checks = [{**c, "rule_url": rule_url(c["rule"])} for c in row["checks"]]
    cells: list[dict[str, Any]] = []
    for variant in variants:
        targets = row["targets"].get(variant, [])
        mine = [c for c in checks if c["variant"] == variant]
        cells.append(
            {
                "variant": variant,
                "rules": [
                    _rule(t["id"], rules, score=t["score"], method=t["method"]) for t in targets
                ],
                "checks": mine,
                "severity": _worst(mine),
            }
        )
    target_ids = [r["id"] for c in cells for r in c["rules"]]
    diff = None
    texted = [c for c in cells if c["rules"]]
    if source_ids and len(texted) >= 2:
        left, right = texted[0], texted[1]
        segments = worddiff.diff(
            " ".join(r["text"] for r in left["rules"]),
            " ".join(r["text"] for r in right["rules"]),
            exact=True,
        )
        diff = {
            "left": left["variant"],
            "right": right["variant"],
            "segments": worddiff.as_dicts(segments),
            "url": variant_diff_url(document, source_ids[0], left["variant"], right["variant"]),
        }
    return {
        "n": n,
        "anchor": anchor(source_ids[0], document) if source_ids else f"only-{target_ids[0]}",
        "source": [_rule(s, rules) for s in source_ids] if source_ids else None,
        "cells": cells,
        "checks": checks,
        "severity": _worst(checks),
        "diff": diff,
    }


def _sections(table: list[dict[str, Any]], rules: dict[str, dict[str, Any]]) -> list[dict]:
    """Each row's section (of its source rule; a row without one, that of the row before),
    and the sections in order with their row counts."""
    order: dict[str, dict[str, Any]] = {}
    current = None
    for row in table:
        if row["source"]:
            info = rules[row["source"][0]["id"]]
            current = info["slug"]
            order.setdefault(
                current,
                {
                    "slug": current,
                    "number": info["section_number"],
                    "title": info["section_title"],
                    "lang": info["section_lang"],
                    "rows": 0,
                    "with_checks": 0,
                },
            )
        row["section"] = current or ""
        if current:
            order[current]["rows"] += 1
            order[current]["with_checks"] += bool(row["checks"])
    return list(order.values())


def jump_target(data: dict[str, Any], text: str) -> str | None:
    """The row a jump box names: a source rule's anchor or number ("objectives-of-the-game.2",
    "105.4"), a section's number or title; its URL (section filter kept), else None."""
    wanted = " ".join(text.split()).casefold().rstrip(".")
    if not wanted:
        return None
    for row in data["rows"]:
        names = {row["anchor"].casefold()} | {
            (r.get(key) or "").casefold()
            for r in row["source"] or []
            for key in ("number", "anchor")
        }
        if wanted in names - {""}:
            return data["url"] + f"#{row['anchor']}"
    for sec in data["sections"]:
        if wanted in {
            (sec["number"] or "").casefold(),
            (sec["title"] or "").casefold(),
            sec["slug"],
        }:
            return data["section_urls"][sec["slug"]]
    return None


def compare(
    kb: KnowledgeBase,
    ref: str,
    variants: list[str] | None = None,
    section: str = "",
    checks: bool = False,
) -> dict[str, Any] | None:
    """The comparison table of a source document and its translation variants (all, or those
    named), optionally only one section's rows (``section``: its slug) or only the rows with
    translation checks. None when ``ref`` is no source document or a variant it names does
    not exist."""
    target = compare_targets(kb, ref)
    if target is None:
        return None
    document, implied = target
    family = kb.rows("compare_family", document=document)
    source, translations = family[0], family[1:]
    known = [t["variant"] for t in translations]
    wanted = list(dict.fromkeys(variants or implied)) or known
    if any(v not in known for v in wanted):
        return None
    rules = {r["id"]: r for r in kb.rows("family_rules", document=document)}
    rows = kb.compare(document, wanted) if translations else []
    table = [_table_row(n, r, document, wanted, rules) for n, r in enumerate(rows, 1)]
    counts = {s: sum(1 for r in table if r["severity"] == s) for s in SEVERITIES}
    sections = _sections(table, rules)
    shown = [
        r for r in table if (not section or r["section"] == section) and (not checks or r["checks"])
    ]
    base = compare_url(document, variants or implied)
    joiner = "&" if "?" in base else "?"
    ids = [x["id"] for r in shown for x in (r["source"] or [])]
    ids += [x["id"] for r in shown for c in r["cells"] for x in c["rules"]]
    return {
        "section": section,
        "checks_only": checks,
        "sections": sections,
        "section_urls": {
            sec["slug"]: f"{base}{joiner}section={quote(sec['slug'])}" for sec in sections
        },
        "checks_url": f"{base}{joiner}checks=1" + (f"&section={quote(section)}" if section else ""),
        "shown": len(shown),
        # The table shows translations itself: a rule's extras here are its notes and glosses.
        "extras": {
            k: v
            for k, v in rule_extras(kb, ids).items()
            if v["notes"] or v["glosses"] or v["current"]
        },
        "document": _document_column(source) | {"game": source["game"], "rules": source["rules"]},
        "variants": [_document_column(t) for t in translations if t["variant"] in wanted],
        "all_variants": [
            {**_document_column(t), "url": compare_url(document, [t["variant"]])}
            for t in translations
        ],
        "selected": wanted,
        "url": compare_url(document, variants or implied),
        "all_url": compare_url(document),
        "rows": shown,
        "counts": {
            "rows": len(table),
            "without_source": sum(1 for r in table if r["source"] is None),
            "with_checks": sum(1 for r in table if r["checks"]),
            **counts,
        },
    }


def _translation(t: Any, rules: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "variant": t.variant,
        "document": t.document,
        "text": t.text,
        "rules": [_rule(r, rules) for r in t.rule_ids],
        "shared_with": [_rule(r, rules) for r in t.shared_with],
        "method": t.method,
        "score": t.score,
    }


def variant_diff(
    kb: KnowledgeBase, document: str, rule_id: str, left: str = "", right: str = ""
) -> dict[str, Any]:
    """Two translations of source rule ``rule_id`` word by word (kb.lookups.variantdiff): what only
    the left one says is deleted, what only the right one says is inserted.

    Raises KbError (the route answers 404 with its message) for a rule that is not a source
    rule of ``document`` or has fewer than two translations.
    """
    target = compare_targets(kb, document)
    if target is None or not rule_id.startswith(target[0] + ":"):
        raise KbError(f"{rule_id} is not a rule of source document {document!r}")
    document = target[0]
    diff = kb.variant_diff(rule_id, left or None, right or None)
    rules = {r["id"]: r for r in kb.rows("family_rules", document=document)}
    family = kb.rows("compare_family", document=document)
    return {
        "document": _document_column(family[0]),
        "source": _rule(rule_id, rules),
        "left": _translation(diff.left, rules),
        "right": _translation(diff.right, rules),
        "segments": worddiff.as_dicts(diff.segments),
        "wdiff": worddiff.to_text(diff.segments),
        "variants": [t["variant"] for t in family[1:]],
        "compare_url": compare_url(document) + f"#{anchor(rule_id, document)}",
        "url": variant_diff_url(document, rule_id, left, right),
    }
