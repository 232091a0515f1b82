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
from ingest.records import DocumentResult
from ingest.text import CJK_RUN, fold, index_form, words

from . import datafiles, schema
from .vocabulary import store_vocabulary

Progress = Callable[[str], None]


def _create_tables(db: sqlite_utils.Database) -> None:
    for name, (columns, pk, fks) in schema.TABLES.items():
        db[name].create(columns, pk=pk, foreign_keys=fks)  # type: ignore[union-attr]
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


def _fts_row(rule: dict[str, Any], section_path: str, reading: str = "") -> tuple[str, str, str]:
    """(title, body, folded) of a rule; the folded column also holds its official-terms reading."""
    title = " ".join(p for p in (rule["number"], section_path, rule["label"], rule["title"]) if p)
    body = index_form(rule["text"])
    return index_form(title), body, fold(index_form(title) + " " + body + " " + index_form(reading))


def _write_alignments(db: sqlite_utils.Database, result: PipelineResult) -> None:
    link_rows, member_rows = [], []
    for i, link in enumerate(result.links, start=1):
        link_rows.append(
            {
                "id": i,
                "source_document": link.source_document,
                "target_document": link.target_document,
                "source_ids": " ".join(link.source_ids),
                "target_ids": " ".join(link.target_ids),
                "source_first": link.source_ids[0] if link.source_ids else None,
                "target_first": link.target_ids[0] if link.target_ids else None,
                "score": round(link.score, 4),
                "method": link.method,
                "ord": i,
            }
        )
        for side, ids in (("source", link.source_ids), ("target", link.target_ids)):
            member_rows += [
                {"id": len(member_rows) + 1 + k, "alignment": i, "rule": rid, "side": side}
                for k, rid in enumerate(ids)
            ]
    db["alignments"].insert_all(link_rows)  # type: ignore[union-attr]
    db["alignment_rules"].insert_all(member_rows)  # type: ignore[union-attr]
    db["translation_checks"].insert_all(  # type: ignore[union-attr]
        {
            "id": i,
            "target_document": c.target_document,
            "alignment": None if c.link is None else c.link + 1,
            "rule": c.rule,
            "check_name": c.check,
            "severity": c.severity,
            "detail": c.detail,
            "term": c.term,
        }
        for i, c in enumerate(result.checks, start=1)
    )
    db["rule_changes"].insert_all(  # type: ignore[union-attr]
        {
            "id": i,
            "old_document": c.old_document,
            "new_document": c.new_document,
            "old_rule": c.old_id,
            "new_rule": c.new_id,
            "kind": c.kind,
            "similarity": round(c.similarity, 4),
            "detail": c.detail,
        }
        for i, c in enumerate(result.changes, start=1)
    )


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
    insert["timing_nodes"](
        {
            "id": n.id,
            "tree": n.tree,
            "game": n.game,
            "ruleset": n.ruleset,
            "parent": n.parent,
            "ord": n.ord,
            "depth": n.depth,
            "kind": n.kind,
            "label": n.label,
            "en": n.en,
        }
        for n in t.nodes
    )
    insert["timing_names"](
        _numbered(
            {
                "node": n.node,
                "lang": n.lang,
                "text": n.text,
                "document": n.document,
                "section": n.section,
            }
            for n in t.names
        )
    )
    insert["timing_rules"](
        _numbered({"node": r.node, "rule": r.rule, "relation": r.relation} for r in t.rules)
    )
    insert["timing_properties"](
        _numbered(
            {"node": p.node, "key": p.key, "value": p.value, "display": p.display, "rule": p.rule}
            for p in t.properties
        )
    )
    insert["cards"](
        {
            "id": c.id,
            "game": c.game,
            "name": c.name,
            "kind": c.kind,
            "source": c.source,
            "notes": c.notes,
        }
        for c in k.cards
    )
    insert["card_aliases"](
        _numbered(
            {"card": a.card, "alias": a.alias, "lang": a.lang, "kind": a.kind} for a in k.aliases
        )
    )
    insert["card_facts"](
        _numbered(
            {"card": f.card, "field": f.field, "value": f.value, "rule": f.rule} for f in k.facts
        )
    )
    insert["rulings"](
        {
            "id": r.id,
            "timing": r.timing,
            "kind": r.kind,
            "title": r.title,
            "question": r.question,
            "answer": r.answer,
        }
        for r in k.rulings
    )
    insert["ruling_cards"](
        _numbered(
            {"ruling": r.id, "card": c, "ord": i}
            for r in k.rulings
            for i, c in enumerate(r.card_ids, 1)
        )
    )
    insert["ruling_steps"](
        _numbered(
            {
                "ruling": s.ruling,
                "ord": s.ord,
                "text": s.text,
                "event": s.event,
                "actor": s.actor,
                "cards": " ".join(s.cards),
            }
            for s in k.steps
        )
    )
    insert["restrictions"](
        _numbered(
            {
                "list": r.list,
                "status": r.status,
                "ord": r.ord,
                "name": r.name,
                "card": r.card,
                "rule": r.rule,
            }
            for r in k.restrictions
        )
    )
    glossary = load_glossary()
    insert["terms"](
        {
            "id": term.id,
            "game": term.game,
            "en": term.en,
            "forms": json.dumps(list(term.en_forms), ensure_ascii=False),
        }
        for term in glossary.terms
    )
    insert["term_renderings"](
        _numbered(
            {
                "term": r.term,
                "lang": r.lang,
                "source": r.source,
                "text": r.text,
                "preferred": int(r.preferred),
                "note": r.note,
            }
            for term in glossary.terms
            for r in term.renderings
        )
    )
    insert["term_counts"](
        _numbered(
            {
                "term": c.term,
                "document": c.document,
                "lang": c.lang,
                "source": c.source,
                "text": c.text,
                "preferred": int(c.preferred),
                "count": c.count,
            }
            for c in k.term_counts
        )
    )
    insert["readings"](
        {
            "rule": r.rule,
            "text": r.text,
            "changes": json.dumps([list(c) for c in r.changes], ensure_ascii=False),
        }
        for r in k.readings
    )


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
    db["games"].insert_all(  # type: ignore[union-attr]
        {
            "id": g.id,
            "name": g.name,
            "publisher": g.publisher,
            "aliases": json.dumps(list(g.aliases), ensure_ascii=False),
            "keywords": json.dumps(list(g.keywords), ensure_ascii=False),
        }
        for g in result.games
    )
    # The pipeline yields each original right before its variants, so translation_of always
    # points to a row that already exists.
    documents = result.documents
    db["documents"].insert_all(_document_rows(documents))  # type: ignore[union-attr]
    for d in documents:
        db["sections"].insert_all(  # type: ignore[union-attr]
            {
                "id": s.id,
                "document": s.document,
                "parent": s.parent,
                "ord": s.ord,
                "level": s.level,
                "number": s.number,
                "title": s.title,
                "slug": s.slug,
                "path": s.path,
                "lang": s.lang,
                "ruleset": s.ruleset,
                "era": s.era,
                "line_start": s.line_start,
                "line_end": s.line_end,
            }
            for s in d.sections
        )
    say("write rules and the full-text index")
    conn.execute(schema.FTS_SQL)
    seq = 0
    vocab: Counter[str] = Counter()
    vocab_games: dict[str, Counter[str]] = {}
    readings = {r.rule: r.text for r in result.knowledge.readings}
    for d in documents:
        paths = {s.id: s.path for s in d.sections}
        rows = []
        for r in d.rules:
            seq += 1
            rows.append(
                {
                    "id": r.id,
                    "seq": seq,
                    "document": r.document,
                    "section": r.section,
                    "parent": r.parent,
                    "game": r.game,
                    "lang": r.lang,
                    "langs": r.langs,
                    "kind": r.kind,
                    "number": r.number,
                    "label": r.label,
                    "title": r.title,
                    "ord": r.ord,
                    "depth": r.depth,
                    "text": r.text,
                    "ruleset": r.ruleset,
                    "era": r.era,
                    "line_start": r.line_start,
                    "line_end": r.line_end,
                }
            )
        db["rules"].insert_all(rows)  # type: ignore[union-attr]
        for row in rows:
            for term in set(words(fold(f"{row['title']} {row['text']}"))):
                vocab[term] += 1
                vocab_games.setdefault(term, Counter())[row["game"]] += 1
        conn.executemany(
            "INSERT INTO rules_fts (rowid, title, body, folded) VALUES (?, ?, ?, ?)",
            [
                (row["seq"], *_fts_row(row, paths[row["section"]], readings.get(row["id"], "")))
                for row in rows
            ],
        )
    db["search_vocab"].insert_all(  # type: ignore[union-attr]
        {"term": term, "rules": n, "games": json.dumps(dict(sorted(vocab_games[term].items())))}
        for term, n in sorted(vocab.items())
        if not CJK_RUN.search(term)
    )
    say("write repairs and duplicates")
    repair_id = 0
    dup_id = 0
    for d in documents:
        repair_rows = []
        for rep in d.repairs:
            repair_id += 1
            repair_rows.append(
                {
                    "id": repair_id,
                    "document": rep.document,
                    "rule_name": rep.rule,
                    "line": rep.line,
                    "before": rep.before,
                    "after": rep.after,
                }
            )
        db["repairs"].insert_all(repair_rows)  # type: ignore[union-attr]
        dup_rows = []
        for dup in d.duplicates:
            dup_id += 1
            dup_rows.append(
                {
                    "id": dup_id,
                    "document": dup.document,
                    "line_start": dup.line_start,
                    "line_end": dup.line_end,
                    "kept_start": dup.kept_start,
                    "kept_end": dup.kept_end,
                    "reason": dup.reason,
                    "chars": dup.chars,
                }
            )
        db["duplicates"].insert_all(dup_rows)  # type: ignore[union-attr]
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
