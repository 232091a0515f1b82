"""The structured knowledge extracted from the rules: the timing graph, cards, rulings,
restriction lists, the glossary with its counts, and official-terms readings."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import sqlite_utils

from ingest.extract.timing import timing_data
from ingest.glossary import load_glossary
from ingest.pipeline import PipelineResult
from ingest.records import Ruling

from .rows import insert_records, insert_rows, numbered


def write_infractions(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """The infractions of penalty guidelines (ingest/extract/infractions.py)."""
    insert_records(db, "infractions", result.infractions)


def write_timing(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """The curated trees of the corpus's games, then their nodes, names, rules, properties."""
    timing = result.knowledge.timing
    insert_rows(db, "timing_trees", _timing_tree_rows({g.id for g in result.games}))
    insert_records(db, "timing_nodes", timing.nodes)
    insert_records(db, "timing_names", timing.names)
    insert_records(db, "timing_rules", timing.rules)
    insert_records(db, "timing_properties", timing.properties)


def _timing_tree_rows(games: set[str]) -> Iterator[dict[str, Any]]:
    for tree in timing_data()["trees"]:
        if tree["game"] in games:
            yield {
                "id": f"{tree['game']}/{tree['ruleset']}",
                "game": tree["game"],
                "ruleset": tree["ruleset"],
                "title": tree["title"],
                "chain_order": tree.get("chain_order", ""),
            }


def write_cards(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """Cards with their aliases and facts, rulings with their cards and steps, restrictions."""
    k = result.knowledge
    insert_records(db, "cards", k.cards)
    insert_records(db, "card_aliases", k.aliases)
    insert_records(db, "card_facts", k.facts)
    insert_records(db, "rulings", k.rulings)
    insert_rows(db, "ruling_cards", numbered(_ruling_card_rows(k.rulings)))
    insert_records(db, "ruling_steps", k.steps)
    insert_records(db, "restrictions", k.restrictions)


def write_facts(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """What cards are and do, the card classes, and the typed facts verdicts reason over."""
    k = result.knowledge
    insert_records(db, "card_properties", k.card_properties)
    insert_records(db, "card_classes", k.classes)
    insert_records(db, "class_names", k.class_names)
    insert_records(db, "class_members", k.class_members)
    insert_records(db, "facts", k.facts_)
    insert_records(db, "glosses", k.glosses)


def _ruling_card_rows(rulings: Iterable[Ruling]) -> Iterator[dict[str, Any]]:
    for ruling in rulings:
        for ord_, card in enumerate(ruling.card_ids, start=1):
            yield {"ruling": ruling.id, "card": card, "ord": ord_}


def write_glossary(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """The curated glossary and the rulebooks' own, how often each rendering occurs per
    document, the official-terms readings of machine translations, and the cross-references
    of rule text (which may name a term)."""
    terms = [*load_glossary().terms, *result.terms]
    insert_records(db, "terms", terms)
    insert_records(db, "term_renderings", (r for term in terms for r in term.renderings))
    insert_records(db, "term_counts", result.knowledge.term_counts)
    insert_records(db, "readings", result.knowledge.readings)
    insert_records(
        db,
        "rule_references",
        (x for d in result.documents for x in (*d.references, *result.term_mentions.of(d))),
    )
