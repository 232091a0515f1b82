"""Markup sources: Markdown, reStructuredText and HTML read through real parsers.

A reader turns a decoded file into the lines the pipeline works on, one line per block the
markup states (a heading, a paragraph, a list item, a quote, an admonition's paragraph, a table
row, a definition-list entry), each with a ``Mark`` saying what it is, and with no markup left
in its text: emphasis, code and links keep their words, links are kept as (words, target)
pairs, directives, comments, scripts and styles are dropped. Segmentation then follows the
marks instead of guessing from the layout.

The parsers: markdown-it-py (CommonMark with tables) for Markdown, docutils for
reStructuredText, lxml for HTML. Which one reads a file is decided by its suffix.
"""

from __future__ import annotations

from pathlib import PurePath

from ..errors import IngestError
from ..records import RawText
from .blocks import Parsed

__all__ = ["FORMATS", "Parsed", "markup_format", "parse_markup"]

FORMATS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
}


def markup_format(file: str) -> str:
    """ "markdown", "rst" or "html" for a file of that kind, "" for plain text."""
    return FORMATS.get(PurePath(file).suffix.lower(), "")


def parse_markup(raw: RawText) -> Parsed | None:
    """The file's lines with their marks, or None when it is plain text."""
    kind = markup_format(raw.file)
    if not kind:
        return None
    if kind == "markdown":
        from .markdown import parse
    elif kind == "rst":
        from .rst import parse
    else:
        from .html import parse
    try:
        return parse(raw.text)
    except IngestError:
        raise
    except Exception as exc:  # a parser's own error: name the file, keep the cause
        raise IngestError(raw.file, f"cannot parse as {kind}: {exc}", stage="read") from None
