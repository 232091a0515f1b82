"""Exports for translators, read back with translate-toolkit's own readers and csv."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

from run_kb import run_kb
from translate.storage import factory, tbx, tmx

from ingest.glossary import load_glossary
from kb.lookups.export import (
    CHECK_COLUMNS,
    PREFERRED,
    export_checks_csv,
    export_tbx,
    export_tmx,
    language_pairs,
    read_tmx_props,
)


def two_sided_links(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT a.* FROM alignments a "
        "JOIN documents s ON s.id = a.source_document JOIN documents t ON t.id = a.target_document "
        "WHERE s.lang = 'en' AND t.lang = 'vi' AND a.source_ids != '' AND a.target_ids != ''"
    ).fetchall()


def test_language_pairs(conn: sqlite3.Connection) -> None:
    # Machine translations into Vietnamese, an official translation into Chinese.
    assert language_pairs(conn) == [("en", "vi"), ("en", "zh")]


def test_tmx_one_unit_per_two_sided_link(conn: sqlite3.Connection, tmp_path: Path) -> None:
    path = tmp_path / "en-vi.tmx"
    data = export_tmx(conn, "en", "vi", path)
    assert path.read_bytes() == data
    store = tmx.tmxfile.parsefile(str(path))
    assert type(factory.getobject(str(path))) is tmx.tmxfile
    links = {str(row["id"]): row for row in two_sided_links(conn)}
    assert links and len(store.units) == len(links)
    texts = dict(conn.execute("SELECT id, text FROM rules").fetchall())
    for unit in store.units:
        link = links[unit.getid()]
        props = read_tmx_props(unit)
        assert props["x-source-rules"] == link["source_ids"]
        assert props["x-target-rules"] == link["target_ids"]
        assert props["x-source-document"] == link["source_document"]
        assert props["x-target-document"] == link["target_document"]
        assert props["x-variant"] in {"vi-mt1", "vi-mt2"}
        assert unit.getcontext() == link["source_ids"].split()[0]
        assert unit.source == " ".join(texts[i] for i in link["source_ids"].split())
        assert unit.target == " ".join(texts[i] for i in link["target_ids"].split())
    assert store.getsourcelanguage() == "en"


def test_tmx_for_a_pair_without_links_is_empty(conn: sqlite3.Connection) -> None:
    store = tmx.tmxfile.parsestring(export_tmx(conn, "vi", "zh"))
    assert store.units == []


def test_tbx_has_every_glossary_term(conn: sqlite3.Connection, tmp_path: Path) -> None:
    path = tmp_path / "glossary.tbx"
    export_tbx(conn, path)
    store = tbx.tbxfile.parsefile(str(path))
    glossary = load_glossary()
    units = {unit.getid(): unit for unit in store.units}
    assert set(units) == {term.id for term in glossary.terms}
    for term in glossary.terms:
        unit = units[term.id]
        english = unit.get_source_terms()
        assert english[0].text == term.en and english[0].administrative_status == PREFERRED
        assert {t.text for t in english} >= {term.en, *term.en_forms}
        for lang in {r.lang for r in term.renderings} - {"en"}:
            found = {t.text: t for t in unit.get_target_terms(lang)}
            expected = {r.text for r in term.renderings if r.lang == lang}
            assert set(found) == expected, (term.id, lang)
            preferred = term.preferred(lang)
            if preferred:
                assert found[preferred.text].administrative_status == PREFERRED
    resonator = {t.text: t for t in units["resonator"].get_target_terms("vi")}
    assert resonator["tiếng kêu vang"].deprecated
    assert any("Force of Will" in note.text for note in resonator["Resonator"].notes)


def test_checks_csv(conn: sqlite3.Connection, tmp_path: Path) -> None:
    path = tmp_path / "checks.csv"
    data = export_checks_csv(conn, path)
    assert path.read_bytes() == data
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    assert tuple(rows[0]) == CHECK_COLUMNS
    count = conn.execute("SELECT count(*) FROM translation_checks").fetchone()[0]
    assert count and len(rows) - 1 == count
    records = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
    first = conn.execute("SELECT * FROM translation_checks ORDER BY id LIMIT 1").fetchone()
    assert records[0]["check"] == first["check_name"] and records[0]["detail"] == first["detail"]
    assert all(r["severity"] in {"error", "warning", "info"} for r in records)


def test_kb_compare_command_puts_each_rule_next_to_both_translations(built_db: Path) -> None:
    import json

    out = run_kb("compare", "000", "--variants", "en,vi-mt1,vi-mt2", "--json", db=built_db)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    first = rows[0]
    assert first["source"] == {
        "id": "fow-basic:objectives-of-the-game.1",
        "text": "Lower the opponent players life from 4000 to 0.",
    }
    assert set(first["targets"]) == {"vi-mt1", "vi-mt2"}
    assert first["targets"]["vi-mt1"][0]["text"].startswith("Thấp hơn cuộc sống")
    assert {"id", "text", "score"} <= set(first["targets"]["vi-mt2"][0])
    # Every English rule of 000 is in a row.
    sources = {s for r in rows if r["source"] for s in r["source"]["id"].split()}
    import sqlite3

    conn = sqlite3.connect(built_db)
    english = {r[0] for r in conn.execute("SELECT id FROM rules WHERE document = 'fow-basic'")}
    assert english <= sources
    checks = [c for r in rows for c in r["checks"]]
    assert any(c["check"] == "untranslated" for c in checks)
