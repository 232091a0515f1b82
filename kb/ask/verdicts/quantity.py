"""How many: the number the best passages set for what the question counts.

A quantity fact counts a concept (the term named right after its number: "50 cards", "four
copies") and is said of one (the last other concept before it in its clause: "the
Semi-Limited card ... only 2 cards"). A number answers when its passage is among the first
kb ask ranks for the question, it counts what the question counts, is said of what the
question names (in its own clause or its section), and the question states what qualifies
it; the passages that answer must agree.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.text import fold, stem, version_key, words

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...store.db import run
from ...store.vocabulary import load_vocabulary
from ..passes_asks import cue_words, lexicon, stated_numbers
from ..question import Understood
from . import passages
from .asked import Asked
from .common import Verdict, because, threshold
from .named import Forms, stems
from .words import other_kind

Fact = dict[str, Any]
_PARENTHESES = re.compile(r"\([^()]*\)")


@cache
def _generic() -> frozenset[str]:
    """Concepts too general to tell two counts apart (kb/data/query.toml [quantity] generic)."""
    return frozenset(f"term:{t}" for t in query_data()["quantity"]["generic"])


def _concepts(u: Understood, asked: Asked) -> list[tuple[int, str]]:
    """(position, concept) of what the question names; a term typed with the words that
    name the game is the game ("先导者", Vanguard)."""
    games = {a for aliases in load_vocabulary(asked.conn).games.values() for a in aliases}
    folded = fold(u.text)
    terms = [t for t in u.terms if "start" not in t or folded[t["start"] : t["end"]] not in games]
    found = [(t.get("start", 10**6), f"term:{t['term']}") for t in terms]
    found += [(c["start"], f"card:{c['id']}") for c in u.cards]
    found += [(c["start"], f"class:{c['class']}") for c in asked.classes]
    return sorted(found)


def _counted(u: Understood, found: list[tuple[int, str]]) -> set[str]:
    """What the question counts, as the units a fact may count it in: the concept or word
    ending the phrase after its "how many" cue ("how many trigger units", "max heal
    triggers"), or a measure the cue sits beside ("deck size" counts cards, "mấy lá" too:
    kb/data/query.toml [quantity.counts]); empty when the question names none."""
    folded = fold(u.text)
    data = query_data()["quantity"]
    counts = {fold(k): v for k, v in data.get("counts", {}).items()}
    units: set[str] = set()
    # One pattern for all the measure words (kb ask compiles its patterns on every run).
    for word in {m.group() for m in cue_pattern(tuple(counts)).finditer(folded)}:
        unit = counts[word]
        units |= {f"term:{unit}", f"word:{stem(word)}"} if unit else {f"word:{stem(word)}"}
    measured = set()
    measures = cue_pattern(tuple(data["measures"]))
    for start, concept in found:  # "spell speed", "life points": the measure's own term
        if concept.startswith("term:") and measures.search(folded, start, start + 40):
            end = next((t["end"] for t in u.terms if t.get("start") == start), start)
            if measures.search(folded[start:end]):
                measured.add(concept)
    # The first cue, as whole words ("max" is not inside "maximum"), and a cue right after it
    # ("maximum number of cards": what is counted is the cards).
    cues = list(cue_pattern(tuple(data["cues"])).finditer(folded))
    if cues:
        cue_end = cues[0].end()
        for later in cues[1:]:
            if folded[cue_end : later.start()].strip():
                break
            cue_end = later.end()
        phrase = []
        for m in re.finditer(r"\w+", folded[cue_end:]):
            if m.group() in stopwords():
                break
            phrase.append((cue_end + m.start(), cue_end + m.end(), m.group()))
        if phrase:
            end = phrase[-1][1]
            at_end = [c for pos, c in found if phrase[0][0] <= pos < end]
            # Without a concept, any word of the phrase may be what it counts ("how much
            # damage wins": damage).
            units |= {at_end[-1]} if at_end else {f"word:{stem(w)}" for _, _, w in phrase[:3]}
            return units  # "how many Chains": what it counts, whatever measure it names
    return units | measured


def _bound_asked(text: str) -> str:
    """at_least or at_most when the question asks for a minimum or a maximum (kb/data/
    query.toml [quantity.asks]); neither when it asks for both ("min and max": the range)."""
    folded = fold(text)
    asked = [
        bound
        for bound, cues in query_data()["quantity"]["asks"].items()
        if cue_pattern(tuple(cues)).search(folded)
    ]
    return asked[0] if len(asked) == 1 else ""


def _value(fact: Fact, bound: str) -> str:
    low, high = fact["low"], fact["high"]
    if low is not None and high is not None and low != high:
        if bound == "at_most":
            return f"{high:g}"
        if bound == "at_least":
            return f"{low:g}"
        return f"{low:g}-{high:g}"
    return f"{(low if low is not None else high):g}"


def _stating(facts: list[Fact], bound: str) -> list[Fact]:
    """Of a rule's numbers, those that state the bound the question asks for, when some do
    ("minimum main deck size": "at least 40 ...", not the "15" of the side deck beside it)."""
    if bound == "at_least":
        stating = [f for f in facts if f["low"] is not None and f["high"] != f["low"]]
    elif bound == "at_most":
        stating = [f for f in facts if f["high"] is not None and f["high"] != f["low"]]
    else:
        return facts
    return stating or facts


def _of_asked(fact: Fact, found: list[tuple[int, str]]) -> bool:
    """The number is said of what the question names, not of another card ("D.D. Warrior
    Lady, with 1500 more ATK than Blue-Eyes" gives no ATK of Blue-Eyes), and is no
    difference ("1500 more", kb/data/query.toml [quantity] comparatives)."""
    subject = fact["subject"]
    if subject.startswith("card:") and subject not in {c for _, c in found}:
        return False
    return fact["unit"].partition(":")[2] not in _comparatives()


@cache
def _comparatives() -> frozenset[str]:
    return frozenset(stem(fold(w)) for w in query_data()["quantity"]["comparatives"])


def _in_condition(fact: Fact) -> bool:
    """The fact's number is stated in its sentence's condition ("If ... 0 or below, ..."),
    not in what follows it."""
    parts = lexicon().split_condition(fact["quote"])
    if not parts:
        return False
    condition, then = ({n[1] for n in lexicon().quantities(part)} for part in parts)
    values = {v for v in (fact["low"], fact["high"]) if v is not None}
    return bool(values) and values <= condition and not values & then


def _newest(facts: list[Fact]) -> list[Fact]:
    """Of the same rulebook in several versions, the newest version's facts."""
    versions = [f["version"] for f in facts if f["version"]]
    if len(set(versions)) < 2:
        return facts
    newest = max(versions, key=version_key)
    return [f for f in facts if not f["version"] or f["version"] == newest]


def _asked_stems(u: Understood, found: list[tuple[int, str]], forms: Forms) -> set[str]:
    """The question's words as typed and as corrected, and every way of writing the
    concepts it names ("主卡组" is the main deck, "main card group" in 004's translation)."""
    typed = words(fold(u.text))
    asked = {stem(w) for w in typed} | {stem(u.corrections.get(w, w)) for w in typed}
    return asked | {s for _, c in found for a in forms.of(c) for s in a.split("|")}


def _qualified(fact: Fact, u: Understood, asked: set[str]) -> bool:
    """The question states what qualifies the fact's count ("with the same name"); ``asked``:
    the question's stems (_asked_stems)."""
    said = {stem(w) for w in words(fact["condition"]) if w not in stopwords() and not w.isdigit()}
    data = query_data()["quantity"]
    measure = {stem(fold(w)) for w in [*data["counts"], *data["numbers"]]}
    # The words of what is counted itself ("cards", "trigger units").
    unit = fact["unit"].partition(":")[2]
    measure |= {stem(w) for w in re.split(r"[-\s]+", unit) if w}
    # A word too general to qualify a count ("one ruler card").
    measure |= {stem(c.partition(":")[2]) for c in _generic()}
    rest = said - measure
    if _negated_prefix(fact["condition"], fold(u.text)):
        return False  # "non-basic magic stone" is not the question's "basic magic stone"
    if other_kind(u.text, fact["condition"], _skip()):
        return False  # "cards that are heal triggers" are no count of critical triggers
    return len(rest & asked) >= threshold("min_qualifier_share") * len(rest)


@cache
def _skip() -> frozenset[str]:
    """Function and cue words: they narrow nothing a count is of."""
    return frozenset(stopwords()) | cue_words()


_NEGATED = re.compile(r"\b(?:non|un|in)-(\w+)")


def _negated_prefix(condition: str, question: str) -> bool:
    """The qualifier negates by a prefix ("non-basic") a word the question holds plain."""
    for m in _NEGATED.finditer(fold(condition)):
        base = m.group(1)
        if re.search(rf"(?<![\w-]){re.escape(base)}\b", question) and m.group() not in question:
            return True
    return False


def _counts(fact: Fact, counted: set[str], asked: set[str]) -> bool:
    """The fact counts what the question counts: in the same unit, or in a general one the
    fact qualifies by it ("4 cards that are heal triggers" counts heal triggers); ``asked``:
    the question's stems."""
    names = {_name(c) for c in counted}
    if fact["unit"] in counted or _name(fact["unit"]) in names - {""}:  # a class is its term
        return True
    if fact["subject"] in counted and not fact["unit"].startswith(_CONCEPTS):
        return True  # "Spell Speed 3": said of it (but "a trigger ... 5000 power" counts power)
    if fact["unit"].startswith("word:") and _first_words(fact["condition"]) & {
        c.partition(":")[2] for c in counted if c.startswith("word:")
    }:
        return True  # "one master rune card" counts master runes
    if fact["unit"] not in _generic():
        return False
    said = words(fact["condition"])
    qualifier = {stem(w) for w in said}
    for unit in counted:
        named = {stem(w) for w in re.split(r"[-\s]+", unit.partition(":")[2]) if w}
        if unit.startswith("term:") and named and named <= qualifier:
            # ... but not a narrower kind of it: "cards that are heal triggers" does not
            # count the triggers ("how many triggers"), a word before them narrows them.
            at = next(i for i, w in enumerate(said) if stem(w) in named)
            return at == 0 or said[at - 1] in stopwords() or stem(said[at - 1]) in asked
    return False


_CONCEPTS = ("term:", "class:", "card:")
# How many words after a number name what it counts ("one master rune card").
_NOUN_PHRASE = 3


def _name(concept: str) -> str:
    """A concept's name without its kind: a class and a term of one name are one thing, and
    a class named with the number itself is what the number measures ("Spell Speed 3")."""
    if not concept.startswith(_CONCEPTS):
        return ""
    return re.sub(r"-\d+$", "", concept.partition(":")[2])


def _first_words(condition: str) -> set[str]:
    return {stem(w) for w in words(condition)[:_NOUN_PHRASE]}


def _about_wanted(fact: Fact, wanted: set[str], forms: Forms, context: set[str]) -> bool:
    """The number is said of what the question names: each concept the question names
    (but what it counts) is what the number is said of, or is named in the number's own
    clause (not in a parenthesis, not in another clause) or in the passage's section."""
    held = stems(fact["outcome"] or fact["quote"]) | context
    return all(fact["subject"] == c or forms.named(c, held) for c in wanted)


def _matching(conn: sqlite3.Connection, u: Understood, asked: Asked,
              counted: set[str] | None = None) -> tuple[list[Fact], str] | None:  # fmt: skip
    """The facts of the best passages that answer how many (see in_passages), and their
    value; ``counted``: what is counted, when not read from the question's cue."""
    top = passages.best(u, asked)
    if not top:
        return None
    facts = run(conn, "verdict_rule_quantities", ids=[p["id"] for p in top])
    versions = passages.named_versions(u.text)
    if versions:
        facts = [f for f in facts if f["version"] in versions]
    facts = _newest(facts)
    found = _concepts(u, asked)
    if counted is None:
        counted = _counted(u, found)
    names = {_name(c) for c in counted} - {""}
    wanted = {c for _, c in found if _name(c) not in names} - _generic() - counted
    forms = Forms(conn)
    asked_stems = _asked_stems(u, found, forms)
    context = {p["id"]: stems(" ".join([p.get("title") or "", p.get("section_path") or ""]))
               for p in top}  # fmt: skip
    if not counted:
        # Nothing named is counted: a number of a sentence's condition is the threshold it
        # sets, no value of what it names ("If a player has a life total of 0 or below, they
        # lose" says nothing of the life a player starts with).
        facts = [f for f in facts if not _in_condition(f)]
    counting: dict[str, list[Fact]] = {}
    for f in facts:
        if not counted or _counts(f, counted, asked_stems):
            counting.setdefault(f["rule"], []).append(f)
    by_rule: dict[str, list[Fact]] = {}
    for p in top:
        every = counting.get(p["id"], [])
        mine = [f for f in every if _qualified(f, u, asked_stems)]
        around = context[p["id"]]
        if counted and len({f["low"] for f in every} | {f["high"] for f in every}) == 1:
            # The rule's one number counting what is asked: it is said of what its whole
            # text names (but its parentheses). Not when it has others the question's
            # qualifiers set aside: each of those is said of its own clause.
            text = " ".join([p["text"], p.get("reading") or ""])
            around = around | stems(_PARENTHESES.sub(" ", text))
        kept = [f for f in mine if _about_wanted(f, wanted, forms, around) and _of_asked(f, found)]
        if kept:
            by_rule[p["id"]] = kept
    ranked = [by_rule[p["id"]] for p in top if p["id"] in by_rule]
    if not ranked:
        return None
    bound = _bound_asked(u.text)
    ranked = [_stating(facts, bound) for facts in ranked]
    values = [{_value(f, bound) for f in found} for found in ranked]
    if len(values[0]) != 1 or (counted and any(v != values[0] for v in values[1:])):
        return None
    return ranked[0], next(iter(values[0]))


def in_passages(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """The number of the best passages for the question: the passages kb ask ranks first hold
    the rule. The first of them with a number counting what the question counts (its only
    number when the question counts nothing named) answers, when it has one value and every
    other top passage counting the same agrees."""
    found = _matching(conn, u, asked)
    if found is None:
        return None
    matching, value = found
    return Verdict(value, f"{value}: {matching[0]['quote']}", [because(conn, f) for f in matching],
                   kind="quantity", moment=matching[0]["moment"])  # fmt: skip


def within(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Yes or no for a count the question states ("is a 39-card main deck legal", "can I run
    more than 4 copies"): the count the rules allow for what the number counts, read as
    how many is (in_passages), holds the question's count or not."""
    numbers = stated_numbers(u)
    if len(numbers) != 1:
        return None
    bound, value, end = numbers[0]
    folded = fold(u.text)
    unit = lexicon().unit(u.text, end)
    counted = {f"word:{unit}"} if unit else set()
    counted |= {concept for at, concept in _concepts(u, asked) if end <= at <= end + 2}
    if not counted:
        return None
    compare = query_data()["quantity"]["compare"]
    before = folded[max(0, end - 30) : end]
    count = value
    if cue_pattern(tuple(compare["more_than"])).search(before):
        count = value + 1  # "more than 4": five, the least count it asks about
    elif cue_pattern(tuple(compare["less_than"])).search(before):
        count = value - 1
    found = _matching(conn, u, asked, counted)
    if found is None:
        return None
    matching, _ = found
    fact = matching[0]
    if fact["modality"] == "states":
        return None  # "5 grids of monsters" sets no bound that "two monsters attack" is within
    # The sentence that bounds the count (or its heading) names what the question names:
    # "Resonators that have 0 DEF or less are destroyed" says nothing of a J-ruler at 0 DEF,
    # whatever the rest of its passage says.
    heading = [p for p in asked.passages if p["id"] == fact["rule"]][:1]
    said = [
        fact["quote"],
        *(f"{p.get('title') or ''} {p.get('section_path') or ''}" for p in heading),
    ]
    forms, held = Forms(conn), stems(" ".join(said))
    named = {c for _, c in _concepts(u, asked)} - counted - _generic()
    if not all(forms.named(c, held) for c in named):
        return None
    low = fact["low"] if fact["low"] is not None else 0
    high = fact["high"] if fact["high"] is not None else float("inf")
    if fact["modality"] in ("states", "exactly") and fact["low"] is not None:
        low = high = fact["low"]
    verdict = "yes" if low <= count <= high else "no"
    opening = {"yes": "Yes", "no": "No"}[verdict]
    return Verdict(verdict, f"{opening}: {fact['quote']}", [because(conn, f) for f in matching],
                   kind="quantity", moment=fact["moment"])  # fmt: skip


__all__ = ["in_passages", "lexicon", "within"]
