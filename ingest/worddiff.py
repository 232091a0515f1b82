"""Word diffs as data: the one engine behind version diffs, translation diffs and their pages.

``diff`` returns ``Segment(op, text)`` tuples, ``op`` one of ``equal``, ``delete`` (only in the
old, or left, text) and ``insert`` (only in the new, or right, one); a replacement is a
``delete`` followed by an ``insert``. Rendering is a separate, last step: ``to_text`` writes
the wdiff notation ``[-old words-] {+new words+}`` (the CLI, and ``rule_changes.detail``),
``to_html`` escaped ``<del>``/``<ins>``/``<span>`` elements (the site). Because nothing parses a
rendered diff back, a text that itself contains ``[-`` or ``{+`` cannot be mis-split.

Words are ``ingest.text.tokens`` (runs of non-space: punctuation stays on its word, so a
diff reads like the text). By default they are compared by ``compare_form`` (case-folded,
without punctuation), so a diff shows what a reader would call a change, not a PDF's stray
commas; ``exact`` compares them as written (a translator cares about "Vẽ" against "vẽ").

Standard library and ``ingest.text`` only: the site and ``kb`` use it too.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from .text import compare_form, tokens

EQUAL, DELETE, INSERT = "equal", "delete", "insert"
ELISION = "…"
"""Stands for the unchanged words ``elide`` leaves out."""

_TEXT_MARKS = {EQUAL: "{}", DELETE: "[-{}-]", INSERT: "{{+{}+}}"}
_HTML_TAGS = {EQUAL: "span", DELETE: "del", INSERT: "ins"}
# As markupsafe (Jinja) escapes, so a diff reads the same whichever renders it.
_HTML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})


class Segment(NamedTuple):
    """A run of words with one fate: ``equal``, ``delete`` or ``insert``."""

    op: str
    text: str


def diff(old: str, new: str, *, exact: bool = False) -> list[Segment]:
    """The word diff of two texts, every word of both in order; words in a segment are one
    space apart. Unchanged words are written as the new text writes them."""
    old_words, new_words = tokens(old), tokens(new)
    keys = (lambda ws: ws) if exact else (lambda ws: [compare_form(w) for w in ws])
    matcher = difflib.SequenceMatcher(None, keys(old_words), keys(new_words), autojunk=False)
    segments: list[Segment] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            segments.append(Segment(EQUAL, " ".join(new_words[j1:j2])))
            continue
        if i2 > i1:
            segments.append(Segment(DELETE, " ".join(old_words[i1:i2])))
        if j2 > j1:
            segments.append(Segment(INSERT, " ".join(new_words[j1:j2])))
    return segments


def changed(segments: Iterable[Segment]) -> bool:
    """True when the two texts differ (some segment is not ``equal``)."""
    return any(s.op != EQUAL for s in segments)


def elide(segments: list[Segment], context: int) -> list[Segment]:
    """The diff with at most ``context`` unchanged words kept on each side of a change, the
    rest as ``…``: a stored diff says what changed, not the whole rule again."""
    last = len(segments) - 1
    out: list[Segment] = []
    for n, segment in enumerate(segments):
        if segment.op != EQUAL:
            out.append(segment)
            continue
        words = segment.text.split(" ")
        head = words[:context] if n > 0 else []
        tail = words[max(len(words) - context, 0) :] if n < last and context > 0 else []
        if len(head) + len(tail) < len(words):
            words = [*head, ELISION, *tail]
        out.append(Segment(EQUAL, " ".join(words)))
    return out


def as_dicts(segments: Iterable[Segment]) -> list[dict[str, str]]:
    """Segments as ``{"op", "text"}`` objects: how page data (and its JSON) carries them."""
    return [{"op": s.op, "text": s.text} for s in segments]


def from_dicts(items: Iterable[Mapping[str, str]]) -> list[Segment]:
    """Segments back from ``as_dicts`` objects (a template renders page data)."""
    return [Segment(item["op"], item["text"]) for item in items]


def to_text(segments: Iterable[Segment]) -> str:
    """Plain text in wdiff notation: ``kept [-only old-] {+only new+} kept``."""
    return " ".join(_TEXT_MARKS[s.op].format(s.text) for s in segments)


def escape_html(text: str) -> str:
    """Text safe inside an HTML element or a quoted attribute."""
    return text.translate(_HTML_ESCAPES)


def to_html(segments: Iterable[Segment]) -> str:
    """HTML with every text escaped: ``<span>`` kept, ``<del>`` only old, ``<ins>`` only new,
    one space apart (the site wraps it in its own element)."""
    return " ".join(
        f"<{_HTML_TAGS[s.op]}>{escape_html(s.text)}</{_HTML_TAGS[s.op]}>" for s in segments
    )
