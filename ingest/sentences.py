"""Sentence splitting for English, Vietnamese and Chinese rule text."""

from __future__ import annotations

import re

# Words ending in a full stop that do not end a sentence.
ABBREVIATIONS = frozenset(
    {"ex", "e.g", "i.e", "etc", "vs", "ver", "no", "p", "pp", "vd", "v.v", "mr", "mrs", "dr", "st"}
)
_BOUNDARY = re.compile(
    r"(?<=[.!?。！？])[\"”)]*\s+(?=[\"“(]?[^\W\d_])|(?<=[。！？])(?=\S)", re.UNICODE
)
_LAST_WORD = re.compile(r"([^\W\d_][\w.]*)\.$", re.UNICODE)


def split_sentences(text: str) -> list[str]:
    """Split text into sentences; abbreviations and initials (``D.D.``) do not end one."""
    pieces: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        candidate = text[start : m.start()].rstrip()
        word = _LAST_WORD.search(candidate)
        if word and (
            word.group(1).lower() in ABBREVIATIONS
            or len(word.group(1)) == 1
            or "." in word.group(1)
        ):
            continue
        nxt = text[m.end() : m.end() + 1]
        if nxt.islower():
            continue
        if candidate:
            pieces.append(candidate)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        pieces.append(tail)
    return pieces or [text]


def chunk_sentences(text: str, limit: int) -> list[str]:
    """Group consecutive sentences into chunks of at most ``limit`` characters (when possible)."""
    chunks: list[str] = []
    current = ""
    for sentence in split_sentences(text):
        if current and len(current) + 1 + len(sentence) > limit:
            chunks.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        chunks.append(current)
    return chunks
