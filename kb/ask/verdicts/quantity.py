"""How many: the number the best passages set for what the question counts.

A quantity fact counts a concept ("50 cards") and is said of one ("the Semi-Limited card ...
only 2 cards"). It answers when its passage ranks first, it counts what the question counts,
is said of what the question names, and the question states what qualifies it; the passages
that answer must agree.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from typing import Any

from ingest.text import fold, stem, version_key, words

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...lookups.labels import narrate
from ...store.db import run
from ...store.vocabulary import load_vocabulary
from ..passes_asks import cue_words, lexicon, stated_numbers
from ..question import Understood
from . import passages
from .common import Asked, Verdict, because, threshold
from .named import Forms, stems
from .words import other_kind

Fact = dict[str, Any]
_PARENTHESES = re.compile(r"\([^()]*\)")


@cache
def _generic() -> frozenset[str]:
    """Concepts too general to tell two counts apart (kb/data/query.toml [quantity])."""
    return frozenset(f"term:{t}" for t in query_data()["quantity"]["generic"])


def _concepts(u: Understood, asked: Asked) -> list[tuple[int, str]]:
    """(position, concept) of what the question names; a term typed as a game's name is the
    game ("先导者", Vanguard)."""
    games = {a for aliases in load_vocabulary(asked.conn).games.values() for a in aliases}
    folded = fold(u.text)
    terms = [t for t in u.terms if "start" not in t or folded[t["start"] : t["end"]] not in games]
    found = [(t.get("start", 10**6), f"term:{t['term']}") for t in terms]
    found += [(c["start"], f"card:{c['id']}") for c in u.cards]
    found += [(c["start"], f"class:{c['class']}") for c in u.classes]
    return sorted(found)


def _counted(u: Understood, found: list[tuple[int, str]]) -> set[str]:
    """What the question counts, as the units a fact may count it in: the concept or word
    ending the phrase after its "how many" cue, or a measure beside it ("deck size" counts
    cards: kb/data/query.toml [quantity.counts]); empty when it names none."""
    folded = fold(u.text)
    data = query_data()["quantity"]
    counts = {fold(k): v for k, v in data.get("counts", {}).items()}
    units: set[str] = set()
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
    # The first cue as whole words, and a cue right after it ("maximum number of cards").
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
            # Without a concept, any word of the phrase may be what it counts.
            units |= {at_end[-1]} if at_end else {f"word:{stem(w)}" for _, _, w in phrase[:3]}
            return units  # "how many Chains": what it counts, whatever measure it names
    return units | measured


def _bound_asked(text: str) -> str:
    """at_least or at_most when the question asks for a minimum or a maximum, not both."""
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
    """Of a rule's numbers, those stating the bound the question asks for, when some do."""
    if bound == "at_least":
        stating = [f for f in facts if f["low"] is not None and f["high"] != f["low"]]
    elif bound == "at_most":
        stating = [f for f in facts if f["high"] is not None and f["high"] != f["low"]]
    else:
        return facts
    return stating or facts


def _of_asked(fact: Fact, found: list[tuple[int, str]]) -> bool:
    """The number is said of no other card than the question names, and is no difference
    ("1500 more ATK than Blue-Eyes": kb/data/query.toml [quantity] comparatives)."""
    subject = fact["subject"]
    if subject.startswith("card:") and subject not in {c for _, c in found}:
        return False
    return fact["unit"].partition(":")[2] not in _comparatives()


@cache
def _comparatives() -> frozenset[str]:
    return frozenset(stem(fold(w)) for w in query_data()["quantity"]["comparatives"])


def _in_condition(fact: Fact) -> bool:
    """The fact's number is stated in its sentence's condition ("If ... 0 or below, ...")."""
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
    """The question's stems, typed and corrected, and every way of writing its concepts."""
    typed = words(fold(u.text))
    asked = {stem(w) for w in typed} | {stem(u.corrections.get(w, w)) for w in typed}
    return asked | {s for _, c in found for a in forms.of(c) for s in a.split("|")}


def _qualified(fact: Fact, u: Understood, asked: set[str]) -> bool:
    """The question states what qualifies the fact's count ("with the same name")."""
    said = {stem(w) for w in words(fact["condition"]) if w not in stopwords() and not w.isdigit()}
    data = query_data()["quantity"]
    measure = {stem(fold(w)) for w in [*data["counts"], *data["numbers"]]}
    unit = fact["unit"].partition(":")[2]
    measure |= {stem(w) for w in re.split(r"[-\s]+", unit) if w}
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


@cache
def _negated() -> re.Pattern[str]:
    prefixes = "|".join(re.escape(p) for p in query_data()["quantity"]["negating_prefixes"])
    return re.compile(rf"\b(?:{prefixes})(\w+)")


def _negated_prefix(condition: str, question: str) -> bool:
    """The qualifier negates by a prefix ("non-basic") a word the question holds plain."""
    for m in _negated().finditer(fold(condition)):
        base = m.group(1)
        if re.search(rf"(?<![\w-]){re.escape(base)}\b", question) and m.group() not in question:
            return True
    return False


def _counts(fact: Fact, counted: set[str], asked: set[str]) -> bool:
    """The fact counts what the question counts: in its unit, or in a general one qualified by
    it ("4 cards that are heal triggers" counts heal triggers)."""
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
            # ... but not a narrower kind ("heal triggers" are no count of "triggers").
            at = next(i for i, w in enumerate(said) if stem(w) in named)
            return at == 0 or said[at - 1] in stopwords() or stem(said[at - 1]) in asked
    return False


_CONCEPTS = ("term:", "class:", "card:")
# How many words after a number name what it counts ("one master rune card").
_NOUN_PHRASE = 3


def _name(concept: str) -> str:
    """A concept's name without its kind or its number ("Spell Speed 3")."""
    if not concept.startswith(_CONCEPTS):
        return ""
    return re.sub(r"-\d+$", "", concept.partition(":")[2])


def _first_words(condition: str) -> set[str]:
    return {stem(w) for w in words(condition)[:_NOUN_PHRASE]}


def _about_wanted(fact: Fact, wanted: set[str], forms: Forms, context: set[str]) -> bool:
    """Each concept the question names (but what it counts) is what the number is said of, or
    is named in its own clause or the passage's section."""
    held = stems(fact["outcome"] or fact["quote"]) | context
    return all(fact["subject"] == c or forms.named(c, held) for c in wanted)


def _matching(conn: sqlite3.Connection, u: Understood, asked: Asked,
              counted: set[str] | None = None) -> tuple[list[Fact], str] | None:  # fmt: skip
    """The facts of the best passages answering how many, and their value; ``counted``: what
    is counted, when not read from the question's cue."""
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
        # Nothing named is counted: a number in a condition is a threshold, no value ("If a
        # player has a life total of 0 or below" says nothing of the starting life).
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
            # The rule's one number counting what is asked is said of its whole text (but
            # its parentheses).
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
    """The number of the first best passage counting what the question counts, when it has
    one value and the other passages counting the same agree."""
    found = _matching(conn, u, asked)
    if found is None:
        return None
    matching, value = found
    return Verdict(value, f"{value}: {matching[0]['quote']}", [because(conn, f) for f in matching],
                   kind="quantity", moment=matching[0]["moment"])  # fmt: skip


def within(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Yes or no for a count the question states ("is a 39-card main deck legal"): whether the
    count the rules allow for it (read as in_passages) holds it."""
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
    # The sentence bounding the count (or its heading) names what the question names.
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
    text = narrate("quoted", opening=narrate(verdict), quote=fact["quote"])
    cited = [because(conn, f) for f in matching]
    return Verdict(verdict, text, cited, kind="quantity", moment=fact["moment"])


__all__ = ["in_passages", "lexicon", "within"]
