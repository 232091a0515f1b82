"""bench/verdicts.py's judge reads an expected yes or no as the sets' authors wrote it: a
sentence opening with it, in English or Vietnamese, and the kind spelled with a hyphen."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from verdicts import judge  # noqa: E402


def _q(expect: str, accept: list[str], kind: str = "yesno") -> dict[str, object]:
    return {"answerable": True, "type": kind, "expect": expect, "accept": accept}


def test_an_expected_yes_or_no_is_the_word_its_sentence_opens_with() -> None:
    vietnamese = _q("Có. Bài Bẫy Phản hồi nằm trong danh sách ...", ["có"], kind="yes-no")
    assert judge(vietnamese, {"verdict": "yes"}) == "right"
    assert judge(vietnamese, {"verdict": "no"}) == "wrong"
    english = _q("No. The starting player skips the draw.", ["no"])
    assert judge(english, {"verdict": "no"}) == "right"
    assert judge(english, {"verdict": "yes"}) == "wrong"
    assert judge(_q("Không thể, vì ...", []), {"verdict": "no"}) == "right"
    assert judge(_q("depends", ["depends"]), {"verdict": "yes"}) == "wrong"
    assert judge(_q("yes", ["yes"]), None) == "abstained"


def test_a_how_many_spelled_with_a_hyphen_is_judged_by_its_number() -> None:
    q = _q("16 cards at most.", ["16"], kind="how-many")
    assert judge(q, {"verdict": "16"}) == "right"
    assert judge(q, {"verdict": "15"}) == "wrong"
