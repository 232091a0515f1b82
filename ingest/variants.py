"""Stage 2, split variants: translation blocks inside a file become documents of their own.

A block opened by a marker line such as ``Kết quả (Việt) 1:`` is a translation of the text
before the first marker; it becomes the document ``<id>-<variant>`` whose ``translation_of``
is the original. Line numbers stay those of the file. A file that is itself a translation (an
official one, in a file of its own) says so in the manifest (``translation_of``).
"""

from __future__ import annotations

from .errors import IngestError
from .records import DocText, DocumentSpec, Line, RawText


def split_variants(
    raw: RawText, spec: DocumentSpec, lines: list[Line] | None = None
) -> list[DocText]:
    """The file's original and its translation blocks; ``lines`` are the file's lines when a
    markup reader made them (otherwise its text's lines)."""
    if lines is None:
        lines = [Line(no=i, text=t) for i, t in enumerate(raw.text.split("\n"), start=1)]
    markers: list[tuple[int, int]] = []  # (index in lines, index in spec.variants)
    for vi, variant in enumerate(spec.variants):
        hits = [i for i, line in enumerate(lines) if line.text.strip() == variant.marker.strip()]
        if not hits:
            raise IngestError(
                spec.file,
                f"translation marker {variant.marker!r} not found",
                stage="split variants",
            )
        if len(hits) > 1:
            raise IngestError(
                spec.file,
                f"translation marker {variant.marker!r} occurs {len(hits)} times",
                line=lines[hits[1]].no,
                stage="split variants",
            )
        markers.append((hits[0], vi))
    markers.sort()
    end_of_original = markers[0][0] if markers else len(lines)
    docs = [
        DocText(
            spec=spec,
            doc_id=spec.id,
            variant="original",
            lang=spec.lang,
            provenance=spec.provenance,
            preset=spec.preset,
            title=spec.title,
            translation_of=spec.translation_of or None,
            lines=lines[:end_of_original],
            raw=raw,
        )
    ]
    for n, (start, vi) in enumerate(markers):
        end = markers[n + 1][0] if n + 1 < len(markers) else len(lines)
        variant = spec.variants[vi]
        docs.append(
            DocText(
                spec=spec,
                doc_id=f"{spec.id}-{variant.variant}",
                variant=variant.variant,
                lang=variant.lang,
                provenance=variant.provenance,
                preset=variant.preset,
                title=variant.title or f"{spec.title} ({variant.variant})",
                translation_of=spec.id,
                lines=lines[start + 1 : end],
                raw=raw,
            )
        )
    for doc in docs:
        if not any(line.text.strip() for line in doc.lines):
            raise IngestError(
                spec.file, f"document {doc.doc_id} has no text", stage="split variants"
            )
    return docs
