"""Full-text search in English, Vietnamese (with and without diacritics) and Chinese."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest
from run_kb import run_kb

from ingest.text import fold, has_diacritics, index_form
from kb.search import search
from kb.store.fts import fts_query


def test_fold_removes_all_vietnamese_marks_including_d() -> None:
    assert fold("Bước Thiệt hại") == "buoc thiet hai"
    assert fold("Đối thủ đánh") == "doi thu danh"
    assert fold("闪电") == "闪电"
    assert (
        has_diacritics("tính toán")
        and not has_diacritics("tinh toan")
        and not has_diacritics("闪电")
    )


def test_cjk_runs_are_indexed_as_bigrams() -> None:
    assert re.findall(r"\w+", index_form("DMI限制卡：闪电、黑洞")) == [
        "DMI",
        "限制",
        "制卡",
        "闪电",
        "黑洞",
    ]


def test_user_text_cannot_inject_fts_syntax() -> None:
    expression = fts_query('honest" OR rules_fts:* NEAR(')
    assert expression is not None
    # Every word is a quoted string; the user's quote is doubled inside it.
    assert '"honest"' in expression and "NEAR(" not in expression.replace('"near"', "")


def test_search_survives_fts_syntax(conn: sqlite3.Connection) -> None:
    for text in ['"', "AND OR NOT", "honest*", "col:x", "(((", "'; DROP TABLE rules; --"]:
        search(conn, text)  # no exception, and the table is still there:
    assert conn.execute("SELECT count(*) FROM rules").fetchone()[0] > 2000


@pytest.mark.parametrize("query", ["buoc thiet hai", "Bước Thiệt hại", "BUOC THIET HAI"])
def test_damage_step_in_vietnamese_with_or_without_accents(
    conn: sqlite3.Connection, query: str
) -> None:
    hits = search(conn, query, limit=5)
    assert hits, query
    top = hits[0]
    assert top["document"] == "ygo-damage-step"
    assert "Bước Thiệt hại" in top["text"]
    assert all("Bước Thiệt hại" in h["text"] for h in hits[:3])


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def test_accented_query_prefers_accented_matches(conn: sqlite3.Connection) -> None:
    # "hại" (harm) and "hai" (two) fold to the same word: the accents decide the order.
    accented = search(conn, "hại", limit=10)
    assert len(accented) == 10 and all("hại" in _words(h["text"]) for h in accented)
    plain = search(conn, "hai", limit=200)
    assert any("hai" in _words(h["text"]) for h in plain)
    assert any("hại" in _words(h["text"]) for h in plain)


def test_chinese_two_character_word(conn: sqlite3.Connection) -> None:
    hits = search(conn, "闪电")
    assert hits and hits[0]["text"].startswith("DMI限制卡：闪电")
    assert search(conn, "限制", game="yugioh")[0]["text"].startswith("DMI限制卡")
    assert search(conn, "闪电 限制")[0]["id"] == hits[0]["id"]


def test_english_search_and_filters(conn: sqlite3.Connection) -> None:
    hits = search(conn, "concede the game", game="fow", limit=5)
    # The same rule in both versions is one hit, cited from the current version.
    assert (hits[0]["id"], hits[0]["also"]) == ("fow-cr-8.01:103.4", ["fow-cr-7.0:103.4"])
    assert not hits[0]["superseded_by"]
    assert all(h["game"] == "fow" for h in hits)
    assert [a["id"] for a in hits[0]["also_in"]] == ["fow-cr-7.0:103.4"]
    both = search(conn, "concede the game", game="fow", limit=5, versions="all")
    assert {h["id"] for h in both[:2]} == {"fow-cr-7.0:103.4", "fow-cr-8.01:103.4"}
    vi_only = search(conn, "Honest", lang="vi")
    assert vi_only and all(h["lang"] == "vi" for h in vi_only)


def test_rule_number_finds_the_rule(conn: sqlite3.Connection) -> None:
    hits = search(conn, "105.3a", limit=3)
    assert (hits[0]["id"], hits[0]["also"]) == ("fow-cr-8.01:105.3a", ["fow-cr-7.0:105.3a"])
    assert hits[0]["exact"]
    assert not any(h["exact"] for h in hits[1:])
    # A rule id is that rule, whatever its version.
    old = search(conn, "fow-cr-7.0:105.4", limit=3)
    assert old[0]["id"] == "fow-cr-7.0:105.4" and old[0]["exact"]
    # "105.4" is the rule, not a rule that mentions 105.4 (it was third before).
    assert search(conn, "105.4")[0]["id"] == "fow-cr-8.01:105.4"


def test_search_expands_glossary_renderings(conn: sqlite3.Connection) -> None:
    """伤害步骤 is the Damage Step in Chinese: no Yu-Gi-Oh! rule writes it, the glossary knows
    it."""
    hits = search(conn, "伤害步骤", game="yugioh", limit=5)
    assert hits and all("Bước Thiệt hại" in h["text"] or "Damage Step" in h["text"] for h in hits)
    assert not search(conn, "伤害步骤", game="yugioh", expand=False)


def test_a_superseded_version_is_marked(conn: sqlite3.Connection) -> None:
    # 7.0's 402.3 was reworded in 8.01: asked for every version, both wordings are hits, the
    # old one marked; by default the current wording stands alone.
    hits = search(conn, "main deck", game="fow", limit=200, versions="all")
    old = [h for h in hits if h["document"] == "fow-cr-7.0"]
    assert old and all(h["superseded_by"] == "fow-cr-8.01" for h in old)
    current = search(conn, "main deck", game="fow", limit=200)
    assert current and not any(h["superseded_by"] for h in current)


def test_cli_search_json_and_no_match_exit(built_db: Path) -> None:
    def kb(*args: str) -> subprocess.CompletedProcess[str]:
        return run_kb(*args, db=built_db)

    result = kb("search", "buoc thiet hai", "--json", "--limit", "2")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert len(data) == 2 and data[0]["document"] == "ygo-damage-step"
    assert {"id", "text", "lang", "provenance", "era", "line_start", "file"} <= set(data[0])
    nothing = kb("search", "qwxz zzkv")
    assert nothing.returncode == 1 and nothing.stdout.strip() == "No matches."
