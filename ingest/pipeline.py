"""The ingestion pipeline: corpus folder in, structured records out (the store writes them).

    read -> split variants -> normalize -> dedupe lines -> segment -> detect language
         -> drop table of contents -> outline                      (per document)
    -> align translations (+ translation checks) -> version diff   (across documents)
    -> extract: timing graph, cards, rulings, restriction lists, glossary counts and readings

Each stage is a function of the previous stage's records, and ``validate`` checks the records
between stages. Nothing here writes to disk.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import validate
from .align import align_corpus
from .dedupe import dedupe_lines, drop_table_of_contents
from .extract import Knowledge, extract_knowledge
from .glossary import load_glossary
from .langdetect import detect_language
from .manifest import UNKNOWN_GAME, describe_unlisted, load_manifest
from .normalize import normalize
from .outline import build_outline
from .read import read_file
from .records import Change, Check, DocText, DocumentResult, DocumentSpec, Game, Link, RawText
from .segment import segment
from .variants import split_variants
from .versiondiff import diff_corpus

Progress = Callable[[str], None]
_ENGLISH_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")


@dataclass
class PipelineResult:
    corpus: Path
    games: list[Game]
    documents: list[DocumentResult] = field(default_factory=list)
    sources: list[tuple[DocumentSpec, RawText]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    knowledge: Knowledge = field(default_factory=Knowledge)


def clean_vocabulary(docs: list[DocText]) -> tuple[frozenset[str], frozenset[str]]:
    """Words and word pairs ("a b") of the clean English documents: evidence that a token is a
    word, not a glue, and of where a glued pair splits."""
    words: set[str] = set()
    pairs: set[str] = set()
    for doc in docs:
        if doc.preset == "clean" and doc.lang == "en" and doc.translation_of is None:
            for line in doc.lines:
                found = [w.lower().replace("’", "'") for w in _ENGLISH_WORD.findall(line.text)]
                words.update(found)
                pairs.update(f"{a} {b}" for a, b in zip(found, found[1:], strict=False))
    return frozenset(words), frozenset(pairs)


def process_document(
    doc: DocText,
    game: str,
    vocabulary: frozenset[str],
    bigrams: frozenset[str] = frozenset(),
) -> tuple[DocumentResult, list[str]]:
    """Run the stages after ``split variants`` on one document."""
    lines, repairs = normalize(doc, vocabulary, bigrams)
    validate.check_normalized(doc, lines)
    lines, duplicates = dedupe_lines(doc.doc_id, lines)
    validate.check_lines(doc, lines, "dedupe")
    blocks, warnings = segment(doc, lines)
    validate.check_blocks(doc, blocks, "segment")
    for block in blocks:
        detected = detect_language(
            f"{block.title} {block.text}" if block.title != block.text else block.text
        )
        block.lang = detected.lang if detected.lang != "und" else doc.lang
        block.langs = detected.langs if detected.lang != "und" else doc.lang
    blocks, toc = drop_table_of_contents(doc.doc_id, blocks)
    validate.check_blocks(doc, blocks, "dedupe")
    sections, rules = build_outline(doc, blocks, game)
    validate.check_outline(doc, sections, rules)
    languages = tuple(sorted({lang for r in rules for lang in r.langs.split("+") if lang != "und"}))
    result = DocumentResult(
        doc=doc,
        blocks=blocks,
        sections=sections,
        rules=rules,
        repairs=repairs,
        duplicates=duplicates + toc,
        languages=languages,
    )
    return result, warnings


def run_pipeline(corpus: Path, progress: Progress | None = None) -> PipelineResult:
    """Read and process every document of ``corpus``; raise IngestError on bad input."""
    say = progress or (lambda _msg: None)
    manifest = load_manifest(corpus)
    result = PipelineResult(
        corpus=corpus, games=list(manifest.games.values()), warnings=list(manifest.warnings)
    )
    for spec in manifest.documents:
        say(f"read {spec.file}")
        result.sources.append((spec, read_file(corpus / spec.file)))
    taken = {spec.id for spec in manifest.documents}
    for path in manifest.unlisted:
        say(f"read {path.name} (not in the manifest)")
        raw = read_file(path)
        spec = describe_unlisted(path.name, raw.text, manifest.games, taken)
        taken.add(spec.id)
        result.sources.append((spec, raw))
        result.warnings.append(
            f"{path.name}: not described in sources.toml; detected id={spec.id} game={spec.game} "
            f"lang={spec.lang} variants={','.join(v.variant for v in spec.variants) or 'none'}; "
            "provenance and era set to unknown"
        )
        if spec.game == UNKNOWN_GAME.id and UNKNOWN_GAME not in result.games:
            result.games.append(UNKNOWN_GAME)
    doc_texts: list[DocText] = []
    for spec, raw in result.sources:
        docs = split_variants(raw, spec)
        for doc in docs:
            validate.check_lines(doc, doc.lines, "split variants")
        doc_texts.extend(docs)
    vocabulary, bigrams = clean_vocabulary(doc_texts)
    for doc in doc_texts:
        say(f"process {doc.doc_id}")
        processed, warnings = process_document(doc, doc.spec.game, vocabulary, bigrams)
        result.documents.append(processed)
        result.warnings.extend(warnings)
    say("align translations")
    result.links, result.checks = align_corpus(result.documents, load_glossary())
    say("diff rule versions")
    result.changes = diff_corpus(result.documents)
    say("extract timing graph, cards, rulings, restriction lists, glossary")
    result.knowledge = extract_knowledge(
        result.documents, load_glossary(), {g.id for g in result.games}
    )
    result.warnings.extend(result.knowledge.warnings)
    return result
