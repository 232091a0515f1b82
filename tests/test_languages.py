"""A language the knowledge base has never seen arrives as data: a corpus describes it in its
sources.toml ([languages.<code>]), and it is detected, folded (or not) and searched as the
data says, with no code naming it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ingest.errors import IngestError
from ingest.langdetect import detect_language
from ingest.languages import by_code, packaged, with_additions
from ingest.languages import parse as parse_language
from kb.search import search
from kb.store.build import build
from kb.store.db import connect

# A made-up language: Latin letters, two of them its own (ẋ, ŋ), whose dotted x makes a word.
MANIFEST = """
[languages.qx]
name = "Quessian"
script = "latin"
letters = "ẋŋ"
share = 0.2
fold_diacritics = {fold}
stemmer = ""

[games.demo]
name = "Demo"
keywords = ["Demo"]

[[documents]]
file = "demo-rules.txt"
id = "demo-rules"
game = "demo"
lang = "qx"
provenance = "community"
"""
TEXT = """Demo rules

Saẋa moru tela ẋenu, ŋata sori velu.

Each player draws five cards at the start of the game.

Ŋoru saẋa timo, ẋela poru ŋani tesu.
"""


def _build(tmp_path: Path, fold: str) -> Path:
    corpus = tmp_path / f"corpus-{fold}"
    corpus.mkdir()
    (corpus / "sources.toml").write_text(MANIFEST.format(fold=fold), encoding="utf-8")
    (corpus / "demo-rules.txt").write_text(TEXT, encoding="utf-8")
    db = tmp_path / f"kb-{fold}.sqlite"
    build(corpus, db)
    return db


def test_a_made_up_language_is_detected_folded_and_searched_as_its_data_says(
    tmp_path: Path,
) -> None:
    db = _build(tmp_path, "false")
    conn = connect(db)
    rules = {r["text"]: r["lang"] for r in conn.execute("SELECT text, lang FROM rules")}
    # Its own letters make a paragraph Quessian; a paragraph without them is English.
    assert rules["Saẋa moru tela ẋenu, ŋata sori velu."] == "qx"
    assert rules["Each player draws five cards at the start of the game."] == "en"
    setting = conn.execute("SELECT * FROM language_settings WHERE code = 'qx'").fetchone()
    assert (setting["name"], setting["source"], setting["fold_diacritics"]) == (
        "Quessian",
        "corpus",
        0,
    )
    assert {r["code"] for r in conn.execute("SELECT code FROM language_settings")} >= {
        "en",
        "vi",
        "zh",
    }
    # Written as it is, the word is found; without its dot it is another word in Quessian.
    assert [h["text"][:4] for h in search(conn, "saẋa")] == ["Saẋa", "Ŋoru"]
    assert search(conn, "saxa") == []
    conn.close()
    # The same corpus with folding on: the dotless spelling finds it too.
    folded = connect(_build(tmp_path, "true"))
    assert len(search(folded, "saxa")) == 2
    folded.close()


def test_packaged_languages_come_from_the_data_file() -> None:
    codes = [lang.code for lang in packaged()]
    assert codes[:3] == ["en", "vi", "zh"]
    assert by_code()["vi"].writes("hại") and not by_code()["vi"].writes("hai")
    assert detect_language("Người chơi rút một lá bài.").lang == "vi"
    assert detect_language("玩家抽一张卡。").lang == "zh"
    # A corpus's language can take the place of a packaged one's code, or come after them.
    added = parse_language("qx", {"name": "Q", "script": "latin", "letters": "ẋ"})
    assert [lang.code for lang in with_additions((added,))][-1] == "qx"
    assert detect_language("ẋenu saẋa", with_additions((added,))).lang == "qx"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('name = "Q"', "'name' and 'script' are required"),
        ('name = "Q"\nscript = "runic"', "script must be one of latin, han, kana"),
        ('name = "Q"\nscript = "latin"\nfold = true', "unknown field(s) fold"),
        ('name = "Q"\nscript = "latin"\nshare = "a lot"', "field 'share' must be a float"),
    ],
)
def test_a_bad_language_table_names_what_is_wrong(tmp_path: Path, table: str, message: str) -> None:
    (tmp_path / "sources.toml").write_text(f"[languages.qx]\n{table}\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("Some rules.\n", encoding="utf-8")
    with pytest.raises(IngestError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build(tmp_path, tmp_path / "kb.sqlite")
    assert not (tmp_path / "kb.sqlite").exists()


def test_language_names_are_read_from_the_languages_data(conn: sqlite3.Connection) -> None:
    from kb.lookups.labels import language_name

    assert language_name("vi") == "Vietnamese" and language_name("zh") == "Chinese"
    assert language_name("tlh") == "tlh"
