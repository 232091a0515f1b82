"""The one text module (ingest/text.py): when two words are the same, at each level, in the
corpus languages; and how a text becomes words and index tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.text import (
    cjk_bigrams,
    fold,
    folded_words,
    index_form,
    name_key,
    plural_key,
    stem,
    word_spans,
    words,
)

PAIRS = [
    [part.strip() for part in line.split("|")]
    for line in (Path(__file__).parent / "fixtures" / "text" / "same_words.txt")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip() and not line.startswith("#")
]
KEYS = {
    "fold": fold,
    "name": name_key,
    "plural": plural_key,
    "stem": lambda t: " ".join(stem(w) for w in words(t.lower())),
}


@pytest.mark.parametrize(("first", "second", "level", "verdict"), PAIRS)
def test_same_words(first: str, second: str, level: str, verdict: str) -> None:
    key = KEYS[level]
    assert (key(first) == key(second)) == (verdict == "same"), (key(first), key(second))


def test_words_split_numbers_glued_to_words_and_keep_cjk_runs() -> None:
    assert words("8000LP và 闪电, player's turn") == [
        "8000",
        "LP",
        "và",
        "闪电",
        "player's",
        "turn",
    ]
    assert folded_words("Bước  Thiệt-hại") == "buoc thiet hai"


def test_word_spans_point_into_the_text() -> None:
    text = "8000lp là gì"
    assert [text[a:b] for _, a, b in word_spans(text)] == ["8000", "lp", "là", "gì"]


def test_cjk_is_indexed_as_bigrams() -> None:
    assert cjk_bigrams("伤害计算") == ["伤害", "害计", "计算"]
    assert cjk_bigrams("闪") == ["闪"]
    assert index_form("发动闪电") == " 发动 动闪 闪电 "


def test_a_latin_word_run_into_chinese_is_a_whole_word() -> None:
    from ingest.text import find_whole_word

    assert find_whole_word("fow主卡组最多几张", "fow") == (0, 3)
    assert find_whole_word("in fow, how many", "fow") == (3, 6)
    assert find_whole_word("a fowl and a fow", "fow") == (13, 16)
    assert find_whole_word("fowl", "fow") is None
