"""reStructuredText through docutils.

docutils parses the source and applies its transforms (substitutions such as ``|LP|`` are
replaced, escapes resolved, a lone top section becomes the document title). The tree is then
read block by block. Directives that are not text are dropped (``.. contents::``, comments,
substitution definitions, raw); admonitions (``.. note::``) keep their paragraphs.

Sphinx's cross-reference roles are registered so docutils reads them: ``:ref:`label``` renders
as the title of the section the label names, ``:ref:`words <label>``` as its words, and both
are kept as links to that section. Any other unknown role keeps its words.
"""

from __future__ import annotations

import io
import re
from typing import Any

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import roles

from .blocks import Builder, Inline, Parsed, squash, table_row

_EXPLICIT = re.compile(r"^(?P<words>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
# Sphinx roles that link to a target; docutils knows none of them.
_LINK_ROLES = ("ref", "numref", "doc", "term", "any")
_SETTINGS = {
    "report_level": 5,  # no system messages in the tree's text
    "halt_level": 5,  # never stop on a warning
    "warning_stream": None,  # set per call
    "file_insertion_enabled": False,  # never read other files (.. include::)
    "raw_enabled": False,
    "doctitle_xform": True,
    "sectsubtitle_xform": False,
    "input_encoding": "unicode",
    "embed_stylesheet": False,
}


def _link_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.Node]]:
    m = _EXPLICIT.match(text)
    words, target = (m.group("words"), m.group("target")) if m else ("", text)
    label = nodes.fully_normalize_name(target.strip().lstrip("~"))
    node = nodes.reference(rawtext, words or target, kb_label=label, kb_explicit=bool(m))
    return [node], []


for _role in _LINK_ROLES:
    roles.register_local_role(_role, _link_role)


def _labels(section: nodes.Element) -> list[str]:
    """The names a link can use for a section: its labels and ids, not its own title."""
    title = nodes.fully_normalize_name(section[0].astext()) if len(section) else ""
    names = [n for n in section.get("names", []) if n != title]
    return list(dict.fromkeys(n.replace(" ", "-") for n in [*names, *section.get("ids", [])]))


class _Reader:
    def __init__(self, titles: dict[str, str]) -> None:
        self.out = Builder()
        self.titles = titles  # label or id -> its section's title

    # -- inline ------------------------------------------------------------------------
    def inline(self, node: nodes.Node, out: Inline | None = None) -> Inline:
        out = out or Inline()
        for child in node.children if isinstance(node, nodes.Element) else [node]:
            if isinstance(child, nodes.Text):
                out.add(child.astext())  # escapes resolved ("\\ " joins, "\\*" is "*")
            elif isinstance(child, nodes.reference):
                out.link(self._ref_words(child), self._ref_target(child))
            elif isinstance(child, nodes.image):
                out.add(child.get("alt", ""))
            elif isinstance(child, (nodes.footnote_reference, nodes.citation_reference)):
                continue
            elif isinstance(child, (nodes.problematic, nodes.system_message)):
                # An unknown role or broken markup: its words, without the role syntax.
                m = re.search(r"`([^`]*)`", child.astext())
                if m:
                    explicit = _EXPLICIT.match(m.group(1))
                    out.add(explicit.group("words") if explicit else m.group(1))
            elif isinstance(child, (nodes.target, nodes.substitution_definition)):
                out.add(child.astext() if child.children and not child.get("refuri") else "")
            elif isinstance(child, nodes.Element):
                self.inline(child, out)
        return out

    def _ref_target(self, ref: nodes.reference) -> str:
        return ref.get("kb_label") or ref.get("refid") or ref.get("refuri") or ""

    def _ref_words(self, ref: nodes.reference) -> str:
        label = ref.get("kb_label")
        if label and not ref.get("kb_explicit"):
            return self.titles.get(label, ref.astext())  # Sphinx shows the section's title
        return ref.astext()

    # -- blocks --------------------------------------------------------------------------
    def blocks(self, node: nodes.Element, depth: int, context: str = "") -> None:
        for child in node.children:
            self.block(child, depth, context)

    def block(self, node: nodes.Node, depth: int, context: str) -> None:
        if not isinstance(node, nodes.Element):
            return
        if isinstance(node, nodes.section):
            title = node[0] if len(node) and isinstance(node[0], nodes.title) else None
            if title is not None:
                words = self.inline(title)
                self.out.add(
                    _line(title), "heading", words.text(), level=depth + 1,
                    anchor=" ".join(_labels(node)),
                )  # fmt: skip
            self.blocks(node, depth + 1)
        elif isinstance(node, (nodes.title, nodes.subtitle)):
            return  # a section's or the document's title, read with it
        elif isinstance(node, (nodes.paragraph, nodes.rubric)):
            kind = context or "paragraph"
            words = self.inline(node)
            self.out.add(_line(node), kind, words.text(), links=words.links)
        elif isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            self.list(node, depth, 1)
        elif isinstance(node, nodes.definition_list):
            for item in node.children:
                self.definition(item)
        elif isinstance(node, nodes.table):
            self.table(node)
        elif isinstance(node, (nodes.literal_block, nodes.doctest_block)):
            self.out.add(_line(node), "code", node.astext())
        elif isinstance(node, nodes.line_block):
            words = self.inline(node)
            self.out.add(_line(node), context or "paragraph", words.text(), links=words.links)
        elif isinstance(node, nodes.Admonition):
            self.blocks(node, depth, "note")
        elif isinstance(node, nodes.block_quote):
            self.blocks(node, depth, context or "quote")
        elif isinstance(node, nodes.field_list):
            for field in node.children:
                name, body = field.children[0], field.children[1]
                words = self.inline(body)
                text = f"{name.astext()}: {words.text()}"
                self.out.add(_line(field), context or "paragraph", text, links=words.links)
        elif isinstance(node, nodes.topic) and "contents" in node.get("classes", []):
            return  # .. contents:: is a table of contents the parser wrote, not text
        elif isinstance(
            node,
            (
                nodes.comment,
                nodes.substitution_definition,
                nodes.target,
                nodes.system_message,
                nodes.raw,
                nodes.pending,
                nodes.decoration,
            ),
        ):
            return
        else:  # topic, sidebar, compound, container, footnote...: their blocks
            self.blocks(node, depth, context)

    def list(self, node: nodes.Element, depth: int, level: int) -> None:
        """A list's items at ``level`` (1 = outermost); a nested list one level down."""
        kind = "item" if isinstance(node, nodes.enumerated_list) else "bullet"
        start = int(node.get("start", 1))
        for n, item in enumerate(node.children):
            label = _enumerator(node.get("enumtype", "arabic"), start + n) if kind == "item" else ""
            first = True
            for child in item.children:
                if first and isinstance(child, nodes.paragraph):
                    words = self.inline(child)
                    no = _line(child) or _line(item)
                    self.out.add(
                        no, kind, words.text(), level=level, label=label, links=words.links
                    )
                    first = False
                elif isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
                    self.list(child, depth, level + 1)
                elif isinstance(child, nodes.paragraph) and self.out.lines:
                    last = self.out.lines[-1]  # a further paragraph of the item
                    last.text = squash(f"{last.text} {self.inline(child).text()}")
                else:
                    self.block(child, depth, kind)

    def definition(self, item: nodes.Element) -> None:
        term = next((c for c in item.children if isinstance(c, nodes.term)), None)
        body = next((c for c in item.children if isinstance(c, nodes.definition)), None)
        if term is None or body is None:
            return
        words = Inline()
        for child in body.children:
            self.inline(child, words)
            words.add(" ")
        self.out.add(
            _line(term), "term", words.text(), label=self.inline(term).text(), links=words.links
        )

    def table(self, node: nodes.Element) -> None:
        header: list[str] = []
        for part in node.findall(lambda n: isinstance(n, (nodes.thead, nodes.tbody))):
            for row in part.children:
                cells = [self.inline_all(entry) for entry in row.children]
                if isinstance(part, nodes.thead):
                    header = cells
                else:
                    self.out.add(_line(row), "row", table_row(header, cells))

    def inline_all(self, node: nodes.Element) -> str:
        words = Inline()
        for child in node.children:
            self.inline(child, words)
            words.add(" ")
        return words.text()


def _enumerator(kind: str, n: int) -> str:
    if kind == "loweralpha":
        return chr(ord("a") + n - 1) if n <= 26 else str(n)
    if kind == "upperalpha":
        return chr(ord("A") + n - 1) if n <= 26 else str(n)
    if kind in ("lowerroman", "upperroman"):
        roman = _roman(n)
        return roman.lower() if kind == "lowerroman" else roman
    return str(n)


def _roman(n: int) -> str:
    out = ""
    for value, letters in (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ):  # fmt: skip
        while n >= value:
            out, n = out + letters, n - value
    return out


def _line(node: nodes.Node) -> int | None:
    while node is not None:
        line = getattr(node, "line", None)
        if line:
            return int(line)
        first = node.children[0] if isinstance(node, nodes.Element) and node.children else None
        if isinstance(first, nodes.Element) and getattr(first, "line", None):
            return int(first.line)
        node = node.parent
    return None


def parse(source: str) -> Parsed:
    settings = {**_SETTINGS, "warning_stream": io.StringIO()}
    doc = publish_doctree(source, settings_overrides=settings)
    titles: dict[str, str] = {}
    for section in doc.findall(nodes.section):
        if len(section) and isinstance(section[0], nodes.title):
            for label in _labels(section):
                titles.setdefault(label, squash(section[0].astext()))
    reader = _Reader(titles)
    reader.blocks(doc, 0)
    lines, title = reader.out.finish()
    return Parsed(lines, squash(doc.get("title", "")) or title)
