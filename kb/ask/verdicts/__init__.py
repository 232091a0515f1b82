"""Verdicts a judge can act on (yes/no, when, which first, what happens, how many), each
decided by facts the build derived from the rules and cited; where no fact covers the
question, no verdict.

``decide`` runs the resolvers of the question's kind in order; a verdict stands when it passes
the filters of kb.ask.verdicts.filters.

On the ``kb ask`` path, every module here: standard library, sqlite3, rapidfuzz and ``ingest``
text modules only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from importlib import import_module
from typing import Any

from ..question import Understood
from . import filters
from .common import Asked, Verdict

# The resolvers of each kind of question, in order, as "module:function": a module is imported
# when a question of its kind is asked (kb ask is a process per question).
RESOLVERS = {
    "yesno": ["permission:yes_no", "statement:modal_sentence", "quantity:within"],
    "when": ["permission:when", "when_passages:in_passages"],
    "what_happens": ["happens:in_passages"],
    "how_many": ["quantity:printed", "quantity:in_passages"],
    "which_first": ["first:in_passages"],
}


def _resolver(name: str) -> Callable[[sqlite3.Connection, Understood, Asked], Verdict | None]:
    module, _, function = name.partition(":")
    return getattr(import_module(f"{__name__}.{module}"), function)


def decide(
    conn: sqlite3.Connection, u: Understood, passages: list[dict[str, Any]] | None = None
) -> tuple[Asked, Verdict | None]:
    """What the question asks for, and the verdict when a fact covers it; ``passages``: the
    question's ranked passages (kb.ask.rank), whose facts may decide it."""
    asked = Asked(conn, u, passages)
    resolvers = RESOLVERS.get(asked.kind, [])
    asked.stopped_by = filters.stopping(filters.QUESTION, asked) if resolvers else ""
    if not resolvers or asked.stopped_by:
        return asked, None
    for resolver in resolvers:
        verdict = _resolver(resolver)(conn, u, asked)
        stopped = filters.stopping(filters.VERDICT, asked, verdict) if verdict else ""
        if verdict and not stopped:
            return asked, verdict
        asked.stopped_by = asked.stopped_by or stopped
    return asked, None


__all__ = ["Asked", "Verdict", "decide"]
