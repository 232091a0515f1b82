"""Versions side by side: each source rule next to its aligned translations, with checks."""

from __future__ import annotations

import sqlite3
from typing import Any

from ..store.db import KbError, first, run
from ..types import CompareRow


def resolve_document(conn: sqlite3.Connection, ref: str) -> str:
    """A document id from an id, a file name or its first characters ("000", "fow-basic")."""
    ref = ref.strip()
    if not ref:  # a prefix match of "" would be every document
        raise KbError("DOCUMENT is empty")
    found = first(conn, "source_document", ref=ref)
    if found is None:
        raise KbError(f"no source document {ref!r} (kb stats lists them)")
    return found["id"]


def compare(
    conn: sqlite3.Connection, document: str, variants: list[str] | None = None
) -> list[CompareRow]:
    """Rows of ``{"source": {"id", "text"} | None, "targets": {variant: [{"id", "text", "score"}]},
    "checks": [...]}`` in the source's reading order; ``variants`` limits the targets."""
    doc_id = resolve_document(conn, document)
    texts = {r["id"]: r["text"] for r in run(conn, "family_rules", document=doc_id)}
    checks: dict[int, list[dict[str, Any]]] = {}
    for c in run(conn, "translation_checks", document=doc_id):
        if c["alignment"] is not None:
            checks.setdefault(c["alignment"], []).append(
                {
                    "check": c["check_name"],
                    "severity": c["severity"],
                    "detail": c["detail"],
                    "rule": c["rule"],
                    "term": c["term"],
                    "variant": c["variant"],
                }
            )
    rows: dict[tuple[str, ...], CompareRow] = {}
    order: list[tuple[str, ...]] = []
    wanted = set(variants or [])
    for link in run(conn, "compare", document=doc_id):
        if wanted and link["variant"] not in wanted:
            continue
        sources = tuple(link["source_ids"].split())
        key = sources or ("target:" + link["target_ids"],)
        if key not in rows:
            rows[key] = {
                "source": {"id": " ".join(sources), "text": " ".join(texts[s] for s in sources)}
                if sources
                else None,
                "targets": {},
                "checks": [],
            }
            order.append(key)
        targets = rows[key]["targets"].setdefault(link["variant"], [])
        for target in link["target_ids"].split():
            targets.append(
                {
                    "id": target,
                    "text": texts[target],
                    "score": link["score"],
                    "method": link["method"],
                }
            )
        rows[key]["checks"] += checks.get(link["alignment"], [])
    return [rows[k] for k in order]
