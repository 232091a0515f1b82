"""Bounds on what one request may cost, from kb/data/limits.toml (read through kb.store.datafiles).

Question and search text is normalised and capped here, at every entry point (the start of
kb.ask.engine.ask and kb.search.search, and the web routes), before any other work: the
cost of everything after it then has a ceiling, whatever was typed. A cut is never silent:
``Cut.note`` says what was kept, and the commands print it.

On the ``kb ask`` path: standard library only.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from typing import Any, NamedTuple

from ingest.text import words

from .store import datafiles

KINDS = ("question", "search")
# Characters that never belong in a question: C0/C1 controls, lone surrogates (undecodable
# bytes of a command-line argument), zero-width and bidirectional controls.
_JUNK = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]"
)


def limits(conn: sqlite3.Connection | None = None) -> dict[str, Any]:
    """The parsed kb/data/limits.toml."""
    return datafiles.load("limits", conn)


class Cut(NamedTuple):
    """Text as it will be used; ``note`` says what was cut from it (None: nothing).

    A NamedTuple, not a dataclass: importing dataclasses (and inspect, ast) would cost
    ``kb ask`` about ten milliseconds."""

    text: str
    note: str | None = None


def normalise(text: str) -> str:
    """NFC, junk characters to spaces, runs of white space to one space, trimmed."""
    text = _JUNK.sub(" ", text)
    return " ".join(unicodedata.normalize("NFC", text).split())


def cap(text: str, kind: str, conn: sqlite3.Connection | None = None) -> Cut:
    """``text`` normalised and cut to the limits of ``kind`` ("question" or "search"):
    at most ``max_chars`` characters (at a word boundary) and ``max_words`` distinct words.

    Linear in the length of ``text``; only a bounded prefix is ever normalised."""
    bounds = limits(conn)[kind]
    max_chars, max_words = bounds["max_chars"], bounds["max_words"]
    # Normalising can only shrink the text (junk and spaces go), except NFC composing, so a
    # prefix of four times the limit is always enough.
    long = len(text) > max_chars * 4
    text = normalise(text[: max_chars * 4])
    cut_chars = long or len(text) > max_chars
    if len(text) > max_chars:
        head = text[: max_chars + 1]
        space = head.rfind(" ")
        text = head[:space] if space > max_chars // 2 else head[:max_chars]
        text = text.rstrip()
    seen: set[str] = set()
    kept: list[str] = []
    cut_words = False
    for token in text.split(" "):
        new = {w.lower() for w in words(token)} - seen
        if len(seen) + len(new) > max_words:
            cut_words = True
            break
        seen |= new
        kept.append(token)
    if cut_words:
        text = " ".join(kept)
    if not (cut_chars or cut_words):
        return Cut(text)
    what = "question" if kind == "question" else "search text"
    reason = f"its first {max_words} distinct words" if cut_words else f"{max_chars} characters"
    return Cut(text, f"The {what} was cut to {reason} (the limit is {limit_text(kind, conn)}).")


def limit_text(kind: str, conn: sqlite3.Connection | None = None) -> str:
    """The limits of ``kind`` in words, for help texts and notes."""
    bounds = limits(conn)[kind]
    return f"{bounds['max_chars']} characters or {bounds['max_words']} distinct words"
