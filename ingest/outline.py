"""Stage 7, outline: blocks become a section tree and rules with stable ids.

Ids are made from what the text says, so the same corpus always gives the same ids:

* a numbered rule is ``<document>:<number>`` (``fow-cr-8.01:105.3a``);
* a section is ``<document>:<slug>``, the slug being its number (``fow-cr-7.0:103``) or its
  title's words in any script (``ygo-damage-step:buoc-thiet-hai``, ``lotus-zh-ch3:水色``),
  with ``-2``, ``-3`` for repeated titles: inserting a heading never renames another section;
* a glossary entry is ``<section id>.<term slug>`` (``skyrealm-cr-1.1:glossary.aether``), so
  adding a term renames no other;
* an unnumbered block under a numbered rule (its "Example:") is ``<rule id>.<kind>``
  (``skyrealm-cr-1.0:103.3.example``, then ``-2``);
* any other rule is ``<section id>.<n>``, its position among the unnumbered rules of its
  section (``ygo-damage-step:buoc-phu-4-vao-luc-tinh-toan-thiet-hai.3``).

Passages stay focused: a block longer than LONG_BLOCK characters is stored as several rules of
whole sentences, and a translation variant is stored sentence by sentence, the unit its
alignment works on.
"""

from __future__ import annotations

import re

from .records import Block, DocText, Rule, Section
from .sentences import chunk_sentences, split_sentences
from .text import fold

LONG_BLOCK = 1200
CHUNK = 600
ROOT_SLUG = "top"
_SLUG_WORDS = 8


def slugify(title: str) -> str:
    """The title's first words, folded (no diacritics, lower case), in any script."""
    words = re.findall(r"[^\W_]+", fold(title))
    slug = "-".join(words[:_SLUG_WORDS])[:60].strip("-")
    return slug or "section"


def _pieces(block: Block, variant: bool) -> list[str]:
    if block.number or block.kind in ("heading",):
        return [block.text]
    if variant:
        return split_sentences(block.text)
    if len(block.text) > LONG_BLOCK:
        return chunk_sentences(block.text, CHUNK)
    return [block.text]


Links = dict[str, tuple[tuple[str, str], ...]]


def build_outline(
    doc: DocText, blocks: list[Block], game: str
) -> tuple[list[Section], list[Rule], Links]:
    """The section tree and the rules of a document's blocks, and the links (words, target)
    each rule's text holds (from a markup source)."""
    spec = doc.spec
    variant = doc.variant != "original"  # a translation block, stored sentence by sentence
    default_ruleset = spec.ruleset or None
    default_era = spec.era or None
    root = Section(
        id=f"{doc.doc_id}:{ROOT_SLUG}",
        document=doc.doc_id,
        parent=None,
        ord=0,
        level=0,
        number="",
        title=doc.title,
        slug=ROOT_SLUG,
        lang=doc.lang,
        ruleset=default_ruleset,
        era=default_era,
        line_start=doc.lines[0].no if doc.lines else 1,
        line_end=doc.lines[-1].no if doc.lines else 1,
        path="",
    )
    sections = [root]
    used_slugs = {ROOT_SLUG}
    stack: list[Section] = [root]
    counters: dict[str, int] = {}
    rules: list[Rule] = []
    rule_of_block: dict[int, str] = {}
    used_rule_ids: set[str] = set()
    next_suffix: dict[str, int] = {}
    links: Links = {}

    # The last content line under each open section, handed up as a section closes (not
    # written into every open section per block: that costs the depth of the tree per line).
    content_end: dict[str, int] = {}

    def close() -> None:
        done = stack.pop()
        end = content_end.pop(done.id, 0)
        done.line_end = max(done.line_end, end)
        content_end[stack[-1].id] = max(content_end.get(stack[-1].id, 0), end)

    for index, block in enumerate(blocks):
        if block.kind == "heading":
            while len(stack) > 1 and stack[-1].level >= block.level:
                close()
            parent = stack[-1]
            slug = _unique(block.number or slugify(block.title), "-", used_slugs, next_suffix)
            title = block.title
            section = Section(
                id=f"{doc.doc_id}:{slug}",
                document=doc.doc_id,
                parent=parent.id,
                ord=len(sections),
                level=block.level,
                number=block.number,
                title=title,
                slug=slug,
                lang=block.lang,
                ruleset=block.ruleset or parent.ruleset,
                era=block.era or parent.era,
                line_start=block.line_start,
                line_end=block.line_end,
                path=_path(parent.path, title),
                anchor=block.anchor,
            )
            sections.append(section)
            stack.append(section)
            continue
        section = stack[-1]
        parent_id = rule_of_block.get(block.parent) if block.parent is not None else None
        for k, text in enumerate(_pieces(block, variant)):
            if block.number:
                rule_id = f"{doc.doc_id}:{block.number}"
            elif block.kind == "term" and k == 0:
                rule_id = f"{section.id}.{slugify(block.title)}"
            elif parent_id and blocks[block.parent or 0].number and k == 0:
                rule_id = f"{parent_id}.{block.kind}"
            else:
                counters[section.id] = counters.get(section.id, 0) + 1
                rule_id = f"{section.id}.{counters[section.id]}"
            sep = "-" if rule_id.endswith(f".{block.kind}") or block.kind == "term" else "~"
            rule_id = _unique(rule_id, sep, used_rule_ids, next_suffix)
            kind = "sentence" if variant and block.kind == "paragraph" else block.kind
            rules.append(
                Rule(
                    id=rule_id,
                    document=doc.doc_id,
                    section=section.id,
                    parent=parent_id,
                    game=game,
                    lang=block.lang,
                    langs=block.langs,
                    kind=kind,
                    number=block.number,
                    label=block.label,
                    title=block.title if k == 0 else "",
                    ord=len(rules) + 1,
                    depth=block.level,
                    text=text,
                    ruleset=section.ruleset,
                    era=section.era,
                    line_start=block.line_start,
                    line_end=block.line_end,
                )
            )
            if k == 0:
                rule_of_block[index] = rule_id
            if block.links:
                links[rule_id] = block.links
        content_end[section.id] = max(content_end.get(section.id, 0), block.line_end)
    while len(stack) > 1:
        close()
    root.line_end = max(root.line_end, content_end.pop(root.id, 0))
    return sections, rules, links


def _unique(base: str, sep: str, used: set[str], next_suffix: dict[str, int]) -> str:
    """``base``, or ``base<sep>2``, ``<sep>3``... the first one not used yet (each base
    remembers where it got to: a thousand headings of one title cost no more than one)."""
    candidate, n = base, next_suffix.get(base + sep, 2)
    if base in used:
        candidate = f"{base}{sep}{n}"
        while candidate in used:
            n += 1
            candidate = f"{base}{sep}{n}"
        next_suffix[base + sep] = n + 1
    used.add(candidate)
    return candidate


_PATH_TITLES = 10  # a deeper section's path keeps the first title and the last ones


def _path(parent: str, title: str) -> str:
    """The titles from the root down, "Overview › Basic Concept"; a path deeper than
    _PATH_TITLES elides its middle ("A › … › Y › Z"), so a pathologically deep outline costs
    no more than a shallow one per section."""
    if not parent:
        return title
    titles = [*parent.split(" › "), title]
    if len(titles) > _PATH_TITLES:
        titles = [titles[0], "…", *titles[-(_PATH_TITLES - 2) :]]
    return " › ".join(titles)
