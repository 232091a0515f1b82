"""Build warnings that mean something: structure that is clearly broken.

* a section with nothing in it (no rules, no sections): a heading that was not one, or what a
  table of contents left behind;
* a table of contents left in (a section named so that survived ``drop_table_of_contents``);
* a numbered document with runs of unnumbered blocks in its numbered body;
* markup left in stored text (``**``, ``:ref:``, ``<p>``, ``&amp;``...);
* a game alias that is another game's card name or glossary term, so a question naming it
  cannot tell the games apart.

(Rules numbered twice are warned about by the segmenter, where the lines are known.)
``kb build --strict`` fails on any warning. Thresholds and patterns: data/layout.toml
[warnings].
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache

from .glossary import Term
from .layout import layout_data, section_role
from .records import Card, CardAlias, DocumentResult, Game
from .text import fold, words

# Kinds of rule that sit in a numbered body without a number of their own, legitimately.
_UNNUMBERED_OK = {"rule", "example", "term", "credit", "note", "row", "code", "quote"}


@cache
def _markup_left() -> re.Pattern[str]:
    patterns = layout_data()["warnings"]["markup_left"]
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.MULTILINE)


def _examples(items: list[str]) -> str:
    n = layout_data()["warnings"]["examples"]
    shown = ", ".join(items[:n])
    return shown + (f" and {len(items) - n} more" if len(items) > n else "")


def _file(d: DocumentResult) -> str:
    return d.doc.spec.file if d.doc.variant == "original" else f"{d.doc.spec.file} ({d.doc.doc_id})"


def empty_sections(d: DocumentResult) -> Iterator[str]:
    used = {r.section for r in d.rules} | {s.parent for s in d.sections if s.parent}
    empty = [s for s in d.sections if s.parent is not None and s.id not in used]
    if empty:
        places = [f"{s.title!r} (line {s.line_start})" for s in empty]
        yield f"{_file(d)}: {len(empty)} empty section(s): {_examples(places)}"
    left = [s for s in d.sections if section_role(s.title, s.anchor) == "contents"]
    for s in left:
        yield f"{_file(d)}:{s.line_start}: a table of contents ({s.title!r}) is left in the text"


def unnumbered_runs(d: DocumentResult) -> Iterator[str]:
    if d.numbering in ("", "plain"):
        return
    limit = layout_data()["warnings"]["unnumbered_run"]
    roles = {s.id: section_role(s.title, s.anchor) for s in d.sections}
    root = d.sections[0].id if d.sections else ""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    count = 0
    for rule in [*d.rules, None]:
        odd = (
            rule is not None
            and rule.kind not in _UNNUMBERED_OK
            and rule.section != root
            and not roles.get(rule.section)
            and rule.parent is None
        )
        if odd:
            assert rule is not None
            start = rule.line_start if start is None else start
            count += 1
            continue
        if start is not None and count >= limit:
            runs.append((start, count))
        start, count = None, 0
    if runs:
        places = [f"line {line} ({n} blocks)" for line, n in runs]
        yield (
            f"{_file(d)}: numbered ({d.numbering}) but with runs of unnumbered text: "
            f"{_examples(places)}"
        )


def markup_left(d: DocumentResult) -> Iterator[str]:
    pattern = _markup_left()
    found = [(r, m) for r in d.rules if (m := pattern.search(r.text))]
    if found:
        places = [f"{r.id} {m.group()!r}" for r, m in found]
        yield f"{_file(d)}: markup left in {len(found)} rule(s): {_examples(places)}"


def alias_collisions(
    games: list[Game], cards: list[Card], aliases: list[CardAlias], terms: list[Term]
) -> Iterator[str]:
    """A game's alias that is a card name or a glossary term of another game."""
    names: dict[str, set[str]] = {}
    game_of = {c.id: c.game for c in cards}
    for alias in aliases:
        names.setdefault(fold(alias.alias), set()).add(f"card of {game_of.get(alias.card, '')}")
    for term in terms:
        for form in (term.en, *(r.text for r in term.renderings)):
            names.setdefault(fold(form), set()).add(f"term of {term.game}")
    for game in games:
        for name in game.aliases:
            key = " ".join(words(fold(name)))
            others = sorted(x for x in names.get(key, set()) if not x.endswith(f" {game.id}"))
            if others:
                yield (
                    f"game {game.id}: alias {name!r} is also a {' and a '.join(others)}; "
                    "a question naming it is not taken to be about "
                    f"{game.id}"
                )


def structure_warnings(
    documents: Sequence[DocumentResult],
    games: list[Game],
    cards: list[Card],
    aliases: list[CardAlias],
    terms: list[Term],
) -> list[str]:
    """Every structure warning of the corpus, document by document, then the games'."""
    out: list[str] = []
    for d in documents:
        out += empty_sections(d)
        out += unnumbered_runs(d)
        out += markup_left(d)
    out += alias_collisions(games, cards, aliases, terms)
    return out
