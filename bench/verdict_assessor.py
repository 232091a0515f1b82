"""How right are the composed verdicts: a second, blind assessor for bench/verdicts.py's judge.

bench/verdicts.py judges a composed verdict by the words the question's author accepts ("no",
"16", "after damage calculation"): a right ruling in other words counts wrong ("the end of the
Damage Step" for "at the end of the Damage Step" is one), and a wrong one may hold an accepted
word. The project's line is a verdict right at least 99 times in 100, so this measures that
judge: every verdict it calls wrong and a sample of those it calls right, in random order and
unlabelled, each shown with the question and the author's expected answer to an assessor (a
helper) who says whether the verdict gives the same ruling: same, partly, different. Then it
scores the judgments against the key and estimates the share of right verdicts over all of
them.

    python bench/verdict_assessor.py items --db kb.sqlite --sets spent+seen --out /tmp/va \\
        --key /tmp/va-key.json          # writes /tmp/va/items.md; the key stays apart
    # the assessor writes /tmp/va/judgments.json: [{"n": 1, "ruling": "same"}, ...]
    python bench/verdict_assessor.py score /tmp/va-key.json /tmp/va/judgments.json

The fresh held-out set is never read: name spent and seen sets only.
"""

from __future__ import annotations

import json
import random
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
JUDGMENTS = ("same", "partly", "different")


def verdicts(db: Path, paths: list[Path]) -> list[dict[str, Any]]:
    """Every question of the sets that gets a composed verdict, judged by bench/verdicts.py."""
    from verdicts import judge

    from kb.ask import ask
    from kb.store.db import connect

    conn = connect(db)
    out = []
    for path in paths:
        for q in tomllib.loads(path.read_text(encoding="utf-8"))["questions"]:
            answer = ask(conn, q["q"])["answer"] or {}
            if not answer.get("verdict"):
                continue
            quotes = [b.get("quote") or "" for b in answer.get("because", [])]
            out.append(
                {
                    "set": path.stem,
                    "id": q["id"],
                    "q": q["q"],
                    "lang": q["lang"],
                    "expect": q["expect"] or "(the documents do not decide this)",
                    "answer": answer.get("ruling") or answer["verdict"],
                    "quotes": list(dict.fromkeys(x for x in quotes if x))[:2],
                    "bench": judge(q, answer),
                }
            )
    return out


def sample(found: list[dict[str, Any]], right: int, seed: int) -> list[dict[str, Any]]:
    """Every verdict the judge calls wrong and ``right`` of those it calls right, shuffled."""
    rng = random.Random(seed)
    called_right = [f for f in found if f["bench"] == "right"]
    items = [f for f in found if f["bench"] != "right"]
    items += rng.sample(called_right, min(right, len(called_right)))
    rng.shuffle(items)
    return [{"n": i + 1, **item} for i, item in enumerate(items)]


def blind(items: list[dict[str, Any]]) -> str:
    """The items as the assessor sees them: no set, no judge's label."""
    out = []
    for it in items:
        out.append(f"## Item {it['n']}\nQuestion ({it['lang']}): {it['q']}\n\n")
        out.append(f"Expected answer (the question's author): {it['expect']}\n\n")
        out.append(f"Verdict given: {it['answer']}\n\n")
        out += [f"Rule it quotes: {quote}\n\n" for quote in it["quotes"]]
    return "".join(out)


def score(key: dict[str, Any], judged: list[dict[str, str]]) -> list[str]:
    """The assessor's judgments by the judge's label, and the share of right verdicts over all
    the sets' verdicts (each label's count weighted by its share judged the same ruling)."""
    items = key["items"]
    by: dict[str, Counter[str]] = {"right": Counter(), "wrong": Counter()}
    for it, j in zip(items, judged, strict=True):
        assert it["n"] == j["n"], "judgments out of order"
        by[it["bench"]][j["ruling"]] += 1
    lines = [f"{'judge says':<12} {'n':>4} " + " ".join(f"{k:>10}" for k in JUDGMENTS)]
    for label, c in by.items():
        n = sum(c.values())
        lines.append(f"{label:<12} {n:>4} " + " ".join(f"{c[k]:>10}" for k in JUDGMENTS))
    totals = key["totals"]
    same = {label: c["same"] / max(1, sum(c.values())) for label, c in by.items()}
    estimate = sum(totals[label] * same[label] for label in by)
    answered = sum(totals.values())
    lines.append(
        f"\n{answered} composed verdicts: judge {totals['right']} right, {totals['wrong']} "
        f"wrong ({100 * totals['right'] / max(1, answered):.1f}% right); by the assessor's "
        f"'same ruling', about {estimate:.0f} right ({100 * estimate / max(1, answered):.1f}%)"
    )
    return lines


def main() -> int:
    sys.path.insert(0, str(REPO / "bench"))
    from retrieval import FRESH, set_paths
    from second_assessor import blind_commands

    parser, make = blind_commands(__doc__, "items", "decide the sets, write the blind items")
    make.add_argument("--sets", default="spent+seen")
    make.add_argument("--right", type=int, default=60, help="verdicts called right to sample")
    args = parser.parse_args()
    if args.command == "score":
        key = json.loads(args.key.read_text())
        print("\n".join(score(key, json.loads(args.judgments.read_text()))))
        return 0
    # Verdict sets only (the other held-out sets expect passages, not verdicts).
    paths = [
        p for p in set_paths(args.sets) if p.name.startswith("verdicts") and p.name not in FRESH
    ]
    found = verdicts(args.db, paths)
    items = sample(found, args.right, args.seed)
    totals = dict(Counter(f["bench"] for f in found))
    totals = {"right": totals.get("right", 0), "wrong": totals.get("wrong", 0)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "items.md").write_text(blind(items), encoding="utf-8")
    key = {"sets": [p.name for p in paths], "totals": totals, "items": items}
    args.key.write_text(json.dumps(key, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(found)} verdicts {totals}; {len(items)} items -> {args.out / 'items.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
