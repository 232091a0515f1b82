"""Alignment quality against the hand-checked golds (tests/fixtures/gold_alignment*.toml).

Counts links as pairs of (source rule, target rule) memberships: a 1-2 link is two pairs, a
1-0 or 0-1 link none. Precision is the share of the aligner's pairs that are in the gold, recall
the share of the gold's pairs the aligner found.

Two kinds of gold. A whole-document gold (``[[pair]]`` with every link of a document pair, as
gold_alignment.toml has for the machine translations) is compared with every pair the aligner
made. A sampled gold (``[[links]]``, one link each: a rule id per language, ``""`` for a rule
with no counterpart, as for an official translation checked rule by rule) is compared with the
aligner's pairs that touch one of its rules, and also says how many of its target rules were
aligned to exactly the right source rules (none, for a rule with no counterpart): "right".

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
from typing import Any

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "tests" / "fixtures" / "gold_alignment.toml"
GOLDS = sorted((REPO / "tests" / "fixtures").glob("gold_alignment*.toml"))
_NOT_IDS = ("quote", "note")  # keys of a sampled link that are not a language's rule id

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


def sampled_links(path: Path) -> list[dict[str, str]]:
    """The links of a sampled gold: language -> rule id ("" for no counterpart)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [{k: v for k, v in link.items() if not k.endswith(_NOT_IDS)} for link in data["links"]]


def _document(rule_id: str) -> str:
    return rule_id.split(":", 1)[0]


def _orient(
    link: dict[str, str], translates: dict[str, str], translated_by: dict[str, list[str]]
) -> tuple[Pair, str, str] | None:
    """((source document, target document), source rule, target rule) of a sampled link;
    None when the database holds no translation pair of its documents."""
    ids = [i for i in link.values() if i]
    docs = {_document(i) for i in ids}
    known = set(translates) | set(translated_by)
    if not docs <= known or (
        len(docs) == 1 and not (docs & set(translates) or any(translated_by.get(d) for d in docs))
    ):
        return None
    if len(docs) == 2:
        a, b = sorted(docs)
        source, target = (a, b) if translates.get(b) == a else (b, a)
    else:
        (only,) = docs
        if only in translates:  # a target rule with no source
            source, target = translates[only], only
        else:  # a source rule with no target: the one document translating it
            source, target = only, translated_by[only][0]
    by_doc = {_document(i): i for i in ids}
    return (source, target), by_doc.get(source, ""), by_doc.get(target, "")


def evaluate_sampled(conn: sqlite3.Connection, path: Path) -> dict[str, dict[str, float]]:
    """Scores of a sampled gold per "source -> target" pair, plus "overall"."""
    translates = dict(
        conn.execute("SELECT id, translation_of FROM documents WHERE translation_of IS NOT NULL")
    )
    translated_by: dict[str, list[str]] = defaultdict(list)
    for doc, original in sorted(translates.items()):
        translated_by[original].append(doc)
    found = system_pairs(conn)
    per: dict[Pair, dict[str, Any]] = defaultdict(
        lambda: {"gold": set(), "rules": set(), "targets": {}}
    )
    for link in sampled_links(path):
        oriented = _orient(link, translates, translated_by)
        if oriented is None:
            continue
        docs, source, target = oriented
        entry = per[docs]
        if source and target:
            entry["gold"].add((source, target))
        entry["rules"] |= {source, target} - {""}
        if target:
            entry["targets"][target] = {source} - {""}
    report: dict[str, dict[str, float]] = {}
    totals: dict[str, Any] = {"gold": set(), "found": set(), "right": 0, "targets": 0}
    for (source_doc, target_doc), entry in per.items():
        pairs = found.get((source_doc, target_doc), set())
        touching = {p for p in pairs if p[0] in entry["rules"] or p[1] in entry["rules"]}
        row = score(entry["gold"], touching)
        aligned: dict[str, set[str]] = defaultdict(set)
        for s, t in pairs:
            aligned[t].add(s)
        right = sum(1 for t, want in entry["targets"].items() if aligned.get(t, set()) == want)
        row["targets"] = len(entry["targets"])
        row["right"] = right
        row["right_share"] = round(right / len(entry["targets"]), 4) if entry["targets"] else 1.0
        report[f"{source_doc} -> {target_doc}"] = row
        totals["gold"] |= entry["gold"]
        totals["found"] |= touching
        totals["right"] += right
        totals["targets"] += len(entry["targets"])
    overall = score(totals["gold"], totals["found"])
    overall["targets"] = totals["targets"]
    overall["right"] = totals["right"]
    overall["right_share"] = round(totals["right"] / max(1, totals["targets"]), 4)
    report["overall"] = overall
    return report


def evaluate_any(conn: sqlite3.Connection, path: Path) -> dict[str, dict[str, float]]:
    """The scores of a gold of either kind."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return evaluate_sampled(conn, path) if "links" in data else evaluate(conn, path)


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
    parser.add_argument("--gold", type=Path, action="append", help="a gold (default: all)")
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
        reports = {path.name: evaluate_any(conn, path) for path in args.gold or GOLDS}
        conn.close()
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    for name, report in reports.items():
        print(f"{name}")
        print(
            f"{'pair':<52} {'gold':>5} {'found':>5} {'ok':>4} {'P':>6} {'R':>6} {'F1':>6}"
            f" {'right':>9}"
        )
        for pair, s in report.items():
            right = f"{s['right']}/{s['targets']}" if "right" in s else ""
            print(
                f"{pair:<52} {s['gold']:>5} {s['found']:>5} {s['correct']:>4} "
                f"{s['precision']:>6.3f} {s['recall']:>6.3f} {s['f1']:>6.3f} {right:>9}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
