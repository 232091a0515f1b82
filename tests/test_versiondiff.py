"""Rule-version diff: facts read in both FoW comprehensive rules, and small synthetic cases."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from run_kb import run_kb

from ingest.records import Change, DocText, DocumentResult, DocumentSpec, RawText, Rule
from ingest.text import version_key
from ingest.versiondiff import detail_diff, diff_rules, version_pairs
from kb.lookups import history
from kb.store.db import KbError

OLD, NEW = "fow-cr-7.0", "fow-cr-8.01"
# A numbered rule in the raw files: at a line start (after 8.01's depth underscores), or glued
# after the previous rule's final "." or ":" (two places in 7.0).
RAW_RULE = re.compile(r"(?m)(?:^_*|(?<=[.:])\s?)\d+\.\d+[a-z]?(?:-[ivx]+)?\. ")


# --- the real corpus -------------------------------------------------------------------------


def change_of(conn: sqlite3.Connection, old_number: str | None, new_number: str | None) -> dict:
    """The one change between two rule numbers (None: that side is absent)."""
    found = [
        c
        for c in history.changes(conn, OLD, NEW)
        if (c["old_number"], c["new_number"]) == (old_number, new_number)
    ]
    assert len(found) == 1, (old_number, new_number, found)
    return found[0]


def test_pairs_come_from_versions(conn: sqlite3.Connection) -> None:
    pairs = {(p["old_document"], p["new_document"]): p for p in history.compared_pairs(conn)}
    assert (pairs[(OLD, NEW)]["old_version"], pairs[(OLD, NEW)]["new_version"]) == ("7.0", "8.01")
    # Each pair is two versions of one rulebook: same game, ruleset and language.
    docs = {r["id"]: r for r in conn.execute("select * from documents")}
    for old, new in pairs:
        assert [docs[old][k] for k in ("game", "ruleset", "lang")] == [
            docs[new][k] for k in ("game", "ruleset", "lang")
        ]
    assert history.find_document(conn, "8.01") == NEW
    with pytest.raises(KbError, match="no compared document"):
        history.find_document(conn, "9.9")
    with pytest.raises(KbError, match="was not compared"):
        history.summary(conn, NEW, OLD)


def test_counts_add_up_to_the_rules_of_each_version(
    conn: sqlite3.Connection, corpus_dir: Path
) -> None:
    s = history.summary(conn, OLD, NEW)
    counts = s["counts"]
    raw = {
        doc: len(RAW_RULE.findall((corpus_dir / f"{doc}.txt").read_text("utf-8-sig")))
        for doc in (OLD, NEW)
    }
    assert (s["old_rules"], s["new_rules"]) == (raw[OLD], raw[NEW]) == (690, 819)
    both = counts["unchanged"] + counts["reworded"] + counts["moved"]
    assert both + counts["removed"] == s["old_rules"]
    assert both + counts["added"] == s["new_rules"]
    # Most of the rulebook carried over; 8.01 added far more than it removed.
    assert counts["unchanged"] > 500 and counts["added"] > 100 and counts["removed"] < 20
    # Each numbered rule of each version is on exactly one change (a piece split from an old
    # rule names it too, as its source: that change is the piece's, an "added").
    rows = history.changes(conn, OLD, NEW)
    old_ids = Counter(c["old_rule"] for c in rows if c["old_rule"] and c["kind"] != "added")
    new_ids = Counter(c["new_rule"] for c in rows if c["new_rule"] and c["kind"] != "removed")
    assert len(old_ids) == s["old_rules"] and set(old_ids.values()) == {1}
    assert len(new_ids) == s["new_rules"] and set(new_ids.values()) == {1}


def test_glued_words_repaired_in_801_are_not_changes(
    conn: sqlite3.Connection, corpus_dir: Path
) -> None:
    raw = (corpus_dir / f"{NEW}.txt").read_text("utf-8")
    assert "not losing the gamewins" in raw and "his orher opponent" in raw
    for number in ("103.2", "103.4"):
        change = change_of(conn, number, number)
        assert (change["kind"], change["detail"]) == ("unchanged", "")


def test_inserted_rule_is_added(conn: sqlite3.Connection) -> None:
    change = change_of(conn, None, "103.5")
    assert change["kind"] == "added"
    assert (
        change["new_text"]
        == "If an effect states a player wins the game, that player wins the game."
    )


def test_renumbered_section_is_moved_with_its_sub_rules(conn: sqlite3.Connection) -> None:
    # 8.01 inserts "314. Extra Deck" and "315. Rune Area": 7.0's 314 and 315 become 316 and 317.
    # Its two identical sub-rules "If that card would move to a ruler area, it does not move."
    # stay under their own parents.
    for old, new in (("314.1", "316.1"), ("314.3a", "316.3a"), ("314.5a", "316.5a")):
        change = change_of(conn, old, new)
        assert (change["kind"], change["detail"]) == ("moved", f"{old} -> {new}")
    assert (
        change_of(conn, "314.3a", "316.3a")["old_text"]
        == change_of(conn, "314.5a", "316.5a")["old_text"]
    )
    # 7.0 says 'ruler' in quotes, 8.01 drops them: still the same words.
    assert "‘ruler’" in change_of(conn, "314.1", "316.1")["old_text"]
    # 8.01's new 314.1 is another rule.
    assert change_of(conn, None, "314.1")["kind"] == "added"


def test_moved_and_reworded(conn: sqlite3.Connection) -> None:
    # "[Quickcast]" (709) and "Play a Rune" (711) push 7.0's 710 "Pass" to 712.
    change = change_of(conn, "710.2d", "712.2d")
    assert change["kind"] == "moved"
    assert change["detail"] == (
        "710.2d -> 712.2d; reworded: … effects prohibit it [-to attack.-] {+from attacking.+}"
    )


def test_reworded_shows_the_words_that_changed(conn: sqlite3.Connection) -> None:
    change = change_of(conn, "503.4", "503.4")
    assert (change["old_text"], change["new_text"]) == (
        "All produced wills are cease to exist.",
        "All produced will are ceases to exist.",
    )
    assert change["kind"] == "reworded"
    assert change["detail"] == "All produced [-wills-] {+will+} are [-cease-] {+ceases+} to exist."
    assert "[-restricst-] {+restricts+}" in change_of(conn, "1106.1", "1106.1")["detail"]


def test_short_rule_stays_in_its_section(conn: sqlite3.Connection) -> None:
    # "[Barrier] is a continuous ability." is closer, letter by letter, to 8.01's new
    # "Crest is a continuous ability." than to its own extended text; the section decides.
    change = change_of(conn, "1120.1", "1120.1")
    assert change["kind"] == "reworded"
    assert change["detail"].endswith("{+held by a card or player.+}")
    assert change_of(conn, None, "1131.1")["kind"] == "added"


def test_split_rule(conn: sqlite3.Connection) -> None:
    # 7.0 805.2: "...has [First Strike], it deals damage equal to its ATK. This damage is battle
    # damage." 8.01 keeps 805.2 for the process and moves the damage sentence to a new 805.2a;
    # 7.0's 805.2a and 805.2b go one level down.
    assert change_of(conn, "805.2", "805.2")["kind"] == "reworded"
    split = change_of(conn, "805.2", "805.2a")  # the piece names the rule it came from
    assert (split["kind"], split["detail"]) == ("added", "split from 805.2")
    assert change_of(conn, "805.2a", "805.2a-i")["kind"] == "moved"
    assert change_of(conn, "805.2b", "805.2a-ii")["kind"] == "moved"
    # History follows the new piece back to the rule it was split from.
    (chain,) = history.rule_history(conn, "fow-cr-8.01:805.2a")
    assert [e["rule"] for e in chain] == ["fow-cr-7.0:805.2", "fow-cr-8.01:805.2a"]


def test_removed_rule(conn: sqlite3.Connection) -> None:
    change = change_of(conn, "403.5", None)
    assert change["kind"] == "removed"
    assert change["old_text"] == "Each player puts their ruler into their ruler area."


def test_cosmetic_differences_are_noted_not_counted(conn: sqlite3.Connection) -> None:
    change = change_of(conn, "304.2", "304.2")
    assert change["kind"] == "unchanged"
    assert change["detail"] == "cosmetic: … main deck zone, [-it’s-] {+its+} hidden and the …"


def test_history_follows_moves(conn: sqlite3.Connection) -> None:
    moved, new_rule = history.rule_history(conn, "314.1")
    assert [(e["document"], e["number"]) for e in moved] == [(OLD, "314.1"), (NEW, "316.1")]
    assert moved[0]["change"] is None
    assert moved[1]["change"] == {"kind": "moved", "similarity": 100.0, "detail": "314.1 -> 316.1"}
    assert [(e["document"], e["rule"]) for e in new_rule] == [(OLD, None), (NEW, f"{NEW}:314.1")]
    assert new_rule[1]["change"]["kind"] == "added"
    # By id, from either end.
    assert history.rule_history(conn, f"{NEW}:316.1") == [moved]
    (same,) = history.rule_history(conn, "103.4")
    assert [e["change"] and e["change"]["kind"] for e in same] == [None, "unchanged"]
    (gone, _) = history.rule_history(conn, "403.5")
    assert [(e["number"], e["change"] and e["change"]["kind"]) for e in gone] == [
        ("403.5", None),
        (None, "removed"),
    ]
    with pytest.raises(KbError):
        history.rule_history(conn, "999.9")


def test_changes_filtered_by_kind(conn: sqlite3.Connection) -> None:
    counts = history.summary(conn, OLD, NEW)["counts"]
    moved = history.changes(conn, OLD, NEW, ("moved",))
    assert len(moved) == counts["moved"] and {c["kind"] for c in moved} == {"moved"}
    with pytest.raises(KbError, match="unknown change kind"):
        history.changes(conn, OLD, NEW, ("renamed",))


# --- synthetic cases -------------------------------------------------------------------------


def rule(doc: str, number: str, text: str, parent: str | None = None, section: str = "1") -> Rule:
    return Rule(
        id=f"{doc}:{number}",
        document=doc,
        section=f"{doc}:{section}",
        parent=f"{doc}:{parent}" if parent else None,
        game="g",
        lang="en",
        langs="en",
        kind="rule",
        number=number,
        label="",
        title="",
        ord=0,
        depth=2 if parent else 1,
        text=text,
        ruleset="cr",
        era=None,
        line_start=1,
        line_end=1,
    )


def diff(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(kind, old number -> new number, detail) for two lists of (number, text)."""
    changes = diff_rules(
        "a", "b", [rule("a", n, t) for n, t in old], [rule("b", n, t) for n, t in new]
    )
    return [(c.kind, f"{number(c.old_id)}>{number(c.new_id)}", c.detail) for c in changes]


def number(rule_id: str | None) -> str:
    return rule_id.split(":")[1] if rule_id else ""


DECK = "A main deck must contain at least forty cards and at most sixty cards."
COPIES = "A deck may have up to four copies of any card with the same name."
LIFE = "Each player starts the game with four thousand life points."
DRAW = "The turn player draws a card at the beginning of their turn."


def test_inserted_rule_shifts_the_following_numbers() -> None:
    assert diff(
        [("1.1", DECK), ("1.2", COPIES), ("1.3", LIFE)],
        [("1.1", DECK), ("1.2", DRAW), ("1.3", COPIES), ("1.4", LIFE)],
    ) == [
        ("unchanged", "1.1>1.1", ""),
        ("added", ">1.2", ""),
        ("moved", "1.2>1.3", "1.2 -> 1.3"),
        ("moved", "1.3>1.4", "1.3 -> 1.4"),
    ]


def test_added_and_removed() -> None:
    assert diff([("1.1", DECK), ("1.2", LIFE)], [("1.1", DECK), ("1.3", DRAW)]) == [
        ("unchanged", "1.1>1.1", ""),
        ("removed", "1.2>", ""),
        ("added", ">1.3", ""),
    ]


def test_split_and_merge() -> None:
    split = diff([("1.1", f"{DECK} {COPIES}")], [("1.1", DECK), ("1.1a", COPIES)])
    assert split[0][:2] == ("reworded", "1.1>1.1")
    assert split[1] == ("added", "1.1>1.1a", "split from 1.1")
    merged = diff([("1.1", DECK), ("1.2", COPIES)], [("1.1", f"{DECK} {COPIES}")])
    assert merged[0][:2] == ("reworded", "1.1>1.1")
    assert merged[1] == ("removed", "1.2>1.1", "merged into 1.1")


def test_parallel_wording_is_not_a_split() -> None:
    extra = "An extra deck must contain at least forty cards and at most sixty cards."
    changes = diff([("1.1", f"{DECK} {COPIES}")], [("1.1", f"{DECK} {COPIES}"), ("1.2", extra)])
    assert changes[1] == ("added", ">1.2", "")


def test_punctuation_and_glue_are_cosmetic() -> None:
    old = "If a player loses the game, the ‘other’ player wins the game."
    new = "If a player loses the game,the other player winsthe game"
    ((kind, numbers, detail),) = diff([("1.1", old)], [("1.1", new)])
    assert (kind, numbers) == ("unchanged", "1.1>1.1")
    assert detail.startswith("cosmetic: ") and "{+winsthe game+}" in detail


def test_reworded_under_the_same_number() -> None:
    ((kind, _, detail),) = diff([("1.1", LIFE)], [("1.1", LIFE.replace("four", "five"))])
    assert (kind, detail) == ("reworded", "… the game with [-four-] {+five+} thousand life points.")


def test_identical_sub_rules_follow_their_parents() -> None:
    other = "In other instances, the card moves as specified."

    def rules(doc: str, first: int) -> list[Rule]:
        return [
            rule(doc, f"{first}.1", "If a resonator would move to a ruler area, it stays."),
            rule(doc, f"{first}.1a", other, parent=f"{first}.1"),
            rule(
                doc,
                f"{first + 1}.1",
                "If a chant would move to the field, it goes to the graveyard.",
            ),
            rule(doc, f"{first + 1}.1a", other, parent=f"{first + 1}.1"),
        ]

    changes = diff_rules("a", "b", rules("a", 5), [rule("b", "5.1", DRAW), *rules("b", 6)])
    assert [c.detail for c in changes if c.kind == "moved"] == [
        "5.1 -> 6.1",
        "5.1a -> 6.1a",
        "6.1 -> 7.1",
        "6.1a -> 7.1a",
    ]


def test_detail_diff_context() -> None:
    """A stored detail keeps a few words around each change; an unchanged text has none (more
    cases, in English and Vietnamese, in tests/fixtures/worddiff.txt)."""
    old = "zero one two three four five six seven eight"
    new = "zero one two three 4 five six seven eight"
    assert detail_diff(old, new) == "… one two three [-four-] {+4+} five six seven …"
    assert detail_diff(old, new, context=1) == "… three [-four-] {+4+} five …"
    assert detail_diff(old, new, context=None) == new.replace("4", "[-four-] {+4+}")
    assert detail_diff(old, old) == ""
    assert detail_diff("The End.", "the end") == ""


def document(doc_id: str, version: str, ruleset: str = "cr", lang: str = "en") -> DocumentResult:
    spec = DocumentSpec(
        file=f"{doc_id}.txt",
        id=doc_id,
        game="g",
        ruleset=ruleset,
        title=doc_id,
        lang=lang,
        provenance="official",
        era="",
        version=version,
    )
    raw = RawText(f"{doc_id}.txt", f"{doc_id}.txt", "utf-8", "", 0, "")
    text = DocText(spec, doc_id, "original", lang, "official", "clean", doc_id, None, [], raw)
    return DocumentResult(doc=text)


def test_pairs_are_consecutive_versions_of_one_rulebook() -> None:
    docs = [
        document("z-newest", "10.0"),
        document("a-old", "9.1"),
        document("m-oldest", "7.0"),
        document("basic", "", ruleset="basic"),
        document("tournament", "1.0", ruleset="tournament"),
        document("vi-old", "7.0", lang="vi"),
    ]
    pairs = [(old.doc.doc_id, new.doc.doc_id) for old, new in version_pairs(docs)]
    assert pairs == [("m-oldest", "a-old"), ("a-old", "z-newest")]
    assert version_key("8.01") > version_key("7.0") and version_key("10.0") > version_key("9.1")


def test_change_record_shape() -> None:
    (change,) = diff_rules("a", "b", [rule("a", "1.1", DECK)], [])
    assert change == Change("a", "b", "a:1.1", None, "removed", 0.0, "")


def test_kb_diff_command_reports_counts_and_word_diffs(built_db: Path) -> None:
    import json

    out = run_kb("diff", "fow-cr-7.0", "fow-cr-8.01", "--json", db=built_db)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    counts = data["summary"]["counts"]
    assert (
        sum(counts[k] for k in ("unchanged", "reworded", "moved", "removed"))
        == data["summary"]["old_rules"]
    )
    assert {c["kind"] for c in data["changes"]} == {"added", "removed", "moved", "reworded"}
    reworded = next(c for c in data["changes"] if c["old_rule"] == "fow-cr-7.0:105.4")
    assert "[-Points:-]" in reworded["detail"]
    text = run_kb("history", "314.1", db=built_db).stdout
    assert "moved: 314.1 -> 316.1" in text and "The zone a player puts their extra deck in." in text
