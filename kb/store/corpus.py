"""The corpus as read: games, documents, sections, rules with their full-text index and
search vocabulary, and the repairs and duplicates that say how the text was cleaned."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from itertools import chain
from typing import Any

import sqlite_utils

from ingest import spill
from ingest.english import common_words
from ingest.extract.terms import by_document
from ingest.languages import packaged
from ingest.pipeline import PipelineResult
from ingest.records import DocumentResult, Gloss, Rule
from ingest.text import CJK_RUN, fold, index_form, words

from . import datafiles, schema
from .rows import insert_records, insert_rows


def corpus_fingerprint(result: PipelineResult) -> str:
    """sha256 over the manifest and every source file's hash, in a fixed order."""
    digest = hashlib.sha256()
    manifest = result.corpus / "sources.toml"
    if manifest.exists():
        digest.update(manifest.read_bytes())
    for spec, raw in sorted(result.sources, key=lambda s: s[0].file):
        digest.update(f"{spec.file}\0{raw.sha256}\0".encode())
    return digest.hexdigest()


def write_languages(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """The languages the corpus was read with (data/languages.toml and sources.toml's
    [languages] tables): how each was detected, folded and stemmed."""
    insert_rows(
        db,
        "language_settings",
        (
            {
                "code": lang.code,
                "name": lang.name,
                "script": lang.script,
                "is_default": int(lang.default),
                "letters": "".join(sorted(lang.letters)),
                "fold_diacritics": int(lang.fold_diacritics),
                "stemmer": lang.stemmer,
                "source": "packaged" if lang in packaged() else "corpus",
                "ord": n,
            }
            for n, lang in enumerate(result.languages, 1)
        ),
    )


def write_meta(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """What the database was built from; the ask path's precomputed rows come last."""
    insert_rows(
        db,
        "meta",
        [
            {"key": "schema_version", "value": schema.SCHEMA_VERSION},
            {"key": "corpus_sha256", "value": corpus_fingerprint(result)},
        ],
    )


def write_documents(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """Games, documents and sections. The pipeline yields each original right before its
    variants, so translation_of always points to a row that already exists."""
    insert_records(db, "games", result.games)
    newest = result.superseded
    insert_rows(
        db,
        "documents",
        (_document_row(d, n, newest) for n, d in enumerate(result.documents, 1)),
    )
    insert_records(db, "sections", chain.from_iterable(d.sections for d in result.documents))


def _document_row(d: DocumentResult, ord_: int, newest: dict[str, str]) -> dict[str, Any]:
    doc, spec = d.doc, d.doc.spec
    return {
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
        "superseded_by": newest.get(doc.doc_id),
        "numbering": d.numbering,
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


def write_rules(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """Rules, numbered by ``seq`` across the corpus, each with its row in rules_fts."""
    # A curated gloss is searched too: an English question finds the Vietnamese ruling it
    # glosses.
    glossed: dict[str, list[Gloss]] = {}
    for g in result.knowledge.glosses:
        glossed.setdefault(g.rule.partition(":")[0], []).append(g)
    # A language whose diacritics make the word keeps them in the folded column too.
    kept = {lang.code for lang in result.languages if not lang.fold_diacritics}
    seq = 1
    doc_ids = [h.doc.doc_id for h in spill.view(result.documents).heads]
    official = by_document(doc_ids, result.knowledge.readings)
    for d, found in zip(result.documents, official, strict=True):
        readings = {r.rule: r.text for r in found}
        for g in glossed.get(d.doc.doc_id, []):
            readings[g.rule] = f"{readings.get(g.rule, '')} {g.text}".strip()
        paths = {s.id: s.path for s in d.sections}
        first, seq = seq, insert_records(db, "rules", d.rules, start=seq)
        db.conn.executemany(
            "INSERT INTO rules_fts (rowid, title, body, folded) VALUES (?, ?, ?, ?)",
            [
                (n, *_fts_row(r, paths[r.section], readings.get(r.id, ""), r.lang not in kept))
                for n, r in enumerate(d.rules, start=first)
            ],
        )


def _fts_row(
    rule: Rule, section_path: str, reading: str = "", fold_diacritics: bool = True
) -> tuple[str, str, str]:
    """(title, body, folded) of a rule; the folded column also holds its other readings (its
    official-terms reading, its curated gloss), without diacritics unless its language keeps
    them (data/languages.toml ``fold_diacritics``)."""
    title = " ".join(p for p in (rule.number, section_path, rule.label, rule.title) if p)
    body = index_form(rule.text)
    joined = index_form(title) + " " + body + " " + index_form(reading)
    return index_form(title), body, fold(joined) if fold_diacritics else joined.lower()


def write_common_words(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """The everyday English words kb ask never corrects (kb/data/query.toml [typos])."""
    data = datafiles.load("query")
    typos = data["typos"]
    # Words too short to correct are stored too: kb ask asks whether they are everyday words.
    shortest = min(typos["min_letters"], data["unknown"]["min_letters"])
    found = common_words(typos["common_word_count"], shortest)
    insert_rows(db, "common_words", ({"word": w, "count": n} for w, n in found))


def write_search_vocab(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """Every folded word with the number of rules it occurs in, per game, and the languages
    of those rules (CJK runs are searched as bigrams, never corrected as words)."""
    rules: Counter[str] = Counter()
    games: dict[str, Counter[str]] = {}
    langs: dict[str, set[str]] = {}
    for d in result.documents:
        for r in d.rules:
            for term in set(words(fold(f"{r.title} {r.text}"))):
                rules[term] += 1
                games.setdefault(term, Counter())[r.game] += 1
                langs.setdefault(term, set()).add(r.lang)
    insert_rows(
        db,
        "search_vocab",
        (
            {
                "term": term,
                "rules": n,
                "games": json.dumps(dict(sorted(games[term].items()))),
                "langs": json.dumps(sorted(langs[term])),
            }
            for term, n in sorted(rules.items())
            if not CJK_RUN.search(term)
        ),
    )


def write_cleaning(db: sqlite_utils.Database, result: PipelineResult) -> None:
    """Every repair and every dropped duplicate stretch, numbered across the corpus."""
    documents = result.documents
    insert_records(db, "repairs", chain.from_iterable(d.repairs for d in documents))
    insert_records(db, "duplicates", chain.from_iterable(d.duplicates for d in documents))


def write_warnings(db: sqlite_utils.Database, result: PipelineResult) -> None:
    insert_rows(
        db, "build_warnings", ({"id": i, "message": w} for i, w in enumerate(result.warnings, 1))
    )
