"""The corpus manifest (``sources.toml``): what each file is, validated before any work.

Files the manifest does not list are still ingested with detected metadata and a warning.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import IngestError
from .languages import Language, LanguageError, packaged, with_additions
from .languages import parse as parse_language
from .layout import schemes
from .records import DocumentSpec, Game, HeadingHint, VariantSpec

MANIFEST = "sources.toml"
PROVENANCES = ("official", "community", "machine", "unknown")
PRESETS = ("clean", "machine_translation", "pdf_extraction", "pdf_layout")
# Files in a corpus folder that are documentation, not documents.
_NOT_DOCUMENTS = re.compile(r"^(README|LICENSE|NOTICE|CHANGELOG)(\..*)?$", re.IGNORECASE)
# Plain text, and the markup kinds ingest/markup reads (Markdown, reStructuredText, HTML).
_DOCUMENT_SUFFIXES = {
    ".txt", ".text", "", ".md", ".markdown", ".rst", ".rest", ".html", ".htm", ".xhtml"
}  # fmt: skip
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
# A manifest holds about a kilobyte per document (bench/make_big_corpus.py's 1,400 documents:
# 1.35 MB); one over this is no manifest, refused before the TOML parser reads it.
MAX_MANIFEST_BYTES = 16_000_000
# C0 controls, DEL and C1 controls: never part of a file name in a manifest (a NUL made every
# path operation raise ValueError).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
UNKNOWN_GAME = Game(id="unknown", name="Unknown game")


@dataclass
class Manifest:
    corpus: Path
    games: dict[str, Game]
    documents: list[DocumentSpec]
    unlisted: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # The languages the corpus reads: the packaged ones with its [languages.<code>] tables.
    languages: tuple[Language, ...] = field(default_factory=packaged)


@cache
def detection_rules() -> dict[str, Any]:
    """Curated detection data (variant markers, language names) shipped with the package."""
    text = resources.files("ingest").joinpath("data/detect.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _require(entry: dict[str, Any], key: str, where: str, kind: type = str) -> Any:
    if key not in entry:
        raise IngestError(MANIFEST, f"{where}: missing required field '{key}'")
    value = entry[key]
    if not isinstance(value, kind):
        raise IngestError(MANIFEST, f"{where}: field '{key}' must be a {kind.__name__}")
    return value


def _optional(entry: dict[str, Any], key: str, where: str, default: Any, kind: type = str) -> Any:
    value = entry.get(key, default)
    if not isinstance(value, kind):
        raise IngestError(MANIFEST, f"{where}: field '{key}' must be a {kind.__name__}")
    return value


def _regex(pattern: str, where: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise IngestError(
            MANIFEST, f"{where}: invalid regular expression {pattern!r}: {exc}"
        ) from None
    return pattern


def _choice(value: str, choices: tuple[str, ...], key: str, where: str) -> str:
    if value not in choices:
        raise IngestError(
            MANIFEST, f"{where}: {key} must be one of {', '.join(choices)}, not {value!r}"
        )
    return value


# The schema of each kind of table: its keys and the type of each value. ``[str]`` is a list
# of strings, ``[dict]`` a list of tables (checked by their own schema when parsed).
_TYPE_NAMES = {str: "a string", int: "a whole number", dict: "a table", list: "a list"}
_GAME_KEYS: dict[str, Any] = {"name": str, "publisher": str, "aliases": [str], "keywords": [str]}
_DOC_KEYS: dict[str, Any] = {
    "file": str,
    "id": str,
    "game": str,
    "ruleset": str,
    "title": str,
    "lang": str,
    "provenance": str,
    "era": str,
    "version": str,
    "effective": str,
    "publisher": str,
    "source": str,
    "license": str,
    "notes": str,
    "preset": str,
    "variants": [dict],
    "headings": [dict],
    "drop_lines": [str],
    "fillers": [str],
    "glyphs": dict,
    "numbering": str,
    "translation_of": str,
}
_VARIANT_KEYS: dict[str, Any] = {
    "marker": str, "variant": str, "lang": str, "provenance": str, "preset": str, "title": str,
}  # fmt: skip
_HEADING_KEYS: dict[str, Any] = {
    "pattern": str, "level": int, "ruleset": str, "era": str, "insert_title": str,
}  # fmt: skip


def _type_name(value: Any) -> str:
    names = {bool: "true/false", int: "a whole number", float: "a number", str: "a string"}
    names.update({list: "a list", dict: "a table"})
    return names.get(type(value), f"a {type(value).__name__} value")


def _is(value: Any, kind: type) -> bool:
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _check_keys(entry: dict[str, Any], schema: dict[str, Any], where: str) -> None:
    """Unknown keys, and values (and list items) of the wrong type, name the entry and key."""
    unknown = sorted(set(entry) - set(schema))
    if unknown:
        raise IngestError(MANIFEST, f"{where}: unknown field(s) {', '.join(unknown)}")
    for key, value in entry.items():
        kind = schema[key]
        item_kind = kind[0] if isinstance(kind, list) else None
        expected = f"a list of {_TYPE_NAMES[item_kind]}s" if item_kind else _TYPE_NAMES[kind]
        if not _is(value, list if item_kind else kind):
            raise IngestError(
                MANIFEST, f"{where}: field '{key}' must be {expected}, not {_type_name(value)}"
            )
        for i, item in enumerate(value if item_kind else ()):
            assert item_kind is not None
            if not _is(item, item_kind):
                raise IngestError(
                    MANIFEST,
                    f"{where}: field '{key}' item {i + 1} ({item!r}) must be "
                    f"{_TYPE_NAMES[item_kind]}, not {_type_name(item)}",
                )


def _inside(corpus: Path, file: str, where: str) -> None:
    """A listed file must be a file of the corpus folder: an absolute path, ``..`` or a link
    out of the folder would ingest (and publish) any file the build can read."""
    path = Path(file)
    root = corpus.resolve()
    if (
        path.is_absolute()
        or ".." in path.parts
        or not (corpus / path).resolve().is_relative_to(root)
    ):
        raise IngestError(MANIFEST, f"{where}: file {file!r} is outside the corpus folder {corpus}")


def _parse_game(key: str, entry: Any) -> Game:
    where = f"[games.{key}]"
    if not isinstance(entry, dict):
        raise IngestError(MANIFEST, f"{where} must be a table")
    _check_keys(entry, _GAME_KEYS, where)
    return Game(
        id=key,
        name=_require(entry, "name", where),
        publisher=_optional(entry, "publisher", where, ""),
        aliases=tuple(_optional(entry, "aliases", where, [], list)),
        keywords=tuple(_optional(entry, "keywords", where, [], list)),
    )


def _parse_variant(entry: Any, where: str) -> VariantSpec:
    if not isinstance(entry, dict):
        raise IngestError(MANIFEST, f"{where} must be a table")
    _check_keys(entry, _VARIANT_KEYS, where)
    variant = _require(entry, "variant", where)
    if not _ID.match(variant):
        raise IngestError(
            MANIFEST, f"{where}: variant {variant!r} must be lower-case letters, digits and -"
        )
    return VariantSpec(
        marker=_require(entry, "marker", where),
        variant=variant,
        lang=_require(entry, "lang", where),
        provenance=_choice(
            _optional(entry, "provenance", where, "machine"), PROVENANCES, "provenance", where
        ),
        preset=_choice(
            _optional(entry, "preset", where, "machine_translation"), PRESETS, "preset", where
        ),
        title=_optional(entry, "title", where, ""),
    )


def _parse_heading(entry: Any, where: str) -> HeadingHint:
    if not isinstance(entry, dict):
        raise IngestError(MANIFEST, f"{where} must be a table")
    _check_keys(entry, _HEADING_KEYS, where)
    level = _require(entry, "level", where, int)
    if not 1 <= level <= 6:
        raise IngestError(MANIFEST, f"{where}: level must be between 1 and 6")
    return HeadingHint(
        pattern=_regex(_require(entry, "pattern", where), where),
        level=level,
        ruleset=entry.get("ruleset"),
        era=entry.get("era"),
        insert_title=_optional(entry, "insert_title", where, ""),
    )


def _glyphs(table: dict[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    """The manifest's ``glyphs``: single characters, each standing for a notation."""
    for glyph, notation in table.items():
        if len(glyph) != 1 or not isinstance(notation, str) or not notation:
            raise IngestError(
                MANIFEST,
                f"{where}: glyphs maps single characters to text, not {glyph!r} = {notation!r}",
            )
    return tuple(sorted(table.items()))


def _parse_document(entry: Any, index: int, games: dict[str, Game], corpus: Path) -> DocumentSpec:
    where = f"[[documents]] #{index + 1}"
    if not isinstance(entry, dict):
        raise IngestError(MANIFEST, f"{where} must be a table")
    file = _require(entry, "file", where)
    where = f"[[documents]] {file!r}"
    if _CONTROL.search(file):
        raise IngestError(MANIFEST, f"{where}: the file name holds a control character")
    _check_keys(entry, _DOC_KEYS, where)
    _inside(corpus, file, where)
    doc_id = _require(entry, "id", where)
    if not _ID.match(doc_id):
        raise IngestError(
            MANIFEST, f"{where}: id {doc_id!r} must be lower-case letters, digits, '.', '_' and '-'"
        )
    game = _require(entry, "game", where)
    if game not in games:
        raise IngestError(MANIFEST, f"{where}: game {game!r} is not defined under [games]")
    variants = tuple(
        _parse_variant(v, f"{where} variant #{i + 1}")
        for i, v in enumerate(_optional(entry, "variants", where, [], list))
    )
    headings = tuple(
        _parse_heading(h, f"{where} heading #{i + 1}")
        for i, h in enumerate(_optional(entry, "headings", where, [], list))
    )
    drop_lines = tuple(_regex(p, where) for p in _optional(entry, "drop_lines", where, [], list))
    numbering = _optional(entry, "numbering", where, "")
    if numbering and numbering not in schemes():
        raise IngestError(
            MANIFEST,
            f"{where}: numbering must be one of {', '.join(schemes())} or absent, "
            f"not {numbering!r}",
        )
    return DocumentSpec(
        file=file,
        id=doc_id,
        game=game,
        ruleset=_optional(entry, "ruleset", where, ""),
        # Optional: without it, the document's own title (its first heading) is used.
        title=_optional(entry, "title", where, ""),
        lang=_require(entry, "lang", where),
        provenance=_choice(_require(entry, "provenance", where), PROVENANCES, "provenance", where),
        era=_optional(entry, "era", where, "unknown"),
        version=_optional(entry, "version", where, ""),
        effective=_optional(entry, "effective", where, ""),
        publisher=_optional(entry, "publisher", where, ""),
        source=_optional(entry, "source", where, ""),
        license=_optional(entry, "license", where, ""),
        notes=_optional(entry, "notes", where, ""),
        preset=_choice(_optional(entry, "preset", where, "clean"), PRESETS, "preset", where),
        variants=variants,
        headings=headings,
        drop_lines=drop_lines,
        fillers=tuple(_optional(entry, "fillers", where, [], list)),
        glyphs=_glyphs(_optional(entry, "glyphs", where, {}, dict), where),
        numbering=numbering,
        translation_of=_optional(entry, "translation_of", where, ""),
    )


def corpus_files(corpus: Path) -> list[Path]:
    """Candidate document files of a corpus folder, in name order."""
    files = []
    for path in sorted(corpus.iterdir(), key=lambda p: p.name):
        if path.name.startswith(".") or path.name == MANIFEST or _NOT_DOCUMENTS.match(path.name):
            continue
        if path.is_file() and path.suffix.lower() in _DOCUMENT_SUFFIXES:
            files.append(path)
    return files


def _read_manifest(path: Path) -> bytes:
    """The manifest's bytes; IngestError unless it is a regular file of a sane size.

    Opened without blocking and checked before reading: a FIFO (or a device) named
    sources.toml would otherwise hang the build or never end."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise IngestError(MANIFEST, f"cannot read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise IngestError(MANIFEST, "not a regular file (a FIFO, device or folder)")
        if info.st_size > MAX_MANIFEST_BYTES:
            raise IngestError(
                MANIFEST, f"is {info.st_size:,} bytes; the limit is {MAX_MANIFEST_BYTES:,}"
            )
        return f.read(MAX_MANIFEST_BYTES + 1)


def load_manifest(corpus: Path) -> Manifest:
    """Read and validate ``sources.toml`` of a corpus folder (it may be absent)."""
    if not corpus.exists():
        raise IngestError(str(corpus), "corpus folder does not exist")
    if not corpus.is_dir():
        raise IngestError(str(corpus), "corpus path is not a folder")
    path = corpus / MANIFEST
    data: dict[str, Any] = {}
    warnings: list[str] = []
    if path.exists() or path.is_symlink():
        try:
            data = tomllib.loads(_read_manifest(path).decode("utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise IngestError(MANIFEST, f"malformed TOML: {exc}") from None
        except UnicodeDecodeError:
            raise IngestError(MANIFEST, "not valid UTF-8") from None
        except RecursionError:
            raise IngestError(
                MANIFEST, "malformed TOML: arrays or tables nested too deeply"
            ) from None
        unknown = sorted(set(data) - {"games", "documents", "languages"})
        if unknown:
            raise IngestError(MANIFEST, f"unknown top-level key(s) {', '.join(unknown)}")
    else:
        warnings.append(f"{corpus}/{MANIFEST} not found: every file's metadata is detected")
    games_table = data.get("games", {})
    if not isinstance(games_table, dict):
        raise IngestError(MANIFEST, "[games] must be a table")
    games = {key: _parse_game(key, entry) for key, entry in games_table.items()}
    documents_list = data.get("documents", [])
    if not isinstance(documents_list, list):
        raise IngestError(MANIFEST, "documents must be an array of tables ([[documents]])")
    documents = [_parse_document(entry, i, games, corpus) for i, entry in enumerate(documents_list)]
    seen_ids: dict[str, str] = {}
    seen_files: set[str] = set()
    for doc in documents:
        # Listed after what it translates: the store writes a document before its translations.
        if doc.translation_of and doc.translation_of not in seen_ids:
            raise IngestError(
                MANIFEST,
                f"[[documents]] {doc.file!r}: translation_of {doc.translation_of!r} names no "
                "document listed before it",
            )
        if doc.file in seen_files:
            raise IngestError(MANIFEST, f"file {doc.file!r} is listed twice")
        seen_files.add(doc.file)
        ids = [doc.id] + [f"{doc.id}-{v.variant}" for v in doc.variants]
        for doc_id in ids:
            if doc_id in seen_ids:
                raise IngestError(MANIFEST, f"document id {doc_id!r} is used twice")
            seen_ids[doc_id] = doc.file
        if not (corpus / doc.file).is_file():
            raise IngestError(doc.file, f"listed in {MANIFEST} but not found in {corpus}")
    listed = {doc.file for doc in documents}
    unlisted = [p for p in corpus_files(corpus) if p.name not in listed]
    for path in unlisted:
        if not path.resolve().is_relative_to(corpus.resolve()):
            raise IngestError(path.name, f"links to a file outside the corpus folder {corpus}")
    if not documents and not unlisted:
        suffixes = ", ".join(sorted(s for s in _DOCUMENT_SUFFIXES if s))
        raise IngestError(
            str(corpus), f"no documents: no {suffixes} file and no [[documents]] in {MANIFEST}"
        )
    languages_table = data.get("languages", {})
    if not isinstance(languages_table, dict):
        raise IngestError(MANIFEST, "[languages] must be a table")
    try:
        added = tuple(parse_language(code, entry) for code, entry in languages_table.items())
    except LanguageError as exc:
        raise IngestError(MANIFEST, str(exc)) from None
    return Manifest(
        corpus=corpus,
        games=games,
        documents=documents,
        unlisted=unlisted,
        warnings=warnings,
        languages=with_additions(added),
    )


def slugify_id(name: str) -> str:
    """A document id for a file name: lower-case ASCII letters, digits, '.', '-'."""
    from .text import fold

    stem = Path(name).stem
    slug = re.sub(r"[^a-z0-9.]+", "-", fold(stem)).strip("-.")
    return slug or "document"


def detect_game(text: str, games: dict[str, Game]) -> str:
    """The game whose keywords occur most often in ``text``, or "unknown"."""
    lowered = text.lower()
    best, best_hits = UNKNOWN_GAME.id, 0
    for game in games.values():
        hits = sum(lowered.count(k.lower()) for k in game.keywords)
        if hits > best_hits:
            best, best_hits = game.id, hits
    return best


def detect_variants(lines: list[str]) -> tuple[VariantSpec, ...]:
    """Translation blocks announced by a known marker line (see data/detect.toml)."""
    rules = detection_rules()
    names = {k.lower(): v for k, v in rules["language_names"].items()}
    found: list[VariantSpec] = []
    for line in lines:
        stripped = line.strip()
        for marker in rules["variant_markers"]:
            m = re.match(marker["pattern"], stripped)
            if not m:
                continue
            lang = names.get(m.group("name").lower(), "und")
            found.append(
                VariantSpec(
                    marker=stripped,
                    variant=f"{lang}-mt{m.group('n')}",
                    lang=lang,
                    provenance=marker.get("provenance", "machine"),
                    preset="machine_translation",
                )
            )
            break
    return tuple(found)


_CR_LINE = re.compile(r"^_*\d+\.\d+[a-z]?(-[ivx]+)?\.\s")


def describe_unlisted(
    file: str,
    text: str,
    games: dict[str, Game],
    taken_ids: set[str],
    languages: tuple[Language, ...] | None = None,
) -> DocumentSpec:
    """Sane defaults for a file the manifest does not describe."""
    from .langdetect import detect_language

    lines = text.split("\n")
    variants = detect_variants(lines)
    first_marker = next(
        (i for i, line in enumerate(lines) if variants and line.strip() == variants[0].marker),
        len(lines),
    )
    main_text = "\n".join(lines[:first_marker])
    lang = detect_language(main_text, languages).lang
    doc_id = slugify_id(file)
    base = doc_id
    n = 2
    while doc_id in taken_ids:
        doc_id = f"{base}-{n}"
        n += 1
    cr_lines = sum(1 for line in lines if _CR_LINE.match(line))
    numbering = "cr" if cr_lines >= detection_rules()["numbering"]["cr_min_lines"] else ""
    glued_depth = sum(1 for line in lines if line.startswith("_")) > len(lines) // 2
    title = next((line.strip() for line in lines if line.strip()), file)[:120]
    return DocumentSpec(
        file=file,
        id=doc_id,
        game=detect_game(text, games),
        ruleset="",
        title=title,
        lang=lang if lang != "und" else "en",
        provenance="unknown",
        era="unknown",
        preset="pdf_extraction" if glued_depth else "clean",
        variants=variants,
        numbering=numbering,
        described=False,
    )
