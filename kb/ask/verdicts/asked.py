"""What a question asks for, as the resolvers read it: its kind (kb/ask/passes_asks.py), the
action, the Chain, the card classes and rulesets it names, and the words no rule holds. Actions
and Chains come from the lexicon the build reads rules with (ingest/data/statements.toml).

On the ``kb ask`` path: standard library and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cached_property
from typing import Any

from ingest.text import CJK_RUN, fold, folded_words, stem

from ...lexicon.phrases import find_phrase
from ...lexicon.words import query_data
from ...store.db import column, run
from ...store.vocabulary import load_vocabulary
from ..passes_asks import cue_words, is_everyday_verb, lexicon, unread_chinese
from ..question import Understood
from .named import Forms


def classes_named(conn: sqlite3.Connection, u: Understood) -> list[dict[str, Any]]:
    """The card classes a question names ("a counter trap", "Bẫy Phản đòn"), each once."""
    folded = fold(u.text)
    found: list[dict[str, Any]] = []
    taken: list[tuple[int, int]] = []
    rows = run(conn, "class_names_of_game", game=u.game or "")
    for row in sorted(rows, key=lambda r: -len(r["text"])):
        key = folded_words(row["text"])
        for start, end in find_phrase(folded, key) if key else []:
            if all(end <= s or start >= e for s, e in taken):
                taken.append((start, end))
                if row["class"] not in {f["class"] for f in found}:
                    found.append({**row, "start": start, "end": end})
    return sorted(found, key=lambda f: f["start"])


def _unread_cjk(u: Understood, folded: str, games: dict[str, list[str]]) -> list[str]:
    """Chinese the question holds beyond the names, moments, terms and cue words it was read
    by ("同名" in "同名卡最多放几张"). Cue words are read before the names take their
    characters (the field "攻击力" holds the term "攻击")."""
    aliases = tuple(a for names in games.values() for a in names if CJK_RUN.search(a))
    chars = list(unread_chinese(folded, aliases)) if CJK_RUN.search(folded) else list(folded)
    for found in [*u.cards, *u.timing, *u.terms]:
        if "start" in found:
            chars[found["start"] : found["end"]] = [" "] * (found["end"] - found["start"])
    return CJK_RUN.findall("".join(chars))


ADVERB_MIN_LETTERS = 6


class Asked:
    """What a question asks for, beyond what understanding found in it."""

    def __init__(self, conn: sqlite3.Connection, u: Understood) -> None:
        folded = fold(u.text)
        self.text = u.text
        self.kind = u.kind
        self.conn, self.u, self.folded = conn, u, folded
        # A qualifier naming no moment of the knowledge base ("in the third phase").
        self.unresolved = u.unresolved
        # Facts contradicting each other (filled by a resolver): shown instead of a verdict.
        self.conflicts: list[list[dict[str, Any]]] = []
        self.passages: list[dict[str, Any]] = []  # the ranked passages (kb.ask.rank rows)
        self.unaccounted: list[str] = []  # words neither read nor quoted (verdicts.account)
        self.stopped_by = ""  # the filter that stopped the question or its verdicts

    # The rest is read when a resolver asks: a question asking for no verdict needs none of it.
    @cached_property
    def forms(self) -> Forms:
        return Forms(self.conn)

    @cached_property
    def rulesets(self) -> list[str]:
        return [
            r
            for r in column(self.conn, "ask_rulesets")
            if re.search(rf"(?<!\w){re.escape(r)}(?!\w)", self.folded)
        ]

    @cached_property
    def classes(self) -> list[dict[str, Any]]:
        return classes_named(self.conn, self.u)

    @cached_property
    def unknown(self) -> list[str]:
        """Content words the index has never seen ("digimon"): no fact covers what the
        knowledge base does not know. A word is known when its every part of letters is (the
        index splits "dm5" into "dm" and "5")."""
        u = self.u
        expanded = {w for key in u.expansions for w in key.split()}  # "rearrange": its forms
        parts = {w: re.findall(r"[^\W\d_]+", w) for w in u.words}
        stems = {w: stem(w) for w in u.words}
        part_stems = {p: stem(p) for ps in parts.values() for p in ps}
        looked_up = set(part_stems) | set(part_stems.values()) | set(u.words) | set(stems.values())
        known = {r["term"] for r in run(self.conn, "ask_word_counts", words=sorted(looked_up))}
        data = query_data()["unknown"]
        # Everyday English the rules happen not to use ("since", "friend"), not a subject.
        everyday = set(
            column(self.conn, "ask_everyday_words", words=sorted(set(u.words) - known),
                   min=data["everyday_count"])
        )  # fmt: skip
        unknown = [
            w
            for w in u.words
            if w not in known
            and stems[w] not in known  # "going": the index has "go"
            and w not in expanded
            # "damage-inflicting": each part is known, as written or as its stem
            and not (parts[w] and all(p in known or part_stems[p] in known for p in parts[w]))
            # an adverb ("actually", "immediately") says how, not what the question is about
            and not (w.endswith("ly") and len(w) >= ADVERB_MIN_LETTERS)
            # an everyday verb ("wants", "brings"): what is asked of the subject, not it
            and not is_everyday_verb(w)
            and not CJK_RUN.search(w)
            and not re.fullmatch(r"[-+]?[\d.,]+", w)  # numbers, versions ("8.01"), "-100"
            and w not in cue_words()
            and w not in everyday
            # shorter words the index lacks are function words the stopwords miss ("got")
            and len(w) >= data["min_letters"]
        ]
        unknown = [w for w in unknown if not self._inflected(stems[w])]
        return unknown + _unread_cjk(u, self.folded, load_vocabulary(self.conn).games)

    def _inflected(self, word_stem: str) -> bool:
        """The index holds the word in another inflection ("initiated": "initiate")."""
        if word_stem == "" or not word_stem.isascii():
            return False
        found = column(self.conn, "ask_words_of_stem", stem=word_stem)
        return any(stem(w) == word_stem for w in found)

    def of_rulesets(self, conn: sqlite3.Connection, nodes: list[str]) -> list[str]:
        """The timing nodes of the rulesets the question names (all when it names none)."""
        if not self.rulesets:
            return nodes
        ruleset = {r["id"]: r["ruleset"] for r in run(conn, "ask_node_rulesets", ids=nodes)}
        return [n for n in nodes if ruleset.get(n, "*") in ("*", *self.rulesets)]

    @cached_property
    def action(self) -> str:
        """What the question asks is done, read past the names of several words it holds
        ("the draw phase" draws nothing)."""
        text = list(self.folded)
        for found in [*self.u.terms, *self.u.timing]:
            span = self.folded[found.get("start", 0) : found.get("end", 0)]
            # A name of several English words ("draw-phase"), not an action's own term
            # ("activate", written "kích hoạt").
            if "start" in found and "-" in found.get("term", found.get("node", "")):
                text[found["start"] : found["end"]] = [" "] * len(span)
        actions = lexicon().actions("".join(text))
        return actions[0] if actions else ""

    @cached_property
    def chain(self) -> str:
        """The Chain the question asks about: of several named, the last ("the first Chain has
        resolved. Can I ... in a second Chain?")."""
        named = [(m.start(), k) for k, cues in lexicon().chains for m in cues.finditer(self.text)]
        return max(named)[1] if named else ""

    @cached_property
    def modality(self) -> str:
        return lexicon().modality(self.text)
