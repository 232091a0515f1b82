"""A language's bilingual dictionary to English, kept to what the rules can be searched by.

A question in Chinese about a game whose rules are in English finds them only through English
forms of its words. The curated vocabulary (kb/data/query.toml) and the words official
translations taught (kb.store.translations) hold the game's terms; a general dictionary holds
the rest of what judges ask about ("观众" spectator, "卫生间" toilet, "骰子" dice). A
language names its dictionary in ingest/data/languages.toml (``dictionary``: a file in
CC-CEDICT's format that an installed package ships, read at build only, never downloaded).

Kept: entries of two to four characters (a single character is too ambiguous to search by)
whose senses include a one-word English gloss that the English rules use ("to hide" ->
"hide"), those glosses in the dictionary's order. ``kb build`` stores them in the
``dictionary`` table; a question reads only the entries its runs of characters could be (one
query), not the whole list; a dictionary that cannot be found stops the build with a one-line
error naming the language table that names it.
Standard library, ``ingest.text`` and ``kb.store.db`` only on the ``kb ask`` path.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from ingest.text import CJK_RUN, fold, words

from . import datafiles
from .db import KbError, column
from .db import run as run_query

if TYPE_CHECKING:  # the build's types; kb ask imports neither
    import sqlite_utils

    from ingest.languages import Language
    from ingest.pipeline import PipelineResult

LONGEST = 4
"""Longest entry kept, in characters: the longest a question's run is matched against."""

_LINE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/$")


class DictionaryError(KbError):
    """A dictionary a language names that cannot be read; the message names it."""


def _path(lang: Language) -> Path:
    from ingest.languages import packaged

    where = "ingest/data/languages.toml" if lang in packaged() else "the corpus's sources.toml"
    package, _, relative = lang.dictionary.partition(":")
    what = f"{where} [languages.{lang.code}] dictionary {lang.dictionary!r}"
    found = importlib.util.find_spec(package) if package else None  # found, not imported
    if found is None or not found.submodule_search_locations or not relative:
        raise DictionaryError(f"{what}: no installed package {package!r} holds it")
    path = Path(next(iter(found.submodule_search_locations))) / relative
    if not path.is_file():
        raise DictionaryError(f"{what}: {path} is missing")
    return path


def read_cedict(path: Path, english: set[str], stop: frozenset[str]) -> dict[str, list[str]]:
    """Simplified headword -> its one-word English glosses that ``english`` holds."""
    import gzip  # build only

    opener = gzip.open if path.suffix == ".gz" else open
    out: dict[str, list[str]] = {}
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            m = _LINE.match(line.strip())
            if m is None or not 2 <= len(m.group(2)) <= LONGEST:
                continue
            word = m.group(2)
            if not CJK_RUN.fullmatch(word):
                continue
            for sense in m.group(3).split("/"):
                sense = re.sub(r"^to ", "", re.sub(r"\([^)]*\)", "", sense).strip())
                said = [w for w in words(fold(sense)) if w not in stop]
                if not sense.startswith("CL:") and len(said) == 1 and said[0] in english:
                    glosses = out.setdefault(word, [])
                    if said[0] not in glosses:
                        glosses.append(said[0])
    return out


def write_dictionaries(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """Each language's dictionary, kept to the English the rules use (a build step: after
    the index's vocabulary is written)."""
    from .rows import insert_rows  # build only: sqlite-utils stays off kb ask's path

    stop = datafiles.stopwords()
    english = set(column(db.conn, "english_vocabulary"))
    rows: list[dict[str, object]] = []
    for lang in result.languages:
        if lang.dictionary:
            kept = read_cedict(_path(lang), english, stop)
            rows += [
                {"id": len(rows) + n, "lang": lang.code, "word": word, "glosses": json.dumps(g)}
                for n, (word, g) in enumerate(sorted(kept.items()), 1)
            ]
    insert_rows(db, "dictionary", rows)


def entries(conn: sqlite3.Connection, lang: str, runs: list[str]) -> dict[str, list[str]]:
    """The dictionary's entries that ``runs`` of characters hold, with their glosses ({} for
    a language without a dictionary, or a database built before dictionaries)."""
    pieces = sorted(
        {
            run[i : i + size]
            for run in runs
            for size in range(2, LONGEST + 1)
            for i in range(len(run) - size + 1)
        }
    )
    if not pieces:
        return {}
    try:
        rows = run_query(conn, "dictionary_entries", lang=lang, words=json.dumps(pieces))
    except sqlite3.OperationalError:  # a database older than the table
        return {}
    return {row["word"]: json.loads(row["glosses"]) for row in rows}


def segments(run: str, entries: dict[str, list[str]]) -> list[str]:
    """The entries a run of Chinese is made of, longest first from the left (forward maximum
    matching); characters no entry starts with are skipped."""
    out: list[str] = []
    i = 0
    while i < len(run):
        for size in range(min(LONGEST, len(run) - i), 1, -1):
            if run[i : i + size] in entries:
                out.append(run[i : i + size])
                i += size
                break
        else:
            i += 1
    return out
