"""Segmentation and language detection on small texts in the shapes the corpus has."""

from __future__ import annotations

import pytest

from ingest.langdetect import detect_language
from ingest.records import DocText, DocumentSpec, HeadingHint, Line, RawText
from ingest.segment import segment


def doc(text: str, **spec: object) -> tuple[DocText, list[Line]]:
    fields: dict[str, object] = dict(
        file="t.txt",
        id="t",
        game="fow",
        ruleset="",
        title="t",
        lang="en",
        provenance="unknown",
        era="",
    )
    fields.update(spec)
    raw = RawText("t.txt", "t.txt", "utf-8", "", 0, text)
    d = DocText(
        DocumentSpec(**fields), "t", "original", "en", "unknown", "clean", "t", None, [], raw
    )  # type: ignore[arg-type]
    return d, [Line(i, t) for i, t in enumerate(text.split("\n"), start=1)]


def shape(text: str, **spec: object) -> list[tuple[str, int, str, str, str, int | None]]:
    blocks, _, _ = segment(*doc(text, **spec))
    return [(b.kind, b.level, b.number or b.label, b.title, b.text, b.parent) for b in blocks]


def test_comprehensive_rules_numbering_and_parents() -> None:
    text = "\n".join(
        [
            "100. Overview",
            "101. General",
            "101.1. This is a rule.",
            "101.1a. A sub-rule.",
            "101.1a-i. A sub-sub-rule.",
        ]
    )
    assert shape(text, numbering="cr") == [
        ("heading", 1, "100", "Overview", "Overview", None),
        ("heading", 2, "101", "General", "General", None),
        ("rule", 1, "101.1", "", "This is a rule.", None),
        ("rule", 2, "101.1a", "", "A sub-rule.", 2),
        ("rule", 3, "101.1a-i", "", "A sub-sub-rule.", 3),
    ]


def test_depth_markers_that_disagree_with_numbers_are_warned() -> None:
    d, lines = doc("101.1. Rule.", numbering="cr")
    lines[0].depth = 5
    _, warnings, _ = segment(d, lines)
    assert warnings == ["t.txt:1: rule 101.1 has depth marker 5 but its number says 3"]


def test_bullets_nest_and_examples_take_their_indented_body() -> None:
    text = (
        "• Các lá bài có thể kích hoạt:\n"
        "  1. Bài Bẫy Phản hồi\n"
        "  • Điều này có nghĩa là.\n"
        "• Ví dụ 4: Honest Vs. Honest\n"
        '  Người A có "honest" trên tay.'
    )
    assert shape(text) == [
        ("bullet", 1, "", "", "Các lá bài có thể kích hoạt:", None),
        ("item", 2, "1", "", "Bài Bẫy Phản hồi", 0),
        ("bullet", 2, "", "", "Điều này có nghĩa là.", 0),
        ("example", 1, "Ví dụ 4", "Honest Vs. Honest", 'Người A có "honest" trên tay.', None),
    ]


def test_questions_take_the_answers_that_follow() -> None:
    text = (
        "How to launch the trap card?\nSet it first.\nThen wait a turn.\nWhat is a chain?\nA stack."
    )
    kinds = [(k, p) for k, _, _, _, _, p in shape(text)]
    assert kinds == [
        ("question", None),
        ("answer", 0),
        ("answer", 0),
        ("question", None),
        ("answer", 3),
    ]


def test_wrapped_sentence_is_joined_and_layout_headings_found() -> None:
    text = "\n".join(
        [
            "Deck Rules",
            "",
            "If there is a significant waste,",
            "the referee will warn the player.",
            "",
            "Regulation",
            "One deck only.",
        ]
    )
    assert [(k, t) for k, _, _, _, t, _ in shape(text)] == [
        ("heading", "Deck Rules"),
        ("paragraph", "If there is a significant waste, the referee will warn the player."),
        ("heading", "Regulation"),
        ("paragraph", "One deck only."),
    ]


def test_a_sentence_ending_inside_its_parenthesis_is_not_a_heading() -> None:
    # fow-basic-vi-mt2 line 124: a list item of the Main Phase, not a section.
    text = "Main Phase\nTiến Battle (Điều này sẽ được giải thích sau.)\nEnd Phase"
    assert [(k, t) for k, _, _, _, t, _ in shape(text)] == [
        ("heading", "Main Phase"),
        ("paragraph", "Tiến Battle (Điều này sẽ được giải thích sau.)"),
        ("heading", "End Phase"),
    ]


def test_manifest_hints_decide_headings_and_rulesets() -> None:
    hints = (HeadingHint(pattern=r"^Battle \((TCG|OCG)\)$", level=1, ruleset="tcg"),)
    blocks, _, _ = segment(
        *doc("Battle (TCG)\nShort line without period\nA sentence.", headings=hints)
    )
    assert [(b.kind, b.ruleset) for b in blocks] == [
        ("heading", "tcg"),
        ("paragraph", None),
        ("paragraph", None),
    ]


@pytest.mark.parametrize(
    ("text", "lang", "langs"),
    [
        ("The turn player declares that he/she is entering the Battle Phase.", "en", "en"),
        ("Người có lượt được ưu tiên kích hoạt các lá bài Phép Mức 2 lúc này.", "vi", "vi"),
        ("Abilities kích hoạt ở cuối lượt kích hoạt.", "vi", "vi"),
        (
            "DMI限制卡：闪电、黑洞、羽毛扫、大岚、死者苏生、过早的埋葬、心变、强夺、强欲之壶、成金",
            "zh",
            "zh",
        ),
        (
            "DMI限制卡：闪电、黑洞、Demon, handwing, bitter choice, restrictions, the power",
            "en",
            "en+zh",
        ),
        ("Japanese name: Demon Director ブレ ブレ イ カ ー", "en", "en+ja"),
        ("1600 / 1000", "und", "und"),
    ],
)
def test_language_per_segment(text: str, lang: str, langs: str) -> None:
    detected = detect_language(text)
    assert (detected.lang, detected.langs) == (lang, langs)
