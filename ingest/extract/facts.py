"""Typed, citable facts for verdicts, derived from the stored rules at build time.

* permissions at a moment: from the timing graph's properties (what may or may not be
  activated there, for which card classes), from the sentences of a moment's rules that name a
  card (with the modality that governs the name, and the Chain they are about), and from the
  worked examples (a card activated at the example's moment);
* quantities: every number a sentence bounds ("exactly 50 cards", "up to four copies"), with
  the concept it counts and the concepts of its sentence and section;
* outcomes: what a sentence says follows from a condition ("If X, Y").

Every fact names its rule and quotes its sentence; kb ask reasons over them and cites them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import spill
from ..glossary import Finder, Glossary, Rendering
from ..records import (
    CardAlias,
    DocumentResult,
    Fact,
    Rule,
    Ruling,
    RulingStep,
    TimingNode,
    TimingProperty,
)
from ..sentences import split_sentences
from ..statements import load_lexicon
from ..text import fold
from .cardfacts import CardFacts
from .clauses import reading
from .timing import timing_data

# A concept named this many words after a number at most is what the number counts ("50
# cards", "8000 life points", "four copies of", "16 trigger units").
_UNIT_WORDS = 1


@dataclass
class _Context:
    glossary: Glossary
    rule_node: dict[str, str]
    nodes: dict[str, TimingNode]
    card_names: _Names
    class_names: _Names
    facts: list[Fact] = field(default_factory=list)
    counter: dict[str, int] = field(default_factory=dict)
    finders: dict[tuple[str, str], Finder] = field(default_factory=dict)

    def terms(self, text: str, lang: str, game: str) -> list[tuple[Rendering, int, int]]:
        """The glossary terms a text of ``lang`` names (its finder built once per pair)."""
        if (lang, game) not in self.finders:
            forms = self.glossary.english_forms(game)
            if lang != "en":
                forms += self.glossary.renderings(lang, game=game)
            self.finders[lang, game] = Finder(forms)
        return self.finders[lang, game].find(text)

    def add(self, rule: Rule, **values: object) -> None:
        n = self.counter[rule.id] = self.counter.get(rule.id, 0) + 1
        base: dict[str, object] = {
            "moment": None,
            "subject": "",
            "action": "",
            "modality": "",
            "chain": "",
            "low": None,
            "high": None,
            "unit": "",
            "concepts": "",
            "condition": "",
            "outcome": "",
            "quote": "",
            "limits": "",
        }
        base.update(values)
        self.facts.append(
            Fact(
                id=f"{rule.id}#{n}",
                rule=rule.id,
                game=rule.game,
                ruleset=rule.ruleset or "",
                lang=rule.lang,
                **base,  # type: ignore[arg-type]
            )
        )


class _Names:
    """Names (card aliases, class names) found in folded text with one compiled pattern."""

    def __init__(self, names: list[tuple[str, str]]) -> None:
        self.ids = dict(names)  # folded name -> id (the longest listed first wins a tie)
        ordered = sorted(self.ids, key=lambda n: (-len(n), n))
        body = "|".join(re.escape(n) for n in ordered) or "(?!)"
        self.pattern = re.compile(rf"(?<!\w)(?:{body})(?!\w)")

    def find(self, folded: str) -> list[tuple[int, int, str]]:
        """(start, end, id), leftmost-longest, not overlapping."""
        return [(m.start(), m.end(), self.ids[m.group()]) for m in self.pattern.finditer(folded)]


def concepts(ctx: _Context, text: str, lang: str, game: str) -> list[tuple[int, int, str]]:
    """The concepts a text names, with where: glossary terms (term:), cards (card:), card
    classes (class:)."""
    folded = fold(text)
    found = [(s, e, f"term:{r.term}") for r, s, e in ctx.terms(text, lang, game)]
    found += [(s, e, f"card:{c}") for s, e, c in ctx.card_names.find(folded)]
    found += [(s, e, f"class:{c}") for s, e, c in ctx.class_names.find(folded)]
    return sorted(found)


def _ids(found: Iterable[tuple[int, int, str]]) -> str:
    return " ".join(dict.fromkeys(ident for _, _, ident in found))


# ---- permissions -------------------------------------------------------------------------------
def _property_classes() -> dict[tuple[str, str], dict[str, Any]]:
    return {(p["key"], p["value"]): p for p in timing_data()["properties"]}


def _from_properties(ctx: _Context, props: list[TimingProperty], rules: Mapping[str, Rule]) -> None:
    """What the timing graph says may or may not be activated at a moment, per card class."""
    curated = _property_classes()
    activates = {n["id"]: n.get("activates", "") for n in timing_data()["nodes"]}
    for p in props:
        entry = curated.get((p.key, p.value), {})
        rule = rules.get(p.rule)
        if rule is None:
            continue
        if p.key in ("can_activate", "cannot_activate") and entry.get("chain") == "later":
            ctx.add(rule, kind="permission", source="timing-property", moment=p.node,
                    subject="*", action="activate", modality="only", chain="first",
                    quote=p.display)  # fmt: skip
        elif p.key in ("can_activate", "cannot_activate"):
            modality = "cannot" if p.key == "cannot_activate" else "can"
            if entry.get("exclusive"):
                modality = "only"
            for cls in entry.get("classes", []):
                # The class of cards that say they activate at this very moment: what "when"
                # questions are answered from.
                source = "moment-class" if cls == "@moment" else "timing-property"
                cls = activates.get(p.node, "") if cls == "@moment" else cls
                if cls:
                    subject = "*" if cls == "*" else f"class:{cls}"
                    condition = entry.get("conditions", {}).get(cls, "")
                    ctx.add(rule, kind="permission", source=source, moment=p.node,
                            subject=subject, action="activate", modality=modality,
                            condition=condition, quote=p.display)  # fmt: skip
        elif (p.key, p.value) == ("chains", "multiple"):
            ctx.add(rule, kind="permission", source="timing-property", moment=p.node,
                    subject="*", action="activate", modality="can", chain="later",
                    quote=p.display)  # fmt: skip
        elif (p.key, p.value) in (("chains", "one"), ("responses", "no")):
            ctx.add(rule, kind="permission", source="timing-property", moment=p.node,
                    subject="*", action="activate", modality="only", chain="first",
                    quote=p.display)  # fmt: skip
            if p.value == "one":
                ctx.add(rule, kind="quantity", source="timing-property", moment=p.node,
                        modality="exactly", low=1, high=1, unit="term:chain",
                        concepts="term:chain", quote=p.display)  # fmt: skip
        elif p.key == "priority":
            ctx.add(rule, kind="order", source="timing-property", moment=p.node,
                    subject=p.value, action="priority", modality="first",
                    quote=p.display)  # fmt: skip


def _from_card_sentences(ctx: _Context, rule: Rule) -> None:
    """Sentences of a moment's rules naming a card: can, cannot or only (in which Chain),
    under the condition the sentence opens with, if any."""
    moment = ctx.rule_node.get(rule.id)
    if not moment:
        return
    lexicon = load_lexicon()
    for sentence in split_sentences(rule.text):
        folded = fold(sentence)
        cards = ctx.card_names.find(folded)
        if not cards:
            continue
        acts = lexicon.actions(sentence)
        action = "chain" if "chain" in acts and "activate" not in acts else "activate"
        which = lexicon.chain(sentence)
        condition = (lexicon.split_condition(sentence) or ("", ""))[0]
        # Cards named in the condition (before or after what it governs) are its situation,
        # not what the sentence allows.
        at = folded.find(fold(condition)) if condition else -1
        inside = (at, at + len(fold(condition))) if at >= 0 else (0, 0)
        named_in_condition = _ids([c for c in cards if inside[0] <= c[0] < inside[1]])
        for start, _end, card in cards:
            if inside[0] <= start < inside[1]:
                continue
            modality = lexicon.modality_at(sentence, start)
            if modality in ("can", "cannot", "only") and acts:
                ctx.add(rule, kind="permission", source="sentence", moment=moment,
                        subject=f"card:{card}", action=action, modality=modality,
                        chain=which, condition=condition,
                        concepts=" ".join(f"card:{c}" for c in named_in_condition.split()),
                        quote=sentence)  # fmt: skip


def _from_lists(ctx: _Context, rules: list[Rule]) -> None:
    """A rule that opens a list of what may be done ("Cards that can be activated during the
    Damage Step:") and the items under it: each class and card an item names may, and only
    they may (the list is the rule's answer)."""
    lexicon = load_lexicon()
    items: dict[str, list[Rule]] = {}
    for rule in rules:
        if rule.parent:
            items.setdefault(rule.parent, []).append(rule)
    for rule in rules:
        moment = ctx.rule_node.get(rule.id)
        text = rule.text.strip()
        if not moment or not text.endswith((":", "：")) or rule.id not in items:
            continue
        if lexicon.modality(text) not in ("can", "only") or "activate" not in lexicon.actions(text):
            continue
        for item in items[rule.id]:
            found = concepts(ctx, item.text, item.lang, item.game)
            for _s, _e, concept in found:
                if concept.startswith(("class:", "card:")):
                    modality = "only" if concept.startswith("class:") else "can"
                    ctx.add(item, kind="permission", source="list", moment=moment,
                            subject=concept, action="activate", modality=modality,
                            quote=f"{text} {item.text}")  # fmt: skip


def _from_examples(ctx: _Context, rulings: Sequence[Ruling], steps: Sequence[RulingStep],
                   rules: Mapping[str, Rule]) -> None:  # fmt: skip
    """A card activated in a worked example could be activated at the example's moment."""
    moment = {r.id: r.timing for r in rulings if r.kind == "example" and r.timing}
    for step in steps:
        rule = rules.get(step.ruling)
        if rule is None or step.ruling not in moment or step.event not in ("activate", "respond"):
            continue
        for card in step.cards[:1]:
            ctx.add(rule, kind="permission", source="example", moment=moment[step.ruling],
                    subject=f"card:{card}", action="activate", modality="can",
                    quote=step.text)  # fmt: skip


# ---- quantities and outcomes ---------------------------------------------------------------
def _counted(sentence: str, found: list[tuple[int, int, str]], after: int) -> str:
    """What a number counts: the concept named right after it, else the word after it
    ("word:<stem>"), else (nothing after it in its clause) the last concept before it."""
    folded = fold(sentence)
    for start, _end, concept in found:
        between = folded[after:start]
        if start >= after and len(between.split()) <= _UNIT_WORDS and "," not in between:
            return concept
    word = load_lexicon().unit(sentence, after)
    if word:
        return f"word:{word}"
    # A number ending its clause counts what its clause named before it ("Life point starts
    # from 8000", "the hand size is 7").
    # Digits only: a number word ending a clause is mostly a pronoun ("the first one").
    start, end = _clause_of(folded, after)
    if folded[after:end].strip(" .!?") or not folded[after - 1].isdigit():
        return ""
    before = [c for s, e, c in found if start <= s and e <= after]
    return before[-1] if before else ""


_CLAUSE_END = re.compile(r"[.;,(:]|\band\b|\bor\b")


def _qualifier(sentence: str, at: int) -> str:
    """What qualifies the thing a number counts, from the number to the end of its clause
    ("four cards with the same printed card name": "cards with the same printed card
    name"); a fact answers only questions that state the qualifier too."""
    rest = fold(sentence)[at:]
    end = _CLAUSE_END.search(rest)
    return rest[: end.start() if end else len(rest)].strip()


_PARENTHESES = re.compile(r"\([^()]*\)")
# Digits run into the word after them ("8000LP"), but an ordinal ("2nd").
_UNIT_RUN = re.compile(r"(?<=\d)(?=[^\W\d_])(?!(?:st|nd|rd|th)\b)")


def _clause_of(folded: str, at: int) -> tuple[int, int]:
    """The clause of the sentence holding position ``at``: from the last semicolon or colon
    before it to the next one."""
    start = max(folded.rfind(";", 0, at), folded.rfind(":", 0, at)) + 1
    ends = [i for i in (folded.find(";", at), folded.find(":", at)) if i >= 0]
    return start, min(ends) if ends else len(folded)


def _asides(folded: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _PARENTHESES.finditer(folded)]


def _about(sentence: str, found: list[tuple[int, int, str]], at: int) -> str:
    """The concept a number is said of: the last one named before it in its clause, but a
    term too general to tell counts apart and what a parenthesis adds ("the Semi-Limited
    card is a card that can only put 2 cards": the Semi-Limited card; "each deck
    (including the Side Deck) can only put 1 card": none)."""
    start, _ = _clause_of(sentence, at)
    generic = {f"term:{t}" for t in load_lexicon().data["quantities"]["generic_terms"]}
    asides = _asides(sentence)
    before = [
        c for s, e, c in found
        if start <= s and e < at and c not in generic and not any(a <= s < b for a, b in asides)
    ]  # fmt: skip
    return before[-1] if before else ""


def _clause_text(sentence: str, at: int) -> str:
    """A number's clause as written, without its parentheses: what a question's concepts
    must be named in for the number to be about them."""
    start, end = _clause_of(fold(sentence), at)
    return _PARENTHESES.sub(" ", sentence[start:end]).strip()


def _from_quantities(ctx: _Context, rule: Rule, section: str) -> None:
    context = concepts(ctx, section, rule.lang, rule.game)
    for written in split_sentences(rule.text):
        # A number run into its unit ("8000LP") is read as the number and the unit.
        sentence = _UNIT_RUN.sub(" ", written)
        numbers = load_lexicon().quantities(sentence)
        if not numbers:
            continue
        found = concepts(ctx, sentence, rule.lang, rule.game)
        ids = " ".join(dict.fromkeys(i for i in (_ids(found) + " " + _ids(context)).split()))
        lows = [(v, p) for b, v, p in numbers if b == "at_least"]
        highs = [(v, p) for b, v, p in numbers if b == "at_most"]
        # "at least forty cards and no more than sixty cards"; a low above the high bounds two
        # things ("at least six players ... no more than one pod"), each its own fact.
        if lows and highs and lows[0][0] <= highs[0][0]:
            (low, at), (high, _) = lows[0], highs[0]
            unit = _counted(sentence, found, at)
            ctx.add(rule, kind="quantity", source="sentence", modality="range", low=low,
                    high=high, unit=unit, concepts=ids, condition=_qualifier(sentence, at),
                    outcome=_clause_text(sentence, at), quote=sentence)  # fmt: skip
            continue
        for bound, value, at in numbers:
            ctx.add(rule, kind="quantity", source="sentence", modality=bound or "states",
                    low=None if bound == "at_most" else value,
                    high=None if bound == "at_least" else value,
                    unit=_counted(sentence, found, at), concepts=ids,
                    subject=_about(fold(sentence), found, at),
                    outcome=_clause_text(sentence, at),
                    condition=_qualifier(sentence, at), quote=sentence)  # fmt: skip


# Sentences of the same rule after a condition's own that still tell what happens ("When a
# card on the chase is canceled, remove it. If it is a card, put it into the graveyard.").
_FOLLOWING = 2


def _from_conditions(ctx: _Context, rule: Rule) -> None:
    sentences = split_sentences(rule.text)
    for i, sentence in enumerate(sentences):
        parts = load_lexicon().split_condition(sentence)
        if parts:
            condition, outcome = parts
            following = " ".join(sentences[i + 1 : i + 1 + _FOLLOWING])
            outcome = f"{outcome.rstrip()} {following}".strip() if following else outcome
            found = concepts(ctx, condition, rule.lang, rule.game)
            ctx.add(rule, kind="outcome", source="sentence", condition=condition,
                    outcome=outcome, concepts=_ids(found), quote=sentence,
                    moment=ctx.rule_node.get(rule.id))  # fmt: skip


def named_apart(text: str, found: list[tuple[int, int, str]]) -> str:
    """The folded text with the names of several English words blanked out: what it does,
    not what it names ("skips his first Draw Phase" draws nothing)."""
    folded = list(fold(text))
    for start, end, concept in found:
        # A name of several English words ("term:draw-phase"), not an action's own term
        # ("term:activate", written "kích hoạt").
        if "-" in concept.partition(":")[2]:
            folded[start:end] = [" "] * (end - start)
    return "".join(folded)


def _from_clauses(ctx: _Context, rule: Rule) -> None:
    """Every clause of the rule read as a statement (ingest/extract/clauses.py)."""
    lexicon = load_lexicon()
    for sentence in split_sentences(rule.text):
        for clause in lexicon.clauses(sentence):
            read = reading(lexicon, clause)
            if read is None:
                continue
            found = concepts(ctx, clause, rule.lang, rule.game)
            outcome = named_apart(read["outcome"], concepts(ctx, read["outcome"], rule.lang,
                                                            rule.game))  # fmt: skip
            ctx.add(rule, kind="statement", source="clause", moment=ctx.rule_node.get(rule.id),
                    action=" ".join(lexicon.actions(outcome)),
                    chain=lexicon.chain(clause), concepts=_ids(found), quote=sentence,
                    **read)  # fmt: skip


def extract_facts(
    documents: Sequence[DocumentResult],
    glossary: Glossary,
    rule_node: dict[str, str],
    nodes: list[TimingNode],
    properties: list[TimingProperty],
    aliases: list[CardAlias],
    card_facts: CardFacts,
    rulings: Sequence[Ruling],
    steps: Sequence[RulingStep],
    read_as: Iterable[dict[str, list[tuple[str, str]]]] = (),
) -> Iterator[Fact]:
    """Every fact of the corpus (see the module docstring), one document's at a time: the
    build writes them as they come (they are the largest thing it extracts). A rule is read
    in the other words ``read_as`` gives it too (one dict per document, in the documents'
    order, rule id -> (language, text); none when it ends): its curated
    gloss (the Vietnamese article's rulings in English), its reading in official terms
    (004's machine translation with the official names). Those facts cite the rule and quote
    that text."""
    card_names = {(fold(a.alias), a.card) for a in aliases if len(a.alias) >= 3}
    class_names = {(fold(n.text), n.cls) for n in card_facts.names}
    ctx = _Context(
        glossary,
        rule_node,
        {n.id: n for n in nodes},
        _Names(sorted(card_names, key=lambda x: (-len(x[0]), x))),
        _Names(sorted(class_names, key=lambda x: (-len(x[0]), x))),
    )
    rules = spill.view(documents).rules
    _from_properties(ctx, properties, rules)
    yield from _taken(ctx)
    other_words = iter(read_as)
    # A rule's facts are numbered in order; once its document is read, only the worked
    # examples (read last) add to a rule's, so only theirs keep counting.
    examples = {step.ruling for step in steps}
    for d in documents:
        other = next(other_words, {})
        paths = {s.id: s.path for s in d.sections}
        readings = [d.rules]
        depth = max((len(other.get(r.id, [])) for r in d.rules), default=0)
        for i in range(depth):  # the rules read in their first other words, their second...
            readings.append([
                replace(r, text=other[r.id][i][1], lang=other[r.id][i][0])
                for r in d.rules if len(other.get(r.id, [])) > i
            ])  # fmt: skip
        for read in readings:
            _from_lists(ctx, read)
            for rule in read:
                _from_card_sentences(ctx, rule)
                _from_quantities(ctx, rule, f"{paths.get(rule.section, '')} {rule.title}")
                _from_conditions(ctx, rule)
                _from_clauses(ctx, rule)
        yield from _taken(ctx)
        for rule in d.rules:
            if rule.id not in examples:
                ctx.counter.pop(rule.id, None)
    _from_examples(ctx, rulings, steps, rules)
    yield from _taken(ctx)


def _taken(ctx: _Context) -> list[Fact]:
    """The facts found since the last call, handed over (the context keeps none)."""
    found, ctx.facts = ctx.facts, []
    return found


def match_json(match: dict[str, object]) -> str:
    return json.dumps(match, sort_keys=True)
