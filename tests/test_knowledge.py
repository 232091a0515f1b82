"""Structured knowledge on the real corpus: timing graph, cards, rulings, lists, glossary."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from run_kb import run_kb

import queries
from kb.lookups.cards import card_view, find_card
from kb.lookups.terms import terms
from kb.lookups.timing import timing_tree
from kb.store.db import run


def kb_json(db: Path, *args: str) -> object:
    out = run_kb(*args, "--json", db=db)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _walk(nodes: list[dict]) -> list[dict]:
    out = []
    for n in nodes:
        out.append(n)
        out += _walk(n["children"])
    return out


def _find(nodes: list[dict], node_id: str) -> dict:
    return next(n for n in _walk(nodes) if n["id"] == node_id)


def test_tcg_damage_step_has_seven_substeps_with_names(built_db: Path) -> None:
    roots = kb_json(built_db, "timing", "yugioh", "--ruleset", "tcg")
    damage = _find(roots, "yugioh-tcg-damage-step")
    subs = damage["children"]
    assert [s["label"] for s in subs] == ["1", "2", "3", "4", "5", "6", "7"]
    assert [s["en"] for s in subs][3] == "During damage calculation"
    during = subs[3]
    vi_used = [n["text"] for n in during["names"]["vi"] if n["document"] == "ygo-damage-step"]
    assert vi_used == ["Vào lúc tính toán thiệt hại"]
    props = {
        (p["key"], p["value"]): [s["rule"] for s in p["sources"]] for p in during["properties"]
    }
    assert props[("chains", "one")] == ["ygo-damage-step:buoc-phu-4-vao-luc-tinh-toan-thiet.2"]
    assert props[("responses", "no")] == ["ygo-damage-step:van-de-honest.5"]
    assert ("cannot_activate", "effects that only change ATK/DEF") in props
    assert ("can_activate", "Counter Traps") in props
    # The sub-step before it allows several Chains and ATK/DEF changes.
    before = {(p["key"], p["value"]) for p in subs[2]["properties"]}
    assert {("chains", "multiple"), ("can_activate", "effects that change ATK/DEF")} <= before


def test_ocg_tree_has_turn_phases_and_five_substeps(conn: sqlite3.Connection) -> None:
    roots = timing_tree(conn, "ygo", "ocg")
    turn = _find(roots, "yugioh-ocg-turn")
    assert [c["en"] for c in turn["children"]] == [
        "Draw Phase",
        "Standby Phase",
        "Main Phase 1",
        "Battle Phase",
        "Main Phase 2",
        "End Phase",
    ]
    # 004's machine-translated phase names are linked to the phases.
    assert [n["text"] for n in turn["children"][0]["names"]["en"] if n["document"]] == ["Drawphase"]
    damage = _find(roots, "yugioh-ocg-damage-step")
    assert len(damage["children"]) == 5
    during = damage["children"][2]
    props = {(p["key"], p["value"]) for p in during["properties"]}
    assert {
        ("chains", "one"),
        ("responses", "no"),
        ("cannot_activate", "any card or effect"),
    } <= props


def test_fow_timing_links_basic_rules_and_comprehensive_rules(conn: sqlite3.Connection) -> None:
    roots = timing_tree(conn, "force of will")
    turn = _find(roots, "fow-turn")
    assert [c["en"] for c in turn["children"]] == [
        "Draw Phase",
        "Recovery Phase",
        "Main Phase",
        "End Phase",
    ]
    battle = _find(roots, "fow-battle")
    assert [c["en"] for c in battle["children"]] == [
        "Beginning of Battle Step",
        "Declare Attack Step",
        "Declare Block Step",
        "Battle Resolution",
        "End of Battle Step",
    ]
    for node_id in (
        "fow-draw-phase",
        "fow-recovery-phase",
        "fow-main-phase",
        "fow-end-phase",
        "fow-beginning-of-battle-step",
        "fow-declare-attack-step",
        "fow-declare-block-step",
        "fow-end-of-battle-step",
    ):
        docs = {r["document"] for r in run(conn, "timing_rules", node=node_id)}
        assert {"fow-basic", "fow-cr-7.0", "fow-cr-8.01"} <= docs, node_id
    draw = {r["id"] for r in run(conn, "timing_rules", node="fow-draw-phase")}
    assert {"fow-cr-8.01:502.3", "fow-basic:draw-phase.4"} <= draw
    # The turn player gets priority, per the Comprehensive Rules.
    priority = [p for p in _find(roots, "fow-draw-phase")["properties"] if p["key"] == "priority"][
        0
    ]
    assert "fow-cr-8.01:502.2" in [s["rule"] for s in priority["sources"]]


def test_vanguard_has_no_invented_timing(conn: sqlite3.Connection) -> None:
    from kb.store.db import KbError

    with pytest.raises(KbError, match="describes no timing"):
        timing_tree(conn, "vanguard")


def _quoted_003(corpus_dir: Path) -> set[str]:
    text = (corpus_dir / "003_eab9188e51b676e0.txt").read_text(encoding="utf-8")
    return {" ".join(q.split()) for q in re.findall(r'["“]([^"“”\n]{1,80}?)["”]', text)}


def test_quoted_card_names_of_003_are_cards_and_phrases_are_not(
    conn: sqlite3.Connection, corpus_dir: Path
) -> None:
    quoted = _quoted_003(corpus_dir)
    labels = {q for q in quoted if q.startswith("Bước phụ")}
    phrases = {q for q in quoted if re.search(r"[à-ỹđ]", q) and q not in labels}
    assert labels and phrases  # "Bước phụ 1", "vào lúc tính toán thiệt hại", "tự-hủy"...
    names = quoted - labels - phrases
    aliases = {row["alias"].casefold() for row in run(conn, "card_aliases", game="yugioh")}
    found = {n for n in names if n.casefold() in aliases}
    assert len(found) / len(names) >= 0.95, sorted(names - found)
    card_names = {row[0].casefold() for row in conn.execute("SELECT name FROM cards")}
    assert not {p.casefold() for p in labels | phrases} & card_names


def test_card_aliases_archetypes_and_data(conn: sqlite3.Connection) -> None:
    kinds = dict(
        conn.execute(
            "SELECT name, kind FROM cards WHERE name IN ('Crystal Beast', 'Gladiator Beast', "
            "'Crystal Beast Topaz Tiger')"
        ).fetchall()
    )
    assert kinds == {
        "Crystal Beast": "archetype",
        "Gladiator Beast": "archetype",
        "Crystal Beast Topaz Tiger": "card",
    }
    assert find_card(conn, "chestnut ball").card["name"] == "Kuriboh"
    assert find_card(conn, "strong desire pot").card["name"] == "Pot of Greed"
    assert find_card(conn, "闪电").card["name"] == "Raigeki"
    assert find_card(conn, 'Star-vader, "Omega" Glendios').card["game"] == "vanguard"
    honest = find_card(conn, "honest")
    assert honest.exact and honest.card["name"] == "Honest"
    # its names as written, and in Chinese (ingest/data/cards.toml); nothing else ("Honest
    # Merchant" is not Honest)
    assert {a["alias"] for a in card_view(conn, "honest")["aliases"]} == {
        "Honest",
        "honest",
        "欧尼斯特",
    }
    assert find_card(conn, "欧尼斯特").card["name"] == "Honest"
    facts = {
        f["field"]: f["value"] for f in card_view(conn, "breaker-the-magical-warrior")["facts"]
    }
    assert facts["atk"] == "1600" and facts["def"] == "1000" and facts["password"] == "71413901"
    assert (
        facts["level"] == "4"
        and facts["attribute"] == "Dark"
        and facts["card_type"] == "Effect Monster"
    )
    assert "ブレ" in facts["name_ja"] and facts["type"] == "Magician"


def test_fuzzy_lookup_exact_wins_and_ambiguity_is_reported(conn: sqlite3.Connection) -> None:
    assert find_card(conn, "honset").card["id"] == "honest"
    assert find_card(conn, "Honest Merchant").card is None  # never a different card
    magician = find_card(conn, "magician")
    assert magician.card is None and magician.ambiguous
    assert {"Dark Magician", "Apprentice Magician"} <= {c["name"] for c in magician.candidates}
    assert find_card(conn, "qwxz zzkv").card is None and not find_card(conn, "qwxz zzkv").candidates


def test_honest_rulings_under_damage_step_windows(built_db: Path) -> None:
    data = kb_json(built_db, "card", "honest")
    assert data["exact"] and data["card"]["name"] == "Honest"
    groups = {g["timing"]: g for g in data["card"]["rulings_by_timing"]}
    during = groups["yugioh-tcg-during-damage-calculation"]
    example = next(r for r in during["rulings"] if r["title"] == "Honest Vs. Honest")
    assert (example["kind"], example["lang"], example["provenance"]) == (
        "example",
        "vi",
        "community",
    )
    assert example["era"].startswith("2010")
    events = [s["event"] for s in example["steps"]]
    assert events == [
        "setup",
        "setup",
        "attack",
        "activate",
        "respond",
        "cannot",
        "resolve",
        "result",
    ]
    assert [s["actor"] for s in example["steps"]][3:7] == ["A", "B", "B", "B"]
    assert "2014" in data["card"]["notes"]


def test_faq_entries_are_structured_rulings(conn: sqlite3.Connection) -> None:
    faq = conn.execute(
        "SELECT question, answer FROM rulings WHERE kind = 'faq' AND question LIKE 'How to launch%'"
    ).fetchone()
    assert faq["answer"].startswith("Prely on the back of the trap card")
    breaker = conn.execute(
        "SELECT r.id FROM rulings r JOIN ruling_cards c ON c.ruling = r.id "
        "WHERE c.card = 'breaker-the-magical-warrior' AND r.kind = 'faq'"
    ).fetchall()
    assert len(breaker) == 1


def test_restriction_lists(conn: sqlite3.Connection) -> None:
    rows = run(conn, "restrictions", list="", card="pot-of-greed")
    assert {(r["list"], r["status"]) for r in rows} == {
        ("DM5", "limited"),
        ("DM6", "limited"),
        ("DMI", "limited"),
    }
    dmi = run(conn, "restrictions", list="dmi", card="")
    assert dmi[0]["name"] == "闪电" and dmi[0]["card"] == "raigeki"
    statuses = {r["status"] for r in run(conn, "restrictions", list="dm6", card="")}
    assert statuses == {"limited", "semi-limited", "forbidden"}
    voice = [
        r
        for r in run(conn, "restrictions", list="dm5", card="")
        if r["card"] == "call-of-the-haunted"
    ]
    assert voice[0]["name"] == "Voice of Life and Death"


def test_resonator_renderings_with_counts_per_variant(built_db: Path) -> None:
    entries = kb_json(built_db, "terms", "resonator")
    vi = {r["text"]: r["counts"] for r in entries[0]["renderings"] if r["lang"] == "vi"}
    assert vi["cộng hưởng"] == {"fow-basic-vi-mt1": 11, "fow-basic-vi-mt2": 4}
    assert vi["tiếng kêu vang"] == {"fow-basic-vi-mt2": 7}
    assert vi["bộ cộng hưởng"] == {"fow-basic-vi-mt1": 2}
    assert vi["âm vang"] == {"fow-basic-vi-mt2": 1}


def test_a_rendering_finds_its_term(conn: sqlite3.Connection) -> None:
    assert [e["term"] for e in terms(conn, "cemetery")] == ["graveyard"]
    mt = next(r for r in terms(conn, "graveyard")[0]["renderings"] if r["text"] == "cemetery")
    assert mt["source"] == "en_mt" and mt["counts"]["ygo-gameking-2005"] > 10


def test_machine_translation_gets_an_official_terms_reading(conn: sqlite3.Connection) -> None:
    row = conn.execute(
        "SELECT r.text AS raw, x.text AS reading, x.changes FROM readings x "
        "JOIN rules r ON r.id = x.rule WHERE r.text LIKE 'dm5 restriction card:%'"
    ).fetchone()
    assert row["raw"].startswith("dm5 restriction card: lightning, black holes")
    assert row["reading"].startswith("dm5 Limited card: Raigeki, Dark Hole")
    assert ["strong desire pot", "Pot of Greed"] in json.loads(row["changes"])
    cemetery = conn.execute(
        "SELECT x.text FROM readings x JOIN rules r ON r.id = x.rule "
        "WHERE r.text LIKE '%cemetery%' LIMIT 1"
    ).fetchone()[0]
    assert "Graveyard" in cemetery and "cemetery" not in cemetery


# Parameters that lead every named query to rows of the bundled corpus; a query only some
# parameters reach names its own.
QUERY_SAMPLES = {
    "id": "fow-cr-8.01:103.4",
    "number": "103.4",
    "q": "honest",
    "game": "yugioh",
    "node": "yugioh-tcg-during-damage-calculation",
    "term": "resonator",
    "seqs": "[1, 2]",
    "document": "fow-basic",
    "expression": '"honest"',
    "card": "honest",
    "kind": "card",
    "words": '["honest", "damage"]',
    "ids": '["fow-basic-vi-mt1:bat-dau-cua-tran-buoc.1"]',
    "a": "honest",
    "b": "honest",
    "tree": "yugioh/tcg",
    "parent": "yugioh-tcg-damage-step",
}
QUERY_OVERRIDES = {
    "ask_ruleset_games": {"min": "10000000"},
    "ask_words_of_stem": {"stem": "initi"},
    "current_versions": {"ids": '["fow-cr-7.0:105.4"]'},
    "older_versions": {"ids": '["fow-cr-8.01:105.3a"]'},
    "rule_card_notes": {"ids": '["ygo-damage-step:van-de-honest.5"]'},
    "rule_in_document": {"document": "fow-cr-8.01", "number": "105.4"},
    "rules_glosses": {"ids": '["ygo-damage-step:buoc-dau.2"]'},
    "term_definitions": {"names": '["graveyard", "player"]', "game": ""},
    "class_member_cards": {"cls": "counter-trap"},
    "rule_glosses": {"id": "ygo-damage-step:buoc-dau.2"},
    "card_notes": {"ids": '["honest"]'},
    "verdict_copies": {"status": "limited"},
    "timing_descendants": {"node": "yugioh-tcg-damage-step"},
    "ask_node_rulesets": {"ids": '["yugioh-tcg-damage-step"]'},
    "verdict_permissions": {"moment": "yugioh-tcg-during-damage-calculation"},
    "card": {"id": "honest"},
    "card_note": {"id": "honest"},
    "card_facts": {"id": "breaker-the-magical-warrior"},
    "ask_card_facts": {"card": "breaker-the-magical-warrior"},
    "card_restrictions": {"card": "raigeki"},
    "card_rulings": {"id": "honest"},
    "ruling_steps": {"id": "ygo-damage-step:van-de-honest.5"},
    "ruling_card_ids": {"id": "ygo-damage-step:van-de-honest.5"},
    "verdict_card_steps": {"ids": '["steamroid"]'},
    "ask_everyday_words": {"words": '["since", "pokemon"]', "min": 1},
    "timing_node": {"id": "yugioh-tcg-during-damage-calculation"},
    "rule_translations": {"id": "fow-basic-vi-mt1:bat-dau-cua-tran-buoc.1"},
    "ask_concept_forms": {"id": "honest"},
    "restrictions": {"card": "raigeki"},
    "rule_children": {"id": "fow-cr-7.0:1002.2"},
    "version_change_counts": {"old": "fow-cr-7.0", "new": "fow-cr-8.01"},
    "version_changes": {"old": "fow-cr-7.0", "new": "fow-cr-8.01"},
    "numbered_rule_count": {"document": "fow-cr-8.01"},
    "document_numbers": {"document": "fow-cr-8.01"},
    "infractions": {"game": ""},
    "rule_change_from": {"rule": "fow-cr-7.0:314.1"},
    "rule_change_to": {"rule": "fow-cr-8.01:316.1"},
    "document_version": {"id": "fow-cr-8.01"},
    "versioned_rules_by_number": {"game": "fow"},
    "documents_by_id": {"documents": '["fow-cr-7.0", "fow-cr-8.01"]'},
    "rule_translations_by_variant": {"rule": "fow-basic:draw-phase.2"},
    "alignment_members": {"alignment": 1},
    "source_document": {"ref": "fow-basic"},
    "rule_sources": {"ids": '["fow-cr-8.01:103.4"]'},
    "rule_changed_in": {"ids": '["fow-cr-8.01:105.4", "fow-cr-8.01:103.5"]'},
    "rendering_uses": {"expression": '{body} : "graveyard"', "lang": "en", "game": ""},
    "term_rendering_matches": {"key": "cemetery"},
    "marks_texts": {"lang": "vi"},
    "card_mentions": {"ids": '["ygo-damage-step:van-de-honest.5"]'},
    "card_alias_names": {"cards": '["honest"]'},
    "timing_charts": {"game": "yugioh"},
    "card_named": {"name": "Honest"},
    "timing_node_place": {"id": "yugioh-tcg-during-damage-calculation"},
    "section_variants": {"original": "fow-basic"},
    "section": {"id": "fow-cr-8.01:103"},
    "section_ancestors": {"id": "fow-cr-8.01:103"},
    "section_children": {"id": "fow-cr-8.01:100"},
    "section_rules": {"id": "fow-cr-8.01:103"},
    "section_previous": {"document": "fow-cr-8.01", "ord": 4},
    "section_next": {"document": "fow-cr-8.01", "ord": 4},
    "cited_rules": {"document": "fow-cr-8.01", "numbers": '["105.4"]'},
    "rule_places": {"ids": '["fow-cr-8.01:103.4"]'},
    "term_ids": {"key": "Resonator"},
    "timing_node_path": {"node": "yugioh-tcg-during-damage-calculation"},
    "meta_value": {"key": "schema_version"},
    "meta_store": {"key": "test", "value": "written"},
    "tmx_links": {"source_lang": "en", "target_lang": "vi"},
    "ask_newer": {"ids": '["fow-cr-7.0:304.2"]'},
    "ask_version_counterparts": {"ids": '["fow-cr-7.0:304.2"]'},
}
# Parameters read from the built corpus: an id only its data names (an infraction's rule).
QUERY_FROM_CORPUS = {
    "infraction": {"id": "SELECT rule FROM infractions ORDER BY rule LIMIT 1"},
    "infraction_family": {"id": "SELECT rule FROM infractions ORDER BY rule LIMIT 1"},
    "dictionary_entries": {
        "lang": "SELECT lang FROM dictionary ORDER BY id LIMIT 1",
        "words": "SELECT json_array(word) FROM dictionary ORDER BY id LIMIT 1",
    },
}
# Queries about what only a rulebook with its own glossary has (the bundled corpus has none):
# tests/test_rulebooks.py runs them on the synthetic rulebooks.
RULEBOOK_ONLY = {"term_cites"}
# Build-time writes: run on a copy of the database, where they must change a row.
WRITES = ("insert", "update", "delete", "replace")


def test_every_named_query_answers_with_rows(conn: sqlite3.Connection) -> None:
    """Every queries/*.sql file is documented, runs, and finds rows in the real corpus (a
    canned query on the website or a lookup of the CLI that found nothing would be broken);
    a write (kb build's) changes a row of a copy, and is never published."""
    copy = sqlite3.connect(":memory:")
    conn.backup(copy)
    empty = []
    for name in queries.names():
        if name in RULEBOOK_ONLY:
            continue
        query = queries.load(name)
        assert query.title and query.description, name
        samples = {**QUERY_SAMPLES, **QUERY_OVERRIDES.get(name, {})}
        for param, sql in QUERY_FROM_CORPUS.get(name, {}).items():
            samples[param] = conn.execute(sql).fetchone()[0]
        params = {p: samples.get(p, "") for p in query.params}
        if query.sql.split(None, 1)[0].lower() in WRITES:
            assert not query.publish, name
            if copy.execute(query.sql, params).rowcount < 1:
                empty.append(name)
        elif not conn.execute(query.sql, params).fetchall():
            empty.append(name)
    assert not empty, empty


def test_heading_that_names_a_moment_is_about_it(conn: sqlite3.Connection) -> None:
    """003's "Phân tích Giai đoạn Chiến đấu" (analysis of the Battle Phase), written for both
    rulesets, belongs to the Battle Phase of each: "can I enter the Battle Phase going first"
    is answered there."""
    rows = conn.execute(
        "SELECT node, relation FROM timing_rules WHERE rule = ?",
        ("ygo-damage-step:phan-tich-giai-doan-chien-dau.1",),
    ).fetchall()
    assert {(r["node"], r["relation"]) for r in rows} == {
        ("yugioh-tcg-battle-phase", "about"),
        ("yugioh-ocg-battle-phase", "about"),
    }
    # A one-word name inside a heading ("Turn") links nothing by itself.
    assert not conn.execute(
        "SELECT 1 FROM timing_rules t JOIN timing_nodes n ON n.id = t.node "
        "WHERE t.relation = 'about' AND n.en = 'Turn'"
    ).fetchone()


def test_a_range_never_runs_from_above_its_high(conn: sqlite3.Connection) -> None:
    """A sentence bounding two things ("at least six players ... no more than one pod") is
    two facts, not a range from 6 to 1 that a count would answer "6" from."""
    backwards = conn.execute(
        "SELECT rule, low, high FROM facts WHERE modality = 'range' AND low > high"
    ).fetchall()
    assert backwards == []
    pod = conn.execute(
        "SELECT modality, low, high FROM facts WHERE rule = 'lorcana-tr:1.3.2.4'"
        " AND kind = 'quantity' AND unit = 'term:player' ORDER BY low"
    ).fetchall()
    assert ("at_least", 6.0, None) in [tuple(r) for r in pod]
