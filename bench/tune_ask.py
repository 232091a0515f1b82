"""Tune the re-ranking weights of `kb ask` on half of the question set, check on the other half.

The features of every candidate passage do not depend on the weights, so they are computed
once per question; coordinate ascent then tries each weight over a grid, keeping a change only
when it raises top-1 + top-3 accuracy on the tuning half (even-numbered questions). The other
half (odd-numbered) is never used to choose a weight: its accuracy is the honest estimate.

    python bench/tune_ask.py [--db kb.sqlite] [--rounds 3] [--only FEATURE,...] [--write]

It prints the weights it found; with ``--write`` it writes them to kb/data/ask_weights.toml,
the file kb ask reads (only do so when they are better on both halves). The held-out question
sets (questions_holdout*.toml) are never read here.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GRID = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)


def features(
    db: Path, questions: list[dict]
) -> list[tuple[set[str], list[tuple[set[str], dict[str, float], int]]]]:
    from kb.ask.rank import rank
    from kb.ask.retrieve import gather
    from kb.ask.understand import understand
    from kb.store.db import connect
    from kb.store.vocabulary import load_vocabulary

    conn = connect(db)
    vocab = load_vocabulary(conn)
    out = []
    for q in questions:
        u = understand(conn, q["q"], vocab)
        rows = rank(conn, u, gather(conn, u, u.game or ""))
        out.append((set(q["answers"]), [({r["id"]}, r["features"], r["seq"]) for r in rows]))
    return out


def accuracy(data, weights: dict[str, float]) -> tuple[float, float]:
    top1 = top3 = 0
    for gold, rows in data:
        ranked = sorted(rows, key=lambda r: (-sum(weights[k] * v for k, v in r[1].items()), r[2]))
        ids = [r[0] for r in ranked[:3]]
        top1 += bool(ids and ids[0] & gold)
        top3 += any(i & gold for i in ids)
    n = len(data) or 1
    return top1 / n, top3 / n


def report(label: str, tune: tuple[float, float], held: tuple[float, float]) -> None:
    print(
        f"{label}: tune top-1/top-3 = {tune[0]:.1%}/{tune[1]:.1%}, "
        f"held-out = {held[0]:.1%}/{held[1]:.1%}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument(
        "--questions", type=Path, default=REPO / "tests" / "fixtures" / "questions.toml"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="Write kb/data/ask_weights.toml.")
    parser.add_argument(
        "--only",
        default="",
        help="FEATURE,...: tune only these weights (a new feature), keeping the others.",
    )
    args = parser.parse_args()
    from kb.ask.rank import weights as current_weights

    WEIGHTS = current_weights()  # a feature not weighed yet starts at 0
    only = {name for name in args.only.split(",") if name}
    unknown = only - set(WEIGHTS)
    if unknown:
        parser.error(f"--only: no feature {', '.join(sorted(unknown))}")

    questions = tomllib.loads(args.questions.read_text(encoding="utf-8"))["questions"]
    data = features(args.db, questions)
    tune, held = data[0::2], data[1::2]
    weights = dict(WEIGHTS)

    def objective(w: dict[str, float]) -> float:
        a1, a3 = accuracy(tune, w)
        return a1 + a3

    report("current weights", accuracy(tune, weights), accuracy(held, weights))
    best = objective(weights)
    for _ in range(args.rounds):
        for key in weights:
            if key == "coverage" or (only and key not in only):
                continue  # coverage is the scale: every other weight is relative to it
            for value in GRID if key != "machine" else [-g for g in GRID]:
                trial = {**weights, key: value}
                score = objective(trial)
                if score > best + 1e-9:
                    best, weights = score, trial
    report("tuned weights  ", accuracy(tune, weights), accuracy(held, weights))
    print("WEIGHTS =", {k: round(v, 2) for k, v in weights.items()})
    if args.write:
        write_weights(weights)
        print(f"wrote {WEIGHTS_FILE.relative_to(REPO)}")
    return 0


WEIGHTS_FILE = REPO / "kb" / "data" / "ask_weights.toml"


def write_weights(weights: dict[str, float]) -> None:
    """kb/data/ask_weights.toml: the header comment kept, the [weights] table rewritten."""
    text = WEIGHTS_FILE.read_text(encoding="utf-8")
    header = text.split("[weights]")[0]
    body = "\n".join(f"{k} = {round(v, 2)}" for k, v in weights.items())
    WEIGHTS_FILE.write_text(f"{header}[weights]\n{body}\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
