"""The records that flow between pipeline stages.

Each stage takes the previous stage's records and returns new ones; only the store writes
SQLite. Every record keeps its origin (file and source line numbers) so a repair, a rule or a
search hit can always be traced back to the line it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Game:
    id: str
    name: str
    publisher: str = ""
    aliases: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HeadingHint:
    """A curated outline hint from the manifest: lines matching ``pattern`` are headings."""

    pattern: str
    level: int
    ruleset: str | None = None
    era: str | None = None
    insert_title: str = ""  # a heading with this title is inserted before the matching line


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """A translation block inside a file, introduced by a marker line."""

    marker: str
    variant: str
    lang: str
    provenance: str
    preset: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class DocumentSpec:
    """What the manifest (or detection, for undescribed files) says about one file."""

    file: str
    id: str
    game: str
    ruleset: str
    title: str
    lang: str
    provenance: str
    era: str
    version: str = ""
    effective: str = ""
    publisher: str = ""
    source: str = ""
    license: str = ""
    notes: str = ""
    preset: str = "clean"
    variants: tuple[VariantSpec, ...] = ()
    headings: tuple[HeadingHint, ...] = ()
    drop_lines: tuple[str, ...] = ()
    fillers: tuple[str, ...] = ()
    # Characters a PDF's font wrote for the game's icons, and the notation they stand for.
    glyphs: tuple[tuple[str, str], ...] = ()
    numbering: str = ""
    # The id of the document this file translates (an official translation in a file of its
    # own); a translation block inside a file says so by its marker instead.
    translation_of: str = ""
    described: bool = True


@dataclass(frozen=True, slots=True)
class RawText:
    """A file decoded to text, before any repair."""

    path: str
    file: str
    encoding: str
    sha256: str
    size: int
    text: str


@dataclass(frozen=True, slots=True)
class Mark:
    """The structure a markup parser (ingest/markup) found for one line of a Markdown,
    reStructuredText or HTML source; plain text lines have none and are segmented by layout.

    ``kind`` is the block it opens: heading, paragraph, item (ordered list), bullet, quote,
    note (an admonition's paragraph), row (a table's body row), term (a definition-list
    entry: ``label`` is the term, the line's text its definition) or code.
    """

    kind: str
    level: int = 0  # heading level (1 = top) or list nesting (1 = outermost)
    label: str = ""  # an ordered-list item's number; a definition-list entry's term
    anchor: str = ""  # the names a link can use for this heading, space-separated
    links: tuple[tuple[str, str], ...] = ()  # (the link's words, its target) in the text


@dataclass(slots=True)
class Line:
    """One line of text with the source line number it came from.

    ``depth`` carries nesting information found in the text itself (the ``_`` prefixes of
    fow-cr-8.01), ``None`` when the text gives none; ``mark`` the structure a markup source
    states (None for plain text); ``end`` the last source line it holds when a normalization
    rule joined the lines a PDF wrapped (None: the line is one source line).
    """

    no: int
    text: str
    depth: int | None = None
    mark: Mark | None = None
    end: int | None = None  # the last source line, when wrapped lines were joined into this one


@dataclass(slots=True)
class DocText:
    """The text of one document (an original or a translation variant) as lines."""

    spec: DocumentSpec
    doc_id: str
    variant: str
    lang: str
    provenance: str
    preset: str
    title: str
    translation_of: str | None
    lines: list[Line]
    raw: RawText


@dataclass(frozen=True, slots=True)
class Repair:
    """One change made by a normalization rule, kept so a translator can audit it."""

    document: str
    rule: str
    line: int
    before: str
    after: str


@dataclass(slots=True)
class Block:
    """A segment of a document: a heading, paragraph, bullet, numbered rule, example..."""

    kind: str
    text: str
    line_start: int
    line_end: int
    level: int = 0
    number: str = ""
    label: str = ""
    title: str = ""
    lang: str = ""
    langs: str = ""
    ruleset: str | None = None
    era: str | None = None
    parent: int | None = None  # index of the parent block (nested bullet, answer, sub-rule)
    anchor: str = ""  # a heading's link names in a markup source, space-separated
    links: tuple[tuple[str, str], ...] = ()  # (words, target) of the links in the text


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A stretch of text dropped because the same text is kept elsewhere."""

    document: str
    line_start: int
    line_end: int
    kept_start: int
    kept_end: int
    reason: str
    chars: int


@dataclass(slots=True)
class Section:
    id: str
    document: str
    parent: str | None
    ord: int
    level: int
    number: str
    title: str
    slug: str
    path: str  # the titles from the root down, "Overview › Basic Concept"
    lang: str
    ruleset: str | None
    era: str | None
    line_start: int
    line_end: int
    # The names a link can use for it in a markup source (an HTML id, a reStructuredText
    # label, a Markdown heading slug), space-separated; "" for plain text.
    anchor: str = ""


@dataclass(slots=True)
class Rule:
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
    ord: int
    depth: int
    text: str
    ruleset: str | None
    era: str | None
    line_start: int
    line_end: int


@dataclass(frozen=True, slots=True)
class Reference:
    """A cross-reference in a rule's text, resolved to what it names: a rule ("see rule
    702.19", "[1.3.2a]", "Article 4"), a section ("section 102", a Markdown ``[Timing](#timing)``
    link, a reStructuredText ``:ref:``) or a glossary term of the document's game.

    ``start``/``end`` are character offsets of ``written`` in the rule's text, so the website
    can link exactly those words.
    """

    rule: str
    kind: str  # "rule", "section" or "term"
    written: str
    start: int
    end: int
    target_rule: str | None = None
    target_section: str | None = None
    target_term: str | None = None


@dataclass(slots=True)
class DocumentResult:
    """Everything the pipeline learned about one document."""

    doc: DocText
    blocks: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    languages: tuple[str, ...] = ()
    numbering: str = ""  # the numbering scheme found in the text (ingest/layout.py)
    references: list[Reference] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Link:
    """An alignment link between rules of a source document and of its translation.

    1-1, 1-2, 2-1 links have one or two ids on each side; a 1-0 link (source with no
    translation) or 0-1 link (translation with no source) has an empty side.
    """

    source_document: str
    target_document: str
    source_ids: tuple[str, ...]
    target_ids: tuple[str, ...]
    score: float
    method: str  # how the link was found, e.g. "dp:anchors+length", "dp:length"


@dataclass(frozen=True, slots=True)
class Check:
    """A translation check finding on an aligned pair (or on a whole variant)."""

    target_document: str
    link: int | None  # index into the list of links it concerns, if any
    rule: str | None  # the rule (usually a target rule) it points at
    check: str  # e.g. "number-mismatch", "untranslated", "term-variant", "missing", "extra"
    severity: str  # "error", "warning" or "info"
    detail: str
    term: str | None = None  # glossary term id, for terminology checks


@dataclass(frozen=True, slots=True)
class Change:
    """How one rule changed between two versions of a document (old -> new)."""

    old_document: str
    new_document: str
    old_id: str | None
    new_id: str | None
    kind: str  # "unchanged", "reworded", "moved", "added", "removed"
    similarity: float
    detail: str = ""  # word diff for reworded rules, "103.4 -> 103.5" for moved ones


# ---- Structured knowledge (ingest/extract) ---------------------------------------------------
@dataclass(frozen=True, slots=True)
class TimingNode:
    id: str
    tree: str  # "<game>/<ruleset>", ruleset "*" for every ruleset of the game
    game: str
    ruleset: str
    parent: str | None
    ord: int
    depth: int
    kind: str  # turn, phase, step, substep
    label: str
    en: str


@dataclass(frozen=True, slots=True)
class TimingName:
    node: str
    lang: str
    text: str
    document: str | None  # where the name is used; None for a curated name not in the corpus
    section: str | None


@dataclass(frozen=True, slots=True)
class TimingRule:
    node: str
    rule: str
    relation: str  # "in" (the rule is in the node's section), "titled" (the rule is titled so)


@dataclass(frozen=True, slots=True)
class TimingProperty:
    node: str
    key: str
    value: str
    display: str
    rule: str  # the rule that states it


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    game: str
    name: str
    kind: str  # "card" or "archetype"
    source: str  # "quoted" (found quoted in the text) or "curated" (data/cards.toml)
    notes: str = ""


@dataclass(frozen=True, slots=True)
class CardAlias:
    card: str
    alias: str
    lang: str
    kind: str  # "name", "case" (case variant seen in the text), "en_mt", "zh", "ja", "alias"


@dataclass(frozen=True, slots=True)
class CardFact:
    card: str
    field: str
    value: str
    rule: str


@dataclass(frozen=True, slots=True)
class Ruling:
    id: str  # the id of the rule it is
    card_ids: tuple[str, ...]
    timing: str | None
    kind: str  # "example", "faq", or the rule kind
    title: str
    question: str  # situation (example) or question (FAQ)
    answer: str  # what the source rules


@dataclass(frozen=True, slots=True)
class RulingStep:
    ruling: str
    ord: int
    text: str
    event: str  # setup, attack, activate, respond, cannot, resolve, result, other
    actor: str  # "A", "B" or ""
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Restriction:
    list: str  # "DM5", "DM6", "DMI"
    status: str  # "limited", "semi-limited", "forbidden"
    ord: int
    name: str  # as written
    card: str | None
    rule: str


@dataclass(frozen=True, slots=True)
class TermCount:
    term: str
    document: str
    lang: str
    source: str  # "en", "vi", "zh", "en_mt"
    text: str
    preferred: bool
    count: int


@dataclass(frozen=True, slots=True)
class Reading:
    rule: str
    text: str
    changes: tuple[tuple[str, str], ...]  # (as written, official term)


# ---- Tournament policy (ingest/extract/infractions.py) ---------------------------------------
@dataclass(frozen=True, slots=True)
class Infraction:
    """An infraction of penalty guidelines ("2.1 Missed Trigger"): what it is and how a judge
    corrects it, read from the numbered rule that states it (``rule``, its id too).

    ``penalties`` are (level of play, corrective action) pairs as the guideline writes them:
    (("Casual", "Caution"), ("Competitive", "Warning")); a translated guideline's infraction
    names the source infraction it renders in ``translation_of``."""

    rule: str
    document: str
    game: str
    lang: str
    number: str
    name: str
    category: str  # the part of the guidelines it belongs to ("RULE ERRORS")
    definition: str
    examples: tuple[str, ...]
    corrective_action: str  # as written
    penalties: tuple[tuple[str, str], ...]
    context: str
    remedy: str
    upgrade: str
    translation_of: str | None = None


# ---- Typed facts for verdicts (ingest/extract/cardfacts.py, ingest/extract/statements.py) -----
@dataclass(frozen=True, slots=True)
class CardProperty:
    """What a card is (kind, subtype, spell speed) or does (a property the rules test for)."""

    card: str
    field: str  # "kind", "subtype", "spell_speed" or "property"
    value: str
    rule: str | None  # the corpus rule that states it, if one does
    printed: str  # the printed card text it rests on (a public fact), when no rule states it


@dataclass(frozen=True, slots=True)
class CardClass:
    """A class of cards the rules talk about ("Counter Trap", "effects that change ATK/DEF")."""

    id: str
    game: str
    en: str  # the English name shown
    match: str  # JSON: the card fields every member has (data/card_facts.toml [[classes]])


@dataclass(frozen=True, slots=True)
class ClassName:
    """A name of a card class in one language, as rules and judges write it."""

    cls: str
    lang: str
    text: str


@dataclass(frozen=True, slots=True)
class ClassMember:
    cls: str
    card: str


@dataclass(frozen=True, slots=True)
class Fact:
    """A typed, citable statement of a rule: who may do what, when, how many, what follows.

    ``kind`` permission: ``subject`` (card:<id> or class:<id>) ``modality`` (can, cannot,
    must, only) ``action`` at ``moment`` (a timing node), optionally only in one ``chain``
    (first, later); quantity: ``unit`` (a concept) bounded by ``low``..``high``;
    outcome: under ``condition``, ``outcome`` happens; statement: one clause of a sentence,
    ``outcome`` what it states with ``modality`` (can, cannot, must, needn't, only, or does /
    does-not when it says what happens), said of ``subject``, under ``condition``, with the
    exception words ``limits``. ``concepts`` are the glossary terms,
    moments, cards and classes the sentence (with its section) names, space-separated.
    """

    id: str
    rule: str
    game: str
    ruleset: str
    kind: str
    source: str  # how it was read: timing-property, sentence, example
    moment: str | None
    subject: str
    action: str
    modality: str
    chain: str
    low: float | None
    high: float | None
    unit: str
    concepts: str
    condition: str
    outcome: str
    quote: str
    lang: str
    limits: str = ""  # statement: the exception words of its clause ("unless", "except")


@dataclass(frozen=True, slots=True)
class Gloss:
    """A curated reading of a rule in another language (data/glosses/), stored as a
    translation of the rule with its own provenance: a community gloss, not official."""

    rule: str
    lang: str
    text: str
    note: str
    source: str  # the data file it comes from
