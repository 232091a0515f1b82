"""The rows the knowledge base returns, typed: what ``kb.KnowledgeBase`` gives, what ``--json``
and the site's ``.json`` pages serialise, and what mypy checks every key of.

Plain ``TypedDict``s: at run time they are the dicts the JSON already was, so nothing is
converted on the way out; a misspelt key is an error for mypy, not a ``KeyError`` at a judge's
table. Only the kinds of row a caller reads are spelt out; rows passed through whole (a rule's
translations, a card's facts) stay ``dict[str, Any]``.
"""

from __future__ import annotations

from typing import Any, TypedDict

Row = dict[str, Any]


class Source(TypedDict):
    """Where a passage stands: its document, file and first line."""

    document: str
    file: str
    line: int | None


class TimingPath(TypedDict):
    id: str
    path: str
    ruleset: str


class AskHit(TypedDict):
    """A passage of ``kb ask``: the text and everything a judge cites it by."""

    id: str
    also: list[str]  # ids of the same text in other versions
    game: str
    lang: str
    kind: str
    title: str
    text: str
    shown_translation: Row | None
    score: float
    timing: TimingPath | None
    cards: list[str]
    section: str
    provenance: str
    era: str
    source: Source
    translations: list[Row]
    glosses: list[Row]


class AskResult(TypedDict):
    """What ``kb ask`` answers: the composed answer or why there is none, then passages."""

    query: str
    cut: str | None
    understood: Row
    confident: bool
    answer: Row | None
    not_covered: str | None
    warnings: list[str]
    retrieval: str  # "lexical+dense", or "lexical" without passage vectors
    hits: list[AskHit]
    coverage: Row  # kb.lookups.coverage.Coverage: whether the corpus covers what it asks


class OlderVersion(TypedDict):
    id: str
    document: str
    version: str


class SearchHit(TypedDict):
    """A rule found by ``kb search``, with its provenance and its copies in other versions."""

    id: str
    document: str
    game: str
    lang: str
    kind: str
    number: str
    label: str
    title: str
    text: str
    section_path: str
    section_lang: str
    line_start: int | None
    file: str
    provenance: str
    era: str
    document_title: str
    document_lang: str
    version: str
    superseded_by: str | None
    score: float
    exact: bool
    also: list[str]
    also_in: list[OlderVersion]


class RuleView(TypedDict):
    """A rule with its section path, source location, sub-rules, translations and glosses."""

    id: str
    document: str
    section: str
    parent: str | None
    game: str
    lang: str
    langs: str
    kind: str
    number: str
    label: str
    title: str
    text: str
    ruleset: str
    era: str
    line_start: int | None
    line_end: int | None
    ord: int
    section_path: str
    section_title: str
    document_title: str
    file: str
    variant: str
    translation_of: str | None
    provenance: str
    version: str
    document_era: str
    superseded_by: str | None
    game_name: str
    children: list[Row]
    translations: list[Row]
    glosses: list[Row]


class CardRef(TypedDict):
    id: str
    name: str
    game: str
    kind: str


class CardCandidate(CardRef):
    score: float
    alias: str


class RulingGroup(TypedDict):
    timing: str | None
    timing_name: str | None
    tree: str | None
    rulings: list[Row]


class CardView(TypedDict):
    """A card with its aliases, data, restriction-list entries and rulings by timing window."""

    id: str
    name: str
    game: str
    game_name: str
    kind: str
    notes: str
    source: str
    rulings: int  # how many rulings name it
    aliases: list[Row]
    facts: list[Row]
    restrictions: list[Row]
    rulings_by_timing: list[RulingGroup]


class CardLookup(TypedDict):
    """``kb card NAME``: the card meant, how sure, and the close candidates."""

    query: str
    exact: bool
    score: float
    card: CardView | None
    candidates: list[CardCandidate]


class Penalty(TypedDict):
    """A corrective action at one level of play ("Competitive": "Warning")."""

    level: str
    action: str


class InfractionRow(TypedDict):
    """An infraction of penalty guidelines, as listed (``/penalty``, ``kb penalty``)."""

    id: str  # the rule that states it
    document: str
    game: str
    game_name: str
    lang: str
    number: str
    name: str
    category: str
    penalties: list[Penalty]
    translation_of: str | None
    document_title: str
    provenance: str


class InfractionView(InfractionRow):
    """One infraction whole: its parts, where it comes from, and its other languages."""

    definition: str
    examples: list[str]
    corrective_action: str
    context: str
    remedy: str
    upgrade: str
    file: str
    era: str
    effective: str
    line_start: int
    line_end: int
    section_path: str
    languages: list[dict[str, Any]]  # the same infraction in each language: id, lang, name


class InfractionCandidate(TypedDict):
    id: str
    lang: str
    number: str
    name: str
    document: str
    score: float


class PenaltyLookup(TypedDict):
    """``kb penalty QUERY``: the infraction meant, how sure, and the close candidates."""

    query: str
    exact: bool
    score: float
    infraction: InfractionView | None
    candidates: list[InfractionCandidate]


class TimingNode(TypedDict):
    """A moment of a game's turn, its names in every language, properties and sub-moments."""

    id: str
    tree: str
    game: str
    ruleset: str
    parent: str | None
    kind: str
    label: str
    en: str
    depth: int
    ord: int
    rules: int  # how many rules cite the moment
    names: dict[str, list[Row]]
    properties: list[Row]
    children: list[TimingNode]


class TermRendering(TypedDict):
    lang: str
    source: str
    text: str
    preferred: bool
    note: str | None
    counts: dict[str, int]
    total: int


class Term(TypedDict):
    """A glossary term: its definition where a rulebook gives one, and its renderings.
    ``match``: how a looked-up name found it (name, another English form, rendering, machine
    translation's rendering, close spelling; "" when listing every term)."""

    term: str
    game: str
    en: str
    definition: str
    rule: str | None
    cites: list[Row]
    renderings: list[TermRendering]
    match: str


class CompareRow(TypedDict):
    """A source rule next to its aligned translations, with the translation checks."""

    source: Row | None
    targets: dict[str, list[Row]]
    checks: list[Row]


class Stats(TypedDict):
    totals: dict[str, int]
    by_game_language: list[Row]
    documents: list[Row]


class VersionSummary(TypedDict):
    """How many rules changed, by kind, between two versions of a rulebook."""

    old_document: str
    new_document: str
    old_version: str
    new_version: str
    old_effective: str
    new_effective: str
    game: str
    ruleset: str
    changes: int
    old_rules: int
    new_rules: int
    counts: dict[str, int]


class VersionChange(TypedDict):
    id: int
    kind: str
    old_rule: str | None
    new_rule: str | None
    old_number: str | None
    new_number: str | None
    old_text: str | None
    new_text: str | None
    similarity: float | None
    detail: str | None


class VersionDiff(TypedDict):
    """``kb diff OLD NEW``: the summary and the changes of the kinds asked for."""

    old: str
    new: str
    summary: VersionSummary
    changes: list[VersionChange]


class ChangeBrief(TypedDict):
    kind: str
    similarity: float | None
    detail: str | None


class HistoryEntry(TypedDict):
    """What one version of a rulebook says about a rule (all None where it has no such rule)."""

    document: str | None
    version: str | None
    effective: str | None
    rule: str | None
    number: str | None
    text: str | None
    change: ChangeBrief | None


class BuildDocument(TypedDict):
    id: str
    variant: str
    lang: str
    provenance: str
    sections: int
    rules: int
    repairs: int
    duplicates: int


class BuildSummary(TypedDict):
    """What ``kb build`` made of a corpus."""

    database: str
    corpus: str
    files: int
    seconds: float
    counts: dict[str, int]
    documents: list[BuildDocument]
    rules_by_game_language: list[Row]
    repairs_by_rule: dict[str, int]
    warnings: list[str]
    cleaned: list[str]
