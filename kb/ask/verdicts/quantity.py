"""How many: the number the best passages set for what the question counts.

A quantity fact counts a concept ("50 cards") and is said of one ("the Semi-Limited card ...
only 2 cards"). It answers when its passage ranks first, it counts what the question counts,
is said of what the question names, and the question states what qualifies it; the passages
that answer must agree. ``within`` weighs a count the question states against it;
``printed`` gives a card's printed number ("Breaker the Magical Warrior ATK?": 1600) from table
``card_facts``, for a plain question only: one card, one field, no other words ("... right
after it is Normal Summoned" asks about the game)."""

from __future__ import annotations

import re
import sqlite3

from ingest.text import fold, folded_words, stem, version_key, words

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...lookups.labels import narrate
from ...store.db import run
from ...store.vocabulary import load_vocabulary
from ..passes_asks import labelled, lexicon, stated_numbers, years_named
from ..question import Understood
from . import passages
from .common import Asked, Fact, Verdict, because, threshold
from .curated import curated
from .words import stems

_PARENTHESES = re.compile(r"\([^()]*\)")
_CONCEPTS = ("term:", "class:", "card:")


def _concepts(asked: Asked) -> list[tuple[int, str]]:
    """(position, concept) of what the question names; a term typed as a game's name is the
    game ("先导者", Vanguard)."""
    u, folded = asked.u, fold(asked.u.text)
    games = {a for aliases in load_vocabulary(asked.conn).games.values() for a in aliases}
    terms = [t for t in u.terms if "start" not in t or folded[t["start"] : t["end"]] not in games]
    found = [(t.get("start", 10**6), f"term:{t['term']}") for t in terms]
    found += [(c["start"], f"card:{c['id']}") for c in u.cards]
    return sorted(found + [(c["start"], f"class:{c['class']}") for c in u.classes])


def _counted(u: Understood, found: list[tuple[int, str]]) -> set[str]:
    """What the question counts, as the units a fact may count it in: the concept or word
    ending the phrase after its "how many" cue, or a measure beside it ("deck size" counts
    cards: kb/data/query.toml [quantity.counts]); empty when it names none."""
    folded = fold(u.text)
    data = query_data()["quantity"]
    counts = {fold(k): v for k, v in data.get("counts", {}).items()}
    units: set[str] = set()
    for word in {m.group() for m in cue_pattern(tuple(counts)).finditer(folded)}:
        units |= {f"word:{stem(word)}"} | ({f"term:{counts[word]}"} if counts[word] else set())
    # The first cue as whole words, and a cue right after it ("maximum number of cards").
    cues = list(cue_pattern(tuple(data["cues"])).finditer(folded))
    cue_end = cues[0].end() if cues else len(folded)
    for later in cues[1:]:
        if folded[cue_end : later.start()].strip():
            break
        cue_end = later.end()
    phrase = []
    for m in re.finditer(r"\w+", folded[cue_end:]):
        if m.group() in stopwords():
            break
        phrase.append((cue_end + m.start(), cue_end + m.end(), m.group()))
    if phrase:  # "how many Chains": what it counts, whatever measure it names
        at_end = [c for pos, c in found if phrase[0][0] <= pos < phrase[-1][1]]
        # Without a concept, any word of the phrase may be what it counts.
        return units | ({at_end[-1]} if at_end else {f"word:{stem(w)}" for *_, w in phrase[:3]})
    measures = cue_pattern(tuple(data["measures"]))
    for start, concept in found:  # "spell speed", "life points": the measure's own term
        end = next((t["end"] for t in u.terms if t.get("start") == start), start)
        if concept.startswith("term:") and measures.search(folded[start:end]):
            units.add(concept)
    return units


def _bound_asked(text: str) -> str:
    """at_least or at_most when the question asks for a minimum or a maximum, not both."""
    cues = query_data()["quantity"]["asks"].items()
    asked = [b for b, said in cues if cue_pattern(tuple(said)).search(fold(text))]
    return asked[0] if len(asked) == 1 else ""


def _values(facts: list[Fact], bound: str) -> tuple[list[Fact], set[str]]:
    """Of a rule's numbers, those stating the bound the question asks for when some do, and
    their values (a range's end the question asks for, else the range). A number bounding only
    the other side answers nothing of it ("can't have fewer than 0 cards": no hand limit)."""
    side = {"at_least": "low", "at_most": "high"}.get(bound)
    # A minimum of 0 bounds nothing ("can't have fewer than 0 cards"): an answer only to a
    # question asking for the minimum.
    facts = [f for f in facts if side == "low" or not (f["low"] == 0 and f["high"] is None)]
    stating = [f for f in facts if side and f[side] is not None and f["high"] != f["low"]]
    facts = stating or [f for f in facts if not side or f[side] is not None]
    values = set()
    for f in facts:
        low, high = f["low"], f["high"]
        if low is not None and high is not None and low != high:
            values.add(f"{f[side]:g}" if side else f"{low:g}-{high:g}")
        else:
            values.add(f"{(low if low is not None else high):g}")
    return facts, values


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


def _qualified(fact: Fact, u: Understood, asked: set[str]) -> bool:
    """The question states what qualifies the fact's count ("with the same name"), not a
    prefix negating it ("non-basic magic stone")."""
    said = {stem(w) for w in words(fact["condition"]) if w not in stopwords() and not w.isdigit()}
    data = query_data()["quantity"]
    measure = {stem(fold(w)) for w in [*data["counts"], *data["numbers"]]}
    measure |= {stem(w) for w in re.split(r"[-\s]+", fact["unit"].partition(":")[2]) if w}
    rest = said - measure - {stem(c.partition(":")[2]) for c in curated()["generic"]}
    question = fold(u.text)
    for m in curated()["negated"].finditer(fold(fact["condition"])):
        plain = re.search(rf"(?<![\w-]){re.escape(m.group(1))}\b", question)
        if plain and m.group() not in question:
            return False
    return len(rest & asked) >= threshold("min_qualifier_share") * len(rest)


def _stated_units(u: Understood) -> set[str]:
    """What the question's own numbers are numbers of, as stems ("7星": stars and levels, by
    its everyday phrases): a qualifier of what it counts ("tributes for a 7-star monster"),
    never a count of it. Not a year's nor a labelled number's next word ("Level 7 monster").
    (A number glued to Chinese is found here, which ``stated_numbers`` does not read.)"""
    folded, years = fold(u.text), years_named(u)
    units = set()
    for m in re.finditer(r"(\d+)[\s-]*(\w+)", folded):
        if int(m.group(1)) in years or labelled(folded, m.end(1)):
            continue
        at, word = m.start(2), m.group(2)
        said = [k for k in u.expansions if folded.startswith(k, at)]
        texts = [w for k in said for w in u.expansions[k]] or [word]
        units |= {stem(w) for text in texts for w in words(fold(text))}
    return units


def _name(concept: str) -> str:
    """A concept's name without its kind or its number ("Spell Speed 3")."""
    return re.sub(r"-\d+$", "", concept.partition(":")[2]) if concept.startswith(_CONCEPTS) else ""


def _counts(fact: Fact, counted: set[str], asked: set[str], qualifiers: set[str]) -> bool:
    """The fact counts what the question counts: in its unit, or in one its condition
    qualifies by it ("4 cards that are heal triggers" counts heal triggers); not in a unit
    that qualifies it (``qualifiers``)."""
    unit, said = fact["unit"], words(fact["condition"])
    if unit.partition(":")[2] in qualifiers:
        return False
    if unit in counted or _name(unit) in {_name(c) for c in counted} - {""}:  # a class: its term
        return True
    for concept in counted:
        named = {stem(w) for w in re.split(r"[-\s]+", concept.partition(":")[2]) if w}
        if concept.startswith("term:") and named and named <= {stem(w) for w in said}:
            # ... but not a narrower kind ("heal triggers" are no count of "triggers").
            at = next(i for i, w in enumerate(said) if stem(w) in named)
            return at == 0 or said[at - 1] in stopwords() or stem(said[at - 1]) in asked
    return False


def _matching(asked: Asked, counted: set[str] | None = None) -> tuple[list[Fact], str] | None:
    """The facts of the best passages answering how many, and their value; ``counted``: what
    is counted, when not read from the question's cue."""
    conn, u = asked.conn, asked.u
    top = passages.best(asked)
    facts = run(conn, "verdict_rule_quantities", ids=[p["id"] for p in top]) if top else []
    versions = passages.named_versions(conn, u.text)
    facts = _newest([f for f in facts if not versions or f["version"] in versions])
    found = _concepts(asked)
    # What the question's own numbers are of qualifies what its cue counts, and is no count
    # of it ("4 stars or below monster cards", asked how many monsters a 7-star one tributes).
    qualifiers = _stated_units(u) if counted is None else set()
    counted = _counted(u, found) if counted is None else counted
    qualifiers -= {c.partition(":")[2] for c in counted}
    names = {_name(c) for c in counted} - {""}
    wanted = {c for _, c in found if _name(c) not in names} - curated()["generic"] - counted
    typed = words(fold(u.text))
    asked_stems = {stem(w) for w in typed} | {stem(u.corrections.get(w, w)) for w in typed}
    asked_stems |= asked.forms.stems(c for _, c in found)
    if counted:
        facts = [f for f in facts if _counts(f, counted, asked_stems, qualifiers)]
    else:
        # Nothing named is counted: a number in a condition is a threshold, no value ("If a
        # player has a life total of 0 or below" says nothing of the starting life); a number
        # of a kind the question does not name counts something else ("16 trigger units" is
        # no size of the main deck); a number counting nothing the build could read
        # ("maximum lifebreak size is four") is not shown to count what is asked ("what life
        # do we start at").
        known = {c for _, c in found} | curated()["generic"]
        facts = [
            f
            for f in facts
            if not _in_condition(f)
            and f["unit"]
            and (
                not f["unit"].startswith(_CONCEPTS)
                or f["unit"] in known
                or asked.forms.named(f["unit"], asked_stems)
            )
        ]
    ranked = []
    for p in top:
        every = [f for f in facts if f["rule"] == p["id"]]
        around = stems(passages.heading(p))
        if counted and len({f["low"] for f in every} | {f["high"] for f in every}) == 1:
            # The rule's one number counting what is asked is said of its whole text (but
            # its parentheses).
            around |= stems(_PARENTHESES.sub(" ", f"{p['text']} {p.get('reading') or ''}"))
        kept = [
            f
            for f in every
            if _qualified(f, u, asked_stems) and _about(f, found, wanted, asked, around)
        ]
        if kept:
            ranked.append(_values(kept, _bound_asked(u.text)))
    if not ranked or len(ranked[0][1]) != 1:
        return None
    if counted and any(values != ranked[0][1] for _, values in ranked[1:]):
        return None
    return ranked[0][0], next(iter(ranked[0][1]))


def _about(
    fact: Fact, found: list[tuple[int, str]], wanted: set[str], asked: Asked, around: set[str]
) -> bool:
    """The number is said of no other card than the question names, and each concept the
    question names (but what it counts) is what it is said of or named in its own clause or
    the passage's section."""
    subject = fact["subject"]
    if subject.startswith("card:") and subject not in {c for _, c in found}:
        return False
    held = stems(fact["outcome"] or fact["quote"]) | around
    return all(subject == c or asked.forms.named(c, held) for c in wanted)


def in_passages(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """The number of the first best passage counting what the question counts, when it has
    one value and the other passages counting the same agree."""
    found = _matching(asked)
    if found is None:
        return None
    matching, value = found
    text = f"{value}: {matching[0]['quote']}"
    cited = [because(conn, f) for f in matching]
    return Verdict(value, text, cited, kind="quantity", moment=matching[0]["moment"])


def within(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Yes or no for a count the question states ("is a 39-card main deck legal"): whether the
    count the rules allow for it (read as in_passages) holds it."""
    numbers = stated_numbers(u)
    if len(numbers) != 1:
        return None
    _, count, end = numbers[0]
    unit = lexicon().unit(u.text, end)
    counted = {f"word:{unit}"} if unit else set()
    counted |= {concept for at, concept in _concepts(asked) if end <= at <= end + 2}
    compare = query_data()["quantity"]["compare"]
    before = fold(u.text)[max(0, end - 30) : end]
    if cue_pattern(tuple(compare["more_than"])).search(before):
        count += 1  # "more than 4": five, the least count it asks about
    elif cue_pattern(tuple(compare["less_than"])).search(before):
        count -= 1
    found = _matching(asked, counted) if counted else None
    # "5 grids of monsters" states no bound that "two monsters attack" is within.
    if found is None or found[0][0]["modality"] == "states":
        return None
    fact = found[0][0]
    # The sentence bounding the count (or its heading) names what the question names.
    heading = [passages.heading(p) for p in asked.passages if p["id"] == fact["rule"]][:1]
    held = stems(" ".join([fact["quote"], *heading]))
    named = {c for _, c in _concepts(asked)} - counted - curated()["generic"]
    if not all(asked.forms.named(c, held) for c in named):
        return None
    low = fact["low"] if fact["low"] is not None else 0
    high = fact["high"] if fact["high"] is not None else float("inf")
    if fact["modality"] == "exactly" and fact["low"] is not None:
        low = high = fact["low"]
    verdict = "yes" if low <= count <= high else "no"
    text = narrate("quoted", opening=narrate(verdict), quote=fact["quote"])
    cited = [because(conn, f) for f in found[0]]
    return Verdict(verdict, text, cited, kind="quantity", moment=fact["moment"])


def printed(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """The number a card prints for the one field asked (ATK, DEF, Level), when the question
    holds nothing but the card, the field and words that ask (or ask for the printed value:
    "original")."""
    data = query_data()
    fields = [f for f in u.facts if f in data["facts_numeric"]["fields"]]
    asking = {w for names in data["facts"].values() for n in names for w in folded_words(n).split()}
    asking |= {fold(w) for w in data["printed"]["words"]} | curated()["count_skip"]
    # One card, perhaps named twice ("「魔导战士 破坏者」（Breaker the Magical Warrior）").
    if len({c["id"] for c in u.cards}) != 1 or len(fields) != 1:
        return None
    if not all(w in asking for w in u.words):
        return None
    rows = run(conn, "card_facts", id=u.cards[0]["id"])
    found = [
        {**r, "id": f"{r['rule']}#{r['field']}", "quote": f"{r['field']}: {r['value']}"}
        for r in rows
        if r["field"] == fields[0]
    ]
    values = {f["value"] for f in found}
    if len(values) != 1 or not re.fullmatch(r"\d+", next(iter(values))):
        return None
    said = values.pop()
    text = narrate("card_value", value=said, card=u.cards[0]["name"], field=fields[0].upper())
    cited = [because(conn, f) for f in found]
    return Verdict(said, text, cited, kind="card", cards=[u.cards[0]["id"]])
