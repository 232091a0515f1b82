"""The rules knowledge base: store, search, answers and the ``kb`` command-line tool.

Start from ``kb.KnowledgeBase`` (kb/api.py)::

    from kb import KnowledgeBase
    with KnowledgeBase.open("kb.sqlite") as kb:
        kb.ask("honest vs honest")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import KbError, KnowledgeBase

__all__ = ["KbError", "KnowledgeBase"]


def __getattr__(name: str) -> Any:
    # Imported on first use: every module of the package runs this file first, and most
    # (the ingestion, the store) never need the front door.
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'kb' has no attribute {name!r}")
