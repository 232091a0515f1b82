"""Tune the thresholds of kb ask's verdicts on the development verdict sets.

Coordinate ascent: each threshold of kb/data/verdict_thresholds.toml is tried over its grid,
keeping a change only when it raises the score on the development sets
(tests/fixtures/verdicts.toml, verdicts_dev2.toml, verdicts_dev3.toml): right verdicts minus
ten times the wrong ones (a wrong verdict is worse than no verdict). The held-out sets
(verdicts_holdout*.toml) are never read here; run bench/verdicts.py on them afterwards for the
honest figure.

    python bench/tune_verdicts.py [--db kb.sqlite] [--rounds 2] [--write]

It prints each step and the thresholds it found; with ``--write`` it writes them to
kb/data/verdict_thresholds.toml, the file kb ask reads.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from verdicts import judge  # noqa: E402

DEV_SETS = ("verdicts.toml", "verdicts_dev2.toml", "verdicts_dev3.toml")
WRONG_COST = 10
GRID = {
    "passages": [2, 3, 4, 5],
    "min_coverage": [0.3, 0.4, 0.5, 0.6, 0.7],
    "slack_from": [4, 5, 6, 99],
    "slack_passage_from": [3, 4, 5, 99],
    "min_condition_share": [0.4, 0.5, 0.6, 0.7],
    "min_doubt_share": [0.2, 0.34, 0.5, 0.99],
    "min_qualifier_share": [0.34, 0.5, 0.67, 1.0],
    "min_outcome_share": [0.5, 0.6, 0.7, 0.8],
    "clause_extra_words": [0, 1, 2],
}
HEADER = """\
# Thresholds of kb ask's verdicts (kb/ask/verdicts/). Written by `python bench/tune_verdicts.py
# --write`, which chooses them on the development verdict sets (tests/fixtures/verdicts.toml,
# verdicts_dev2.toml and verdicts_dev3.toml), a wrong verdict counting as ten abstentions; the
# held-out sets are never read there. Do not edit by hand.
"""


def _questions() -> list[dict]:
    out = []
    for name in DEV_SETS:
        text = (REPO / "tests" / "fixtures" / name).read_text(encoding="utf-8")
        out += tomllib.loads(text)["questions"]
    return out


def _score(conn, questions: list[dict]) -> tuple[int, int, int]:  # noqa: ANN001
    """(score, right, wrong) with the thresholds currently loaded."""
    from kb.ask import ask

    right = wrong = 0
    for q in questions:
        outcome = judge(q, ask(conn, q["q"])["answer"])
        if q["answerable"]:
            right += outcome == "right"
        wrong += outcome == "wrong"
    return right - WRONG_COST * wrong, right, wrong


def _write(values: dict[str, float]) -> None:
    lines = [HEADER, "[thresholds]"]
    lines += [f"{k} = {v:g}" for k, v in values.items()]
    path = REPO / "kb" / "data" / "verdict_thresholds.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if not args.db.exists():
        from kb.store.build import build

        build(REPO / "corpus", args.db)
    from kb.store import datafiles
    from kb.store.db import connect

    conn = connect(args.db)
    for name in datafiles.ASK_FILES:
        datafiles.load(name, conn)
    current = datafiles.load("verdict_thresholds")["thresholds"]  # patched in place below
    questions = _questions()
    best, right, wrong = _score(conn, questions)
    print(f"start: score {best} (right {right}, wrong {wrong}) {dict(current)}")
    for round_ in range(1, args.rounds + 1):
        changed = False
        for name, grid in GRID.items():
            keep = current[name]
            for value in grid:
                if value == keep:
                    continue
                current[name] = value
                score, right, wrong = _score(conn, questions)
                if score > best:
                    best, keep, changed = score, value, True
                    print(f"round {round_}: {name} = {value}: score {score} ({right}, {wrong})")
            current[name] = keep
        if not changed:
            break
    print(f"best: score {best} {dict(current)}")
    if args.write:
        _write(dict(current))
    return 0


if __name__ == "__main__":
    sys.exit(main())
