"""A language's bilingual dictionary (kb/store/dictionary.py): kept to the English the rules
use, read for a question in that language, and a missing one named at build."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path

import pytest
from run_kb import run_kb

from ingest.text import CJK_RUN
from kb.ask.understand import understand
from kb.retrieve.lexical import translated
from kb.retrieve.query import typed_spans
from kb.store.dictionary import entries as dictionary_entries
from kb.store.dictionary import read_cedict, segments
from kb.store.vocabulary import load_vocabulary

CEDICT = """\
# CC-CEDICT
觀眾 观众 [guan1 zhong4] /spectator/audience/CL:個|个[ge4]/
隱藏 隐藏 [yin3 cang2] /to hide/to conceal/hidden/
骰 骰 [tou2] /dice/
骰子 骰子 [tou2 zi5] /dice/
計算器 计算器 [ji4 suan4 qi4] /calculator/calculating machine/
天氣 天气 [tian1 qi4] /weather/
"""


def test_entries_are_kept_to_one_word_glosses_the_rules_use(tmp_path: Path) -> None:
    path = tmp_path / "cedict.txt.gz"
    path.write_bytes(gzip.compress(CEDICT.encode()))
    english = {"spectator", "audience", "hide", "hidden", "dice", "calculator"}
    kept = read_cedict(path, english, frozenset({"the"}))
    assert kept["观众"] == ["spectator", "audience"]  # the measure word (CL:) is no gloss
    assert kept["隐藏"] == ["hide", "hidden"]  # "to hide" is "hide"; "to conceal": no rule
    assert kept["计算器"] == ["calculator"]  # "calculating machine" is two words
    assert "骰" not in kept  # one character is too ambiguous to search by
    assert "天气" not in kept  # "weather": no rule says it


def test_a_run_of_chinese_is_read_longest_entry_first() -> None:
    entries = {"计算": ["calculate"], "计算器": ["calculator"], "手机": ["phone"]}
    assert segments("用手机计算器记分", entries) == ["手机", "计算器"]


def test_a_chinese_question_is_searched_by_the_dictionary_s_english(
    conn: sqlite3.Connection,
) -> None:
    """The words neither the vocabulary nor a translation reads are searched by their
    dictionary glosses; an English question by none."""
    entries = {
        word: json.loads(glosses)
        for word, glosses in conn.execute("SELECT word, glosses FROM dictionary WHERE lang = 'zh'")
    }
    assert len(entries) > 1000
    vocab = load_vocabulary(conn)
    searched = 0
    for word in sorted(entries)[::400]:
        u = understand(conn, f"{word}怎么办", vocab)
        forms = translated(conn, u)
        if any(word in r or r in word for r in [*u.expansions, *typed_spans(u)]):
            continue  # the parse reads it
        assert set(forms.get(word, [])) <= set(entries[word])
        searched += bool(forms.get(word))
    assert searched >= 5
    assert entries == dictionary_entries(conn, "zh", sorted(entries))  # looked up, not loaded
    assert dictionary_entries(conn, "en", ["spectator"]) == {}
    assert all(not CJK_RUN.search(k) for k in translated(conn, understand(conn, "dice?", vocab)))


def test_a_dictionary_no_package_holds_stops_the_build(corpus_copy: Path, tmp_path: Path) -> None:
    manifest = corpus_copy / "sources.toml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8")
        + '\n[languages.zh]\nname = "Chinese"\nscript = "han"\ndictionary = "nodict:x.txt"\n',
        encoding="utf-8",
    )
    db = tmp_path / "kb.sqlite"
    result = run_kb("build", "--corpus", str(corpus_copy), "--quiet", db=db)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "[languages.zh] dictionary 'nodict:x.txt'" in lines[0]
    assert "nodict" in lines[0] and not db.exists()


@pytest.mark.parametrize("bad", ["dictionary = 3", 'dictionary = ["a"]'])
def test_a_dictionary_must_be_named_by_a_string(bad: str) -> None:
    import tomllib

    from ingest.languages import LanguageError, parse

    entry = tomllib.loads(f'name = "X"\nscript = "han"\n{bad}\n')
    with pytest.raises(LanguageError, match="dictionary"):
        parse("xx", entry)
