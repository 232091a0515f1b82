"""The translation aligner: quality against the hand-checked gold, invariants on the real
corpus, small synthetic cases (1-2 split, 1-0 missing, 0-1 extra, glued heading, another
language pair), and the vi-mt1 / vi-mt2 word diff that reads the alignment tables."""

from __future__ import annotations

import sqlite3
import tomllib
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest
from align_quality import evaluate_sampled

from ingest.align import align_corpus, align_pair
from ingest.glossary import load_glossary
from ingest.records import DocText, DocumentResult, DocumentSpec, RawText, Rule, Section
from kb.lookups.variantdiff import variant_diff
from kb.store.db import KbError

GOLD = Path(__file__).parent / "fixtures" / "gold_alignment.toml"


# ---- gold alignment on the real corpus ------------------------------------------------------


def gold_pairs() -> dict[tuple[str, str], set[tuple[str, str]]]:
    data = tomllib.loads(GOLD.read_text(encoding="utf-8"))
    out: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for pair in data["pair"]:
        src, tgt = pair["source"], pair["target"]
        out[(src, tgt)] = {
            (f"{src}:{s}", f"{tgt}:{t}") for ss, ts in pair["links"] for s in ss for t in ts
        }
    return out


def found_pairs(conn: sqlite3.Connection) -> dict[tuple[str, str], set[tuple[str, str]]]:
    sides: dict[int, dict[str, list[str]]] = defaultdict(lambda: {"source": [], "target": []})
    for row in conn.execute("SELECT alignment, rule, side FROM alignment_rules"):
        sides[row["alignment"]][row["side"]].append(row["rule"])
    out: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for row in conn.execute("SELECT id, source_document, target_document FROM alignments"):
        members = sides[row["id"]]
        out[(row["source_document"], row["target_document"])] |= {
            (s, t) for s in members["source"] for t in members["target"]
        }
    return out


def f1(gold: set, found: set) -> float:
    hit = len(gold & found)
    if not hit:
        return 0.0
    precision, recall = hit / len(found), hit / len(gold)
    return 2 * precision * recall / (precision + recall)


def test_gold_ids_exist(conn: sqlite3.Connection) -> None:
    """A rule id of the gold that the build no longer produces would silently lower recall."""
    ids = {row[0] for row in conn.execute("SELECT id FROM rules")}
    missing = {rid for pairs in gold_pairs().values() for pair in pairs for rid in pair} - ids
    assert not missing


def test_alignment_f1_against_gold(conn: sqlite3.Connection) -> None:
    gold, found = gold_pairs(), found_pairs(conn)
    assert set(gold) == {
        ("fow-basic", "fow-basic-vi-mt1"),
        ("fow-basic", "fow-basic-vi-mt2"),
        ("vg-basic", "vg-basic-vi-mt1"),
        ("vg-basic", "vg-basic-vi-mt2"),
    }
    for key, pairs in gold.items():
        assert f1(pairs, found[key]) >= 0.85, key
    overall_gold = set().union(*gold.values())
    overall_found = set().union(*(found[key] for key in gold))
    assert f1(overall_gold, overall_found) >= 0.9


def test_every_rule_in_exactly_one_link(conn: sqlite3.Connection) -> None:
    """Each rule of a source and of its variant is in one link; sections never are."""
    for pair in conn.execute("SELECT id, translation_of FROM documents WHERE translation_of != ''"):
        for doc in (pair["id"], pair["translation_of"]):
            counts = dict(
                conn.execute(
                    "SELECT r.id, count(m.id) FROM rules r "
                    "LEFT JOIN alignment_rules m ON m.rule = r.id "
                    "LEFT JOIN alignments a ON a.id = m.alignment AND a.target_document = ? "
                    "WHERE r.document = ? AND (m.id IS NULL OR a.id IS NOT NULL) GROUP BY r.id",
                    (pair["id"], doc),
                ).fetchall()
            )
            assert counts and set(counts.values()) == {1}, doc


def test_links_have_methods_and_scores(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT * FROM alignments").fetchall()
    assert rows
    methods = {"dp:anchors+length", "dp:length", "dp:heading", "dp:gap", "number", "content"}
    for row in rows:
        assert 0.0 <= row["score"] <= 1.0
        assert row["method"] in methods
        one_sided = not row["source_ids"] or not row["target_ids"]
        assert one_sided == (row["method"] in {"dp:heading", "dp:gap"})
    # An official translation numbered like its source is linked by number, mostly.
    by_method = dict(
        conn.execute(
            "SELECT a.method, count(*) FROM alignments a JOIN documents d "
            "ON d.id = a.target_document WHERE d.provenance = 'official' GROUP BY a.method"
        ).fetchall()
    )
    assert by_method["number"] > sum(by_method.values()) / 2


# ---- sampled golds: an official translation checked rule by rule ---------------------------

SAMPLED = [p for p in GOLD.parent.glob("gold_alignment*.toml") if p != GOLD]


@pytest.mark.parametrize("path", SAMPLED, ids=[p.name for p in SAMPLED])
def test_sampled_gold_ids_exist_and_quote_their_rules(conn: sqlite3.Connection, path: Path) -> None:
    """Every id of the gold is a rule of the build whose text (with its title) holds the
    gold's quote: the rule boundaries the gold was checked against are the ones built."""
    rules = {r["id"]: f"{r['title']}{r['text']}" for r in conn.execute("SELECT * FROM rules")}
    links = tomllib.loads(path.read_text(encoding="utf-8"))["links"]
    assert len(links) > 100
    squash = str.maketrans("", "", " \n\t")
    for link in links:
        for key, rule_id in link.items():
            if key.endswith(("quote", "note")) or not rule_id:
                continue
            assert rule_id in rules, rule_id
            assert link[f"{key}_quote"].translate(squash) in rules[rule_id].translate(squash)


@pytest.mark.parametrize("path", SAMPLED, ids=[p.name for p in SAMPLED])
def test_sampled_gold_alignment(conn: sqlite3.Connection, path: Path) -> None:
    """95% of the gold's translated rules are linked to exactly their source rule (none, for
    a rule the source lacks); a whole official document pair checked so is above 85%."""
    report = evaluate_sampled(conn, path)
    assert report["overall"]["right_share"] >= 0.95, report["overall"]
    assert report["overall"]["precision"] >= 0.95 and report["overall"]["recall"] >= 0.95
    for pair, scores in report.items():
        assert scores["right_share"] >= 0.8, (pair, scores)


# ---- synthetic cases ----------------------------------------------------------------------


def document(
    doc_id: str, lang: str, items: list[str], translation_of: str | None = None
) -> DocumentResult:
    """A processed document from a list of texts; "# Title" items are section headings."""
    spec = DocumentSpec(
        file=f"{doc_id}.txt", id=doc_id, game="fow", ruleset="basic", title=doc_id, lang=lang,
        provenance="test", era="",
    )  # fmt: skip
    doc = DocText(
        spec=spec, doc_id=doc_id, variant="original" if translation_of is None else doc_id,
        lang=lang, provenance="test", preset="clean", title=doc_id,
        translation_of=translation_of, lines=[],
        raw=RawText(spec.file, spec.file, "utf-8", "0" * 64, 0, ""),
    )  # fmt: skip
    common = {"document": doc_id, "lang": lang, "ruleset": None, "era": None, "number": ""}
    root = Section(
        id=f"{doc_id}:top", parent=None, ord=0, level=0, title=doc_id, slug="top", path="",
        line_start=1, line_end=1, **common,
    )  # fmt: skip
    sections, rules = [root], []
    for n, item in enumerate(items, start=1):
        if item.startswith("# "):
            sid = f"{doc_id}:s{len(sections)}"
            sections.append(
                Section(
                    id=sid, parent=root.id, ord=len(sections), level=1, title=item[2:], slug=sid,
                    path=item[2:],
                    line_start=n, line_end=n, **common,
                )
            )  # fmt: skip
            continue
        rules.append(
            Rule(
                id=f"{doc_id}:r{len(rules) + 1}", section=sections[-1].id, parent=None,
                game="fow", langs=lang, kind="paragraph", label="", title="",
                ord=len(rules) + 1, depth=0, text=item, line_start=n, line_end=n, **common,
            )
        )  # fmt: skip
    return DocumentResult(doc=doc, sections=sections, rules=rules)


def links_of(source: DocumentResult, target: DocumentResult) -> list[tuple[list[str], list[str]]]:
    """The links as (source local ids, target local ids)."""
    return [
        ([i.split(":")[1] for i in link.source_ids], [i.split(":")[1] for i in link.target_ids])
        for link in align_pair(source, target, load_glossary())
    ]


ENGLISH = [
    "# Draw Phase",
    "Draw a card from your Main Deck.",
    "Abilities that trigger at the start of the Draw Phase activate. "
    "The starting player skips this step.",
    "Lower the opponent player's life from 4000 to 0.",
    "Each player starts the game with 5 cards in hand and 10 cards in the Magic Stone Deck.",
    "All unused Wills are destroyed.",
    "Pass >> Proceed to End Phase.",
]


def test_one_to_two_split() -> None:
    source = document("en", "en", ENGLISH)
    target = document(
        "vi",
        "vi",
        [
            "Rút một lá bài từ Main Deck của bạn.",
            "Các khả năng kích hoạt vào đầu Draw Phase sẽ kích hoạt.",
            "Người chơi đi trước bỏ qua bước này.",
            "Giảm điểm sinh mệnh của đối thủ từ 4000 xuống 0.",
            "Mỗi người chơi bắt đầu với 5 lá bài trên tay và 10 lá trong Magic Stone Deck.",
            "Tất cả Will không dùng bị phá hủy.",
            "Bỏ lượt >> chuyển sang End Phase.",
        ],
        "en",
    )
    assert links_of(source, target) == [
        (["r1"], ["r1"]),
        (["r2"], ["r2", "r3"]),
        (["r3"], ["r4"]),
        (["r4"], ["r5"]),
        (["r5"], ["r6"]),
        (["r6"], ["r7"]),
    ]


def test_missing_translation_is_one_to_zero() -> None:
    source = document("en", "en", ENGLISH)
    target = document(
        "vi",
        "vi",
        [
            "Rút một lá bài từ Main Deck của bạn.",
            "Các khả năng kích hoạt vào đầu Draw Phase sẽ kích hoạt. "
            "Người chơi đi trước bỏ qua bước này.",
            "Giảm điểm sinh mệnh của đối thủ từ 4000 xuống 0.",
            "Tất cả Will không dùng bị phá hủy.",
            "Bỏ lượt >> chuyển sang End Phase.",
        ],
        "en",
    )
    links = links_of(source, target)
    assert (["r4"], []) in links
    assert (["r3"], ["r3"]) in links and (["r5"], ["r4"]) in links


def test_extra_translation_is_zero_to_one() -> None:
    source = document("en", "en", ENGLISH)
    target = document(
        "vi",
        "vi",
        [
            "Rút một lá bài từ Main Deck của bạn.",
            "Các khả năng kích hoạt vào đầu Draw Phase sẽ kích hoạt. "
            "Người chơi đi trước bỏ qua bước này.",
            "Giảm điểm sinh mệnh của đối thủ từ 4000 xuống 0.",
            "Lưu ý: trong giải đấu chính thức, mỗi trận đấu kéo dài 50 phút và có 3 ván.",
            "Mỗi người chơi bắt đầu với 5 lá bài trên tay và 10 lá trong Magic Stone Deck.",
            "Tất cả Will không dùng bị phá hủy.",
            "Bỏ lượt >> chuyển sang End Phase.",
        ],
        "en",
    )
    links = links_of(source, target)
    assert ([], ["r4"]) in links
    assert (["r4"], ["r5"]) in links


def test_heading_glued_to_a_sentence_stays_out_of_the_link() -> None:
    """A translated heading glued to the first sentence, or standing alone as a sentence,
    is aligned with the source heading; links list rules only."""
    source = document("en", "en", ["# Objectives", "Lower the life from 4000 to 0.", *ENGLISH])
    target = document(
        "vi",
        "vi",
        [
            "Mục tiêu Giảm sinh mệnh từ 4000 xuống 0.",
            "Giai đoạn rút bài",
            "Rút một lá bài từ Main Deck của bạn.",
            "Các khả năng kích hoạt vào đầu Draw Phase sẽ kích hoạt.",
            "Người chơi đi trước bỏ qua bước này.",
            "Giảm điểm sinh mệnh của đối thủ từ 4000 xuống 0.",
            "Mỗi người chơi bắt đầu với 5 lá bài trên tay và 10 lá trong Magic Stone Deck.",
            "Tất cả Will không dùng bị phá hủy.",
            "Bỏ lượt >> chuyển sang End Phase.",
        ],
        "en",
    )
    links = links_of(source, target)
    assert links[0] == (["r1"], ["r1"])
    assert ([], ["r2"]) in links  # the translated heading "Draw Phase"
    assert (["r2"], ["r3"]) in links
    assert all(not any(i.startswith("s") for i in s + t) for s, t in links)


def test_another_language_pair() -> None:
    """Nothing is specific to English and Vietnamese: French, with no glossary renderings."""
    source = document(
        "en",
        "en",
        [
            "Deal 6 damage to your opponent's vanguard.",
            "When a player has no cards in the deck, that player loses.",
            "You may have up to 4 cards with the same name.",
            "Shuffle your deck at the beginning of each game.",
            "A Flash Deck contains exactly 25 cards.",
        ],
    )
    target = document(
        "fr",
        "fr",
        [
            "Infligez 6 dégâts à l'avant-garde de votre adversaire.",
            "Quand un joueur n'a plus de cartes dans son deck, il perd.",
            "Vous pouvez avoir jusqu'à 4 cartes du même nom.",
            "Note du traducteur : cette règle a changé en 2016 et ne s'applique plus.",
            "Mélangez votre deck au début de chaque partie.",
            "Un Flash Deck contient exactement 25 cartes.",
        ],
        "en",
    )
    assert links_of(source, target) == [
        (["r1"], ["r1"]),
        (["r2"], ["r2"]),
        (["r3"], ["r3"]),
        ([], ["r4"]),
        (["r4"], ["r5"]),
        (["r5"], ["r6"]),
    ]


def test_align_corpus_pairs_variants_with_their_source() -> None:
    source = document("en", "en", ENGLISH[1:3])
    one = document("vi1", "vi", ["Rút một lá bài.", "Khả năng kích hoạt."], "en")
    two = document("vi2", "vi", ["Rút một lá.", "Các khả năng kích hoạt."], "en")
    orphan = document("zz", "vi", ["Không có bản gốc."], "missing")
    links, checks = align_corpus([source, one, two, orphan], load_glossary())
    assert {(link.source_document, link.target_document) for link in links} == {
        ("en", "vi1"),
        ("en", "vi2"),
    }
    assert all(c.link is None or 0 <= c.link < len(links) for c in checks)


# ---- variant diff ---------------------------------------------------------------------------


def test_variant_diff_on_the_real_corpus(conn: sqlite3.Connection) -> None:
    diff = variant_diff(conn, "fow-basic:initiating-battle.2")
    assert (diff.left.variant, diff.right.variant) == ("vi-mt1", "vi-mt2")
    left = " ".join(text for op, text in diff.segments if op in ("equal", "delete"))
    right = " ".join(text for op, text in diff.segments if op in ("equal", "insert"))
    assert left == " ".join(diff.left.text.split())
    assert right == " ".join(diff.right.text.split())
    assert ("insert", "Chase Area") in diff.segments or any(
        op == "insert" and "Chase Area" in text for op, text in diff.segments
    )
    text = diff.render()
    assert "fow-basic:initiating-battle.2" in text and "[-" in text and "{+" in text
    swapped = variant_diff(conn, "fow-basic:initiating-battle.2", "vi-mt2", "vi-mt1")
    assert swapped.left.variant == "vi-mt2"


def test_variant_diff_errors(conn: sqlite3.Connection) -> None:
    with pytest.raises(KbError):
        variant_diff(conn, "fow-basic:no-such-rule")
    with pytest.raises(KbError):
        variant_diff(conn, "fow-basic-vi-mt1:muc-tieu-cua-tro-choi.1")  # a target rule
    with pytest.raises(KbError):
        variant_diff(conn, "fow-basic:draw-phase.1", "vi-mt9")


def test_degenerate_inputs_still_give_a_link_per_rule() -> None:
    """Empty sides, headings only, one huge rule: every rule still ends up in one link."""
    huge = document("en", "en", ["One rule. " * 200, "Second rule with 5 cards."])
    many = document("vi", "vi", [f"Câu số {i}." for i in range(40)] + ["Quy tắc với 5 lá."], "en")
    empty_vi, empty_en = document("vi", "vi", [], "en"), document("en", "en", [])
    assert links_of(huge, empty_vi) == [(["r1"], []), (["r2"], [])]
    assert links_of(empty_en, many)[:2] == [([], ["r1"]), ([], ["r2"])]
    headings = document("en", "en", ["# Only a heading"])
    assert links_of(headings, document("vi", "vi", ["# Chỉ tiêu đề"], "en")) == []
    links = links_of(huge, many)
    assert sorted(i for s, _ in links for i in s) == ["r1", "r2"]
    assert sorted(int(i[1:]) for _, t in links for i in t) == list(range(1, 42))


# ---- a translation numbered like its source ------------------------------------------------


def numbered_document(
    doc_id: str, lang: str, rules: list[tuple[str, str]], translation_of: str | None = None
) -> DocumentResult:
    """A numbered document from (number, text) pairs, all in one section."""
    result = document(doc_id, lang, [text for _, text in rules], translation_of)
    result.doc = replace(result.doc, variant="original")
    for rule, (number, _) in zip(result.rules, rules, strict=True):
        rule.id, rule.number, rule.kind = f"{doc_id}:{number}", number, "rule"
    result.numbering = "dotted"
    return result


# Rules a translator keeps apart by their words: each mentions its own things.
TOPICS = [
    "Each player draws seven cards and shuffles the deck before the first turn.",
    "The active player readies every exerted character at the start of the turn.",
    "A character that quests gains lore equal to its lore value for its player.",
    "Damage counters stay on a location until it leaves play or is banished.",
    "An action card resolves its effect and then goes to its player's discard pile.",
    "Songs may be sung by exerting a character whose ink cost is high enough.",
    "Items stay in play and their abilities may be used the turn they are played.",
    "A player who reaches twenty lore wins the game at once.",
    "The inkwell holds facedown cards that each pay one ink.",
    "Ward means opponents cannot choose this character except to challenge.",
]
# The same rules in another "language": every word marked, so no word is shared.
TRANSLATED = [" ".join(f"{w.lower().strip('.,')}-zz" for w in t.split()) for t in TOPICS]


def test_numbered_translation_links_by_number_and_by_content() -> None:
    """The source inserted a rule (1.5) that its older translation lacks, so every later
    translated rule carries the number before its source's: linked by number up to 1.4, by
    content after it, and the new rule has no translation."""
    inserted = "Vanish means this character is banished when an opponent chooses it for an action."
    source_rules = [(f"1.{n}", t) for n, t in enumerate(TOPICS[:4] + [inserted] + TOPICS[4:], 1)]
    target_rules = [(f"1.{n}", t) for n, t in enumerate(TRANSLATED, 1)]
    # A second pair teaches the word list what the marked words translate.
    teach_src = numbered_document("teach", "en", [(f"2.{n}", t) for n, t in enumerate(TOPICS, 1)])
    teach_tgt = numbered_document(
        "teach-zz", "zz", [(f"2.{n}", t) for n, t in enumerate(TRANSLATED, 1)], "teach"
    )
    source = numbered_document("src", "en", source_rules)
    target = numbered_document("tgt", "zz", target_rules, "src")
    links, _ = align_corpus([teach_src, teach_tgt, source, target], load_glossary())
    by_target = {
        t.split(":")[1]: (tuple(i.split(":")[1] for i in link.source_ids), link.method)
        for link in links
        if link.target_document == "tgt"
        for t in link.target_ids
    }
    assert by_target["1.1"] == (("1.1",), "number")
    assert by_target["1.4"] == (("1.4",), "number")
    # Translated 1.5 is the source's 1.6, and so on: not the inserted rule 1.5.
    for n in range(5, 11):
        assert by_target[f"1.{n}"][0] == (f"1.{n + 1}",), n
    missing = [link for link in links if link.target_document == "tgt" and not link.target_ids]
    assert [link.source_ids for link in missing] == [("src:1.5",)]
