"""The words of a question a passage or a clause must hold, each as the stems that may stand
for it (a term or a moment as any of its names, an everyday phrase as any of its expansions);
the ways of writing a glossary term, a card or a card class, as stems (whether a clause names
what the question names); and the words that say nothing of what it is about (function and
cue words, game names...)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from ingest.text import CJK_RUN, fold, stem, words

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...store.db import column, run
from ...store.vocabulary import load_vocabulary
from ..passes_asks import cue_phrases, cue_words, is_everyday_verb, lexicon, unread_chinese
from ..question import Understood
from .curated import curated


def stems(text: str) -> set[str]:
    return {stem(w) for w in words(fold(text))}


def content(text: str, skip: set[str]) -> set[str]:
    return {stem(w) for w in words(fold(text)) if w not in skip and len(w) > 1}


def alternatives(texts: list[str]) -> set[str]:
    """A phrase's stems as one alternative ("a|b": every stem held) per way of writing it."""
    return {"|".join(sorted(found)) for text in texts if (found := stems(text.replace("-", " ")))}


def holds(held: set[str], options: set[str]) -> bool:
    """Some way of writing a word is held whole."""
    return any(set(a.split("|")) <= held for a in options)


def holds_all(held: set[str], required: list[set[str]]) -> bool:
    """Every required word is held, in one of its ways of writing it."""
    return all(holds(held, options) for options in required)


class Forms:
    """The ways of writing the concepts of one question, looked up once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.cache: dict[str, set[str]] = {}

    def of(self, concept: str) -> set[str]:
        if concept not in self.cache:
            self.cache[concept] = alternatives(self._texts(*concept.split(":", 1)))
        return self.cache[concept]

    def _texts(self, kind: str, ident: str) -> list[str]:
        vocab = load_vocabulary(self.conn)
        if kind == "term":
            return [ident, *(t["text"] for t in vocab.terms if t["term"] == ident)]
        if kind == "card":
            return [c["alias"] for c in vocab.cards if c["card"] == ident]
        rows = run(self.conn, "class_names_of_game", game="") if kind == "class" else []
        return [r["text"] for r in rows if r["class"] == ident]

    def stems(self, concepts: Iterable[str]) -> set[str]:
        """Every stem of any way of writing the concepts."""
        return {s for c in concepts for a in self.of(c) for s in a.split("|")}

    def named(self, concept: str, held: set[str]) -> bool:
        """``held`` (stems) names the concept in one of its non-CJK ways of writing."""
        return holds(held, {a for a in self.of(concept) if not CJK_RUN.search(a)})


def synonyms() -> dict[str, frozenset[str]]:
    """Each stem of an everyday word to the stems of its group (kb/data/query.toml)."""
    return curated()["synonyms"]


def skipped(conn: sqlite3.Connection) -> set[str]:
    """Words that say nothing of a question's subject: function and cue words, game names."""
    sets = curated()
    skip = set(stopwords()) | cue_words() | sets["bounds"] | sets["connectives"]
    return skip | {fold(a) for aliases in load_vocabulary(conn).games.values() for a in aliases}


def _rulesets(conn: sqlite3.Connection) -> frozenset[str]:
    """Rulesets ("OCG") and kinds of document ("CR"): which rules are asked of, not what about."""
    return frozenset(column(conn, "ask_rulesets")) | frozenset(column(conn, "ask_document_kinds"))


def moment_names(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Each moment's names ("回合", "turn"; "tính toán thiệt hại", "damage calculation")."""
    names: dict[str, list[str]] = {}
    for row in load_vocabulary(conn).timing:
        names.setdefault(row["node"], []).append(row["text"])
    return names


# A word a sentence must hold: where the question says it, its ways of writing (as stems).
Required = tuple[int, int, set[str]]


class Narrowing(set):
    """A required word narrowing a term the question names ("master rune cards"): a text that
    leaves it unsaid speaks of another kind, so no slack is spent on it."""


def all_but_one(missing: list[set[str]], required: list[Any], slack_from: float) -> bool:
    """No required word is missing, or of a long question (``slack_from`` words, tuned) one,
    but not one narrowing a name it names (a Narrowing)."""
    if len(missing) != 1:
        return not missing
    return len(required) >= slack_from and not isinstance(missing[0], Narrowing)


def required_words(
    conn: sqlite3.Connection, u: Understood, apart: Sequence[tuple[int, int]] = ()
) -> list[set[str]]:
    """What a sentence must hold of the question (see the module docstring), but the spans
    ``apart``."""
    return [options for _, _, options in required_spans(conn, u, apart)]


def required_spans(
    conn: sqlite3.Connection, u: Understood, apart: Sequence[tuple[int, int]]
) -> list[Required]:
    """required_words with where each stands in the question: its names and everyday phrases
    (``_named``), then each word no name reads (a game's name too, where it names no game), as
    itself or a synonym."""
    forms = _term_forms(conn)
    # The question folded, its clitics ("can't"), the games it names and ``apart`` blanked:
    # positions stay the question's.
    folded = curated()["clitic"].sub(lambda m: " " * len(m.group()), fold(u.corrected or u.text))
    for start, end in [*apart, *_game_mentions(conn, folded)]:
        folded = folded[:start] + " " * (end - start) + folded[end:]
    spans = _named(conn, u, folded, forms)
    out = [span for span in spans if span[2]]
    skip = skipped(conn)
    narrowing = _narrowing_at(u, _script_words(folded), skip)
    for start, word in _unread_pieces(folded, spans):
        word = u.corrections.get(word, word)
        if not _read_alone(conn, word, folded[start - 1 : start], skip):
            same = set(synonyms().get(stem(word), {stem(word)}))
            out.append((start, start + len(word), Narrowing(same) if start in narrowing else same))
    return out


def _named(
    conn: sqlite3.Connection, u: Understood, folded: str, forms: dict[str, list[str]]
) -> list[Required]:
    """The question's glossary terms and moments as any of their names, and its everyday
    phrases as any of their expansions, each where no name before it stands; a phrase of no
    subject ("规则": "rules") holds nothing. A name blanked in ``folded`` is read elsewhere."""
    spans: list[Required] = []

    def free(at: int) -> bool:
        return not any(s <= at < e for s, e, _ in spans)

    moments = moment_names(conn)
    names = [(t, [t["term"], *forms.get(t["term"], [])]) for t in u.terms]
    names += [(t, moments.get(t["node"], [])) for t in u.timing]
    for t, texts in names:
        said = folded[t["start"] : t["end"]] if "start" in t else ""
        if said.strip() and free(t["start"]):
            spans.append((t["start"], t["end"], alternatives([said, *texts])))
    for key, expanded in u.expansions.items():
        at = folded.find(key)
        if key in cue_phrases() or all(w in stopwords() for w in key.split()):
            continue  # "how many": a cue of what is asked, not a word of the subject
        if all(w in stopwords() for f in expanded for w in fold(f).split()):
            spans.append((at, at + len(key), set()))
        elif at >= 0 and free(at) and not (len(key) == 1 and folded[at - 1 : at].isdigit()):
            spans.append((at, at + len(key), alternatives([key, *expanded])))  # not "2005年"
    return spans


def _read_alone(conn: sqlite3.Connection, word: str, before: str, skip: set[str]) -> bool:
    """The word is read on its own, not as what the question is about: a function or cue
    word, a number or its unit ("2005年"), the modality, a count ("two"), a ruleset ("OCG"),
    or an everyday verb of what is asked of the subject ("want", "bring"), which rules word
    otherwise. ``before``: the character before it."""
    return bool(
        (CJK_RUN.fullmatch(word) and len(word) == 1 and before.isdigit())
        or word in skip
        or re.fullmatch(r"[\d.,]+", word)
        or lexicon().modality(word)
        or word in lexicon().number_words
        or word in _rulesets(conn)
        or (is_everyday_verb(word) and not lexicon().actions(word))
    )


def _term_forms(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Each glossary term's ways of writing it, but Chinese (searched as bigrams)."""
    forms: dict[str, list[str]] = {}
    for row in load_vocabulary(conn).terms:
        if not CJK_RUN.search(row["text"]):
            forms.setdefault(row["term"], []).append(row["text"])
    return forms


def _game_mentions(conn: sqlite3.Connection, folded: str) -> list[tuple[int, int]]:
    """Where the question names a game: "vanguard" is the game where a game is named (opening
    the question, before a colon, after "in") or no term is written so; else a word of its
    rules ("vanguard: I have no vanguard"), read as any other."""
    vocabulary = load_vocabulary(conn)
    aliases = {a for names in vocabulary.games.values() for a in names}
    terms = {row["key"] for row in vocabulary.terms}
    after_words = tuple(f" {fold(w)}" for w in query_data()["game_named_after"]["words"])
    spans = []
    for m in cue_pattern(tuple(sorted(aliases))).finditer(folded):
        before, after = folded[: m.start()].rstrip(), folded[m.end() :].lstrip()
        naming = not before.strip(" -([") or after.startswith((":", ")"))
        if naming or before.endswith(after_words) or m.group() not in terms:
            spans.append((m.start(), m.end()))
    return spans


def _script_words(folded: str) -> list[tuple[int, str]]:
    """(position, word) of a text's words, a run of another script a word ("ocg规则下")."""
    out = []
    for m in re.finditer(r"\w+", folded):
        at, token = m.start(), m.group()
        cuts = sorted({0, len(token)} | {i for c in CJK_RUN.finditer(token) for i in c.span()})
        out += [(at + a, token[a:b]) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]
    return out


def _unread_pieces(folded: str, spans: list[Required]) -> list[tuple[int, str]]:
    """The words no name or phrase of ``spans`` opens, a Chinese run cut to the pieces no
    name, cue or function word reads."""
    covered = {i for s, e, _ in spans for i in range(s, e)}
    out = []
    for start, word in _script_words(folded):
        if not CJK_RUN.fullmatch(word):
            out += [] if start in covered else [(start, word)]
            continue
        chars = [" " if start + i in covered else c for i, c in enumerate(unread_chinese(word))]
        out += [(start + m.start(), m.group()) for m in CJK_RUN.finditer("".join(chars))]
    return out


def _narrowing_at(u: Understood, tokens: list[tuple[int, str]], skip: set[str]) -> set[int]:
    """The positions of the content words (at most two) right before a glossary term of the
    question."""
    starts = {t["start"] for t in u.terms if "start" in t}
    # No function word, nor a count ("normal two-player game"), nor a term's own word.
    term = [start in starts for start, _ in tokens] + [False, False]
    modifier = [
        w not in skip and not w.isdigit() and w not in lexicon().number_words for _, w in tokens
    ] + [False]
    return {
        start
        for i, (start, _) in enumerate(tokens)
        if modifier[i] and not term[i] and (term[i + 1] or (modifier[i + 1] and term[i + 2]))
    }


def plain(required: list[set[str]]) -> list[set[str]]:
    """The question's own words among the required (a word, or a word and its synonyms)."""
    groups = set(synonyms().values())
    return [
        r
        for r in required
        if all("|" not in a for a in r) and (len(r) == 1 or frozenset(r) in groups)
    ]
