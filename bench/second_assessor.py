"""How many misses are misses: a second, blind assessor for the first passages that missed.

bench/retrieval.py counts a first passage right only when the question's author cited it (or a
version or translation of it). A first passage the author did not cite may still decide the
question, and then the figures undercount. As IR research does with pooled judgments, this
puts the first passage of a sample of misses next to the author's first cited rule, in random
order and unlabelled, for an assessor who sees only the question and the two passages (a
helper, told to judge each passage on its own: decides, partly, no); then it scores the
judgments against the key.

    python bench/retrieval.py --sets spent --json /tmp/spent.json
    python bench/second_assessor.py pairs /tmp/spent.json --db kb.sqlite --out /tmp/blind \\
        --key /tmp/key.json            # writes /tmp/blind/items.md; the key stays apart
    # the assessor writes /tmp/blind/judgments.json: [{"n": 1, "A": "decides", "B": "no"}, ...]
    python bench/second_assessor.py score /tmp/key.json /tmp/blind/judgments.json

The fresh held-out set is never sampled: pass the JSON of spent sets only.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _passage(conn: sqlite3.Connection, rule: str) -> dict[str, Any] | None:
    row = conn.execute(
        "select r.text, r.game, d.title from rules r join documents d on d.id = r.document "
        "where r.id = ?",
        (rule,),
    ).fetchone()
    return None if row is None else {"text": row[0][:1500], "game": row[1], "title": row[2]}


def pairs(results: list[dict[str, Any]], conn: sqlite3.Connection, n: int, seed: int) -> list[Any]:
    """``n`` misses (first passage not cited), each with its first passage and the first cited
    rule in random order."""
    games = dict(conn.execute("select id, name from games").fetchall())
    rng = random.Random(seed)
    misses = [r for r in results if r["ranks"]["hits"] != 0 and r["top"] and r["gold"]]
    rng.shuffle(misses)
    items: list[dict[str, Any]] = []
    for r in misses:
        top, gold = r["top"][0], r["gold"][0]
        shown = [("top", top, _passage(conn, top)), ("gold", gold, _passage(conn, gold))]
        if top == gold or any(p is None for _, _, p in shown):
            continue
        rng.shuffle(shown)
        item = {"n": len(items) + 1, "q": r["q"], "lang": r["lang"], "set": r["set"]}
        item["game"] = games.get(r["game"], r["game"])
        for side, (role, rule, p) in zip("AB", shown, strict=True):
            assert p is not None
            item[side] = {"is": role, "rule": rule, **p, "game": games.get(p["game"], p["game"])}
        items.append(item)
        if len(items) == n:
            break
    return items


def blind(items: list[dict[str, Any]]) -> str:
    """The items as the assessor sees them: no rule ids, no roles."""
    out = []
    for it in items:
        out.append(f"## Item {it['n']}\nGame the question is about: {it['game']}\n")
        out.append(f"Question ({it['lang']}): {it['q']}\n\n")
        for side in "AB":
            p = it[side]
            out.append(f"Passage {side} [{p['game']} / {p['title']}]: {p['text']}\n\n")
    return "".join(out)


def score(items: list[dict[str, Any]], judged: list[dict[str, str]]) -> dict[str, Counter[str]]:
    """Judgments of the first passage and of the cited rule, overall and by language and
    game."""
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for it, j in zip(items, judged, strict=True):
        assert it["n"] == j["n"], "judgments out of order"
        for side in "AB":
            role = it[side]["is"]
            by[f"{role}"][j[side]] += 1
            if role == "top":
                by[f"top, {it['lang']}"][j[side]] += 1
                by[f"top, {it['game']}"][j[side]] += 1
    return by


def blind_commands(doc: str, making: str, purpose: str) -> tuple[Any, Any]:
    """The command line of a blind assessment: ``making`` writes the items (--db, --out, --key,
    --seed; add its own), ``score`` scores the judgments against the key."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser(making, help=purpose)
    make.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    make.add_argument("--out", type=Path, required=True, help="folder for items.md")
    make.add_argument("--key", type=Path, required=True, help="where the key goes (keep apart)")
    make.add_argument("--seed", type=int, default=7)
    rate = sub.add_parser("score", help="score an assessor's judgments")
    rate.add_argument("key", type=Path)
    rate.add_argument("judgments", type=Path)
    return parser, make


def main() -> None:
    parser, make = blind_commands(__doc__, "pairs", "sample misses and write the blind items")
    make.add_argument("results", type=Path, help="bench/retrieval.py --json output")
    make.add_argument("-n", type=int, default=150)
    args = parser.parse_args()
    if args.command == "pairs":
        conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
        items = pairs(json.loads(args.results.read_text()), conn, args.n, args.seed)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "items.md").write_text(blind(items), encoding="utf-8")
        args.key.write_text(json.dumps(items, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"{len(items)} items -> {args.out / 'items.md'}; key -> {args.key}")
        return
    items = json.loads(args.key.read_text())
    judged = json.loads(args.judgments.read_text())
    print(f"{'passage':<28} {'n':>4} {'decides':>8} {'partly':>7} {'no':>5}")
    for name, c in sorted(score(items, judged).items(), key=lambda kv: (" " in kv[0], kv[0])):
        n = sum(c.values())
        row = " ".join(f"{100 * c[k] / n:6.1f}%" for k in ("decides", "partly", "no"))
        print(f"{name:<28} {n:>4} {row}")


if __name__ == "__main__":
    main()
