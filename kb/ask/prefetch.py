"""What a ``kb ask`` process starts on a second thread before it imports the engine."""

from __future__ import annotations

from pathlib import Path


def prefetch(path: Path | str, question: str) -> None:
    """Read the database's vectors and embed ``question`` as ask() will read it (capped by
    kb.limits) in the background: kb.retrieve.dense uses the result when it matches."""
    from ..limits import cap
    from ..retrieve.dense import prefetch as dense_prefetch

    dense_prefetch(path, lambda conn: cap(question, "question", conn).text)
