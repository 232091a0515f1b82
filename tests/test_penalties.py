"""Tournament policy as rows: the infractions of the bundled penalty guidelines, read from
their labelled parts, in English and in the official Chinese translation linked to it; the
named queries, ``kb penalty`` and the ``/penalty`` pages over them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from run_kb import run_kb
from test_site import Site

from ingest.extract.infractions import penalties, read_parts


def _rule_of(conn: sqlite3.Connection, name: str) -> str:
    return str(conn.execute("SELECT rule FROM infractions WHERE name = ?", (name,)).fetchone()[0])


def test_infractions_are_read_from_the_guidelines(conn: sqlite3.Connection) -> None:
    rows = [dict(r) for r in conn.execute("SELECT * FROM infractions")]
    by_lang: dict[str, list[dict]] = {}
    for row in rows:
        by_lang.setdefault(row["lang"], []).append(row)
    # 4 rule errors, 8 tournament errors, 6 kinds of unsporting conduct, in both languages.
    assert {lang: len(found) for lang, found in by_lang.items()} == {"en": 18, "zh": 18}
    english = {r["rule"]: r for r in by_lang["en"]}
    for row in by_lang["zh"]:
        assert english[row["translation_of"]]["number"] == row["number"]
    missed = english[_rule_of(conn, "Missed Trigger")]
    assert missed["number"] == "2.1" and missed["category"] == "RULE ERRORS"
    assert json.loads(missed["penalties"]) == [["Casual", "Caution"], ["Competitive", "Caution"]]
    assert missed["definition"].startswith("A player misses a triggered ability")
    examples = json.loads(missed["examples"])
    assert len(examples) == 3 and examples[2].endswith("“Deal 3 damage.”")
    assert missed["remedy"].startswith("If the triggered ability was missed more than a turn")
    assert missed["upgrade"].endswith("the corrective action is instead a Warning.")
    chinese = next(r for r in by_lang["zh"] if r["translation_of"] == missed["rule"])
    assert chinese["name"] == "遗漏触发" and chinese["category"] == "规则错误"
    assert json.loads(chinese["penalties"]) == [["休闲级", "提醒"], ["竞争级", "提醒"]]
    # A corrective action laid out as a table: each level's action per column.
    late = english[_rule_of(conn, "Tardiness")]
    assert json.loads(late["penalties"])[1] == [
        "Competitive",
        "Warning (0–2 minutes); Game Loss (3–9 minutes); Match Loss + drop (10 minutes or more)",
    ]
    assert late["remedy"].startswith("Issue the affected match a time extension")


def test_parts_and_levels_are_read_in_any_language() -> None:
    parts = read_parts(
        "定义：玩家在做游戏中决策所用的时间过长。\n示例：\n• 玩家多次查看自己的弃置区。\n"
        "纠正措施：休闲级——提醒/竞争级——警告\n升级（仅限竞争级）：纠正措施改为警告。"
    )
    assert parts == {
        "definition": ["玩家在做游戏中决策所用的时间过长。"],
        "examples": ["• 玩家多次查看自己的弃置区。"],
        "corrective_action": ["休闲级——提醒/竞争级——警告"],
        "upgrade": ["纠正措施改为警告。"],
    }
    assert penalties("休闲级——提醒/竞争级——警告") == (("休闲级", "提醒"), ("竞争级", "警告"))
    assert penalties("Disqualification") == (("", "Disqualification"),)


def test_kb_penalty_finds_an_infraction_by_name_typo_number_and_language(built_db: Path) -> None:
    shown = run_kb("penalty", "missed trigger", db=built_db)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("2.1 Missed Trigger  ·  RULE ERRORS")
    assert "Casual: Caution · Competitive: Caution" in shown.stdout
    assert "Also in: zh" in shown.stdout and "遗漏触发" in shown.stdout
    typo = json.loads(run_kb("penalty", "mised triger", "--json", db=built_db).stdout)
    assert typo["exact"] is False and typo["infraction"]["name"] == "Missed Trigger"
    chinese = json.loads(
        run_kb("penalty", "missed trigger", "--lang", "zh", "--json", db=built_db).stdout
    )
    assert chinese["infraction"]["name"] == "遗漏触发"
    assert chinese["infraction"]["penalties"][1] == {"level": "竞争级", "action": "提醒"}
    # Asked in Chinese, answered in English when English is asked for.
    slow = json.loads(
        run_kb("penalty", "游戏动作过慢", "--lang", "en", "--json", db=built_db).stdout
    )
    assert slow["infraction"]["name"] == "Slow Play" and slow["exact"] is True
    assert "3.2 Slow Play" in run_kb("penalty", "3.2", "--lang", "en", db=built_db).stdout
    ambiguous = run_kb("penalty", "unsporting", db=built_db)
    assert ambiguous.returncode == 1
    assert "is ambiguous: Unsporting – Minor" in ambiguous.stderr
    assert "Unsporting – Severe" in ambiguous.stderr
    nothing = run_kb("penalty", "xyzzy plugh", db=built_db)
    assert nothing.returncode == 1
    assert nothing.stderr.strip() == "Error: no infraction matches 'xyzzy plugh'"
    bad_lang = run_kb("penalty", "slow play", "--lang", "tlh", db=built_db)
    assert bad_lang.returncode == 1 and "unknown language 'tlh'" in bad_lang.stderr


def test_penalty_pages_list_and_show_each_infraction(
    built_db: Path, conn: sqlite3.Connection
) -> None:
    site = Site(built_db)
    try:
        index = site.page("/penalty")
        links = [a for a in index.find("a") if a["attrs"]["href"].startswith("/penalty/")]
        assert len(links) == 36
        assert "Casual: Caution · Competitive: Caution" in index.text
        assert index.one("a", href="/penalty").get("attrs", {}).get("aria-current") == "page"
        rule_id = _rule_of(conn, "Missed Trigger")
        page = site.page(f"/penalty/{rule_id}")
        assert page.one("h1")["text"] == ["2.1 Missed Trigger"]
        assert "Competitive Caution" in page.text and "Definition" in page.text
        assert page.links()["遗漏触发"].startswith("/penalty/")
        assert page.links()[rule_id] == f"/rule/{rule_id}"
        data = site.json(f"/penalty/{rule_id}.json")
        assert data["examples"][0].startswith("A player sings a song with Ursula")
        assert data["cite"]["provenance"] == "official"
        chinese = site.json(data["languages"][1]["url"] + ".json")
        assert chinese["name"] == "遗漏触发" and chinese["lang"] == "zh"
        assert site.json("/penalty.json?lang=zh")["count"] == 18
        assert site.get("/penalty/no-such-rule:9.9").status_code == 404
    finally:
        site.runner.close()
