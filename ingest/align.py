"""Stage 8, align translations: link each translation variant to its source, rule by rule.

Placeholder until the aligner lands: returns no links.
"""

from __future__ import annotations

from .glossary import Glossary
from .records import Check, DocumentResult, Link


def align_corpus(
    documents: list[DocumentResult], glossary: Glossary
) -> tuple[list[Link], list[Check]]:
    """Links between every variant and its source document, and the checks on them."""
    return [], []
