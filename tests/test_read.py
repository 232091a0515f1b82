"""Reading bytes: encoding detection and the errors for input that is not text."""

from __future__ import annotations

import codecs
import unicodedata
from pathlib import Path

import pytest

from ingest.errors import IngestError
from ingest.read import decode, read_file

_TONES = "\u0300\u0301\u0303\u0309\u0323"


def cp1258(text: str) -> bytes:
    """Windows-1258 bytes as Vietnamese software writes them: base letters, then tone marks."""
    out = []
    for ch in text:
        parts = unicodedata.normalize("NFD", ch)
        base = unicodedata.normalize("NFC", "".join(c for c in parts if c not in _TONES))
        out.append(base + "".join(c for c in parts if c in _TONES))
    return "".join(out).encode("cp1258")


VI = "Bước Thiệt hại: chỉ có một Chuỗi được phép vào lúc tính toán thiệt hại. Đối thủ"
ZH = "游戏王规则详解：闪电、黑洞、强欲之壶。伤害计算时只能组成一条连锁。"


@pytest.mark.parametrize(
    ("data", "encoding", "text"),
    [
        (VI.encode("utf-8"), "utf-8", VI),
        (codecs.BOM_UTF8 + VI.encode("utf-8"), "utf-8-sig", VI),
        (VI.encode("utf-16"), "utf-16", VI),
        (codecs.BOM_UTF16_BE + VI.encode("utf-16-be"), "utf-16", VI),
        (
            "Honest vs Honest, Damage Step".encode("utf-16-le"),
            "utf-16-le",
            "Honest vs Honest, Damage Step",
        ),
        (cp1258(VI), "cp1258", VI),
        (ZH.encode("gb18030"), "gb18030", ZH),
    ],
    ids=[
        "utf-8",
        "utf-8 BOM",
        "utf-16 LE BOM",
        "utf-16 BE BOM",
        "utf-16 no BOM",
        "windows-1258",
        "gb18030",
    ],
)
def test_detects_encoding(data: bytes, encoding: str, text: str) -> None:
    decoded, detected = decode(data, "x.txt")
    assert detected == encoding
    assert unicodedata.normalize("NFC", decoded) == text


def test_windows_1258_text_comes_out_composed() -> None:
    decoded, _ = decode(cp1258(VI), "x.txt")
    assert unicodedata.is_normalized("NFC", decoded)


def _write(tmp_path: Path, data: bytes, name: str = "doc.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "file is empty"),
        (b"  \n\n ", "only whitespace"),
        (b"Rules\x00\x01\x02 binary \x00 data" * 20, "binary file (NUL byte at offset 5)"),
        (bytes(range(0x80, 0xA0)) * 8, "cannot decode"),
    ],
    ids=["empty", "whitespace", "NUL bytes", "undecodable"],
)
def test_bad_bytes_name_the_file_and_cause(tmp_path: Path, data: bytes, message: str) -> None:
    with pytest.raises(IngestError) as err:
        read_file(_write(tmp_path, data))
    assert str(err.value).startswith("doc.txt")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_overlong_line_is_refused_with_its_line_number(tmp_path: Path) -> None:
    path = _write(tmp_path, b"title\n" + b"a" * 2_000_001 + b"\n")
    with pytest.raises(IngestError) as err:
        read_file(path, max_line_chars=1_000_000)
    assert str(err.value).startswith("doc.txt:2: line is 2,000,001 characters long")


def test_crlf_and_cr_become_line_breaks(tmp_path: Path) -> None:
    raw = read_file(_write(tmp_path, b"one\r\ntwo\rthree\n"))
    assert raw.text.split("\n")[:3] == ["one", "two", "three"]


def test_corpus_files_decode_as_expected(corpus_dir: Path) -> None:
    encodings = {p.name: read_file(p).encoding for p in sorted(corpus_dir.glob("*.txt"))}
    assert encodings["fow-cr-7.0.txt"] == "utf-8-sig"
    # 000 is what file(1) calls "Apache Avro": it is plain UTF-8 text.
    assert encodings["000_adc673ffe3cd143c.txt"] == "utf-8"
    assert set(encodings.values()) <= {"utf-8", "utf-8-sig"}
