"""Markdown through markdown-it-py (CommonMark, with GitHub-style tables).

Blocks become marked lines; inline markup keeps its words (emphasis, code spans, link
texts, image alt texts) and raw HTML is dropped, comments included. A heading's anchor is the
slug GitHub gives it, so ``[Timing](#timing)`` finds its section.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

from .blocks import Builder, Inline, Parsed, heading_slug, squash, table_row


def _inline(token: Token) -> Inline:
    out = Inline()
    link: tuple[str, list[str]] | None = None
    for child in token.children or []:
        if child.type == "link_open":
            link = (str(child.attrs.get("href", "")), [])
            continue
        if child.type == "link_close" and link is not None:
            out.link("".join(link[1]), link[0])
            link = None
            continue
        if child.type in ("text", "code_inline"):
            piece = child.content
        elif child.type in ("softbreak", "hardbreak"):
            piece = " "
        elif child.type == "image":
            piece = child.content  # the alt text
        else:  # emphasis markers, raw HTML
            continue
        if link is not None:
            link[1].append(piece)
        else:
            out.add(piece)
    return out


class _Reader:
    def __init__(self) -> None:
        self.out = Builder()
        self.lists: list[str] = []  # "item" or "bullet", innermost last
        self.item_open: list[bool] = []  # whether the innermost item has had its first line
        self.numbers: list[str] = []
        self.quote = 0
        self.row: list[str] = []
        self.row_no: int | None = None
        self.header: list[str] = []
        self.in_head = False

    def read(self, tokens: list[Token]) -> None:
        pending: Token | None = None  # the opening token of the block an inline belongs to
        for tok in tokens:
            kind = tok.type
            if kind in ("bullet_list_open", "ordered_list_open"):
                self.lists.append("bullet" if kind == "bullet_list_open" else "item")
            elif kind in ("bullet_list_close", "ordered_list_close"):
                self.lists.pop()
            elif kind == "list_item_open":
                self.item_open.append(False)
                self.numbers.append(tok.info)
            elif kind == "list_item_close":
                self.item_open.pop()
                self.numbers.pop()
            elif kind == "blockquote_open":
                self.quote += 1
            elif kind == "blockquote_close":
                self.quote -= 1
            elif kind == "thead_open":
                self.in_head = True
            elif kind == "thead_close":
                self.in_head = False
            elif kind == "tr_open":
                self.row, self.row_no = [], _line(tok)
            elif kind == "tr_close":
                self._row()
            elif kind in ("heading_open", "paragraph_open", "th_open", "td_open"):
                pending = tok
            elif kind == "inline" and pending is not None:
                self._block(pending, _inline(tok))
            elif kind in ("fence", "code_block"):
                self.out.add(_line(tok), "code", tok.content)
            # html_block (comments, raw HTML) and hr carry no rules text.

    def _block(self, opener: Token, inline: Inline) -> None:
        no = _line(opener)
        if opener.type == "heading_open":
            title = inline.text()
            self.out.add(no, "heading", title, level=int(opener.tag[1]), anchor=heading_slug(title))
        elif opener.type in ("th_open", "td_open"):
            self.row.append(inline.text())
        elif self.lists and not self.item_open[-1]:
            self.item_open[-1] = True
            kind = self.lists[-1]
            label = self.numbers[-1] if kind == "item" else ""
            self.out.add(
                no, kind, inline.text(), level=len(self.lists), label=label, links=inline.links
            )
        elif self.lists:  # a further paragraph of an item: part of its text
            last = self.out.lines[-1]
            last.text = squash(f"{last.text} {inline.text()}")
        else:
            kind = "quote" if self.quote else "paragraph"
            self.out.add(no, kind, inline.text(), links=inline.links)

    def _row(self) -> None:
        if self.in_head:
            self.header = self.row
            return
        self.out.add(self.row_no, "row", table_row(self.header, self.row))


def _line(tok: Token) -> int | None:
    return tok.map[0] + 1 if tok.map else None


def parse(source: str) -> Parsed:
    md = MarkdownIt("commonmark").enable("table")
    reader = _Reader()
    reader.read(md.parse(source))
    lines, title = reader.out.finish()
    return Parsed(lines, title)
