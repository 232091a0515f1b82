"""One hit per piece of rules text: versions of a document and aligned translations of a
rule count once, and the same text in several versions of a rulebook is cited from the current
version ("also in" the older ones), or from the version the question names.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Set as AbstractSet
from typing import Any

from ingest.text import fold, words

from ..store.db import run
from .features import in_era


def _aligned(conn: sqlite3.Connection, ids: list[str]) -> dict[str, set[str]]:
    """For each rule, the rules aligned with it (its translations, or its source)."""
    out: dict[str, set[str]] = {}
    for row in run(conn, "ask_aligned", ids=ids) if ids else []:
        out.setdefault(row["rule"], set()).add(row["other"])
    return out


def _newest(conn: sqlite3.Connection, ids: list[str]) -> dict[str, str]:
    """For each rule of a superseded version, the same words in the current version (following
    the rulebook's versions one after the other), when it keeps them."""
    newer = {row["rule"]: row["newer"] for row in run(conn, "ask_newer", ids=ids)} if ids else {}
    newest: dict[str, str] = {}
    for rule in ids:
        current, steps = rule, 0
        while current in newer and steps < 50:
            current, steps = newer[current], steps + 1
            if current not in newer:
                newer.update(
                    {row["rule"]: row["newer"] for row in run(conn, "ask_newer", ids=[current])}
                )
        if current != rule:
            newest[rule] = current
    return newest


# How many steps of the version diff lead from a rule to its counterpart (2.2.0 -> 2.0.0 ->
# 2025-02-28): a rulebook's versions one after the other.
_VERSION_STEPS = 8


def _counterparts(conn: sqlite3.Connection, ids: list[str], documents: set[str]) -> dict[str, str]:
    """For each rule, the rule the version diff pairs it with in one of ``documents`` (other
    versions of its rulebook), following the versions one step at a time."""
    found: dict[str, str] = {}
    frontier = {rule: rule for rule in ids}  # reached rule -> the rule it started from
    seen = set(ids)
    for _ in range(_VERSION_STEPS):
        if not frontier:
            break
        reached: dict[str, str] = {}
        for row in run(conn, "ask_version_counterparts", ids=sorted(frontier)):
            start = frontier[row["rule"]]
            if start in found or row["other"] in seen:
                continue
            seen.add(row["other"])
            if row["document"] in documents:
                found[start] = row["other"]
            else:
                reached[row["other"]] = start
        frontier = reached
    return found


def named_version_first(
    rows: list[dict[str, Any]], conn: sqlite3.Connection, versions: set[str]
) -> list[dict[str, Any]]:
    """A question naming a version of a rulebook ("CR 7.0") reads that version: a rule of
    another version of it gives its place to its counterpart in the named one, when that is a
    candidate too, and the other versions' rules without one go after the named version's
    (7.0 has no rune deck, whatever 8.01's rule on it scores)."""
    named = {r["document"]: r["game"] for r in rows if r.get("version") in versions}
    others = [
        r["id"]
        for r in rows[:200]
        if r.get("version") and r["document"] not in named and r["game"] in named.values()
    ]
    counterpart = _counterparts(conn, others, set(named)) if others else {}
    out = list(rows)
    for rule in others:  # best first
        other = counterpart.get(rule)
        ids = [r["id"] for r in out] if other else []
        if other in ids and ids.index(other) > ids.index(rule):
            out.insert(ids.index(rule), out.pop(ids.index(other)))
    unnamed = set(others)
    return sorted(out, key=lambda r: r["id"] in unnamed)


def named_era_first(rows: list[dict[str, Any]], years: list[str]) -> list[dict[str, Any]]:
    """A question naming a year ("2005 OCG", "Feb 2025 CR") reads the rules of that year, as
    it reads a version it names: the passages whose era holds the year go first, in their
    order (a number no era holds, "2000 ATK", moves nothing)."""
    return sorted(rows, key=lambda r: not in_era(r, years))


def rules_before_glossary(
    rows: list[dict[str, Any]], *, asks_definition: bool
) -> list[dict[str, Any]]:
    """A glossary entry restates in a line what the rules say in full: it comes first only for
    a question asking what something is; otherwise the best rule goes before it."""
    if asks_definition or not rows or rows[0]["kind"] != "term":
        return rows
    at = next((i for i, r in enumerate(rows) if r["kind"] != "term"), None)
    return rows if at is None else [rows[at], *rows[:at], *rows[at + 1 :]]


def collapse(
    rows: list[dict[str, Any]],
    conn: sqlite3.Connection | None = None,
    lang: str = "",
    versions: AbstractSet[str] = frozenset(),
) -> list[dict[str, Any]]:
    """One hit per piece of rules text: the same text in several versions of a document (7.0
    and 8.01), and a rule with its aligned translations, count once. The current version's rule
    stands for the text (older versions' ids go to ``also``), wherever the older one ranked;
    a rule the version diff found unchanged (the same words, punctuation and glued words aside)
    is the same text; but a version the question names (``versions``) stands for its own
    text. A translation found first gives its place to its source when the question is not
    in the translation's language."""
    aligned = _aligned(conn, [r["id"] for r in rows[:200]]) if conn is not None else {}
    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    owner: dict[str, dict[str, Any]] = {}
    by_id = {r["id"]: r for r in rows}
    older = [r["id"] for r in rows[:200] if r.get("superseded_by")]
    newest = _newest(conn, older) if conn is not None else {}
    # A superseded rule whose words the current version keeps (its glued or re-punctuated
    # copy) is read as the current one's text.
    text_of = {rule: by_id[current]["text"] for rule, current in newest.items() if current in by_id}
    for row in rows:
        text = text_of.get(row["id"], row["text"])
        key = (row["game"], " ".join(words(fold(text))))
        kept = seen.get(key) or owner.get(row["id"])
        if kept is not None:
            current = not row.get("superseded_by") and kept.get("version") not in versions
            if seen.get(key) is kept and kept.get("superseded_by") and current:
                # The current version's words stand where the older version's were ranked.
                replaced = kept["id"]
                kept.update({k: v for k, v in row.items() if k not in ("score", "features")})
                kept["also"] = [replaced, *kept.get("also", [])]
                owner[row["id"]] = kept
                continue
            kept.setdefault("also", []).append(row["id"])
            continue
        if row["translation_of"] and row["lang"] != lang:
            source = next(
                (by_id[i] for i in sorted(aligned.get(row["id"], ())) if i in by_id), None
            )
            if source is not None and source["id"] not in owner:
                row = {**source, "score": row["score"], "also": [row["id"]]}
        seen[key] = row
        out.append(row)
        owner[row["id"]] = row
        for other in aligned.get(row["id"], ()):
            owner.setdefault(other, row)
        for other in row.get("also", []):
            owner.setdefault(other, row)
    return out
