"""Yes or no from one clause of the best passages: "can a rested resonator block" is answered
by the clause "A rested J/resonator cannot block" when a passage kb ask ranks first holds it.

The build reads every clause of every rule (and of its gloss and official-terms reading) as a
statement fact: a modality (can, cannot, must, needn't, only) or, for a clause that says what
happens, does / does-not; the condition it holds; its exception words (ingest/extract/
clauses.py). A clause answers when it holds most of the question's content words itself and
the rest are said around it (its sentence, its passage, the passage's section and moment);
when the question states its condition, if it has one; when it holds no exception; and when
what it is said of is what the question names. The question's own modality decides how the
clause reads: "can X" is yes for "X can", no for "X cannot"; "must X" is yes for "X must",
no for "X need not"; "does X" is yes for "X happens", no for "X does not happen". Clauses of
the top passages that disagree give no verdict.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.sentences import split_sentences
from ingest.text import CJK_RUN, fold, stem, words

from ... import datafiles
from ...db import column, first, run
from ...vocabulary import load_vocabulary
from ..question import Understood, cue_pattern, stopwords
from .asked import Asked, cue_phrases, cue_words, is_everyday_verb, lexicon, unread_chinese
from .common import Verdict, because, threshold
from .originals import original

# (question modality, clause reading) -> verdict; pairs not listed give none ("must X?" is
# not answered by "X can", nor "can X?" by "X happens").
READINGS = {
    ("can", "can"): "yes",
    ("can", "cannot"): "no",
    ("", "can"): "yes",
    ("", "cannot"): "no",
    ("must", "must"): "yes",
    ("", "must"): "yes",
    ("must", "needn't"): "no",
    ("", "needn't"): "no",
    ("", "does"): "yes",
    ("", "does-not"): "no",
    ("must", "does"): "yes",
    ("must", "does-not"): "no",
}


@cache
def _limiting_words() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Words that limit what a sentence allows (conditions, exceptions) and words that negate
    a question: both from kb/data/statements.toml."""
    data = datafiles.load("statements")
    conditions = [w for lang in ("en", "vi", "zh") for w in data["conditions"][lang]]
    limits = [w for entry in data["limits"].values() for w in entry] + conditions
    negations = [w for entry in data["negations"].values() for w in entry]

    def alternation(ws: list[str]) -> re.Pattern[str]:
        body = "|".join(re.escape(fold(w)) for w in sorted(ws, key=len, reverse=True))
        return re.compile(rf"(?<!\w)(?:{body})(?!\w)")

    return alternation(limits), alternation(negations)


def _stems(text: str) -> set[str]:
    return {stem(w) for w in words(fold(text))}


def _skipped(conn: sqlite3.Connection) -> set[str]:
    """Words a question holds that say nothing of its subject: function and cue words, the
    names of the games."""
    skip = set(stopwords()) | cue_words() | _bound_words()
    return skip | {fold(a) for aliases in load_vocabulary(conn).games.values() for a in aliases}


def _rulesets(conn: sqlite3.Connection) -> frozenset[str]:
    return frozenset(column(conn, "ask_rulesets"))


@cache
def _polar_words() -> frozenset[str]:
    """The words that make a clause say something does not happen ("doesn't", "không"): how
    it is said, not what."""
    words_ = datafiles.load("statements")["polarity"].values()
    return frozenset(w for ws in words_ for phrase in ws for w in fold(phrase).split())


@cache
def _bound_words() -> frozenset[str]:
    """The words of the bounds a number takes ("exactly", "đúng", "at least"): how a count is
    asked, not what."""
    bounds = datafiles.load("statements")["bounds"].values()
    return frozenset(w for words_ in bounds for phrase in words_ for w in fold(phrase).split())


_CLITIC = re.compile(r"n['’]t\b|['’](?:s|t|d|ll|re|ve|m)\b")


def _alternatives(texts: list[str]) -> set[str]:
    """A phrase's stems as one alternative ("a|b": every stem held) per way of writing it."""
    out = set()
    for text in texts:
        stems = _stems(text.replace("-", " "))
        if stems:
            out.add("|".join(sorted(stems)))
    return out


def _game_names(conn: sqlite3.Connection, folded: str) -> list[tuple[int, int]]:
    """Where the question names a game ("Force of Will"): the game, not words of it."""
    aliases = {a for names in load_vocabulary(conn).games.values() for a in names}
    return [(m.start(), m.end()) for m in cue_pattern(tuple(sorted(aliases))).finditer(folded)]


def _script_words(folded: str) -> list[tuple[int, str]]:
    """(position, word) of a text's words, a run of another script a word of its own
    ("ocg规则下": "ocg", "规则下")."""
    out = []
    for m in re.finditer(r"\w+", folded):
        at, token = m.start(), m.group()
        cuts = sorted({0, len(token)} | {i for c in CJK_RUN.finditer(token) for i in c.span()})
        out += [(at + a, token[a:b]) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]
    return out


def required_words(
    conn: sqlite3.Connection,
    u: Understood,
    apart: list[tuple[int, int]] = (),  # type: ignore[assignment]
) -> list[set[str]]:
    """What a sentence must hold of the question, each as the stems that may stand for it: a
    glossary term as any of its renderings (004's machine-translated "round" for turn), an
    everyday phrase as any of the forms it expands to ("rearrange": "change the order"), any
    other content word as itself. What lies in the spans ``apart`` is left out."""
    # Positions stay those of the question: a possessive or a contraction ("opponent's",
    # "can't") is blanked, not removed.
    folded = list(_CLITIC.sub(lambda m: " " * len(m.group()), fold(u.text)))
    for start, end in [*apart, *_game_names(conn, "".join(folded))]:
        folded[start:end] = [" "] * (end - start)
    folded = "".join(folded)
    skip = _skipped(conn)
    forms: dict[str, list[str]] = {}
    for row in load_vocabulary(conn).terms:
        if not CJK_RUN.search(row["text"]):
            forms.setdefault(row["term"], []).append(row["text"])
    spans: list[tuple[int, int, set[str]]] = []
    for t in u.terms:
        if "start" in t and folded[t["start"] : t["end"]].strip():
            texts = [folded[t["start"] : t["end"]], t["term"], *forms.get(t["term"], [])]
            spans.append((t["start"], t["end"], _alternatives(texts)))
    # A moment as any of its names ("回合", "turn"; "tính toán thiệt hại", "damage calculation").
    names: dict[str, list[str]] = {}
    for row in load_vocabulary(conn).timing:
        names.setdefault(row["node"], []).append(row["text"])
    for t in u.timing:
        if "start" in t and not any(s <= t["start"] < e for s, e, _ in spans):
            texts = [folded[t["start"] : t["end"]], *names.get(t["node"], [])]
            spans.append((t["start"], t["end"], _alternatives(texts)))
    for key, expanded in u.expansions.items():
        at = folded.find(key)
        if key in cue_phrases() or all(w in stopwords() for w in key.split()):
            continue  # "how many": a cue of what is asked, not a word of the subject
        if all(w in stopwords() for f in expanded for w in fold(f).split()):
            spans.append((at, at + len(key), set()))  # "规则": "rules", a word of no subject
            continue
        if at >= 0 and not any(s <= at < e for s, e, _ in spans):
            spans.append((at, at + len(key), _alternatives([key, *expanded])))
    out = [alternatives for _, _, alternatives in spans if alternatives]
    for start, word in _script_words(folded):
        word = u.corrections.get(word, word)
        if CJK_RUN.fullmatch(word):
            # Chinese runs on without spaces: only what no cue or function word reads
            word = "".join(unread_chinese(word).split())
            if not word:
                continue
        if any(s <= start < e for s, e, _ in spans):
            continue
        if word in skip or re.fullmatch(r"[\d.,]+", word) or lexicon().modality(word):
            continue  # the question's modality is read on its own
        if word in lexicon().number_words or word in _rulesets(conn):
            continue  # "two", "OCG": a count or a ruleset, read on their own
        if is_everyday_verb(word) and not lexicon().actions(word):
            continue  # "want", "bring": what is asked of the subject, which rules word otherwise
        out.append({stem(word)})
    return out


def holds(sentence_stems: set[str], required: list[set[str]]) -> bool:
    for alternatives in required:
        if not any(set(a.split("|")) <= sentence_stems for a in alternatives):
            return False
    return True


def asked_words(u: Understood, required: list[set[str]]) -> set[str]:
    """Every stem the question holds or stands for: its words (cue words too: "first" is a
    word of "who goes first" and of "on my first turn") and the forms of its names."""
    said = _content(_CLITIC.sub(" ", fold(u.text)), set(stopwords()))
    return said | {a for alternatives in required for a in alternatives for a in a.split("|")}


def _content(text: str, skip: set[str]) -> set[str]:
    return {stem(w) for w in words(fold(text)) if w not in skip and len(w) > 1}


def condition_share(fact: dict[str, Any], asked_stems: set[str], asked_text: str = "") -> float:
    """How much of the fact's condition the question states (1.0 without a condition; 0.0
    when it says the opposite of the question: "face-up" for "face-down")."""
    if asked_text and _contradicts(fact["condition"], asked_text):
        return 0.0
    condition = _content(fact["condition"], set(stopwords()))
    return len(condition & asked_stems) / len(condition) if condition else 1.0


def _contradicts(condition: str, question: str) -> bool:
    said, asked = fold(condition), fold(question)
    for a, b in datafiles.load("statements")["opposites"]["pairs"]:
        for x, y in ((fold(a), fold(b)), (fold(b), fold(a))):
            if _has_word(said, x) and _has_word(asked, y) and not _has_word(asked, x):
                return True
    return False


def _has_word(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


@cache
def _pronoun() -> re.Pattern[str]:
    pronouns = [w for ws in datafiles.load("statements")["pronouns"].values() for w in ws]
    body = "|".join(re.escape(fold(w)) for w in sorted(pronouns, key=len, reverse=True))
    return re.compile(rf"^\W*(?:(?:and|also|but)\s+)*(?:{body})(?!\w)")


def _ids(concepts: str) -> set[str]:
    """Concept ids without their kind: a class and a term of one name are one thing."""
    return {c.partition(":")[2] for c in concepts.split() if not c.startswith("timing:")}


def asked_concepts(u: Understood, asked: Asked) -> set[str]:
    named = [f"term:{t['term']}" for t in u.terms] + [f"card:{c['id']}" for c in u.cards]
    return _ids(" ".join(named + [f"class:{c['class']}" for c in asked.classes]))


def _reading(fact: dict[str, Any], asked: Asked, asked_stems: set[str], skip: set[str],
             topic: set[str], plain: list[set[str]]) -> str:  # fmt: skip
    """The verdict a statement fact gives the question, or "" (see the module docstring).
    ``topic``: the concepts the rule opens with, which "it" stands for; ``plain``: the
    question's own words (not names), which the clause itself must hold."""
    if fact["limits"] or condition_share(fact, asked_stems, asked.text) < threshold(
        "min_condition_share"
    ):
        return ""
    if (
        _pronoun().search(fold(fact["outcome"]))
        and topic
        and not topic & asked_concepts(asked.u, asked)
    ):
        return ""  # "It can also be activated ..." said of a Field Spell is not of a trap
    said = fact["modality"]
    own = _stems(f"{fact['condition']} {fact['outcome']}")
    if not holds(own, plain):
        return ""  # "players may concede" does not say whether an effect can force it
    if said in ("does", "does-not") and asked.action and asked.action not in fact["action"].split():
        return ""  # "does the starting player draw" is not "... skips his first Draw Phase"
    if said in ("does", "does-not"):
        # What the clause says is done is what the question asks is done: its words but the
        # names it holds are the question's ("skip the recovery phase" does not answer "do I
        # get a recovery phase").
        named = {
            s for c in fact["concepts"].split() for a in asked.forms.of(c) for s in a.split("|")
        }
        own = _content(fact["outcome"], skip | _polar_words()) - named
        if not own <= asked_stems:
            return ""
    else:
        # What the modality is said of: the words before it in its own part of the clause
        # (after "Different from chants with [Trigger]," or "Immediately after ...,").
        before = fact["subject"].rpartition(",")[2]
        subject = [
            w for w in words(before)
            if w not in skip and len(w) > 1 and not lexicon().negated_subjects.search(w)
        ]  # fmt: skip
        if not {stem(w) for w in subject} <= asked_stems:
            return ""
    if any(bound for bound, _, _ in lexicon().quantities(fact["outcome"])):
        return ""  # a number bounds it ("up to four"): how many, not whether
    return READINGS.get((asked.modality, said), "")


def answering(clause: str, around: set[str], required: list[set[str]]) -> bool:
    """The clause states what the question asks: it holds most of the question's words
    itself (its predicate), and the rest are said around it (its sentence, its passage)."""
    own = _stems(clause)
    held = sum(1 for alternatives in required if holds(own, [alternatives]))
    missing = sum(1 for alternatives in required if not holds(own | around, [alternatives]))
    # One word of many may be the question's own ("no cards left in their deck").
    slack = 1 if len(required) >= threshold("slack_from") else 0
    return 2 * held >= len(required) and missing <= slack


def sentences(conn: sqlite3.Connection, passage: dict[str, Any]) -> list[str]:
    """The passage's sentences, those of its reading in official terms (004's machine
    translation with the official names) and those of its curated English gloss (a rule of
    the Vietnamese article is read in the English a judge is shown beside it)."""
    glosses = [g["text"] for g in run(conn, "rule_glosses", id=passage["id"])]
    texts = [passage["text"], passage.get("reading") or "", *glosses]
    return [s for text in dict.fromkeys(t for t in texts if t) for s in split_sentences(text)]


def context(conn: sqlite3.Connection, passage: dict[str, Any]) -> list[str]:
    """What a passage is said under: its title, its section path, its document's title ("FoW
    basic rules") and the English names of the moments it belongs to (a Vietnamese heading
    is "Bước Chiến đấu", Battle Step)."""
    nodes = (passage.get("nodes") or "").split()
    names = [row["en"] for n in nodes if (row := first(conn, "timing_node", id=n))]
    title = passage.get("document_title") or ""
    return [passage.get("title") or "", passage.get("section_path") or "", title, *names]


def _asking_sentence(text: str) -> str:
    """The sentence that asks ("My ruler doesn't have [Grimoire]. Can I still bring an extra
    deck?": the second): a negation elsewhere supposes, it does not ask "can't I"."""
    sentences = [s for s in re.split(r"(?<=[.?!。？！])\s+", text.strip()) if s.strip()]
    asking = [s for s in sentences if s.rstrip().endswith(("?", "？"))]
    return (asking or sentences or [text])[-1]


def modal_sentence(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Yes or no, read from the clause of the best passages that states the question."""
    _, negations = _limiting_words()
    if asked.unknown or asked.unresolved or negations.search(fold(_asking_sentence(u.text))):
        return None
    if lexicon().quantities(u.text):
        return None  # "more than once", "2 copies": a count, which no modality weighs
    required = required_words(conn, u)
    if len(required) < 2:
        return None  # too little said to find the clause that says it
    asked_stems = asked_words(u, required)
    # The question's own words, each written one way (not a name with renderings).
    plain = [r for r in required if len(r) == 1 and "|" not in next(iter(r))]
    skip = _skipped(conn)
    top = [
        p for p in asked.passages[: int(threshold("passages"))]
        if p["features"]["coverage"] >= threshold("min_coverage")
    ]  # fmt: skip
    top = list({p["id"]: p for p in (original(conn, p) for p in top)}.values())
    facts = run(conn, "verdict_rule_statements", ids=[p["id"] for p in top])
    readings = []
    for p in top:
        mine = [f for f in facts if f["rule"] == p["id"]]
        said = " ".join(dict.fromkeys(f["quote"] for f in mine))
        around = _stems(" ".join([*context(conn, p), said]))
        stating = [
            f for f in mine if answering(f"{f['condition']} {f['outcome']}", around, required)
        ]
        # A clause stating the question under a condition the question states, even in part,
        # may be the exception the question is about ("However, if this is the first turn of
        # the game, the player doesn't draw a card"): what the passage says without a
        # condition is not safe then.
        topic = next((_ids(f["concepts"]) for f in mine if _ids(f["concepts"])), set())
        doubt = any(
            condition_share(f, asked_stems, u.text) >= threshold("min_doubt_share")
            # ... and says something of what is asked, its condition aside ("put it on top
            # of the pile" is no exception to "you may change the order of the pile")
            and _reading({**f, "condition": ""}, asked, asked_stems, skip, topic, plain)
            for f in stating if f["condition"]
        )  # fmt: skip
        for fact in stating:
            if doubt and not fact["condition"]:
                continue
            verdict = _reading(fact, asked, asked_stems, skip, topic, plain)
            if verdict:
                readings.append((fact, verdict))
    # A clause under a condition the question states is the more specific rule ("However, if
    # this is the first turn of the game, the player doesn't draw a card" over "Turn player
    # draws a card"): where one answers, the clauses without a condition do not.
    if any(f["condition"] for f, _ in readings):
        readings = [(f, v) for f, v in readings if f["condition"]]
    if not readings or len({v for _, v in readings}) != 1:
        return None
    fact, verdict = readings[0]
    cited = [because(conn, f) for f, _ in readings]
    opening = {"yes": "Yes", "no": "No"}[verdict]
    return Verdict(verdict, f"{opening}: {fact['quote']}", cited, kind="statement")


__all__ = [
    "answering",
    "condition_share",
    "context",
    "holds",
    "modal_sentence",
    "required_words",
    "sentences",
]
