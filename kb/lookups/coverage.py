"""Whether the knowledge base covers what a question is about, said before any passage.

A question may name a game the corpus has no rules of ("pokemon retreat cost"), or a topic that
no document of the game it names mentions ("Vanguard guard step"): passages of other games
must not pass for an answer then. ``question_coverage`` decides it from the stored corpus and
kb/data/coverage.toml (trading card games a judge may ask about; a game the corpus has is
covered whatever that list says, so a new game's rules need no change here):

- ``outside``: the games the question names that the corpus has no rules of;
- ``missing``: when the question is about one game and none of its best passages is of that
  game, what it asks that the game's documents lack ("guard step");
- ``unmentioned``: the question's words no document holds, that are no everyday English and
  do not just qualify a thing the rules name ("mulligan"; not "infinite" of "infinite loop",
  which the rule on loops says as "indefinitely"): the rules may say them in other words, so
  the question is not said to be off the corpus for them;
- ``message``: the sentence a judge reads first, or None when the question is covered.

``not_mentioned`` keeps of the words an answer says no rule mentions only those found missing
or unmentioned here, so "No rule mentions 'infinite'" is not printed above the rule on loops.

On the ``kb ask`` path: standard library only.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from ingest.text import CJK_RUN, fold, stem, words

from ..store import datafiles
from ..store.db import column, run

# Words shorter than this are never taken for a topic (they are too often abbreviations).
MIN_LETTERS = 4
# A question about one game is off the corpus when none of this many best passages is of it.
TOP_HITS = 5


class Coverage(TypedDict):
    """What ``question_coverage`` found (kb ask --json: ``coverage``)."""

    covered: bool
    games: list[dict[str, str]]  # the games the corpus has: id, name
    game: str | None  # the corpus game the question is about (named or given), or None
    outside: list[str]  # names of games the question names that the corpus has no rules of
    missing: list[str]  # what it asks of that game that the game's documents lack
    unmentioned: list[str]  # its words no document holds (the rules may say them otherwise)
    message: str | None


def _elsewhere(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """kb/data/coverage.toml's games (parsed at build, kb.store.datafiles)."""
    return list(datafiles.load("coverage", conn)["games"])


def _key(text: str) -> str:
    return " ".join(words(fold(text).lower()))


def _names(text: str, name_lists: Iterable[tuple[str, list[str]]]) -> list[str]:
    """The names (first of each pair) any of whose forms ``text`` holds as whole words."""
    padded = f" {_key(text)} "
    return [n for n, forms in name_lists if any(f" {_key(f)} " in padded for f in forms if f)]


def _stopwords() -> set[str]:
    data = datafiles.load("query")
    return {fold(w).lower() for ws in data["stopwords"].values() for w in ws}


def _held(conn: sqlite3.Connection, word: str, game: str) -> bool:
    """Whether a rule (of ``game``, or any) holds ``word`` in any inflection: "affecting" is
    held by a rule saying "affects" (the stem as a prefix of the index's folded words)."""
    root = os.path.commonprefix([word, stem(word)])  # "during" -> "dur", not "dure"
    if len(root) < 3:
        return True
    expression = '{folded} : "' + root.replace('"', '""') + '"*'
    return bool(run(conn, "coverage_rules", expression=expression, game=game))


def question_coverage(
    conn: sqlite3.Connection,
    question: str,
    game: str = "",
    content_words: Iterable[str] | None = None,
    hits: Sequence[Mapping[str, Any]] | None = None,
) -> Coverage:
    """Whether the corpus covers what ``question`` is about (see the module). ``game``: the
    game the question is known to be about (kb ask's ``--game``, or the one it understood);
    ``content_words``: its words once cards, terms and moments are taken out and typos
    corrected (kb ask's ``understood.words``), else the question's own words; ``hits``: the
    passages ranked for it (each with its ``game``), when there are any."""
    corpus = run(conn, "game_aliases")
    games = [{"id": g["id"], "name": g["name"]} for g in corpus]
    forms = [(g["id"], [g["id"], g["name"], *json.loads(g["aliases"] or "[]")]) for g in corpus]
    known = {_key(f) for _, fs in forms for f in fs}
    others = [
        (g["name"], g["aliases"] + [g["name"]])
        for g in _elsewhere(conn)
        if not known & {_key(a) for a in [g["name"], *g["aliases"]]}
    ]
    outside = _names(question, others)
    named = _names(question, forms)
    scope = game or (named[0] if len(named) == 1 else "")
    game_words = {w for _, fs in forms + others for f in fs for w in _key(f).split()}
    stop = _stopwords() | game_words
    source = content_words if content_words is not None else words(question)
    content = [w for w in (_key(w) for w in source) if w and w not in stop]
    topic = _topic_words(content)
    missing = [] if outside else _off_game(conn, topic, scope, hits)
    unmentioned = [] if outside else _unmentioned(conn, question, topic, scope)
    out: Coverage = {
        "covered": not outside and not missing,
        "games": games,
        "game": scope or None,
        "outside": outside,
        "missing": missing,
        "unmentioned": unmentioned,
        "message": None,
    }
    out["message"] = _message(out)
    return out


def _topic_words(content: list[str]) -> list[str]:
    """The words that can name a topic: long enough, not numbers, not Chinese runs (written
    without spaces, they are not words to look up one by one)."""
    return [
        w
        for w in dict.fromkeys(content)
        if len(w) >= MIN_LETTERS and w.isalpha() and not CJK_RUN.search(w)
    ]


def _heads(conn: sqlite3.Connection, game: str) -> set[str]:
    """The last words of the names the rules of ``game`` (any: "") are organised by: section
    and rule titles, glossary terms ("Loop", "Life")."""
    out: set[str] = set()
    for row in run(conn, "coverage_titles", game=game):
        last = _key(row["title"]).split()[-1:] if row["title"] else []
        out.update(stem(w) for w in last)
    return out


def _unmentioned(conn: sqlite3.Connection, question: str, topic: list[str], game: str) -> list[str]:
    """The question's words no rule of any game holds, in any inflection, that are no everyday
    English ("mulligan") and do not just qualify a thing the rules name ("infinite loop": the
    rules have "Loop", and say "indefinitely")."""
    absent = [w for w in topic if not _held(conn, w, "")]
    if not absent:
        return []
    threshold = datafiles.load("query")["unknown"]["everyday_count"]
    everyday = set(column(conn, "ask_everyday_words", words=json.dumps(absent), min=threshold))
    asked = _key(question).split()
    heads = _heads(conn, game)
    qualifying = {
        a for a, b in zip(asked, asked[1:], strict=False) if stem(b) in heads and a in absent
    }
    return [w for w in absent if w not in everyday and w not in qualifying]


def _off_game(
    conn: sqlite3.Connection,
    topic: list[str],
    game: str,
    hits: Sequence[Mapping[str, Any]] | None,
) -> list[str]:
    """For a question about one game none of whose best passages (if any) is of that game: its
    words that game's documents lack ("Vanguard guard step")."""
    shown = [h.get("game") for h in (hits or [])[:TOP_HITS]]
    if not game or not topic or hits is None or game in shown:
        return []
    lacking = [w for w in topic if not _held(conn, w, game)]
    return [" ".join(lacking)] if lacking else []


def _message(c: Coverage) -> str | None:
    if c["covered"]:
        if not c["unmentioned"]:
            return None
        quoted = ", ".join(f"“{w}”" for w in c["unmentioned"])
        return (
            f"No document of the knowledge base uses the word {quoted}: the passages below "
            "may say it in other words, or not cover it."
        )
    names = [g["name"] for g in c["games"]]
    has = ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else ""
    if c["outside"]:
        which = " and ".join(c["outside"])
        return (
            f"Not in the knowledge base: it has no rules of {which} (it covers {has}); any "
            "passage below is of another game."
        )
    quoted = ", ".join(f"“{m}”" for m in c["missing"])
    game = next((g["name"] for g in c["games"] if g["id"] == c["game"]), c["game"])
    return (
        f"Not in the knowledge base: its {game} documents do not mention {quoted}; any passage "
        "below is of another game."
    )


_MENTIONS = re.compile(r"\s*No rule mentions ((?:“[^”]*”(?:, )?)+)\.")


def not_mentioned(sentence: str | None, coverage: Mapping[str, Any] | None) -> str | None:
    """An answer's "not covered" sentence with only the words ``coverage`` finds missing in its
    "No rule mentions “…”" (the sentence dropped when none is): a word the passages shown do
    cover in other words ("infinite" for the rule on loops) is not said to be missing."""
    if not sentence or coverage is None:
        return sentence
    said = [*(coverage.get("missing") or []), *(coverage.get("unmentioned") or [])]
    missing = {_key(m) for m in said}
    missing |= {w for m in missing for w in m.split()}

    def keep(m: re.Match[str]) -> str:
        said = re.findall(r"“([^”]*)”", m.group(1))
        kept = [w for w in said if _key(w) in missing]
        return f" No rule mentions {', '.join(f'“{w}”' for w in kept)}." if kept else ""

    return _MENTIONS.sub(keep, sentence)


def annotate(conn: sqlite3.Connection, result: dict[str, Any]) -> dict[str, Any]:
    """A ``kb ask`` result with its ``coverage`` (question_coverage, unless the engine gave one)
    and its not-covered sentence naming only the words the corpus lacks (not_mentioned)."""
    if "coverage" not in result:
        understood = result.get("understood") or {}
        result["coverage"] = question_coverage(
            conn,
            result.get("query") or "",
            game=understood.get("game") or "",
            content_words=understood.get("words"),
            hits=result.get("hits") or [],
        )
    result["not_covered"] = not_mentioned(result.get("not_covered"), result["coverage"])
    return result
