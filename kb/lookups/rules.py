"""Look things up by id: a rule with its context (``kb show``), and corpus statistics."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, cast

from ..store.db import KbError, column, run

if TYPE_CHECKING:  # on kb ask's path (check_language): the typed rows cost it 4 ms to build
    from ..types import RuleView, Stats


def check_text(value: str, name: str) -> str:
    """``value`` if it has something in it; an empty or blank argument is a KbError."""
    if not value or not value.strip():
        raise KbError(f"{name} is empty")
    return value


def check_language(conn: sqlite3.Connection, lang: str) -> str:
    """``lang`` if it is a language of the knowledge base or of kb/data/labels.toml ("" is
    any language); otherwise a KbError listing the known ones."""
    if not lang:
        return lang
    from .labels import language_names

    known = set(language_names()) | {row for row in column(conn, "languages")}
    if lang not in known:
        raise KbError(f"unknown language {lang!r} (languages: {', '.join(sorted(known))})")
    return lang


def rule_view(conn: sqlite3.Connection, rule_id: str) -> RuleView | None:
    """A rule with its section path, source location, sub-rules and provenance."""
    rows = run(conn, "rule", id=rule_id)
    if not rows:
        return None
    rule = cast("RuleView", rows[0])
    rule["children"] = run(conn, "rule_children", id=rule_id)
    rule["translations"] = run(conn, "rule_translations", id=rule_id)
    # Curated English readings of a rule that has no official English (community glosses).
    rule["glosses"] = run(conn, "rule_glosses", id=rule_id)
    return rule


def show(conn: sqlite3.Connection, ref: str) -> list[RuleView]:
    """Rules for ``ref``: a full id (``fow-cr-8.01:103.4``) or a rule number in every document."""
    ref = check_text(ref, "RULE_ID").strip()
    view = rule_view(conn, ref)
    if view:
        return [view]
    if ":" not in ref:
        views = [
            rule_view(conn, row["id"])
            for row in run(conn, "rules_by_number", number=ref.rstrip("."))
        ]
        found = [v for v in views if v]
        if found:
            return found
    raise KbError(f"no rule with id or number {ref!r} (try `kb search`)")


def stats(conn: sqlite3.Connection) -> Stats:
    totals = {row["name"]: row["n"] for row in run(conn, "table_counts")}
    return {
        "totals": totals,
        "by_game_language": run(conn, "stats"),
        "documents": run(conn, "documents"),
    }
