"""``kb ask``: a judge's question to a composed answer and cited passages.

understand (what the question names) -> retrieve and rank passages -> compose an answer. The
modules on this path import only the standard library, sqlite3, rapidfuzz and ``ingest.text``.
"""

from .engine import ask, ask_named_game
from .limits import MAX_ASK_LIMIT

__all__ = ["MAX_ASK_LIMIT", "ask", "ask_named_game"]
