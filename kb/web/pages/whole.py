"""The whole-document page, ``/read/<document>``: every section and rule of a document on one
page, for Ctrl-F, printing (the stylesheet has a print layout) and reading offline.

Each rule keeps the anchor it has on its section page, so ``/read/fow-cr-8.01#105.4`` is the
same rule as ``/doc/fow-cr-8.01/105#105.4``; each section heading links to its own page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..urls import anchor, game_url, rule_url, section_url
from .extras import notes_of, rule_extras
from .rules import _document_info, machine_banner, superseded

if TYPE_CHECKING:
    from ...api import KnowledgeBase


def whole_document(kb: KnowledgeBase, document_id: str) -> dict[str, Any] | None:
    row = kb.row("document", document=document_id)
    if row is None:
        return None
    doc = _document_info(row)
    by_section: dict[str, list[dict[str, Any]]] = {}
    for r in kb.rows("document_rules", document=document_id):
        by_section.setdefault(r["section"], []).append(
            {
                **r,
                "anchor": anchor(r["id"], document_id),
                "url": rule_url(r["id"]),
            }
        )
    sections = []
    for s in kb.rows("toc", document=document_id):
        sections.append(
            {
                "id": s["id"],
                "number": s["number"],
                "title": s["title"],
                "lang": s["lang"],
                "level": s["level"],
                "slug": s["slug"],
                "url": section_url(document_id, s["slug"]),
                "rules": by_section.get(s["id"], []),
            }
        )
    extras = rule_extras(kb, [r["id"] for rs in by_section.values() for r in rs])
    return {
        "game": {"id": row["game"], "name": row["game_name"], "url": game_url(row["game"])},
        "document": doc,
        "superseded": superseded(kb, doc),
        "machine": machine_banner(kb, doc),
        "sections": sections,
        "extras": extras,
        "notes": notes_of(extras),
    }
