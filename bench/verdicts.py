"""Verdicts of `kb ask`: right, wrong and abstained, on judge questions with expected verdicts.

Each question of tests/fixtures/verdicts.toml (the development set) or verdicts_holdout.toml
(held out: never used to change the engine) has a type (yes/no, when, which first, what
happens, how many), an expected verdict, and whether the corpus can answer it at all. A
question counts as

  right      the composed answer's verdict is the expected one (yes/no/depends exactly; for the
             other types the expected phrase or an accepted one is in the verdict, or the yes
             or no the expected outcome opens with; a number or range for how many), or the corpus
             cannot answer it and kb ask composed nothing;
  wrong      a composed verdict that is not the expected one, or any composed answer to a
             question the corpus cannot answer;
  abstained  an answerable question kb ask composed no verdict for (it shows passages only).

    python bench/verdicts.py [--db kb.sqlite] [--questions FILE] [--list wrong|abstained|right]
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

from ingest.text import fold

REPO = Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def _numbers(text: str) -> list[str]:
    return [n.replace(",", "") for n in NUMBER.findall(text)]


# Kinds as some sets' authors spelled them.
KINDS = {"yes-no": "yesno", "how-many": "how_many", "what-happens": "what_happens"}
# A yes or a no as the sets write it (folded): English, and Vietnamese ("Có. ...").
YES_NO = {"yes": "yes", "no": "no", "co": "yes", "khong": "no"}


def expected_yes_no(q: dict[str, Any]) -> str:
    """ "yes", "no" or "depends": the expected answer, or the yes or no its sentence opens with
    ("No. The starting player skips ...", "Có. Bài Bẫy ..."), else the one accepted."""
    for text in [q["expect"], *q.get("accept", [])]:
        said = re.match(r"(yes|no|co|khong)\b", fold(text).strip())
        if said:
            return YES_NO[said.group(1)]
    return str(q["expect"])


def judge(q: dict[str, Any], answer: dict[str, Any] | None) -> str:
    """right, wrong or abstained (see the module docstring)."""
    verdict = (answer or {}).get("verdict")
    if not q["answerable"]:
        return "wrong" if answer is not None else "right"
    if not verdict:
        return "abstained"
    text = fold(verdict)  # accept phrases are written without accents
    kind = KINDS.get(q["type"], q["type"])
    if kind == "yesno":
        return "right" if text == expected_yes_no(q) else "wrong"
    if kind == "how_many":
        expected = _numbers(q["expect"])
        if expected and _numbers(text)[: len(expected)] == expected:
            return "right"
    # The expected phrase itself, and the other phrases accepted for it.
    accept = [fold(a) for a in [q["expect"], *q.get("accept", [])]]
    # "do the materials go to the graveyard" answered "no": right when the expected outcome
    # opens with that answer ("no, the materials are not sent ...").
    opening = re.match(r"(yes|no)\b", q["expect"].lower())
    if opening and text == opening.group(1):
        return "right"
    return "right" if any(a in text for a in accept) else "wrong"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument(
        "--questions", type=Path, default=REPO / "tests" / "fixtures" / "verdicts.toml"
    )
    parser.add_argument("--list", choices=["wrong", "abstained", "right"], action="append")
    args = parser.parse_args()
    if not args.db.exists():
        from kb.store.build import build

        build(REPO / "corpus", args.db)
    from kb.ask import ask
    from kb.store.db import connect

    decided = _record_resolvers()
    stops = _record_stops()
    from kb.ask.verdicts import filters

    # Per filter: the questions it stopped, judged as they would be without it.
    stopped: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    conn = connect(args.db)
    questions = tomllib.loads(args.questions.read_text(encoding="utf-8"))["questions"]
    groups: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    listed = []
    for q in questions:
        decided.clear()
        stops.clear()
        result = ask(conn, q["q"])
        outcome = judge(q, result["answer"])
        stop = stops[-1] if stops else ""
        if stop:
            filters.DISABLED.add(stop)
            without = ask(conn, q["q"])["answer"]
            judged = judge(q, without)
            # A question the corpus cannot answer is right without a verdict, too.
            stopped[stop][judged if (without or {}).get("verdict") else "none"] += 1
            stopped[stop]["n"] += 1
            filters.DISABLED.clear()
        keys = ["all", f"type:{q['type']}", f"game:{q['game'] or '-'}", f"lang:{q['lang']}"]
        if (result["answer"] or {}).get("verdict") and decided:
            keys.append(f"by {decided[-1]}")  # the resolver whose verdict was given
        keys.append("answerable" if q["answerable"] else "not answerable")
        for key in keys:
            groups[key][outcome] += 1
            groups[key]["n"] += 1
        if args.list and outcome in args.list:
            verdict = (result["answer"] or {}).get("verdict")
            listed.append(
                f"{outcome:<9} {q['id']} {q['q']!r}: got {verdict!r}, want {q['expect']!r}"
            )
    print(f"{len(questions)} questions ({args.questions.name}), database {args.db}")
    print(f"{'group':<18} {'n':>4} {'right':>7} {'wrong':>7} {'abstained':>10}")
    for key in sorted(groups, key=lambda k: (k != "all", k.startswith("by "), k)):
        g = groups[key]
        print(f"{key:<18} {g['n']:>4} {g['right']:>7} {g['wrong']:>7} {g['abstained']:>10}")
    answerable = groups["answerable"]
    total = groups["all"]
    print(
        f"\ncorrect verdicts: {answerable['right']} of {answerable['n']} answerable questions "
        f"({answerable['right'] / max(1, answerable['n']):.1%}); wrong: {total['wrong']} of "
        f"{total['n']} ({total['wrong'] / max(1, total['n']):.1%}); correctly declined: "
        f"{groups['not answerable']['right']} of {groups['not answerable']['n']}"
    )
    head = f"{'stopped by filter':<18} {'n':>4} {'without it: right':>18} {'wrong':>6}"
    head += f" {'no verdict':>11}"
    print(f"\n{head}")
    for name in [*filters.QUESTION, *filters.VERDICT]:
        g = stopped[name]
        print(f"{name:<18} {g['n']:>4} {g['right']:>18} {g['wrong']:>6} {g['none']:>11}")
    for line in listed:
        print(line)
    return 0


def _record_stops() -> list[str]:
    """The filter (kb/ask/verdicts/filters.py) that stopped each question asked, "" if none."""
    from kb.ask import engine

    stops: list[str] = []
    decide = engine.decide

    def recording(*args: Any, **kwargs: Any) -> Any:
        asked, verdict = decide(*args, **kwargs)
        stops.append(asked.stopped_by)
        return asked, verdict

    engine.decide = recording  # type: ignore[assignment]
    return stops


def _record_resolvers() -> list[str]:
    """The resolvers (kb/ask/verdicts RESOLVERS) that returned a verdict for the question being
    asked, in order: the last is the one whose verdict was given, when one was."""
    from kb.ask import verdicts

    decided: list[str] = []
    resolver = verdicts._resolver

    def recording(name: str) -> Any:
        function = resolver(name)

        def call(*args: Any) -> Any:
            verdict = function(*args)
            if verdict is not None:
                decided.append(name)
            return verdict

        return call

    verdicts._resolver = recording  # type: ignore[assignment]
    return decided


if __name__ == "__main__":
    sys.exit(main())
