"""``kb ask``: a judge's question to a composed answer and cited passages.

understand (what the question names) -> retrieve and rank passages -> compose an answer. The
modules on this path import only the standard library, sqlite3, rapidfuzz and ``ingest.text``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .limits import MAX_ASK_LIMIT

if TYPE_CHECKING:
    from .engine import ask, ask_named_game

__all__ = ["MAX_ASK_LIMIT", "ask", "ask_named_game"]


def __getattr__(name: str) -> Any:
    # The engine is imported on first use: ``kb ask`` reads its command line (which needs
    # only MAX_ASK_LIMIT) and starts reading the model before the engine's imports.
    if name in ("ask", "ask_named_game"):
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module 'kb.ask' has no attribute {name!r}")
