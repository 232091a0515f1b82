"""Alignment quality against the hand-checked gold (tests/fixtures/gold_alignment.toml).

Counts links as pairs of (source rule, target rule) memberships: a 1-2 link is two pairs, a
1-0 or 0-1 link none. Precision is the share of the aligner's pairs that are in the gold, recall
the share of the gold's pairs the aligner found.

    .venv/bin/python bench/align_quality.py            # builds a fresh database first
    .venv/bin/python bench/align_quality.py --db kb.sqlite --json
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
import tomllib
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "tests" / "fixtures" / "gold_alignment.toml"

Pair = tuple[str, str]


def gold_pairs(path: Path = GOLD) -> dict[Pair, set[Pair]]:
    """(source document, target document) -> set of (source rule id, target rule id)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[Pair, set[Pair]] = {}
    for pair in data["pair"]:
        source, target = pair["source"], pair["target"]
        found = out.setdefault((source, target), set())
        for src_ids, tgt_ids in pair["links"]:
            found |= {(f"{source}:{s}", f"{target}:{t}") for s in src_ids for t in tgt_ids}
    return out


def system_pairs(conn: sqlite3.Connection) -> dict[Pair, set[Pair]]:
    """The same pairs, read from the alignment tables of a built database."""
    sides: dict[int, dict[str, list[str]]] = defaultdict(lambda: {"source": [], "target": []})
    docs: dict[int, Pair] = {}
    for row in conn.execute("SELECT id, source_document, target_document FROM alignments"):
        docs[row[0]] = (row[1], row[2])
    for alignment, rule, side in conn.execute(
        "SELECT alignment, rule, side FROM alignment_rules ORDER BY id"
    ):
        sides[alignment][side].append(rule)
    out: dict[Pair, set[Pair]] = defaultdict(set)
    for alignment, doc_pair in docs.items():
        members = sides[alignment]
        out[doc_pair] |= {(s, t) for s in members["source"] for t in members["target"]}
    return out


def score(gold: set[Pair], found: set[Pair]) -> dict[str, float]:
    hit = len(gold & found)
    precision = hit / len(found) if found else 0.0
    recall = hit / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "gold": len(gold),
        "found": len(found),
        "correct": hit,
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
    }


def evaluate(conn: sqlite3.Connection, gold_path: Path = GOLD) -> dict[str, dict[str, float]]:
    """Scores per "source -> target" pair of the gold, plus "overall" (micro-averaged)."""
    gold = gold_pairs(gold_path)
    found = system_pairs(conn)
    report = {f"{s} -> {t}": score(g, found.get((s, t), set())) for (s, t), g in gold.items()}
    all_gold = set().union(*gold.values())
    all_found = set().union(*(found.get(key, set()) for key in gold))
    report["overall"] = score(all_gold, all_found)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built database (default: build one)")
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from kb.store.build import build

            db = Path(tmp) / "kb.sqlite"
            started = time.perf_counter()
            build(REPO / "corpus", db)
            print(f"built {db.name} in {time.perf_counter() - started:.2f} s", file=sys.stderr)
        conn = sqlite3.connect(db)
        report = evaluate(conn, args.gold)
        conn.close()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'pair':<40} {'gold':>5} {'found':>5} {'ok':>4} {'P':>6} {'R':>6} {'F1':>6}")
    for name, s in report.items():
        print(
            f"{name:<40} {s['gold']:>5} {s['found']:>5} {s['correct']:>4} "
            f"{s['precision']:>6.3f} {s['recall']:>6.3f} {s['f1']:>6.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
