"""Bounds of a ``kb ask`` request, shared by both entry points (``kb.cli.fast`` and the CLI)."""

MAX_ASK_LIMIT = 50  # most passages kb ask shows
