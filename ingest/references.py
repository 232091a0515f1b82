"""Cross-references in rule text, resolved to what they name (records.Reference).

* Numbers: "see rule 702.19", "section 102", "chapter 7", "[1.3.2a]", "(see 605.2)", "§5.2",
  "Article 4", read in the document's numbering scheme (ingest/layout.py). A number counts
  only when the document has a rule (else a section) with that number.
* Links of a markup source: ``[Timing](#timing)``, ``<a href="#winning">``, ``:ref:`label```
  name a section by its anchor.
* Glossary terms: the first mention of each term of the game's own glossary in a rule (not in
  the entry that defines it).
"""

from __future__ import annotations

import re

from .glossary import Finder, Term
from .layout import reference_numbers
from .outline import Links
from .records import DocumentResult, Reference
from .text import CJK_RUN


def _anchor(target: str) -> str | None:
    """The in-document anchor a link target names ("#timing" or a bare label), else None."""
    if target.startswith("#"):
        return target[1:] or None
    if "/" in target or ":" in target or "." in target:
        return None  # another page, a URL, a file
    return target or None


def document_references(result: DocumentResult, links: Links) -> list[Reference]:
    """The number and link references of one document's rules."""
    rules = {r.number: r.id for r in result.rules if r.number}
    sections = {s.number: s.id for s in result.sections if s.number}
    anchors: dict[str, str] = {}
    for s in result.sections:
        for name in s.anchor.split():
            anchors.setdefault(name, s.id)
            anchors.setdefault(name.lower(), s.id)
    out: list[Reference] = []
    for rule in result.rules:
        for number, start, end in reference_numbers(result.numbering, rule.text):
            if number == rule.number:
                continue
            written = rule.text[start:end]
            if number in rules:
                out.append(
                    Reference(rule.id, "rule", written, start, end, target_rule=rules[number])
                )
            elif number in sections:
                out.append(
                    Reference(
                        rule.id, "section", written, start, end, target_section=sections[number]
                    )
                )
        for words, target in links.get(rule.id, ()):
            anchor = _anchor(target)
            section = anchors.get(anchor or "") or anchors.get((anchor or "").lower())
            start = rule.text.find(words)
            if section is None or start < 0:
                continue
            out.append(
                Reference(
                    rule.id, "section", words, start, start + len(words), target_section=section
                )
            )
    return out


class TermMentions:
    """Per document, the first mention of each of its game's own glossary terms in each rule;
    asked one document at a time, as the build writes it."""

    def __init__(self, terms: list[Term]) -> None:
        by_game: dict[str, list[Term]] = {}
        for term in terms:
            if term.rule is not None:
                by_game.setdefault(term.game, []).append(term)
        self._finders = {game: _TermFinder(game_terms) for game, game_terms in by_game.items()}
        self._defined_by = {t.rule: t.id for t in terms if t.rule}

    def of(self, d: DocumentResult) -> list[Reference]:
        finder = self._finders.get(d.doc.spec.game)
        if finder is None:
            return []
        found: list[Reference] = []
        for rule in d.rules:
            seen: set[str] = {self._defined_by.get(rule.id, "")}
            for term_id, start, end in finder.find(rule.text):
                if term_id in seen:
                    continue
                seen.add(term_id)
                found.append(
                    Reference(
                        rule.id, "term", rule.text[start:end], start, end, target_term=term_id
                    )
                )
        return found


class _TermFinder:
    """Mentions of a game's terms: whole words in alphabetic scripts (the glossary's Finder),
    anywhere in a run of Chinese or Japanese, which writes no spaces."""

    def __init__(self, terms: list[Term]) -> None:
        renderings = [r for t in terms for r in t.renderings]
        self.words = Finder([r for r in renderings if not CJK_RUN.search(r.text)])
        cjk = {r.text: r.term for r in renderings if CJK_RUN.search(r.text)}
        self.cjk = cjk
        ordered = sorted(cjk, key=len, reverse=True)
        self.pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def find(self, text: str) -> list[tuple[str, int, int]]:
        found = [(r.term, start, end) for r, start, end in self.words.find(text)]
        if self.pattern is not None:
            found += [
                (self.cjk[m.group()], m.start(), m.end()) for m in self.pattern.finditer(text)
            ]
        return sorted(found, key=lambda f: f[1])
