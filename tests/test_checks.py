"""Translation checks: what they find on the real corpus, and small cases of each check."""

from __future__ import annotations

import re
import sqlite3

from ingest.checks import check_links, numbers
from ingest.glossary import Glossary, Rendering, Term
from ingest.records import (
    Check,
    DocText,
    DocumentResult,
    DocumentSpec,
    Link,
    RawText,
    Rule,
    Section,
)

# ---- the real corpus ------------------------------------------------------------------------


def findings(
    conn: sqlite3.Connection, check: str, document: str | None = None
) -> list[sqlite3.Row]:
    sql = "SELECT * FROM translation_checks WHERE check_name = ?"
    params: tuple = (check,)
    if document:
        sql += " AND target_document = ?"
        params += (document,)
    return conn.execute(sql, params).fetchall()


def test_finds_english_left_in_the_vietnamese(conn: sqlite3.Connection) -> None:
    details = " | ".join(r["detail"] for r in findings(conn, "untranslated"))
    assert "Abilities" in details
    assert "Chase Area" in details
    abilities = [
        r for r in findings(conn, "untranslated", "fow-basic-vi-mt2") if "Abilities" in r["detail"]
    ]
    assert abilities and all(r["severity"] == "warning" for r in abilities)
    # Every finding points at a target rule that really has the words it lists.
    for row in abilities:
        text = conn.execute("SELECT text FROM rules WHERE id = ?", (row["rule"],)).fetchone()[0]
        assert "Abilities" in text


def test_finds_the_renderings_of_resonator(conn: sqlite3.Connection) -> None:
    rows = [r for r in findings(conn, "term-inconsistent") if r["term"] == "resonator"]
    assert {r["target_document"] for r in rows} == {"fow-basic-vi-mt1", "fow-basic-vi-mt2"}
    mt2 = next(r["detail"] for r in rows if r["target_document"] == "fow-basic-vi-mt2")
    for rendering in ("tiếng kêu vang", "âm vang", "hộp cộng hưởng", "cộng hưởng"):
        assert f'"{rendering}"' in mt2
    mt1 = next(r["detail"] for r in rows if r["target_document"] == "fow-basic-vi-mt1")
    assert '"bộ cộng hưởng"' in mt1 and '"cộng hưởng"' in mt1
    assert 'prefers "Resonator"' in mt2


def test_finds_every_number_that_differs(conn: sqlite3.Connection) -> None:
    """Any two-sided link whose numbers differ has a finding; "+5000" became "5000"."""
    flagged = {r["alignment"] for r in findings(conn, "number-mismatch")}
    texts = dict(conn.execute("SELECT id, text FROM rules").fetchall())
    for link in conn.execute(
        "SELECT * FROM alignments WHERE source_ids != '' AND target_ids != ''"
    ):
        source = set(numbers(" ".join(texts[i] for i in link["source_ids"].split())))
        target = set(numbers(" ".join(texts[i] for i in link["target_ids"].split())))
        assert (source != target) == (link["id"] in flagged), link["source_ids"]
    plus = [r for r in findings(conn, "number-mismatch") if "+5000" in r["detail"]]
    assert plus and plus[0]["target_document"] == "vg-basic-vi-mt2"


def test_no_floods(conn: sqlite3.Connection) -> None:
    """Per-link checks report once per link; terminology once per variant and term."""
    rows = conn.execute("SELECT * FROM translation_checks").fetchall()
    assert rows
    seen: set[tuple] = set()
    for row in rows:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", row["check_name"])
        assert row["severity"] in {"error", "warning", "info"}
        assert row["detail"] and "\n" not in row["detail"]
        key = (
            (row["check_name"], row["target_document"], row["term"])
            if row["check_name"].startswith("term-")
            else (row["check_name"], row["alignment"])
        )
        assert key not in seen, key
        seen.add(key)
    # Far fewer findings than aligned links with terms: terminology is aggregated.
    assert len(findings(conn, "term-non-preferred")) + len(findings(conn, "term-inconsistent")) < 80


def test_variant_disagreement_on_the_real_corpus(conn: sqlite3.Connection) -> None:
    rows = findings(conn, "variant-disagreement")
    chase = [r for r in rows if "Chase Area" in r["detail"]]
    assert chase and chase[0]["target_document"] == "fow-basic-vi-mt1"
    assert any("5000" in r["detail"] for r in rows)


# ---- small cases --------------------------------------------------------------------------


def document(
    doc_id: str, lang: str, texts: list[str], translation_of: str | None = None, variant: str = ""
) -> DocumentResult:
    """A processed document with one rule per text (ids ``<doc_id>:r1``, ``r2``...)."""
    spec = DocumentSpec(
        file=f"{doc_id}.txt", id=doc_id, game="fow", ruleset="basic", title=doc_id, lang=lang,
        provenance="test", era="",
    )  # fmt: skip
    doc = DocText(
        spec=spec, doc_id=doc_id, variant=variant or "original", lang=lang, provenance="test",
        preset="clean", title=doc_id, translation_of=translation_of, lines=[],
        raw=RawText(spec.file, spec.file, "utf-8", "0" * 64, 0, ""),
    )  # fmt: skip
    common = {"document": doc_id, "lang": lang, "ruleset": None, "era": None, "number": ""}
    root = Section(
        id=f"{doc_id}:top", parent=None, ord=0, level=0, title=doc_id, slug="top", path="",
        line_start=1, line_end=1, **common,
    )  # fmt: skip
    rules = [
        Rule(
            id=f"{doc_id}:r{n}", section=root.id, parent=None, game="fow", langs=lang,
            kind="paragraph", label="", title="", ord=n, depth=0, text=text, line_start=n,
            line_end=n, **common,
        )
        for n, text in enumerate(texts, start=1)
    ]  # fmt: skip
    return DocumentResult(doc=doc, sections=[root], rules=rules)


GLOSSARY = Glossary(
    (
        Term(
            "resonator",
            "fow",
            "Resonator",
            (),
            (
                Rendering("resonator", "vi", "vi", "Resonator", preferred=True),
                Rendering("resonator", "vi", "vi", "cộng hưởng"),
                Rendering("resonator", "vi", "vi", "tiếng kêu vang"),
            ),
        ),
        Term(
            "will",
            "fow",
            "Will",
            (),
            (
                Rendering("will", "vi", "vi", "Will", preferred=True),
                Rendering("will", "vi", "vi", "di chúc"),
            ),
        ),
    )
)


def run(source: list[str], target: list[str], pairs: list[tuple[list[int], list[int]]]):
    src = document("en", "en", source)
    tgt = document("vi", "vi", target, "en", "vi-mt1")
    links = [
        Link("en", "vi", tuple(f"en:r{i}" for i in s), tuple(f"vi:r{j}" for j in t), 0.9, "dp:x")
        for s, t in pairs
    ]
    return check_links(links, [src, tgt], GLOSSARY)


def only(checks: list[Check], name: str) -> list[Check]:
    return [c for c in checks if c.check == name]


def test_number_mismatch_and_signs() -> None:
    checks = run(
        ["Deal 6 damage.", "Gain +5000 Power.", "Draw 2 cards."],
        ["Gây 5 sát thương.", "Nhận 5000 sức mạnh.", "Rút 2 lá bài."],
        [([1], [1]), ([2], [2]), ([3], [3])],
    )
    found = only(checks, "number-mismatch")
    assert [(c.link, c.rule, c.severity) for c in found] == [
        (0, "vi:r1", "error"),
        (1, "vi:r2", "error"),
    ]
    assert "6" in found[0].detail and "5" in found[0].detail
    assert "+5000" in found[1].detail


def test_numbers_keep_their_sign_but_not_hyphens() -> None:
    assert numbers("+5000 and −1000, J-1, 0-1, (2)") == {
        "+5000": 1,
        "-1000": 1,
        "1": 2,
        "0": 1,
        "2": 1,
    }


def test_untranslated_words() -> None:
    checks = run(
        [
            "Abilities that trigger in the Main Phase activate.",
            'Choose "Omega" Glendios and do it.',
            "Recover your Resonator.",
        ],
        [
            "Abilities kích hoạt trong Main Phase sẽ kích hoạt.",
            'Chọn "Omega" Glendios và làm do nó.',
            "Phục hồi Resonator của bạn.",
        ],
        [([1], [1]), ([2], [2]), ([3], [3])],
    )
    found = only(checks, "untranslated")
    # "in"/"do" are Vietnamese too; quoted and listed names stay; "Resonator" is preferred.
    assert [(c.link, c.severity) for c in found] == [(0, "warning"), (2, "info")]
    assert "Abilities" in found[0].detail and "Main Phase" in found[0].detail
    assert "Resonator" in found[1].detail and "glossary" in found[1].detail


def test_left_as_is() -> None:
    checks = run(["Shield."], ["Shield."], [([1], [1])])
    (finding,) = only(checks, "untranslated")
    assert "left as it is" in finding.detail


def test_terms_non_preferred_and_inconsistent() -> None:
    checks = run(
        ["Summon a Resonator.", "Rest a Resonator.", "All Wills are destroyed.", "Wills stay."],
        [
            "Triệu hồi một cộng hưởng.",
            "Nghỉ một tiếng kêu vang.",
            "Tất cả di chúc bị phá hủy.",
            "Di chúc còn lại.",
        ],
        [([1], [1]), ([2], [2]), ([3], [3]), ([4], [4])],
    )
    (inconsistent,) = only(checks, "term-inconsistent")
    assert inconsistent.term == "resonator" and inconsistent.link == 0
    assert '"cộng hưởng" ×1' in inconsistent.detail and '"tiếng kêu vang" ×1' in inconsistent.detail
    (non_preferred,) = only(checks, "term-non-preferred")
    assert non_preferred.term == "will" and "×2" in non_preferred.detail


def test_modal_will_is_not_the_term() -> None:
    checks = run(
        ["This will be explained later."], ["Điều này sẽ được giải thích sau."], [([1], [1])]
    )
    assert not only(checks, "term-non-preferred")


def test_missing_and_extra() -> None:
    src = document("en", "en", ["Draw a card.", "Shuffle your deck."])
    tgt = document("vi", "vi", ["Rút một lá bài.", "Ghi chú của người dịch."], "en", "vi-mt1")
    links = [
        Link("en", "vi", ("en:r1",), ("vi:r1",), 0.8, "dp:anchors+length"),
        Link("en", "vi", ("en:r2",), (), 0.9, "dp:gap"),
        Link("en", "vi", (), ("vi:r2",), 0.9, "dp:gap"),
        Link("en", "vi", (), ("vi:r2",), 0.2, "dp:gap"),
        Link("en", "vi", ("en:r2",), (), 0.6, "dp:heading"),
    ]
    checks = check_links(links, [src, tgt], GLOSSARY)
    assert [(c.check, c.link, c.rule, c.severity) for c in checks] == [
        ("missing", 1, "en:r2", "error"),
        ("extra", 2, "vi:r2", "warning"),
        ("extra", 3, "vi:r2", "info"),
        ("missing", 4, "en:r2", "info"),
    ]


def test_variant_disagreement() -> None:
    src = document("en", "en", ["Deal 6 damage to a Resonator."])
    one = document("vi1", "vi", ["Gây 6 sát thương cho một cộng hưởng."], "en", "vi-mt1")
    two = document("vi2", "vi", ["Gây sát thương cho một Resonator."], "en", "vi-mt2")
    links = [
        Link("en", "vi1", ("en:r1",), ("vi1:r1",), 0.8, "dp:anchors+length"),
        Link("en", "vi2", ("en:r1",), ("vi2:r1",), 0.8, "dp:anchors+length"),
    ]
    found = only(check_links(links, [src, one, two], GLOSSARY), "variant-disagreement")
    by_doc = {c.target_document: c for c in found}
    assert "vi-mt1 keeps the number 6" in by_doc["vi2"].detail
    assert by_doc["vi2"].severity == "warning"
    assert 'vi-mt2 has the preferred "Resonator"' in by_doc["vi1"].detail
    assert by_doc["vi1"].severity == "info"


def test_checks_point_at_their_link_when_translations_of_two_sources_interleave() -> None:
    """The checks run one source document at a time: a finding must still name its link's
    index among all the links, and each check list its findings in link order."""
    en = document("en", "en", ["Deal 6 damage.", "Draw 2 cards."])
    fr = document("fr", "en", ["Gain 3 life.", "Discard 1 card."])
    en1 = document("en1", "vi", ["Gây 7 sát thương.", "Rút 2 lá."], "en", "vi-mt1")
    fr1 = document("fr1", "vi", ["Nhận 4 sinh lực.", "Bỏ 1 lá."], "fr", "vi-mt1")
    en2 = document("en2", "vi", ["Gây 6 sát thương.", "Rút 5 lá."], "en", "vi-mt2")
    links = [
        Link(s, t, (f"{s}:r{i}",), (f"{t}:r{i}",), 0.8, "dp:x")
        for s, t in (("en", "en1"), ("fr", "fr1"), ("en", "en2"))
        for i in (1, 2)
    ]
    checks = check_links(links, [en, fr, en1, fr1, en2], GLOSSARY)
    mismatches = only(checks, "number-mismatch")
    assert [(c.link, c.target_document) for c in mismatches] == [
        (0, "en1"),
        (2, "fr1"),
        (5, "en2"),
    ]
    for c in checks:
        assert c.link is not None and links[c.link].target_document == c.target_document
        assert c.rule in (*links[c.link].source_ids, *links[c.link].target_ids)
    # en's two translations disagree on both rules; fr has one translation: no disagreement.
    disagreements = only(checks, "variant-disagreement")
    assert {c.target_document for c in disagreements} <= {"en1", "en2"}
    assert [c.link for c in disagreements] == sorted(c.link for c in disagreements)
