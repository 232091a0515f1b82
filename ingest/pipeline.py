"""The ingestion pipeline: corpus folder in, structured records out (the store writes them).

    read (markup parsed) -> split variants -> normalize -> dedupe lines -> segment
         -> detect language -> drop table of contents -> outline -> cross-references
                                                                   (per document)
    -> align translations (+ translation checks) -> version diff   (across documents)
    -> the rulebooks' own glossaries as terms, and where rules mention them
    -> the infractions of penalty guidelines
    -> extract: timing graph, cards, rulings, restriction lists, glossary counts and readings
    -> structure warnings

Each stage is a function of the previous stage's records, and ``validate`` checks the records
between stages. Nothing here writes to the database.

The build's memory does not grow with the corpus's size: the files are read one at a time
(twice: once for the clean vocabulary), each processed document waits in a temporary file
(ingest/spill.py) until a cross-document stage loads it, the lists found early but written
last (alignment links, translation checks, infractions, rulings, restriction lists,
official-terms readings) wait in temporary files too, and the largest outputs (typed facts,
version changes, term mentions, glossary counts) are produced while kb/store writes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import spill, validate
from .align import align_corpus
from .dedupe import dedupe_lines, drop_table_of_contents
from .errors import IngestError
from .extract import Knowledge, extract_knowledge
from .extract.glossaries import document_terms
from .extract.infractions import extract_infractions
from .glossary import Glossary, Term, load_glossary
from .langdetect import detect_language
from .languages import Language, packaged
from .layout import is_title_like
from .manifest import UNKNOWN_GAME, Manifest, describe_unlisted, load_manifest
from .markup import Parsed, parse_markup
from .normalize import normalize
from .outline import build_outline
from .read import read_file
from .records import (
    Change,
    Check,
    DocText,
    DocumentResult,
    DocumentSpec,
    Game,
    Infraction,
    Link,
    RawText,
)
from .references import TermMentions, document_references
from .segment import segment
from .structure import structure_warnings
from .variants import split_variants
from .versiondiff import diff_corpus, superseded

Progress = Callable[[str], None]
_ENGLISH_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")


@dataclass
class PipelineResult:
    corpus: Path
    games: list[Game]
    # Processed documents; run_pipeline's wait on disk until a stage reads one (ingest/spill.py).
    documents: Sequence[DocumentResult] = field(default_factory=list)
    sources: list[tuple[DocumentSpec, RawText]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # The alignment's links; align_corpus's wait on disk (ingest/spill.py Stored).
    links: Sequence[Link] = field(default_factory=list)
    # Like the infractions, wait on disk for the writer (run_pipeline's: spill.Stored).
    checks: Sequence[Check] = field(default_factory=list)
    # Produced while the build writes them (ingest/versiondiff.py): read once.
    changes: Iterable[Change] = field(default_factory=list)
    knowledge: Knowledge = field(default_factory=Knowledge)
    terms: list[Term] = field(default_factory=list)  # the rulebooks' own glossaries
    languages: tuple[Language, ...] = field(default_factory=packaged)
    superseded: dict[str, str] = field(default_factory=dict)  # old version -> newest
    infractions: Sequence[Infraction] = field(default_factory=list)  # of penalty guidelines
    # Where a document's rules mention the rulebooks' own glossary terms.
    term_mentions: TermMentions = field(default_factory=lambda: TermMentions([]))


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
    known: tuple[Language, ...] | None = None,
) -> tuple[DocumentResult, list[str]]:
    """Run the stages after ``split variants`` on one document."""
    lines, repairs = normalize(doc, vocabulary, bigrams)
    validate.check_normalized(doc, lines)
    lines, duplicates = dedupe_lines(doc.doc_id, lines)
    validate.check_lines(doc, lines, "dedupe")
    blocks, warnings, numbering = segment(doc, lines)
    validate.check_blocks(doc, blocks, "segment")
    for block in blocks:
        detected = detect_language(
            f"{block.title} {block.text}" if block.title != block.text else block.text, known
        )
        block.lang = detected.lang if detected.lang != "und" else doc.lang
        block.langs = detected.langs if detected.lang != "und" else doc.lang
    blocks, toc = drop_table_of_contents(doc.doc_id, blocks)
    validate.check_blocks(doc, blocks, "dedupe")
    sections, rules, links = build_outline(doc, blocks, game)
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
        numbering=numbering,
    )
    result.references = document_references(result, links)
    return result, warnings


def default_title(spec: DocumentSpec, parsed: Parsed | None, raw: RawText) -> str:
    """The manifest's title, else the document's own: a markup file's title, a text file's
    first line when it reads as a title, else the file name."""
    if spec.title:
        return spec.title
    if parsed is not None:
        return parsed.title or spec.file
    first = next((line.strip() for line in raw.text.split("\n") if line.strip()), "")
    return first[:120] if first and is_title_like(first) else spec.file


def _plain_text(parsed: Parsed | None, raw: RawText) -> str:
    return "\n".join(line.text for line in parsed.lines) if parsed else raw.text


def _describe(
    spec: DocumentSpec | None,
    path: Path,
    raw: RawText,
    parsed: Parsed | None,
    manifest: Manifest,
    result: PipelineResult,
    taken: set[str],
) -> DocumentSpec:
    """The manifest's entry with its title settled, or, for a file the manifest does not
    list, a description detected from its text (and a warning saying so)."""
    if spec is not None:
        return replace(spec, title=default_title(spec, parsed, raw))
    spec = describe_unlisted(
        path.name, _plain_text(parsed, raw), manifest.games, taken, manifest.languages
    )
    if parsed is not None:  # its title is the markup's, not its first line
        spec = replace(spec, title=default_title(replace(spec, title=""), parsed, raw))
    taken.add(spec.id)
    result.warnings.append(
        f"{path.name}: not described in sources.toml; detected id={spec.id} game={spec.game} "
        f"lang={spec.lang} variants={','.join(v.variant for v in spec.variants) or 'none'}; "
        "provenance and era set to unknown"
    )
    if spec.game == UNKNOWN_GAME.id and UNKNOWN_GAME not in result.games:
        result.games.append(UNKNOWN_GAME)
    return spec


def _documents(spec: DocumentSpec, raw: RawText, parsed: Parsed | None) -> list[DocText]:
    docs = split_variants(raw, spec, parsed.lines if parsed is not None else None)
    for doc in docs:
        validate.check_lines(doc, doc.lines, "split variants")
    return docs


def run_pipeline(corpus: Path, progress: Progress | None = None) -> PipelineResult:
    """Read and process every document of ``corpus``; raise IngestError on bad input.

    The files are read twice, one at a time: first for their descriptions and the vocabulary
    of the clean English documents (which repairs every document's glued words), then to
    process them, so that no more than one file's text is held at once; a processed document
    keeps its sections and rules, not its lines."""
    say = progress or (lambda _msg: None)
    manifest = load_manifest(corpus)
    result = PipelineResult(
        corpus=corpus,
        games=list(manifest.games.values()),
        warnings=list(manifest.warnings),
        languages=manifest.languages,
    )
    taken = {spec.id for spec in manifest.documents}
    listed: list[tuple[DocumentSpec | None, Path]] = [
        (spec, corpus / spec.file) for spec in manifest.documents
    ]
    words: set[str] = set()
    pairs: set[str] = set()
    for entry, path in listed + [(None, path) for path in manifest.unlisted]:
        say(f"read {path.name}" + ("" if entry else " (not in the manifest)"))
        raw = read_file(path)
        parsed = parse_markup(raw)
        spec = _describe(entry, path, raw, parsed, manifest, result, taken)
        result.sources.append((spec, replace(raw, text="")))
        found_words, found_pairs = clean_vocabulary(_documents(spec, raw, parsed))
        words |= found_words
        pairs |= found_pairs
    vocabulary, bigrams = frozenset(words), frozenset(pairs)
    documents = spill.Documents()
    result.documents = documents
    for spec, seen in result.sources:
        raw = read_file(corpus / spec.file)
        if raw.sha256 != seen.sha256:
            raise IngestError(spec.file, "changed while the build read it", stage="read")
        for doc in _documents(spec, raw, parse_markup(raw)):
            say(f"process {doc.doc_id}")
            processed, warnings = process_document(
                doc, doc.spec.game, vocabulary, bigrams, manifest.languages
            )
            # Later stages read sections and rules: the lines and blocks are done with.
            processed.blocks = []
            processed.doc = replace(doc, lines=[], raw=replace(doc.raw, text=""))
            documents.append(processed)
            result.warnings.extend(warnings)
    say("align translations")
    result.links, checks = align_corpus(result.documents, load_glossary())
    # Checks and infractions are written last but found early: held in memory, they stacked
    # up under every later stage's own peak at scale.
    result.checks = spill.stored(checks)
    del checks
    say("diff rule versions")
    result.changes = diff_corpus(result.documents)
    result.superseded = superseded(result.documents)
    say("read the rulebooks' own glossaries")
    extra = load_glossary().extra
    result.terms = document_terms(result.documents, result.superseded, result.links, extra)
    # Renderings of a game whose rulebooks here have a glossary, for a term none defines (ids
    # are "<game>:<slug>"): a misspelt id, or a glossary entry the rulebook renamed.
    games = {t.game for t in result.terms}
    for term in sorted({r.term for r in extra} - {t.id for t in result.terms}):
        if term.partition(":")[0] in games:
            result.warnings.append(
                f"glossary.toml: renderings of {term}, which no rulebook defines"
            )
    result.term_mentions = TermMentions(result.terms)
    say("read the infractions of penalty guidelines")
    found = extract_infractions(result.documents, result.links)
    result.infractions = spill.stored(found, chunk=spill.LARGE_CHUNK)
    del found
    say("extract timing graph, cards, rulings, restriction lists, glossary")
    curated = load_glossary()
    result.knowledge = extract_knowledge(
        result.documents,
        curated,
        {g.id for g in result.games},
        counted=Glossary(curated.terms + tuple(result.terms)),
    )
    result.warnings.extend(result.knowledge.warnings)
    k = result.knowledge
    glossary_terms = [*curated.terms, *result.terms]
    result.warnings += structure_warnings(
        result.documents, result.games, k.cards, k.aliases, glossary_terms
    )
    return result
