"""How a language whose letters carry marks writes each word and each pair of words, counted in
the corpus's own text: what kb.lexicon.marks restores a question typed without marks from
("tinh toan" -> "tính toán").

``kb build`` counts them into ``meta``; ``kb ask`` reads them only for such a question.
Standard library, ``ingest.text`` and ``kb.store.db`` only.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import weakref
from collections import Counter
from typing import Any

from ingest.text import writing_language

from . import datafiles
from .db import column, execute, stored_json

MARKS_KEY = "ask_marks"

# A word of a Latin-script language (no digits); a sentence ends at punctuation, so no pair
# spans two sentences.
_WORD = re.compile(r"[^\W\d_]+")
_BREAK = re.compile(r"[^\w\s'-]+")


class Marks:
    """One language's counts: each word as written (lower case), and each pair of words."""

    __slots__ = ("words", "pairs", "derived")

    def __init__(self, words: dict[str, int], pairs: dict[str, int]) -> None:
        self.words, self.pairs = words, pairs  # pairs keyed "first second"
        self.derived: dict[str, Any] = {}  # what a reader computes from them, once


def count(texts: list[str]) -> Marks:
    """The words and pairs of ``texts`` as written."""
    words: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    for text in texts:
        for sentence in _BREAK.split(text.lower()):
            found = _WORD.findall(sentence)
            words.update(found)
            pairs.update(f"{a} {b}" for a, b in zip(found, found[1:], strict=False))
    return Marks(dict(sorted(words.items())), dict(sorted(pairs.items())))


def store_marks(conn: sqlite3.Connection) -> None:
    """Count the words of every Latin-script language that has letters of its own and whose
    search folds them away (Vietnamese): its rules, the glossary terms and moment names
    written in it, the curated phrasings of questions in it, and its everyday text (called by
    ``kb build``)."""
    value: dict[str, Any] = {}
    for code in column(conn, "marks_languages"):
        # The curated ways questions are put ("bao nhiêu": "how many") are written with marks
        # too, and rules seldom say them.
        phrased = [t for t in _strings(_PHRASINGS) if writing_language(t) == code]
        texts = [*column(conn, "marks_texts", lang=code), *phrased, *everyday(code)]
        marks = count(texts)
        if marks.words:
            value[code] = {"words": marks.words, "pairs": marks.pairs}
    execute(conn, "meta_store", key=MARKS_KEY, value=json.dumps(value, ensure_ascii=False))


# Everyday text of a language (kb/data/everyday/<code>.txt): rules say "người chơi", a judge
# asks "tôi có ...": the words a question is put in that rulebooks never write.


def everyday(code: str) -> list[str]:
    """The lines of ``code``'s everyday text (comment lines left out); [] without one."""
    path = datafiles.located(os.path.join("kb", "data", "everyday", f"{code}.txt"))
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


# The data files of how a question puts things (kb.store.datafiles names).
_PHRASINGS = ("query", "statements")


def _strings(names: tuple[str, ...]) -> list[str]:
    """Every key and string value of the named data files."""
    out: list[str] = []
    todo: list[Any] = [datafiles.load(name) for name in names]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            out += [k for k in item if isinstance(k, str)]
            todo += item.values()
        elif isinstance(item, list):
            todo += item
    return out


_LOADED: weakref.WeakKeyDictionary[sqlite3.Connection, dict[str, Marks]] = (
    weakref.WeakKeyDictionary()
)


def load_marks(conn: sqlite3.Connection) -> dict[str, Marks]:
    """Each language's counts, as the build stored them ({} for a database without them)."""
    if conn in _LOADED:
        return _LOADED[conn]
    stored = stored_json(conn, MARKS_KEY) or {}
    marks = {code: Marks(v["words"], v["pairs"]) for code, v in stored.items()}
    with contextlib.suppress(TypeError):  # a plain connection: read it again next time
        _LOADED[conn] = marks
    return marks
