"""The database schema: tables, keys and indexes, declared once.

Column order here is the order Datasette shows. Every table has an explicit primary key; every
reference is a declared foreign key, so Datasette links rows to rows.
"""

from __future__ import annotations

SCHEMA_VERSION = "1"

# table -> (columns, primary key, foreign keys as (column, other table, other column))
TABLES: dict[str, tuple[dict[str, type], str, list[tuple[str, str, str]]]] = {
    "meta": ({"key": str, "value": str}, "key", []),
    "games": (
        {"id": str, "name": str, "publisher": str, "aliases": str, "keywords": str},
        "id",
        [],
    ),
    "documents": (
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
    "sections": (
        {
            "id": str,
            "document": str,
            "parent": str,
            "ord": int,
            "level": int,
            "number": str,
            "title": str,
            "slug": str,
            "path": str,
            "lang": str,
            "ruleset": str,
            "era": str,
            "line_start": int,
            "line_end": int,
        },
        "id",
        [("document", "documents", "id"), ("parent", "sections", "id")],
    ),
    "rules": (
        {
            "id": str,
            "seq": int,
            "document": str,
            "section": str,
            "parent": str,
            "game": str,
            "lang": str,
            "langs": str,
            "kind": str,
            "number": str,
            "label": str,
            "title": str,
            "ord": int,
            "depth": int,
            "text": str,
            "ruleset": str,
            "era": str,
            "line_start": int,
            "line_end": int,
        },
        "id",
        [
            ("document", "documents", "id"),
            ("section", "sections", "id"),
            ("parent", "rules", "id"),
            ("game", "games", "id"),
        ],
    ),
    "repairs": (
        {"id": int, "document": str, "rule_name": str, "line": int, "before": str, "after": str},
        "id",
        [("document", "documents", "id")],
    ),
    "duplicates": (
        {
            "id": int,
            "document": str,
            "line_start": int,
            "line_end": int,
            "kept_start": int,
            "kept_end": int,
            "reason": str,
            "chars": int,
        },
        "id",
        [("document", "documents", "id")],
    ),
    "build_warnings": ({"id": int, "message": str}, "id", []),
    # Translation alignment: one row per link; alignment_rules lists the rules on each side.
    "alignments": (
        {
            "id": int,
            "source_document": str,
            "target_document": str,
            "source_ids": str,
            "target_ids": str,
            "source_first": str,
            "target_first": str,
            "score": float,
            "method": str,
            "ord": int,
        },
        "id",
        [
            ("source_document", "documents", "id"),
            ("target_document", "documents", "id"),
            ("source_first", "rules", "id"),
            ("target_first", "rules", "id"),
        ],
    ),
    "alignment_rules": (
        {"id": int, "alignment": int, "rule": str, "side": str},
        "id",
        [("alignment", "alignments", "id"), ("rule", "rules", "id")],
    ),
    "translation_checks": (
        {
            "id": int,
            "target_document": str,
            "alignment": int,
            "rule": str,
            "check_name": str,
            "severity": str,
            "detail": str,
            "term": str,
        },
        "id",
        [
            ("target_document", "documents", "id"),
            ("alignment", "alignments", "id"),
            ("rule", "rules", "id"),
        ],
    ),
    # How each rule changed between two versions of a rulebook.
    "rule_changes": (
        {
            "id": int,
            "old_document": str,
            "new_document": str,
            "old_rule": str,
            "new_rule": str,
            "kind": str,
            "similarity": float,
            "detail": str,
        },
        "id",
        [
            ("old_document", "documents", "id"),
            ("new_document", "documents", "id"),
            ("old_rule", "rules", "id"),
            ("new_rule", "rules", "id"),
        ],
    ),
    # ---- Structured knowledge ----------------------------------------------------------------
    "timing_trees": (
        {"id": str, "game": str, "ruleset": str, "title": str, "chain_order": str},
        "id",
        [("game", "games", "id")],
    ),
    "timing_nodes": (
        {
            "id": str,
            "tree": str,
            "game": str,
            "ruleset": str,
            "parent": str,
            "ord": int,
            "depth": int,
            "kind": str,
            "label": str,
            "en": str,
        },
        "id",
        [("tree", "timing_trees", "id"), ("game", "games", "id"), ("parent", "timing_nodes", "id")],
    ),
    "timing_names": (
        {"id": int, "node": str, "lang": str, "text": str, "document": str, "section": str},
        "id",
        [
            ("node", "timing_nodes", "id"),
            ("document", "documents", "id"),
            ("section", "sections", "id"),
        ],
    ),
    "timing_rules": (
        {"id": int, "node": str, "rule": str, "relation": str},
        "id",
        [("node", "timing_nodes", "id"), ("rule", "rules", "id")],
    ),
    "timing_properties": (
        {"id": int, "node": str, "key": str, "value": str, "display": str, "rule": str},
        "id",
        [("node", "timing_nodes", "id"), ("rule", "rules", "id")],
    ),
    "cards": (
        {"id": str, "game": str, "name": str, "kind": str, "source": str, "notes": str},
        "id",
        [("game", "games", "id")],
    ),
    "card_aliases": (
        {"id": int, "card": str, "alias": str, "lang": str, "kind": str},
        "id",
        [("card", "cards", "id")],
    ),
    "card_facts": (
        {"id": int, "card": str, "field": str, "value": str, "rule": str},
        "id",
        [("card", "cards", "id"), ("rule", "rules", "id")],
    ),
    # A ruling is a rule that names a card, or a worked example or FAQ entry; its id is the rule's.
    "rulings": (
        {"id": str, "timing": str, "kind": str, "title": str, "question": str, "answer": str},
        "id",
        [("id", "rules", "id"), ("timing", "timing_nodes", "id")],
    ),
    "ruling_cards": (
        {"id": int, "ruling": str, "card": str, "ord": int},
        "id",
        [("ruling", "rulings", "id"), ("card", "cards", "id")],
    ),
    "ruling_steps": (
        {
            "id": int,
            "ruling": str,
            "ord": int,
            "text": str,
            "event": str,
            "actor": str,
            "cards": str,
        },
        "id",
        [("ruling", "rulings", "id")],
    ),
    "restrictions": (
        {"id": int, "list": str, "status": str, "ord": int, "name": str, "card": str, "rule": str},
        "id",
        [("card", "cards", "id"), ("rule", "rules", "id")],
    ),
    "terms": (
        {"id": str, "game": str, "en": str, "forms": str},
        "id",
        [],
    ),
    "term_renderings": (
        {
            "id": int,
            "term": str,
            "lang": str,
            "source": str,
            "text": str,
            "preferred": int,
            "note": str,
        },
        "id",
        [("term", "terms", "id")],
    ),
    "term_counts": (
        {
            "id": int,
            "term": str,
            "document": str,
            "lang": str,
            "source": str,
            "text": str,
            "preferred": int,
            "count": int,
        },
        "id",
        [("term", "terms", "id"), ("document", "documents", "id")],
    ),
    # Every folded word of the index with the number of rules it occurs in, and in which games
    # (JSON {game: rules}): kb ask corrects misspelt words against it, weighs words by rarity
    # and guesses the game a question is about from words only one game uses.
    "search_vocab": ({"term": str, "rules": int, "games": str}, "term", []),
    # A machine translation read in official terms; the raw text stays in rules.text.
    "readings": (
        {"rule": str, "text": str, "changes": str},
        "rule",
        [("rule", "rules", "id")],
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
    ("rulings", ["timing"]),
    ("ruling_cards", ["card"]),
    ("ruling_cards", ["ruling"]),
    ("ruling_steps", ["ruling", "ord"]),
    ("restrictions", ["list", "status"]),
    ("restrictions", ["card"]),
    ("term_renderings", ["term"]),
    ("term_counts", ["term", "document"]),
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
