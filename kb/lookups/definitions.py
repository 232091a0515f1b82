"""The terms the rulebooks themselves define, read from their structure.

A comprehensive rulebook defines most of its words in sections of their own: "309 Graveyard:
The zone destroyed or used cards are placed in.", "1009 Draw: To draw, the player moves the
top card...", "1106 [Flying]: [Flying] is a continuous ability.". Others in a rule that opens
with its title ("105.1 Player: One who plays the game") or with the term it defines ("A main
deck is a pile of cards..."). This module finds them in the stored sections and rules of
current documents that are not machine translations, whatever the game: nothing here knows a
term.

A section defines its title when its first sentence reads as a definition of it:
- it names the title and says what it is: "[Pierce] is a continuous ability", "One time
  effects are performed when they resolve";
- it says what doing it is: "To draw, ...", '"To trigger" an automatic ability means ...',
  'If a card refers "to chase", it refers to ...';
- it is a short description with no rule in it: "The zone destroyed or used cards are placed
  in." (no "may", "must", "can"; not opening with a condition, a time or a quantifier).
A title that three or more sections of one document share ("General") names no term; of two
("Automatic Abilities" in the rules and in the old cards' chapter), the first defines it.

A rule that opens by saying what a name is ("Drop Zone, is a pile of cards ...", "A main deck is
a pile of cards ...") defines it too; a name written capitalized, as a name, becomes a term.

``defined_terms`` lists the terms (worked out once per connection: the database is read-only);
``definitions_of`` finds the definitions of a name (a glossary term and its forms).
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterable
from typing import Any

from ingest.outline import slugify
from ingest.text import CJK_RUN, cjk_bigrams, fold, plural_key, words

from ..store.db import run

# A title longer than this is a procedure or a topic ("Play Cards with [Trigger]"), not a term.
MAX_TITLE_WORDS = 4
# A description longer than this is a rule, not a definition.
MAX_DESCRIPTION_WORDS = 16

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"“A-Z\[(])")
_MODAL = re.compile(r"\b(?:may|can|cannot|can't|must|should|will|would)\b", re.I)
# What a description does not open with: a condition, a time, a quantifier, a pointer.
_NOT_DESCRIPTION = re.compile(
    r"^(?:if|when|whenever|during|before|after|at|as|in|on|each|every|some|all|any|both|this|"
    r"these|those|there|depending|below|above|unless|only|turn|players?|you|they|it|treat|"
    r"see|\(|[\"“'])",
    re.I,
)
# "Lower the opponent's life", "Deal 6 damage": an instruction, not a description.
_OBJECT = re.compile(r"^\S+\s+(?:(?:the|a|an|your|their|his|her|its|one|two|\d+)\b|[\"“\[])", re.I)
_DETERMINER = re.compile(r"^(?:the|a|an)\b", re.I)
_IS = r"(?:is|are|means|refers\s+to|is\s+called|are\s+called)\b"
_POINTER = re.compile(
    r"^(?:if|when)\s+(?:a|an|the)?\s*[\w/ -]{0,25}?\b(?:refers?|says?|states?|asks?|"
    r"instructs?)\b[^\"“]*[\"“]([^\"”]+)[\"”]",
    re.I,
)


def _name(title: str) -> str:
    """A title as a term's name: without keyword brackets or a final period."""
    return title.strip().rstrip(".").strip("[]").strip()


def first_sentence(text: str) -> str:
    return _SENTENCE.split(text.strip(), maxsplit=1)[0].strip()


def _singular(word: str) -> str:
    """ "abilities" -> "ability", "effects" -> "effect": a plural is the same term (stems say
    too much: "resonance" is not "resonator")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    return plural_key(word)


def _stems(text: str) -> list[str]:
    return [_singular(w) for w in words(fold(text).lower())]


def _names_itself(name: str, sentence: str) -> bool:
    """ "[Pierce] is a continuous ability", "One time effects are performed ...", "An ability
    is ...": the sentence opens with the term (any article, plural) and says what it is."""
    head = re.sub(r"^(?:an?|the)\s+", "", sentence, flags=re.I).lstrip('["“')
    want = _stems(name)
    got = _stems(head)[: len(want)]
    if not want or got != want:
        return False
    rest = head.split(None, len(name.split()))[-1] if len(head.split()) > len(name.split()) else ""
    rest = rest.lstrip(']"”,: ')
    return bool(re.match(_IS, rest, re.I)) or bool(re.match(r"\w+ed\b", rest))


def _says_what_doing_is(name: str, sentence: str) -> bool:
    """ "To draw, the player moves ...", '"To trigger" an automatic ability means ...',
    'If a card refers "to chase", it refers to ...': what doing the titled action is."""
    first = _stems(name.split("/")[0])[:1]
    if not first:
        return False
    to = re.match(r"^[\"“]?to\s+(\w+)", sentence, re.I)
    if to and _stems(to.group(1)) == first:
        return True
    pointer = _POINTER.match(sentence)
    return pointer is not None and first[0] in _stems(pointer.group(1))


def _describes(sentence: str) -> bool:
    """A short description with no rule in it: "The zone destroyed or used cards are placed in",
    "Information that J-rulers and resonators have"."""
    return (
        len(sentence.split()) <= MAX_DESCRIPTION_WORDS
        and not _MODAL.search(sentence)
        and not _NOT_DESCRIPTION.match(sentence)
        and (bool(_DETERMINER.match(sentence)) or not _OBJECT.match(sentence))
    )


def section_defines(title: str, text: str) -> bool:
    """Whether a section titled ``title`` whose first rule says ``text`` defines its title."""
    name = _name(title)
    if not name or len(name.split()) > MAX_TITLE_WORDS or not re.search(r"\w", name):
        return False
    if re.search(r"\band\b", name, re.I):  # two things ("Ability and Effect"): a topic
        return False
    sentence = first_sentence(text)
    return (
        _names_itself(name, sentence) or _says_what_doing_is(name, sentence) or _describes(sentence)
    )


_OPENING = re.compile(
    r"^(?:an?\s+|the\s+)?[\[\"“]?(?P<name>[^\W\d][\w'/-]*(?:\s+[\w'/-]+){0,3}?)[\]\"”]?"
    rf"\s*(?P<comma>,)?\s+{_IS}\s+(?P<next>\w+)",
    re.I,
)
# "Cards are played ...", "Players are always able ...", "These are the zones ...": what a
# sentence says of its subject, not what a term is.
_NOT_WHAT = re.compile(r"^(?:\w+ed|always|not|never|also|still|only|just|able|put|sent)$", re.I)
_PRONOUN = re.compile(
    r"^(?:these|there|this|it|they|those|that|what|which|who|each|all|some|any|both|one)$", re.I
)
# A term a rule opens by defining, of its own (not one a glossary already has): written as a
# name, each word capitalized ("Drop Zone, is a pile of cards ...", "G Zone, is where ...").
_NAME = re.compile(r"^(?:[A-Z][\w'/-]*|\[[^\]]+\])(?:\s+(?:[A-Z][\w'/-]*|of|the))*$")


class _Index:
    """What the current documents define, worked out once per connection: the defined terms
    and every definition by its term's key (folded, singular)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.terms: dict[str, dict[str, Any]] = {}
        self.rules: set[str] = set()
        self.by_key: dict[str, dict[str, dict[str, Any]]] = {}
        for row in run(conn, "titled_rules"):
            # A numbered rule that opens with its title ("105.4 Life: ..."); a front-matter
            # line ("Effective: September 21th") or a worked example's title is no term.
            if row["kind"] == "rule" and row["number"] and len(row["title"].split()) <= 4:
                self._term(row, row["title"], row["text"], "rule", row["number"])
        for row in run(conn, "defining_sections"):
            if row["same_title"] > 2 or row["lang"] != row["section_lang"]:
                continue
            # The readings above are English; in another language a titled section names
            # its term (a rendering's page finds it) but is not read as a definition.
            # A glossary's entries (terms already) and credits are not a section's definition.
            if row["kind"] not in ("rule", "paragraph", "sentence"):
                continue
            if row["lang"] == "en" and section_defines(row["title"], row["text"]):
                self._term(row, row["title"], row["text"], "section", row["number"])
        for row in run(conn, "opening_definitions"):
            m = _OPENING.match(row["text"]) if row["lang"] == "en" else None
            if m is None or _NOT_WHAT.match(m["next"]) or _PRONOUN.match(m["name"]):
                continue
            name = m.group("name")
            self._definition(name, row, row["section_title"], "rule", row["number"])
            # As a term of its own only when written as a name: "Drop Zone, is", "ATK is",
            # "[Pierce] is" (a capitalized word alone opens any sentence).
            named = m["comma"] or len(name.split()) > 1 or name.isupper() or name.startswith("[")
            opens = _NOT_DESCRIPTION.match(name)  # "If the Updraft is empty ...": a condition
            if named and not opens and _NAME.match(name) and len(name.split()) <= MAX_TITLE_WORDS:
                self._term(row, name, row["text"], "rule", row["number"])

    def _term(
        self, row: dict[str, Any], title: str, text: str, kind: str, number: str | None
    ) -> None:
        name = _name(title)
        term = f"{row['game']}:{slugify(name)}"
        entry = self._definition(title, row, title.strip().rstrip("."), kind, number)
        if row["rule"] in self.rules:  # a rule defines one term ("Salvage N is ..." in Salvage)
            return
        if name and term not in self.terms and entry is not None:
            self.rules.add(row["rule"])
            self.terms[term] = {
                **entry,
                "term": term,
                "game": row["game"],
                "en": name,
                "written": title.strip().rstrip("."),
                "definition": text if kind == "rule" else first_sentence(text),
            }

    def _definition(
        self, name: str, row: dict[str, Any], title: str, kind: str, number: str | None
    ) -> dict[str, Any] | None:
        key = _key(name)
        if not key:
            return None
        found = self.by_key.setdefault(key, {})
        return found.setdefault(
            row["rule"],
            {
                "rule": row["rule"],
                "game": row["game"],
                "document": row["document"],
                "document_title": row["document_title"],
                "document_lang": row["document_lang"],
                "lang": row["lang"],
                "number": number,
                "title": title,
                "text": row["text"],
                "slug": row["slug"],
                "kind": kind,
            },
        )


def database_key(conn: sqlite3.Connection) -> tuple[str, float]:
    """The file a connection reads and when it last changed: what is worked out from a
    read-only database is kept under this key, for every connection to the file."""
    path = next((row[2] for row in conn.execute("pragma database_list") if row[1] == "main"), "")
    try:
        return path, os.stat(path).st_mtime if path else 0.0
    except OSError:
        return path, 0.0


_INDEXES: dict[tuple[str, float], _Index] = {}


def _index(conn: sqlite3.Connection) -> _Index:
    key = database_key(conn)
    if not key[0]:  # an in-memory database: worked out each time
        return _Index(conn)
    if key not in _INDEXES:
        if len(_INDEXES) >= 4:
            _INDEXES.pop(next(iter(_INDEXES)))
        _INDEXES[key] = _Index(conn)
    return _INDEXES[key]


def _key(name: str) -> str:
    return " ".join(_stems(_name(name)))


def defined_terms(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every term a current document defines: ``term`` (``<game>:<slug>``), ``game``, ``en``
    (its name), ``written`` (as the document writes it: "[Flying]"), ``definition`` (the
    section's first sentence, or the rule), ``rule`` (the rule stating it), ``document``,
    ``document_title``, ``lang``, ``number`` and ``slug`` (of the section or rule), ``kind``
    (``section`` or ``rule``)."""
    return sorted(_index(conn).terms.values(), key=lambda t: t["term"])


def definitions_of(
    conn: sqlite3.Connection, names: Iterable[str], game: str = ""
) -> list[dict[str, Any]]:
    """Where current documents define a term known by ``names`` (its name and other forms;
    plurals and keyword brackets aside), in ``game`` ("" or "*": any): a section titled with
    it, a rule that opens with it as its title or by saying what it is."""
    index = _index(conn)
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        for rule, d in index.by_key.get(_key(name), {}).items():
            if game in ("", "*") or d["game"] == game:
                out.setdefault(rule, d)
    return list(out.values())


def phrase_expression(text: str, column: str = "folded") -> str | None:
    """An FTS5 expression for ``text`` as one phrase of an index column (CJK as its bigrams, as
    the index holds them): ``folded`` (without diacritics, with the section path and glosses)
    or ``body`` (the rule's own text as written); None when it has no words."""
    tokens: list[str] = []
    for w in words(text):
        if CJK_RUN.fullmatch(w):
            tokens += cjk_bigrams(w)
        else:
            tokens.append((fold(w) if column == "folded" else w).lower())
    if not tokens:
        return None
    return "{" + column + '} : "' + " ".join(tokens).replace('"', '""') + '"'
