"""Write the knowledge base: one SQLite file, built in a temporary file and swapped in whole.

A failed build leaves the previous database untouched: rows go to ``.<name>.tmp-<pid>`` next
to the target, which replaces the target with ``os.replace`` only once it is complete.
Everything is inserted in a fixed order with explicit keys, and nothing time-dependent is
stored, so the same corpus always gives the same database content.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import sqlite_utils

from ingest.pipeline import PipelineResult
from ingest.records import DocumentResult, Rule
from ingest.text import CJK_RUN, fold, index_form, words

from . import datafiles, schema
from .vocabulary import store_vocabulary

Progress = Callable[[str], None]


def _create_tables(db: sqlite_utils.Database) -> None:
    for name, table in schema.TABLES.items():
        db.table(name).create(table.columns, pk=table.pk, foreign_keys=table.foreign_keys)
    for table, cols in schema.INDEXES:
        db[table].create_index(cols)  # type: ignore[union-attr]
    for table, cols in schema.UNIQUE_INDEXES:
        db[table].create_index(cols, unique=True)  # type: ignore[union-attr]


def corpus_fingerprint(result: PipelineResult) -> str:
    """sha256 over the manifest and every source file's hash, in a fixed order."""
    digest = hashlib.sha256()
    manifest = result.corpus / "sources.toml"
    if manifest.exists():
        digest.update(manifest.read_bytes())
    for spec, raw in sorted(result.sources, key=lambda s: s[0].file):
        digest.update(f"{spec.file}\0{raw.sha256}\0".encode())
    return digest.hexdigest()


def _document_rows(documents: list[DocumentResult]) -> Iterable[dict[str, Any]]:
    for ord_, d in enumerate(documents, start=1):
        doc, spec = d.doc, d.doc.spec
        yield {
            "id": doc.doc_id,
            "game": spec.game,
            "ruleset": spec.ruleset,
            "title": doc.title,
            "variant": doc.variant,
            "translation_of": doc.translation_of,
            "lang": doc.lang,
            "languages": ",".join(d.languages),
            "provenance": doc.provenance,
            "era": spec.era,
            "version": spec.version,
            "effective": spec.effective,
            "publisher": spec.publisher,
            "source": spec.source,
            "license": spec.license,
            "notes": spec.notes,
            "file": spec.file,
            "encoding": doc.raw.encoding,
            "sha256": doc.raw.sha256,
            "size": doc.raw.size,
            "preset": doc.preset,
            "described": int(spec.described),
            "sections": len(d.sections),
            "rules": len(d.rules),
            "repairs": len(d.repairs),
            "ord": ord_,
        }


def _fts_row(rule: Rule, section_path: str, reading: str = "") -> tuple[str, str, str]:
    """(title, body, folded) of a rule; the folded column also holds its official-terms reading."""
    title = " ".join(p for p in (rule.number, section_path, rule.label, rule.title) if p)
    body = index_form(rule.text)
    return index_form(title), body, fold(index_form(title) + " " + body + " " + index_form(reading))


def _write_alignments(db: sqlite_utils.Database, result: PipelineResult) -> None:
    insert_records(db, "alignments", result.links)
    member_rows = []
    for i, link in enumerate(result.links, start=1):
        for side, ids in (("source", link.source_ids), ("target", link.target_ids)):
            member_rows += [
                {"id": len(member_rows) + 1 + k, "alignment": i, "rule": rid, "side": side}
                for k, rid in enumerate(ids)
            ]
    db["alignment_rules"].insert_all(member_rows)  # type: ignore[union-attr]
    insert_records(db, "translation_checks", result.checks)
    insert_records(db, "rule_changes", result.changes)


def insert_records(
    db: sqlite_utils.Database, name: str, records: Iterable[Any], start: int = 1
) -> int:
    """Insert ``records`` as rows of table ``name``, shaped as its schema derives them from the
    record class; rows are numbered from ``start``. Returns the next number."""
    make_row = schema.TABLES[name].row
    if make_row is None:
        raise ValueError(f"table {name} stores no record")
    rows = [make_row(record, n) for n, record in enumerate(records, start)]
    db.table(name).insert_all(rows)
    return start + len(rows)


def _numbered(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give rows an ``id`` 1, 2, 3... in the (deterministic) order they come."""
    return [{"id": i, **row} for i, row in enumerate(rows, start=1)]


def _write_knowledge(db: sqlite_utils.Database, result: PipelineResult) -> None:
    from ingest.glossary import load_glossary

    k = result.knowledge
    t = k.timing
    insert = {name: db[name].insert_all for name in schema.TABLES}  # type: ignore[union-attr]
    from ingest.extract.timing import timing_data

    insert["timing_trees"](
        {
            "id": f"{tr['game']}/{tr['ruleset']}",
            "game": tr["game"],
            "ruleset": tr["ruleset"],
            "title": tr["title"],
            "chain_order": tr.get("chain_order", ""),
        }
        for tr in timing_data()["trees"]
        if tr["game"] in {g.id for g in result.games}
    )
    insert_records(db, "timing_nodes", t.nodes)
    insert_records(db, "timing_names", t.names)
    insert_records(db, "timing_rules", t.rules)
    insert_records(db, "timing_properties", t.properties)
    insert_records(db, "cards", k.cards)
    insert_records(db, "card_aliases", k.aliases)
    insert_records(db, "card_facts", k.facts)
    insert_records(db, "rulings", k.rulings)
    insert["ruling_cards"](
        _numbered(
            {"ruling": r.id, "card": c, "ord": i}
            for r in k.rulings
            for i, c in enumerate(r.card_ids, 1)
        )
    )
    insert_records(db, "ruling_steps", k.steps)
    insert_records(db, "restrictions", k.restrictions)
    glossary = load_glossary()
    insert_records(db, "terms", glossary.terms)
    insert_records(db, "term_renderings", (r for term in glossary.terms for r in term.renderings))
    insert_records(db, "term_counts", k.term_counts)
    insert_records(db, "readings", k.readings)


def write_database(
    result: PipelineResult, db_path: Path, progress: Progress | None = None
) -> dict[str, int]:
    """Write ``result`` to ``db_path`` atomically; return row counts per table."""
    say = progress or (lambda _msg: None)
    db_path = db_path.resolve()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.tmp-{os.getpid()}")
    if tmp.exists():
        tmp.unlink()
    try:
        counts = _write(result, tmp, say)
        os.replace(tmp, db_path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return counts


def _write(result: PipelineResult, path: Path, say: Progress) -> dict[str, int]:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    db = sqlite_utils.Database(conn)
    _create_tables(db)
    say("write games, documents, sections")
    db["meta"].insert_all(  # type: ignore[union-attr]
        [
            {"key": "schema_version", "value": schema.SCHEMA_VERSION},
            {"key": "corpus_sha256", "value": corpus_fingerprint(result)},
        ]
    )
    insert_records(db, "games", result.games)
    # The pipeline yields each original right before its variants, so translation_of always
    # points to a row that already exists.
    documents = result.documents
    db["documents"].insert_all(_document_rows(documents))  # type: ignore[union-attr]
    insert_records(db, "sections", (s for d in documents for s in d.sections))
    say("write rules and the full-text index")
    conn.execute(schema.FTS_SQL)
    seq = 1
    vocab: Counter[str] = Counter()
    vocab_games: dict[str, Counter[str]] = {}
    readings = {r.rule: r.text for r in result.knowledge.readings}
    for d in documents:
        paths = {s.id: s.path for s in d.sections}
        first, seq = seq, insert_records(db, "rules", d.rules, start=seq)
        for r in d.rules:
            for term in set(words(fold(f"{r.title} {r.text}"))):
                vocab[term] += 1
                vocab_games.setdefault(term, Counter())[r.game] += 1
        conn.executemany(
            "INSERT INTO rules_fts (rowid, title, body, folded) VALUES (?, ?, ?, ?)",
            [
                (n, *_fts_row(r, paths[r.section], readings.get(r.id, "")))
                for n, r in enumerate(d.rules, start=first)
            ],
        )
    db["search_vocab"].insert_all(  # type: ignore[union-attr]
        {"term": term, "rules": n, "games": json.dumps(dict(sorted(vocab_games[term].items())))}
        for term, n in sorted(vocab.items())
        if not CJK_RUN.search(term)
    )
    say("write repairs and duplicates")
    insert_records(db, "repairs", (rep for d in documents for rep in d.repairs))
    insert_records(db, "duplicates", (dup for d in documents for dup in d.duplicates))
    say("write alignments, checks and version changes")
    _write_alignments(db, result)
    say("write timing graph, cards, rulings, restriction lists, glossary")
    _write_knowledge(db, result)
    conn.row_factory = sqlite3.Row
    store_vocabulary(conn)
    datafiles.store(conn)
    conn.row_factory = None
    db["build_warnings"].insert_all(  # type: ignore[union-attr]
        {"id": i, "message": w} for i, w in enumerate(result.warnings, start=1)
    )
    conn.execute("INSERT INTO rules_fts(rules_fts) VALUES ('optimize')")
    conn.commit()
    problems = conn.execute("PRAGMA foreign_key_check").fetchall()
    if problems:
        raise RuntimeError(f"foreign key check failed: {problems[:3]}")
    counts = {
        name: conn.execute(f"SELECT count(*) FROM [{name}]").fetchone()[0] for name in schema.TABLES
    }
    conn.execute("VACUUM")
    conn.close()
    return counts
