"""The glossary terms and timing names a text names, with their renderings in every language.

``kb ask`` understands "伤害步骤" or "tinh toan thiet hai" through the glossary and the timing
names; plain search and the website use the same vocabulary (kb.store.vocabulary) and the same
whole-word matching (kb.lexicon.phrases.find_phrase) so that they understand the same words:
search expands a named term to its other renderings, and a question's language can be read
from the words it names ("tinh toan thiet hai" is the Vietnamese name of a moment, written
without accents).
"""

from __future__ import annotations

import copy
import os
import sqlite3
import unicodedata
from functools import lru_cache
from typing import Any

from ingest.text import fold, words, writing_language

from ..store.vocabulary import load_vocabulary
from .phrases import find_phrase
from .words import stopwords

# At most this many other renderings of one named phrase are searched.
MAX_RENDERINGS = 6


def text_language(text: str) -> str:
    """The language a vocabulary entry is written in (entries carry none of their own)."""
    return writing_language(text)


def database_file(conn: sqlite3.Connection) -> tuple[str, float]:
    """The file a connection reads and when it last changed: the key of what is cached."""
    path = next((row[2] for row in conn.execute("pragma database_list") if row[1] == "main"), "")
    try:
        return path, os.stat(path).st_mtime if path else 0.0
    except OSError:
        return path, 0.0


_VOCABULARIES: dict[tuple[str, float], Any] = {}


def _vocabulary(database: tuple[str, float], conn: sqlite3.Connection) -> Any:
    """The vocabulary of a database file, parsed once (kb.store.vocabulary reads it from
    ``meta``)."""
    if database not in _VOCABULARIES:
        if len(_VOCABULARIES) > 8:
            _VOCABULARIES.clear()
        _VOCABULARIES[database] = load_vocabulary(conn)
    return _VOCABULARIES[database]


def named_phrases(conn: sqlite3.Connection, text: str) -> list[dict[str, Any]]:
    """The terms and timing moments ``text`` names (see _named_phrases), cached per database
    file and text: a search asks it three times (expansions, the page it names, the
    question's language), and a database does not change under a running site."""
    database = database_file(conn)
    if not database[0]:
        return _named_phrases(load_vocabulary(conn), text)
    return copy.deepcopy(_cached_phrases(database, text, _vocabulary(database, conn)))


@lru_cache(maxsize=512)
def _cached_phrases(database: tuple[str, float], text: str, vocab: Any) -> list[dict[str, Any]]:
    return _named_phrases(vocab, text)


def _named_phrases(vocab: Any, text: str) -> list[dict[str, Any]]:
    """The terms and timing moments ``text`` names, longest first, without overlaps.

    Each: ``typed`` (the words as typed), ``kind`` (term or timing), ``id``, ``langs`` (the
    languages of the entries that match what was typed) and ``renderings`` (every other
    way the vocabulary writes it, English first, without repeats).
    """
    typed = unicodedata.normalize("NFC", " ".join(text.split()))
    folded = fold(typed)
    if not folded:
        return []
    entries = [("term", e) for e in vocab.terms] + [("timing", e) for e in vocab.timing]
    found: dict[tuple[int, int], dict[str, Any]] = {}
    stop = stopwords()
    lowered = typed.lower()
    for kind, e in entries:
        if not e["key"]:
            continue
        # A name that folds to a common word ("thẻ" -> "the") counts only written as it is.
        if e["key"] in stop and e["text"].lower() not in lowered:
            continue
        for span in find_phrase(folded, e["key"]):
            ident = e.get("term") or e.get("node")
            hit = found.setdefault(
                span, {"span": span, "typed": "", "ids": {}, "langs": set(), "keys": set()}
            )
            hit["ids"].setdefault((kind, ident), e)
            hit["langs"].add(text_language(e["text"]))
            hit["keys"].add(e["key"])
    # Longest spans first; a span inside a longer one is dropped.
    kept: list[dict[str, Any]] = []
    for span in sorted(found, key=lambda s: (s[0] - s[1], s[0])):
        if any(k["span"][0] <= span[0] and span[1] <= k["span"][1] for k in kept):
            continue
        kept.append(found[span])
    by_id = _renderings(vocab)
    out = []
    for hit in sorted(kept, key=lambda h: h["span"]):
        start, end = hit["span"]
        # The entry whose English name is what was typed first (Graveyard: the term
        # "Graveyard" before Force of Will's "Drop Zone", which the rules also call so).
        said = fold(typed[start:end]) if len(typed) == len(folded) else folded[start:end]
        kinds = sorted(hit["ids"], key=lambda k: fold(hit["ids"][k].get("en") or "") != said)
        texts: dict[str, str] = {}
        for key in kinds:
            for t in by_id.get(key, []):
                k = " ".join(words(fold(t)))
                if k and k not in hit["keys"]:
                    texts.setdefault(k, t)
        kind, ident = kinds[0]
        out.append(
            {
                # Folding keeps every letter in its place (one letter for one).
                "typed": (typed if len(typed) == len(folded) else folded)[start:end],
                "kind": kind,
                "id": ident,
                "ids": [{"kind": k, "id": i} for k, i in kinds],
                "langs": sorted(hit["langs"]),
                "renderings": sorted(texts.values(), key=lambda t: text_language(t) != "en"),
            }
        )
    return out


def _renderings(vocab: Any) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for e in vocab.terms:
        out.setdefault(("term", e["term"]), []).append(e["text"])
    for e in vocab.timing:
        out.setdefault(("timing", e["node"]), []).append(e["text"])
    return out


def phrase_language(phrases: list[dict[str, Any]]) -> str:
    """The language the named phrases are written in when all of them agree on one that is
    not English ("tinh toan thiet hai": vi), else ""."""
    langs = [set(p["langs"]) for p in phrases]
    if not langs or any("en" in lang for lang in langs):
        return ""
    common = set.intersection(*langs)
    return next(iter(common)) if len(common) == 1 else ""
