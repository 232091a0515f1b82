"""The database schema: tables, keys and indexes, declared once.

A table that stores a pipeline record takes its columns from the record's dataclass
(``kb.store.shapes.record_table``); only a column renamed, added or stored in another form is
spelled out here. Column order is the order Datasette shows. Every table has an explicit
primary key; every reference is a declared foreign key, so Datasette links rows to rows.
"""

from __future__ import annotations

from ingest.glossary import Rendering, Term
from ingest.records import (
    Card,
    CardAlias,
    CardClass,
    CardFact,
    CardProperty,
    Change,
    Check,
    ClassMember,
    ClassName,
    Duplicate,
    Fact,
    Game,
    Gloss,
    Infraction,
    Link,
    Reading,
    Reference,
    Repair,
    Restriction,
    Rule,
    Ruling,
    RulingStep,
    Section,
    TermCount,
    TimingName,
    TimingNode,
    TimingProperty,
    TimingRule,
)

from .shapes import (
    AS_JSON,
    ROUNDED,
    ROW_ID,
    SPACE_JOINED,
    Added,
    Stored,
    Table,
    record_table,
    row_number,
    table,
)

SCHEMA_VERSION = "12"


def _first(ids: tuple[str, ...]) -> str | None:
    return ids[0] if ids else None


TABLES: dict[str, Table] = {
    "meta": table({"key": str, "value": str}, "key"),
    # The languages the corpus was read with (ingest/data/languages.toml, and the corpus's own
    # [languages] tables: source "corpus").
    "language_settings": table(
        {
            "code": str,
            "name": str,
            "script": str,
            "is_default": int,
            "letters": str,
            "fold_diacritics": int,
            "stemmer": str,
            "source": str,
            "ord": int,
        },
        "code",
    ),
    "games": record_table(Game, stored={"aliases": AS_JSON, "keywords": AS_JSON}),
    "documents": table(
        {
            "id": str,
            "game": str,
            "ruleset": str,
            "title": str,
            "variant": str,
            "translation_of": str,
            "lang": str,
            "languages": str,
            "provenance": str,
            "era": str,
            "version": str,
            "effective": str,
            # The newest version of the same rulebook when this one is not it (NULL: current).
            "superseded_by": str,
            # The numbering scheme found in its text: cr, dotted, article, section or plain.
            "numbering": str,
            "publisher": str,
            "source": str,
            "license": str,
            "notes": str,
            "file": str,
            "encoding": str,
            "sha256": str,
            "size": int,
            "preset": str,
            "described": int,
            "sections": int,
            "rules": int,
            "repairs": int,
            "ord": int,
        },
        "id",
        [("game", "games", "id"), ("translation_of", "documents", "id")],
    ),
    "sections": record_table(
        Section, foreign_keys=[("document", "documents", "id"), ("parent", "sections", "id")]
    ),
    # seq: the rule's place in the whole corpus, and its rowid in rules_fts.
    "rules": record_table(
        Rule,
        foreign_keys=[
            ("document", "documents", "id"),
            ("section", "sections", "id"),
            ("parent", "rules", "id"),
            ("game", "games", "id"),
        ],
        added=[Added("seq", int, row_number, after="id")],
    ),
    "repairs": record_table(
        Repair,
        foreign_keys=[("document", "documents", "id")],
        added=[ROW_ID],
        rename={"rule": "rule_name"},
    ),
    "duplicates": record_table(
        Duplicate, foreign_keys=[("document", "documents", "id")], added=[ROW_ID]
    ),
    "build_warnings": table({"id": int, "message": str}, "id"),
    # Translation alignment: one row per link; alignment_rules lists the rules on each side.
    "alignments": record_table(
        Link,
        foreign_keys=[
            ("source_document", "documents", "id"),
            ("target_document", "documents", "id"),
            ("source_first", "rules", "id"),
            ("target_first", "rules", "id"),
        ],
        added=[
            ROW_ID,
            Added("source_first", str, lambda link, _: _first(link.source_ids), "target_ids"),
            Added("target_first", str, lambda link, _: _first(link.target_ids), "source_first"),
            Added("ord", int, row_number, after="method"),
        ],
        stored={"source_ids": SPACE_JOINED, "target_ids": SPACE_JOINED, "score": ROUNDED},
    ),
    "alignment_rules": table(
        {"id": int, "alignment": int, "rule": str, "side": str},
        "id",
        [("alignment", "alignments", "id"), ("rule", "rules", "id")],
    ),
    # A check points at its link by index in the pipeline's list; alignments ids start at 1.
    "translation_checks": record_table(
        Check,
        foreign_keys=[
            ("target_document", "documents", "id"),
            ("alignment", "alignments", "id"),
            ("rule", "rules", "id"),
        ],
        added=[ROW_ID],
        rename={"link": "alignment", "check": "check_name"},
        stored={"link": Stored(int, lambda i: None if i is None else i + 1)},
    ),
    # How each rule changed between two versions of a rulebook.
    "rule_changes": record_table(
        Change,
        foreign_keys=[
            ("old_document", "documents", "id"),
            ("new_document", "documents", "id"),
            ("old_rule", "rules", "id"),
            ("new_rule", "rules", "id"),
        ],
        added=[ROW_ID],
        rename={"old_id": "old_rule", "new_id": "new_rule"},
        stored={"similarity": ROUNDED},
    ),
    # ---- Structured knowledge ----------------------------------------------------------------
    # Written from ingest/data/timing.toml: the trees have no record.
    "timing_trees": table(
        {"id": str, "game": str, "ruleset": str, "title": str, "chain_order": str},
        "id",
        [("game", "games", "id")],
    ),
    "timing_nodes": record_table(
        TimingNode,
        foreign_keys=[
            ("tree", "timing_trees", "id"),
            ("game", "games", "id"),
            ("parent", "timing_nodes", "id"),
        ],
    ),
    "timing_names": record_table(
        TimingName,
        foreign_keys=[
            ("node", "timing_nodes", "id"),
            ("document", "documents", "id"),
            ("section", "sections", "id"),
        ],
        added=[ROW_ID],
    ),
    "timing_rules": record_table(
        TimingRule,
        foreign_keys=[("node", "timing_nodes", "id"), ("rule", "rules", "id")],
        added=[ROW_ID],
    ),
    "timing_properties": record_table(
        TimingProperty,
        foreign_keys=[("node", "timing_nodes", "id"), ("rule", "rules", "id")],
        added=[ROW_ID],
    ),
    "cards": record_table(Card, foreign_keys=[("game", "games", "id")]),
    "card_aliases": record_table(CardAlias, foreign_keys=[("card", "cards", "id")], added=[ROW_ID]),
    "card_facts": record_table(
        CardFact,
        foreign_keys=[("card", "cards", "id"), ("rule", "rules", "id")],
        added=[ROW_ID],
    ),
    # ---- Facts for verdicts (kb ask --json answer.verdict / answer.because) -------------------
    # What each card is and does (ingest/data/card_facts.toml), citing a rule or printed text.
    "card_properties": record_table(
        CardProperty,
        foreign_keys=[("card", "cards", "id"), ("rule", "rules", "id")],
        added=[ROW_ID],
    ),
    # The card classes the rules talk about, their names in every language, their members.
    "card_classes": record_table(CardClass),
    "class_names": record_table(
        ClassName,
        foreign_keys=[("class", "card_classes", "id")],
        added=[ROW_ID],
        rename={"cls": "class"},
    ),
    "class_members": record_table(
        ClassMember,
        foreign_keys=[("class", "card_classes", "id"), ("card", "cards", "id")],
        added=[ROW_ID],
        rename={"cls": "class"},
    ),
    # Typed statements of the rules: permissions at a moment, quantities, outcomes, orders.
    "facts": record_table(
        Fact,
        foreign_keys=[("rule", "rules", "id"), ("moment", "timing_nodes", "id")],
    ),
    # Curated glosses of rules in another language (a community gloss, not official).
    "glosses": record_table(Gloss, foreign_keys=[("rule", "rules", "id")], added=[ROW_ID]),
    # A ruling is a rule that names a card, or a worked example or FAQ entry; its id is the rule's.
    # Its cards are rows of ruling_cards.
    "rulings": record_table(
        Ruling,
        foreign_keys=[("id", "rules", "id"), ("timing", "timing_nodes", "id")],
        omit=["card_ids"],
    ),
    "ruling_cards": table(
        {"id": int, "ruling": str, "card": str, "ord": int},
        "id",
        [("ruling", "rulings", "id"), ("card", "cards", "id")],
    ),
    "ruling_steps": record_table(
        RulingStep,
        foreign_keys=[("ruling", "rulings", "id")],
        added=[ROW_ID],
        stored={"cards": SPACE_JOINED},
    ),
    "restrictions": record_table(
        Restriction,
        foreign_keys=[("card", "cards", "id"), ("rule", "rules", "id")],
        added=[ROW_ID],
    ),
    # A glossary term, curated (ingest/data/glossary.toml) or defined by a rulebook's own
    # glossary (its definition and the rule stating it); its renderings are rows of
    # term_renderings, the rules it cites are rule_references of its rule.
    "terms": record_table(
        Term,
        rename={"en_forms": "forms"},
        stored={"en_forms": AS_JSON},
        omit=["renderings"],
        foreign_keys=[("rule", "rules", "id")],
    ),
    # The reading of a machine-translation form lives in the glossary file only.
    "term_renderings": record_table(
        Rendering, foreign_keys=[("term", "terms", "id")], added=[ROW_ID], omit=["reading"]
    ),
    "term_counts": record_table(
        TermCount,
        foreign_keys=[("term", "terms", "id"), ("document", "documents", "id")],
        added=[ROW_ID],
    ),
    # Cross-references in rule text: to a rule ("see rule 702.19", "[1.3.2a]"), a section
    # ("section 102", a markup link) or a glossary term of the game; start/end are character
    # offsets of ``written`` in the rule's text, for linking those words.
    "rule_references": record_table(
        Reference,
        foreign_keys=[
            ("rule", "rules", "id"),
            ("target_rule", "rules", "id"),
            ("target_section", "sections", "id"),
            ("target_term", "terms", "id"),
        ],
        added=[ROW_ID],
    ),
    # Every folded word of the index with the number of rules it occurs in, and in which games
    # (JSON {game: rules}) and in which languages (JSON list): kb ask corrects misspelt words
    # against it, weighs words by rarity and guesses the game a question is about from words
    # only one game uses.
    "search_vocab": table({"term": str, "rules": int, "games": str, "langs": str}, "term"),
    # Everyday English words spelt right (ingest/english.py), with how often the web uses them:
    # never a typo of a corpus word; the most used ones never a subject the knowledge base
    # lacks ("since", "friend").
    "common_words": table({"word": str, "count": int}, "word"),
    # A language's bilingual dictionary to English (kb/store/dictionary.py), kept to entries
    # whose one-word glosses the English rules use: ``glosses`` a JSON list, best first.
    "dictionary": table({"id": int, "lang": str, "word": str, "glosses": str}, "id"),
    # Each rule's embedding (kb/store/vectors.py), int8 with its scale: ``vector`` holds
    # ``dim`` signed bytes, the float vector being ``byte * scale``. ``hash`` identifies the
    # embedded text, so a rebuild embeds only new text. The model is meta's vectors_model.
    "vectors": table(
        {"seq": int, "game": str, "hash": str, "scale": float, "vector": bytes}, "seq"
    ),
    # Each rule's latent terms, when the embedder has them (kb/embed/base.py pack_latents):
    # ``vector`` holds 256 uint16 term indexes then 256 uint8 weights (``byte * scale``).
    # A question compares its own with those of its ranked candidates only. The model is
    # meta's latents_model.
    "latents": table(
        {"seq": int, "game": str, "hash": str, "scale": float, "vector": bytes}, "seq"
    ),
    # The same vectors as a matrix in parts of at most PART_VECTORS rows (kb/store/vectors.py),
    # read by a question in one query (kb/retrieve/dense.py): ``seqs`` int32 and ``scales``
    # float32 arrays, ``game_of`` one byte per vector indexing the JSON list ``games``
    # (``lang_of`` and ``langs`` the same for the rules' languages), ``matrix`` the int8
    # vectors end to end. Parts, because the website's connections refuse a blob over a
    # megabyte (kb/data/limits.toml max_length).
    "vector_index": table(
        {
            "part": int,
            "model": str,
            "dim": int,
            "seqs": bytes,
            "games": str,
            "game_of": bytes,
            "langs": str,
            "lang_of": bytes,
            "scales": bytes,
            "matrix": bytes,
        },
        "part",
    ),
    # An infraction of penalty guidelines, read from the numbered rule that states it
    # (ingest/extract/infractions.py); a translated one names the infraction it renders.
    "infractions": record_table(
        Infraction,
        pk="rule",
        foreign_keys=[
            ("rule", "rules", "id"),
            ("document", "documents", "id"),
            ("game", "games", "id"),
            ("translation_of", "rules", "id"),
        ],
        stored={"examples": AS_JSON, "penalties": AS_JSON},
    ),
    # A machine translation read in official terms; the raw text stays in rules.text.
    "readings": record_table(
        Reading, pk="rule", foreign_keys=[("rule", "rules", "id")], stored={"changes": AS_JSON}
    ),
}

INDEXES: list[tuple[str, list[str]]] = [
    ("documents", ["game"]),
    ("documents", ["translation_of"]),
    ("sections", ["document", "ord"]),
    ("sections", ["parent"]),
    ("rules", ["document", "ord"]),
    ("rules", ["section", "ord"]),
    ("rules", ["number"]),
    ("rules", ["parent"]),
    ("rules", ["game", "lang"]),
    ("repairs", ["document", "rule_name"]),
    ("duplicates", ["document"]),
    ("alignments", ["source_document", "target_document"]),
    ("dictionary", ["lang", "word"]),
    ("alignment_rules", ["rule"]),
    ("alignment_rules", ["alignment"]),
    ("translation_checks", ["target_document", "check_name"]),
    ("translation_checks", ["rule"]),
    ("rule_changes", ["old_document", "new_document", "kind"]),
    ("rule_changes", ["old_rule"]),
    ("rule_changes", ["new_rule"]),
    ("timing_nodes", ["tree", "parent", "ord"]),
    ("timing_names", ["node"]),
    ("timing_rules", ["node"]),
    ("timing_rules", ["rule"]),
    ("timing_properties", ["node"]),
    ("timing_properties", ["rule"]),  # kb ask: is a passage the source of a timing property?
    ("cards", ["game"]),
    ("card_aliases", ["card"]),
    ("card_aliases", ["alias"]),
    ("card_facts", ["card"]),
    ("card_facts", ["rule"]),
    ("card_properties", ["card"]),
    ("class_names", ["class"]),
    ("class_members", ["card"]),
    ("class_members", ["class"]),
    ("facts", ["game", "kind", "moment"]),
    ("facts", ["kind", "moment"]),  # kb ask: a moment's permissions and orders, any game
    ("facts", ["subject"]),
    ("facts", ["rule"]),
    ("glosses", ["rule"]),
    ("rulings", ["timing"]),
    ("ruling_cards", ["card"]),
    ("ruling_cards", ["ruling"]),
    ("ruling_steps", ["ruling", "ord"]),
    ("restrictions", ["list", "status"]),
    ("restrictions", ["card"]),
    ("term_renderings", ["term"]),
    ("infractions", ["game", "lang"]),
    ("infractions", ["translation_of"]),
    ("term_counts", ["term", "document"]),
    ("terms", ["rule"]),
    ("rule_references", ["rule"]),
    ("rule_references", ["target_rule"]),
    ("rule_references", ["target_section"]),
    ("rule_references", ["target_term"]),
]

UNIQUE_INDEXES: list[tuple[str, list[str]]] = [("rules", ["seq"])]

# Full-text index over rules, rowid = rules.seq. ``title`` holds the section path and the
# rule's own title or label; ``body`` the text as written; ``folded`` both without diacritics.
# CJK runs are stored as bigrams (see kb.textsearch).
FTS_SQL = (
    "CREATE VIRTUAL TABLE rules_fts USING fts5("
    "title, body, folded, tokenize = 'unicode61 remove_diacritics 0')"
)
# bm25 weights of (title, body, folded).
FTS_WEIGHTS = (2.0, 1.0, 0.6)
