"""Stage 10, extract: structured knowledge built from the stored text and curated data.

timing graph (timing.py) -> cards (cards.py) -> rulings (rulings.py) -> restriction lists
(restrictions.py) -> glossary counts and official-terms readings (terms.py) -> card facts and
classes (cardfacts.py) -> typed facts for verdicts (facts.py). Everything links back to the
rules that state it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from .. import spill
from ..glossary import Glossary
from ..records import (
    Card,
    CardAlias,
    CardClass,
    CardFact,
    CardProperty,
    ClassMember,
    ClassName,
    DocumentResult,
    Fact,
    Gloss,
    Reading,
    Restriction,
    Ruling,
    RulingStep,
    TermCount,
)
from .cardfacts import extract_card_facts
from .cards import extract_cards
from .facts import extract_facts
from .glosses import extract_glosses
from .restrictions import extract_restrictions
from .rulings import extract_rulings
from .terms import by_document, count_terms, readings
from .timing import TimingResult, build_timing


@dataclass
class Knowledge:
    timing: TimingResult = field(default_factory=TimingResult)
    cards: list[Card] = field(default_factory=list)
    aliases: list[CardAlias] = field(default_factory=list)
    facts: list[CardFact] = field(default_factory=list)
    rulings: Sequence[Ruling] = field(default_factory=list)
    steps: Sequence[RulingStep] = field(default_factory=list)
    restrictions: Sequence[Restriction] = field(default_factory=list)  # on disk (spill.Stored)
    term_counts: Iterable[TermCount] = field(default_factory=list)  # produced as written
    readings: Sequence[Reading] = field(default_factory=list)  # on disk, in document order
    card_properties: list[CardProperty] = field(default_factory=list)
    classes: list[CardClass] = field(default_factory=list)
    class_names: list[ClassName] = field(default_factory=list)
    class_members: list[ClassMember] = field(default_factory=list)
    # Produced while the build writes them (ingest/extract/facts.py): read once.
    facts_: Iterable[Fact] = field(default_factory=list)
    glosses: list[Gloss] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def extract_knowledge(
    documents: Sequence[DocumentResult],
    glossary: Glossary,
    games: set[str],
    counted: Glossary | None = None,
) -> Knowledge:
    """Knowledge for the games of the corpus (curated data about other games is left out).

    ``counted`` is the glossary whose renderings are counted per document: the curated one
    with the rulebooks' own glossaries added (the curated one alone when None)."""
    timing = build_timing(documents, games)
    cards = extract_cards(documents, games)
    exact = [(a.alias, a.card) for a in cards.aliases if a.kind in ("name", "case", "alias")]
    # Rulings and their steps are read twice more (typed facts, the writer): they wait on disk.
    rulings: spill.Stored[Ruling] = spill.Stored()
    steps: spill.Stored[RulingStep] = spill.Stored()
    found_rulings, found_steps = extract_rulings(documents, cards.mentions, timing.rule_node, exact)
    rulings.extend(found_rulings)
    steps.extend(found_steps)
    del found_rulings, found_steps
    resolve = {a.alias.casefold(): a.card for a in cards.aliases}
    names = {c.id: c.name for c in cards.cards}
    card_facts = extract_card_facts({c.id for c in cards.cards}, spill.view(documents).rules, games)
    glosses, gloss_warnings = extract_glosses(documents)
    # Read again by the typed facts and the writer, a document's at a time: they wait on disk.
    official = spill.stored(
        readings(documents, glossary, cards.aliases, names), chunk=spill.LARGE_CHUNK
    )
    facts = extract_facts(
        documents,
        glossary,
        timing.rule_node,
        timing.nodes,
        timing.properties,
        cards.aliases,
        card_facts,
        rulings,
        steps,
        _read_as(spill.view(documents).heads, glosses, official),
    )
    return Knowledge(
        glosses=glosses,
        card_properties=card_facts.properties,
        classes=card_facts.classes,
        class_names=card_facts.names,
        class_members=card_facts.members,
        facts_=facts,
        warnings=card_facts.warnings + gloss_warnings,
        timing=timing,
        cards=cards.cards,
        aliases=cards.aliases,
        facts=cards.facts,
        rulings=rulings,
        steps=steps,
        restrictions=spill.stored(extract_restrictions(documents, glossary, resolve)),
        term_counts=count_terms(documents, counted or glossary),
        readings=official,
    )


def _read_as(
    heads: Sequence[DocumentResult], glosses: list[Gloss], official: Iterable[Reading]
) -> Iterator[dict[str, list[tuple[str, str]]]]:
    """Per document, in order, every rule in the other words it is read in: its curated
    gloss, then its official-terms reading (a machine translation with the official names
    put back)."""
    glossed: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for g in glosses:
        glossed.setdefault(g.rule.partition(":")[0], {}).setdefault(g.rule, []).append(
            (g.lang, g.text)
        )
    doc_ids = [h.doc.doc_id for h in heads]
    for doc_id, found in zip(doc_ids, by_document(doc_ids, official), strict=True):
        other = {rule: list(words) for rule, words in glossed.get(doc_id, {}).items()}
        for r in found:
            other.setdefault(r.rule, []).append(("en", r.text))
        yield other
