"""How far reading verdicts from the best passages could go: the ceiling of kb ask's verdicts.

For each answerable question of a verdict set (tests/fixtures/verdicts*.toml), it asks
whether the rule the question's author named as deciding it (``because``) is among the
passages kb ask ranks first (top-1, top-3, top-5): no verdict read from the passages can be
right more often than the deciding rule is found. For yes/no questions it also asks whether
some clause of that deciding rule, read by its modality against the question's ("can X" and
"X cannot": no), gives the expected answer: the most a reader of modalities could get right
if it always picked the right clause and never answered from a wrong one.

    python bench/verdict_ceiling.py [--db kb.sqlite] [--questions FILE ...]

It prints, per set, those shares beside the verdicts kb ask composes now (right, wrong).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from verdicts import judge  # noqa: E402

DEFAULT_SETS = (
    "verdicts.toml",
    "verdicts_dev2.toml",
    "verdicts_dev3.toml",
    "verdicts_dev4.toml",
)


def _rank(hits: list[dict[str, Any]], because: set[str]) -> int | None:
    """The position of the first passage that is (or stands for) a deciding rule."""
    for i, hit in enumerate(hits):
        if hit["id"] in because or because & set(hit.get("also") or []):
            return i
    return None


def _modality_reads(conn: Any, question: dict[str, Any], rules: list[str]) -> bool:
    """Some clause of the deciding rules reads to the expected yes/no by modality."""
    from kb.ask.passes_asks import lexicon
    from kb.ask.verdicts.statement import reading
    from kb.store.db import run

    asked = lexicon().modality(question["q"])
    facts = run(conn, "verdict_rule_statements", ids=rules)
    return any(reading(asked, f["modality"]) == question["expect"] for f in facts)


def measure(conn: Any, questions: list[dict[str, Any]]) -> dict[str, int]:
    from kb.ask import ask

    out = dict.fromkeys(
        ("answerable", "top1", "top3", "top5", "yesno", "yesno_clause", "right", "wrong"), 0
    )
    for q in questions:
        result = ask(conn, q["q"], limit=5)
        outcome = judge(q, result["answer"])
        out["wrong"] += outcome == "wrong"
        if not q["answerable"]:
            continue
        out["answerable"] += 1
        out["right"] += outcome == "right"
        at = _rank(result["hits"], set(q["because"]))
        for k in (1, 3, 5):
            out[f"top{k}"] += at is not None and at < k
        if q["type"] == "yesno" and q["expect"] in ("yes", "no"):
            out["yesno"] += 1
            out["yesno_clause"] += _modality_reads(conn, q, q["because"])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument("--questions", type=Path, action="append")
    args = parser.parse_args()
    from kb.store.db import connect

    conn = connect(args.db)
    sets = args.questions or [REPO / "tests" / "fixtures" / name for name in DEFAULT_SETS]
    print(
        f"{'set':<24} {'answerable':>10} {'rule top-1':>11} {'top-3':>6} {'top-5':>6} "
        f"{'yes/no read':>12} {'kb ask right':>13} {'wrong':>6}"
    )
    for path in sets:
        questions = tomllib.loads(path.read_text(encoding="utf-8"))["questions"]
        m = measure(conn, questions)
        n = max(1, m["answerable"])
        print(
            f"{path.name:<24} {m['answerable']:>10} {m['top1'] / n:>11.0%} {m['top3'] / n:>6.0%} "
            f"{m['top5'] / n:>6.0%} {m['yesno_clause']:>5}/{m['yesno']:<6} "
            f"{m['right']:>13} {m['wrong']:>6}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
