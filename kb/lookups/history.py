"""Rule history across versions of a rulebook: what changed, and what each version says.

Reads the ``rule_changes`` table the version-diff stage wrote (see ``ingest.versiondiff`` for
what each kind means). Every function takes an open connection (``kb.store.db.connect``) and returns
plain dicts and lists: ``kb diff`` and the website format them, nothing here does.
"""

from __future__ import annotations

import sqlite3
from typing import Any, cast

from ingest import worddiff
from ingest.worddiff import Segment

from ..store.db import KbError, column, first, run
from ..types import ChangeBrief, HistoryEntry, VersionChange, VersionSummary

__all__ = [
    "KINDS",
    "changes",
    "compared_pairs",
    "find_document",
    "rule_history",
    "summary",
    "text_diff",
]

KINDS = ("added", "removed", "moved", "reworded", "unchanged")
"""Every kind of change, in the order a summary lists them."""


def text_diff(old: str | None, new: str | None) -> list[Segment]:
    """The whole word diff of two versions of a rule, compared as the build compares them
    (``rule_changes.detail`` keeps only a few words around each change); [] when a side is
    missing or they read the same."""
    if not old or not new:
        return []
    segments = worddiff.diff(old, new)
    return segments if worddiff.changed(segments) else []


def compared_pairs(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The version pairs the build compared (old -> new), with their versions and dates."""
    return run(conn, "version_pairs")


def find_document(conn: sqlite3.Connection, ref: str) -> str:
    """A compared document's id from its id or its version ("7.0", "8.01").

    A version alone is accepted only when one compared document has it; otherwise the user
    gets the ids to choose from, never a guess.
    """
    docs = {
        (p[f"{side}_document"], p[f"{side}_version"])
        for p in compared_pairs(conn)
        for side in ("old", "new")
    }
    ref = ref.strip()
    if any(doc == ref for doc, _ in docs):
        return ref
    by_version = sorted(doc for doc, version in docs if version == ref)
    if len(by_version) == 1:
        return by_version[0]
    known = ", ".join(sorted(doc for doc, _ in docs)) or "none"
    what = "several documents" if by_version else "no compared document"
    raise KbError(f"{ref!r} matches {what}; documents with versions: {known}")


def _check_pair(conn: sqlite3.Connection, old: str, new: str) -> dict[str, Any]:
    for pair in compared_pairs(conn):
        if (pair["old_document"], pair["new_document"]) == (old, new):
            return pair
    pairs = ", ".join(f"{p['old_document']} -> {p['new_document']}" for p in compared_pairs(conn))
    raise KbError(f"{old} -> {new} was not compared; compared pairs: {pairs or 'none'}")


def summary(conn: sqlite3.Connection, old: str, new: str) -> VersionSummary:
    """Counts of changes by kind for ``old -> new``, with each side's number of rules.

    ``old_rules == unchanged + reworded + moved + removed`` and
    ``new_rules == unchanged + reworded + moved + added``: every numbered rule is counted once.
    """
    pair = _check_pair(conn, old, new)
    found = {row["kind"]: row["n"] for row in run(conn, "version_change_counts", old=old, new=new)}
    counted = {
        "old_rules": column(conn, "numbered_rule_count", document=old)[0],
        "new_rules": column(conn, "numbered_rule_count", document=new)[0],
        "counts": {kind: found.get(kind, 0) for kind in KINDS},
    }
    return cast(VersionSummary, {**pair, **counted})


def changes(
    conn: sqlite3.Connection, old: str, new: str, kinds: tuple[str, ...] | None = None
) -> list[VersionChange]:
    """The changes ``old -> new`` in the new version's reading order, with both sides' texts.

    ``kinds`` keeps only those kinds (e.g. everything but ``unchanged``). A side a rule does not
    have (the old side of ``added``) has ``None`` for its rule, number and text.
    """
    _check_pair(conn, old, new)
    unknown = set(kinds or ()) - set(KINDS)
    if unknown:
        raise KbError(f"unknown change kind(s) {sorted(unknown)}; kinds: {', '.join(KINDS)}")
    rows = cast(list[VersionChange], run(conn, "version_changes", old=old, new=new))
    return [row for row in rows if not kinds or row["kind"] in kinds]


def _rule(conn: sqlite3.Connection, rule_id: str) -> dict[str, Any]:
    row = first(conn, "rule_version", id=rule_id)
    if row is None:
        raise KbError(f"no rule with id {rule_id!r}")
    return row


def _change(conn: sqlite3.Connection, query: str, rule_id: str) -> dict[str, Any] | None:
    """The change from (``rule_change_from``) or to (``rule_change_to``) a rule: its own change
    (a piece split from it or merged into it comes after, and is not followed from here)."""
    return first(conn, query, rule=rule_id)


def _absent(conn: sqlite3.Connection, document: str, change: ChangeBrief | None) -> HistoryEntry:
    """The entry of a version that does not have the rule."""
    row = first(conn, "document_version", id=document)
    return _entry({**(row or {}), "id": None, "number": None, "text": None}, change)


def _chain(conn: sqlite3.Connection, rule_id: str) -> list[HistoryEntry]:
    """One rule through every compared version, oldest first, following moves, and following
    a piece split from a rule back to it (a rule merged into another, forward to that one).

    Each entry says what a version says (``rule``/``number``/``text``, all ``None`` where the
    rule does not exist) and ``change``: how it differs from the previous entry (``None`` for
    the first).
    """
    start = _rule(conn, rule_id)
    entries: list[HistoryEntry] = [_entry(start, None)]
    current = start["id"]
    while (change := _change(conn, "rule_change_to", current)) is not None:  # walk back
        entries[0]["change"] = _brief(change)
        if change["old_rule"] is None:  # added in this version (not split from a rule)
            entries.insert(0, _absent(conn, change["old_document"], None))
            break
        current = change["old_rule"]
        entries.insert(0, _entry(_rule(conn, current), None))
    current = start["id"]
    while (change := _change(conn, "rule_change_from", current)) is not None:  # walk forward
        if change["new_rule"] is None:  # removed in the next version (not merged into one)
            entries.append(_absent(conn, change["new_document"], _brief(change)))
            break
        current = change["new_rule"]
        entries.append(_entry(_rule(conn, current), _brief(change)))
    return entries


def _entry(rule: dict[str, Any], change: ChangeBrief | None) -> HistoryEntry:
    return {
        "document": rule["document"],
        "version": rule["version"],
        "effective": rule["effective"],
        "rule": rule["id"],
        "number": rule["number"],
        "text": rule["text"],
        "change": change,
    }


def _brief(change: dict[str, Any]) -> ChangeBrief:
    return {"kind": change["kind"], "similarity": change["similarity"], "detail": change["detail"]}


def rule_history(conn: sqlite3.Connection, ref: str, game: str = "") -> list[list[HistoryEntry]]:
    """What each version says about a rule, following renumbering.

    ``ref`` is a rule id (``fow-cr-7.0:103.4``) or a number (``103.4``). A number can name
    different rules in different versions (7.0's 314.1 became 8.01's 316.1, and 8.01's 314.1
    is a new rule), so the result is one history per distinct rule, each a list of versions,
    oldest first; see ``_chain`` for an entry's fields. Only documents that were compared
    with another version are searched; ``game`` narrows a number to one game.
    """
    ref = ref.strip()
    if ":" in ref:
        starts = [_rule(conn, ref)["id"]]
    else:
        number = ref.rstrip(".")
        starts = column(conn, "versioned_rules_by_number", number=number, game=game)
        if not starts:
            raise KbError(f"no rule numbered {number!r} in a document with several versions")
    histories: list[list[HistoryEntry]] = []
    seen: set[str] = set()
    for rule_id in starts:
        if rule_id in seen:
            continue
        chain = _chain(conn, rule_id)
        seen.update(entry["rule"] for entry in chain if entry["rule"])
        histories.append(chain)
    return histories
