"""HTML through lxml's HTML parser (libxml2: tolerant of the HTML found on rules pages).

Headings, paragraphs, ordered and unordered lists (nested), definition lists, block quotes and
table rows become marked lines; entities are decoded, inline elements keep their words, links
keep their targets. Scripts, styles, templates, forms and comments are dropped, so none of
their text reaches the knowledge base. A heading's anchor is its ``id`` (or the ``id`` or
``name`` of an element right inside it).
"""

from __future__ import annotations

from lxml import etree
from lxml import html as lxml_html

from .blocks import Builder, Inline, Parsed, table_row

_DROP = {
    "script", "style", "template", "noscript", "head", "iframe", "object", "embed", "svg",
    "math", "canvas", "form", "button", "select", "input", "textarea", "video", "audio",
}  # fmt: skip
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_LISTS = {"ol": "item", "ul": "bullet", "menu": "bullet"}
_BLOCKS = {
    "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "blockquote",
    "pre", "table", "dl", "figure", "figcaption", "address", "details", "summary", "hr", "body",
    "center", "fieldset", "caption",
} | set(_HEADINGS) | set(_LISTS)  # fmt: skip


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


class _Reader:
    def __init__(self) -> None:
        self.out = Builder()

    def inline(self, el: etree._Element, out: Inline, *, skip_lists: bool = False) -> Inline:
        """The words of ``el`` (its text and its inline children's), links kept."""
        if el.text:
            out.add(el.text)
        for child in el:
            tag = _tag(child)
            if tag and tag not in _DROP and not (skip_lists and tag in _LISTS):
                if tag == "a" and child.get("href"):
                    out.link(self.inline(child, Inline()).text(), child.get("href", ""))
                elif tag == "br":
                    out.add(" ")
                elif tag == "img":
                    out.add(child.get("alt", ""))
                elif tag in _BLOCKS or tag == "li":  # a block inside inline text (broken HTML)
                    out.add(" ")
                    self.inline(child, out, skip_lists=skip_lists)
                    out.add(" ")
                else:
                    self.inline(child, out, skip_lists=skip_lists)
            if child.tail:
                out.add(child.tail)
        return out

    def block(self, el: etree._Element, context: str = "") -> None:
        tag = _tag(el)
        if not tag or tag in _DROP:
            return
        if tag in _HEADINGS:
            words = self.inline(el, Inline())
            self.out.add(
                el.sourceline, "heading", words.text(), level=_HEADINGS[tag], anchor=_anchor(el)
            )
        elif tag in _LISTS:
            self.list(el, 1)
        elif tag == "dl":
            self.definitions(el)
        elif tag == "table":
            self.table(el)
        elif tag == "blockquote":
            self.container(el, "quote")
        elif tag == "pre":
            self.out.add(el.sourceline, "code", el.text_content())
        elif tag == "p" or not any(_tag(c) in _BLOCKS for c in el):
            words = self.inline(el, Inline())
            self.out.add(el.sourceline, context or "paragraph", words.text(), links=words.links)
        else:
            self.container(el, context)

    def container(self, el: etree._Element, context: str) -> None:
        """An element holding blocks: its own loose text is a paragraph between them."""
        loose = Inline()
        line = el.sourceline

        def flush() -> None:
            nonlocal loose
            self.out.add(line, context or "paragraph", loose.text(), links=loose.links)
            loose = Inline()

        if el.text:
            loose.add(el.text)
        for child in el:
            tag = _tag(child)
            if tag in _BLOCKS:
                flush()
                self.block(child, context)
            elif tag and tag not in _DROP:
                if tag == "a" and child.get("href"):
                    loose.link(self.inline(child, Inline()).text(), child.get("href", ""))
                else:
                    self.inline(child, loose)
            if child.tail:
                loose.add(child.tail)
                line = child.sourceline or line
        flush()

    def list(self, el: etree._Element, level: int) -> None:
        kind = _LISTS[_tag(el)]
        number = int(el.get("start", "1")) if el.get("start", "1").isdigit() else 1
        for item in el:
            if _tag(item) != "li":
                continue
            words = self.inline(item, Inline(), skip_lists=True)
            label = item.get("value") or str(number) if kind == "item" else ""
            self.out.add(
                item.sourceline, kind, words.text(), level=level, label=label, links=words.links
            )
            number += 1
            for nested in item.iter(*_LISTS):
                if nested.getparent() is item or _list_parent(nested) is item:
                    self.list(nested, level + 1)

    def definitions(self, el: etree._Element) -> None:
        term: etree._Element | None = None
        for child in el:
            tag = _tag(child)
            if tag == "dt":
                term = child
            elif tag == "dd" and term is not None:
                words = self.inline(child, Inline())
                name = self.inline(term, Inline()).text()
                self.out.add(term.sourceline, "term", words.text(), label=name, links=words.links)

    def table(self, el: etree._Element) -> None:
        header: list[str] = []
        for row in el.iter("tr"):
            cells = [c for c in row if _tag(c) in ("td", "th")]
            texts = [self.inline(c, Inline()).text() for c in cells]
            if cells and all(_tag(c) == "th" for c in cells):
                header = texts
            else:
                self.out.add(row.sourceline, "row", table_row(header, texts))


def _list_parent(el: etree._Element) -> etree._Element | None:
    """The nearest ``li`` above a nested list."""
    parent = el.getparent()
    while parent is not None and _tag(parent) != "li":
        parent = parent.getparent()
    return parent


def _anchor(el: etree._Element) -> str:
    names = [el.get("id", "")] + [c.get("id") or c.get("name") or "" for c in el.iter("a", "span")]
    parent = el.getparent()
    if (
        parent is not None
        and _tag(parent) in ("section", "article")
        and len(parent)
        and (parent[0] is el)
    ):
        names.append(parent.get("id", ""))
    return " ".join(dict.fromkeys(n for n in names if n))


def parse(source: str) -> Parsed:
    root = lxml_html.document_fromstring(source)
    for comment in list(root.iter(etree.Comment)):
        parent = comment.getparent()
        if parent is not None:  # keep the text after a comment, drop the comment
            tail = comment.tail or ""
            prev = comment.getprevious()
            if prev is not None:
                prev.tail = (prev.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
            parent.remove(comment)
    reader = _Reader()
    body = root.find("body")
    reader.block(body if body is not None else root)
    lines, title = reader.out.finish()
    if not title:
        head_title = root.find("head/title")
        title = head_title.text_content().strip() if head_title is not None else ""
    return Parsed(lines, " ".join(title.split()))
