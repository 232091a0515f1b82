"""Stage 1, read: bytes to text with encoding detection.

Only decoding happens here; every repair of the text is a normalization rule. Content
sniffing with ``file(1)`` is no guide (it calls 000 "Apache Avro"), so the decision rests on
byte-order marks, strict decoding and how plausible each candidate decoding is for the
script it would produce.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import stat
import unicodedata
from pathlib import Path

from .errors import IngestError
from .records import RawText
from .text import VI_LETTERS

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_LINE_CHARS = 1_000_000

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

_TYPOGRAPHY = frozenset("“”‘’–—…•·«»°×€£©®™§¶")


def _vietnamese_score(text: str) -> float:
    """Share of non-ASCII characters that belong to written Vietnamese."""
    other = [ch for ch in text if ord(ch) > 127]
    if not other:
        return 1.0
    good = sum(1 for ch in other if ch in VI_LETTERS or ch in _TYPOGRAPHY)
    return good / len(other)


def _chinese_score(text: str) -> float:
    """Share of non-ASCII characters that are common (GB2312) Chinese characters or punctuation."""
    other = [ch for ch in text if ord(ch) > 127]
    if not other:
        return 1.0
    good = 0
    for ch in other:
        try:
            ch.encode("gb2312")
            good += 1
        except UnicodeEncodeError:
            pass
    return good / len(other)


def _western_score(text: str) -> float:
    """Share of non-ASCII characters that are Latin-1 letters or typographic punctuation."""
    other = [ch for ch in text if ord(ch) > 127]
    if not other:
        return 1.0
    good = sum(
        1 for ch in other if ch in _TYPOGRAPHY or ("\u00c0" <= ch <= "\u00ff" and ch.isalpha())
    )
    return good / len(other)


# Legacy encodings tried when the bytes are not UTF-8, in order of preference on a tie.
_CANDIDATES = (
    ("cp1258", _vietnamese_score),  # Windows-1258, Vietnamese
    ("gb18030", _chinese_score),  # Chinese
    ("cp1252", _western_score),  # Western European
)
_MIN_SCORE = 0.85


def _looks_like_utf16(data: bytes) -> str | None:
    """Detect BOM-less UTF-16 from the position of NUL bytes in mostly-ASCII text."""
    sample = data[:4096]
    if len(sample) < 4:
        return None
    even = sample[0::2]
    odd = sample[1::2]
    pairs = min(len(even), len(odd))
    if odd.count(0) > 0.4 * pairs and even.count(0) < 0.05 * pairs:
        return "utf-16-le"
    if even.count(0) > 0.4 * pairs and odd.count(0) < 0.05 * pairs:
        return "utf-16-be"
    return None


def _bad_control_chars(text: str) -> int:
    return sum(1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\f")


def decode(data: bytes, name: str) -> tuple[str, str]:
    """Decode bytes to text and return ``(text, encoding)``; raise IngestError naming ``name``."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError as exc:
                raise IngestError(
                    name,
                    f"starts with a {encoding} byte-order mark but {exc.reason} "
                    f"at byte {exc.start}",
                ) from None
    utf16 = _looks_like_utf16(data)
    if utf16:
        try:
            return data.decode(utf16), utf16
        except UnicodeDecodeError:
            pass
    nul = data.find(b"\x00")
    if nul >= 0:
        raise IngestError(name, f"binary file (NUL byte at offset {nul}), not a text document")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    best: tuple[float, str, str] | None = None
    for encoding, score_fn in _CANDIDATES:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        text = unicodedata.normalize("NFC", text)
        if _bad_control_chars(text) > max(2, len(text) // 1000):
            continue
        score = score_fn(text)
        if best is None or score > best[0]:
            best = (score, encoding, text)
    if best is None or best[0] < _MIN_SCORE:
        raise IngestError(
            name,
            f"cannot decode: not valid UTF-8 (byte 0x{data[first_bad]:02x} at offset {first_bad}) "
            "and no plausible Windows-1258, GB18030 or Windows-1252 reading",
        )
    return best[2], best[1]


def read_file(
    path: Path, *, max_bytes: int = MAX_FILE_BYTES, max_line_chars: int = MAX_LINE_CHARS
) -> RawText:
    """Read one corpus file and return its decoded text, or raise IngestError naming it."""
    name = path.name
    try:
        # The size is checked before reading, and never more than the limit is read (the file
        # may grow meanwhile): a 1 GB file costs a stat, not a gigabyte of memory.
        # Without blocking: opening a FIFO would wait for a writer before fstat could refuse it.
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as f:
            info = os.fstat(f.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IngestError(name, "is a directory, not a file")
            if not stat.S_ISREG(info.st_mode):
                raise IngestError(name, "not a regular file")
            if info.st_size > max_bytes:
                raise IngestError(
                    name, f"file is {info.st_size:,} bytes; the limit is {max_bytes:,}"
                )
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise IngestError(name, "file not found") from None
    except IsADirectoryError:
        raise IngestError(name, "is a directory, not a file") from None
    except OSError as exc:
        raise IngestError(name, f"cannot read: {exc.strerror}") from None
    if len(data) > max_bytes:
        raise IngestError(name, f"file is over {max_bytes:,} bytes, the limit")
    if not data.strip():
        raise IngestError(name, "file is empty" if not data else "file contains only whitespace")
    text, encoding = decode(data, name)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for no, line in enumerate(text.split("\n"), start=1):
        if len(line) > max_line_chars:
            raise IngestError(
                name,
                f"line is {len(line):,} characters long; the limit is {max_line_chars:,}",
                line=no,
            )
    if not text.strip():
        raise IngestError(name, "file contains no text after decoding")
    return RawText(
        path=str(path),
        file=name,
        encoding=encoding,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        text=text,
    )
