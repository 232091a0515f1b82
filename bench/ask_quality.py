"""Quality of `kb ask` on the judge question set, next to plain FTS5 BM25 on the same database.

Prints top-1 and top-3 accuracy overall and per game, query language and kind. A question
counts as answered at k when one of its answer ids is among the first k passages (a passage
that stands for the same text in several versions counts for all of them).

    python bench/ask_quality.py [--db kb.sqlite] [--questions FILE] [--misses]
                                [--floor TOP1,TOP3]

With ``--floor 0.85,0.95`` it exits with status 1 when the overall top-1 or top-3 accuracy
falls below the floor (a check for CI or a pre-release run; the unit tests hold none).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def load_questions(path: Path) -> list[dict[str, Any]]:
    return tomllib.loads(path.read_text(encoding="utf-8"))["questions"]


def kb_ask_ids(conn: sqlite3.Connection, question: str) -> list[dict[str, None]]:
    """Per hit, its id first, then the ids of the same text elsewhere (ordered like a set)."""
    from kb.ask import ask

    result = ask(conn, question, limit=3)
    return [dict.fromkeys([h["id"], *h["also"]]) for h in result["hits"]]


def bm25_ids(conn: sqlite3.Connection, question: str) -> list[dict[str, None]]:
    """Plain FTS5: every word quoted, any word may match, ranked by BM25 over all columns."""
    from ingest.text import cjk_bigrams, words

    terms = []
    for w in words(question):
        grams = cjk_bigrams(w) if len(w) > 1 and not w.isascii() and not w.isalpha() else [w]
        terms += ['"' + g.replace('"', '""') + '"' for g in grams]
    if not terms:
        return []
    rows = conn.execute(
        "SELECT r.id FROM rules_fts JOIN rules r ON r.seq = rules_fts.rowid WHERE rules_fts MATCH "
        "? "
        "ORDER BY bm25(rules_fts) LIMIT 3",
        (" OR ".join(terms),),
    ).fetchall()
    return [{r[0]: None} for r in rows]


def evaluate(
    questions: list[dict[str, Any]], rank: Any
) -> tuple[dict[str, list[float]], list[dict[str, Any]]]:
    groups: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0])
    misses = []
    for q in questions:
        ranked = rank(q["q"])
        answers = set(q["answers"])
        top1 = bool(ranked and ranked[0].keys() & answers)
        top3 = any(ids.keys() & answers for ids in ranked[:3])
        for key in ("all", f"game:{q['game']}", f"lang:{q['lang']}", f"kind:{q['kind']}"):
            groups[key][0] += 1
            groups[key][1] += top1
            groups[key][2] += top3
        if not top1:
            misses.append(
                {
                    "q": q["q"],
                    "top3": top3,
                    "got": [next(iter(i)) for i in ranked[:3]],
                    "want": q["answers"][:3],
                }
            )
    return groups, misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument(
        "--questions", type=Path, default=REPO / "tests" / "fixtures" / "questions.toml"
    )
    parser.add_argument(
        "--misses", action="store_true", help="List the questions kb ask gets wrong at top 1."
    )
    parser.add_argument(
        "--floor", default="", help="TOP1,TOP3: exit 1 when overall accuracy is below either."
    )
    args = parser.parse_args()
    if not args.db.exists():
        from kb.store.build import build

        build(REPO / "corpus", args.db)
    from kb.store.db import connect

    conn = connect(args.db)
    questions = load_questions(args.questions)
    ask_groups, ask_misses = evaluate(questions, lambda q: kb_ask_ids(conn, q))
    bm25_groups, _ = evaluate(questions, lambda q: bm25_ids(conn, q))
    print(f"{len(questions)} questions, database {args.db}")
    print(
        f"{'group':<18} {'n':>4}  {'kb ask top-1':>12} {'top-3':>7}   {'BM25 top-1':>10} "
        f"{'top-3':>7}"
    )
    for key in sorted(ask_groups, key=lambda k: (k != "all", k)):
        n, a1, a3 = ask_groups[key]
        _, b1, b3 = bm25_groups[key]
        print(f"{key:<18} {n:>4}  {a1 / n:>12.1%} {a3 / n:>7.1%}   {b1 / n:>10.1%} {b3 / n:>7.1%}")
    if args.misses:
        print("\nkb ask misses at top 1:")
        for m in ask_misses:
            print(
                f"  {'(top-3 ok) ' if m['top3'] else ''}{m['q']!r}: got {m['got']} want {m['want']}"
            )
    if args.floor:
        floor1, floor3 = (float(x) for x in args.floor.split(","))
        n, a1, a3 = ask_groups["all"]
        if a1 / n < floor1 or a3 / n < floor3:
            print(f"below the floor {args.floor}: {a1 / n:.1%}, {a3 / n:.1%}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
