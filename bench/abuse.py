"""CPU time against input length: ``kb ask``, ``kb search`` and ``kb build`` on hostile input.

For ask and search, questions of several shapes (rulebook English, Vietnamese, distinct
made-up words, rule numbers, Chinese, one endless word) at growing lengths, timed in this
process (``time.process_time``: Python and SQLite). Two series:

* **as served**: the caps of kb/data/limits.toml in force, so the cost must level off;
* **stages, caps lifted**: the same inputs with the caps raised out of the way, to see how
  each stage grows: doubling the text should about double the time (x2), never square it
  (x4). A stage that squares is a bug even under a cap: the cap only hides it.

For build, one corpus file of a hostile shape (ordinary rule lines; headings nested one
level deeper each line) at growing sizes, timed as the CPU time of a ``kb build`` process.

Prints a table per series with the growth factor per doubling; the exit status is 1 when a
capped question costs over ``--budget`` seconds of CPU (2 s, the site's budget).

    .venv/bin/python bench/abuse.py                       # builds a fresh database first
    .venv/bin/python bench/abuse.py --db kb.sqlite --max-length 8000 --build-lines 4000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"


def _from_file(name: str, start: int) -> Callable[[int], str]:
    text = " ".join((CORPUS / name).read_text(encoding="utf-8").split())

    def make(n: int) -> str:
        return (text * (1 + (start + n) // len(text)))[start : start + n]

    return make


def _gibberish(n: int) -> str:
    rng = random.Random(n)
    words = []
    while sum(len(w) + 1 for w in words) < n:
        words.append("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9))))
    return " ".join(words)[:n]


def _numbers(n: int) -> str:
    rng = random.Random(n)
    return " ".join(f"{rng.randint(100, 999)}.{rng.randint(1, 9)}" for _ in range(n // 3))[:n]


def _chinese(n: int) -> str:
    rng = random.Random(n)
    return "".join(
        rng.choice("闪电限制伤害步骤怪兽魔法陷阱卡连锁发动效果玩家回合抽组墓地生命")
        for _ in range(n)
    )


SHAPES: dict[str, Callable[[int], str]] = {
    "english": _from_file("fow-cr-8.01.txt", 4000),
    "vietnamese": _from_file("003_eab9188e51b676e0.txt", 2000),
    "made-up words": _gibberish,
    "rule numbers": _numbers,
    "chinese": _chinese,
    "one word": lambda n: "a" * n,
}


def lengths(maximum: int) -> list[int]:
    out, n = [], 250
    while n <= maximum:
        out.append(n)
        n *= 2
    return out


def cpu(fn: Callable[[], Any]) -> float:
    started = time.process_time()
    fn()
    return time.process_time() - started


def measure_queries(db: Path, sizes: list[int], lift_caps: bool) -> list[dict[str, Any]]:
    from kb.ask import ask
    from kb.search import search
    from kb.store import datafiles
    from kb.store.db import connect

    conn = connect(db)
    limits = datafiles.load("limits", conn)
    if lift_caps:
        lifted = {"max_chars": 10**9, "max_words": 10**9}
        datafiles._loaded["limits"] = {**limits, "question": lifted, "search": lifted}
    ask(conn, "honest vs honest")  # warm: data files, vocabulary
    rows = []
    try:
        for shape, make in SHAPES.items():
            for n in sizes:
                q = make(n)
                rows.append(
                    {
                        "shape": shape,
                        "chars": len(q),
                        "ask_s": round(cpu(lambda q=q: ask(conn, q)), 3),
                        "search_s": round(cpu(lambda q=q: search(conn, q)), 3),
                    }
                )
    finally:
        datafiles._loaded["limits"] = limits
        conn.close()
    return rows


def _ordinary(n: int) -> str:
    rng = random.Random(n)
    verbs = ["activate", "draw", "discard", "banish", "rest", "recover", "call", "chase"]
    things = ["a card", "an ability", "a resonator", "a magic stone", "the J-ruler", "a chant"]
    lines = ["Hostile rulebook: ordinary lines"]
    for i in range(n):
        lines.append(
            f"{100 + i // 50}.{i % 50 + 1}. A player may {rng.choice(verbs)} "
            f"{rng.choice(things)} during step {i} if {rng.choice(things)} is "
            f"{rng.choice(verbs)}ed."
        )
    return "\n".join(lines) + "\n"


def _nested(n: int) -> str:
    lines = ["Hostile rulebook: nested headings"]
    for depth in range(1, n + 1):
        lines.append("_" * depth + f"{depth}. Heading at depth {depth}")
        lines.append(f"Rule text under heading {depth}.")
    return "\n".join(lines) + "\n"


BUILD_SHAPES = {"ordinary lines": _ordinary, "nested headings": _nested}


def measure_build(sizes: dict[str, list[int]], timeout: float) -> list[dict[str, Any]]:
    rows = []
    for shape, counts in sizes.items():
        for n in counts:
            with tempfile.TemporaryDirectory() as tmp:
                corpus = Path(tmp) / "corpus"
                corpus.mkdir()
                (corpus / "hostile.txt").write_text(BUILD_SHAPES[shape](n), encoding="utf-8")
                command = [sys.executable, "-m", "kb", "build", "--corpus", str(corpus)]
                command += ["--db", str(Path(tmp) / "kb.sqlite"), "--quiet"]
                env = {**os.environ, "PYTHONPATH": str(REPO)}
                proc = subprocess.Popen(
                    command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
                deadline = time.monotonic() + timeout
                timed_out = False
                while True:  # wait4, not poll: poll would reap the process and its usage
                    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                    if pid:
                        break
                    if time.monotonic() > deadline and not timed_out:
                        timed_out = True
                        proc.kill()
                    time.sleep(0.05)
                proc.returncode = os.waitstatus_to_exitcode(status)
                rows.append(
                    {
                        "shape": shape,
                        "lines": n,
                        "build_s": round(usage.ru_utime + usage.ru_stime, 2),
                        "ok": os.waitstatus_to_exitcode(status) == 0,
                        "timed_out": timed_out,
                    }
                )
                if timed_out:
                    break
    return rows


def growth(rows: list[dict[str, Any]], key: str, value: str, size: str) -> None:
    """Add ``<value>_x``: the cost's growth from the previous row of the same ``key``."""
    previous: dict[str, dict[str, Any]] = {}
    for row in rows:
        before = previous.get(row[key])
        if before and before[value] >= 0.02 and row[size] > before[size]:
            row[f"{value}_x"] = round(row[value] / before[value], 1)
        previous[row[key]] = row


def table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in columns}
    lines = ["  ".join(f"{c:>{widths[c]}}" for c in columns)]
    lines += ["  ".join(f"{r.get(c, '')!s:>{widths[c]}}" for c in columns) for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built database (default: build one)")
    parser.add_argument("--max-length", type=int, default=64_000, help="longest question, capped")
    parser.add_argument("--max-lifted", type=int, default=4_000, help="longest, caps lifted")
    parser.add_argument("--build-lines", type=int, default=2_000, help="largest hostile file")
    parser.add_argument("--build-timeout", type=float, default=300.0, help="seconds per build")
    parser.add_argument(
        "--budget", type=float, default=2.0, help="CPU seconds a capped request may take"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from kb.store.build import build

            db = Path(tmp) / "kb.sqlite"
            build(CORPUS, db)
        capped = measure_queries(db, lengths(args.max_length), lift_caps=False)
        lifted = measure_queries(db, lengths(args.max_lifted), lift_caps=True)
    builds = measure_build(
        {shape: lengths(args.build_lines)[1:] for shape in BUILD_SHAPES}, args.build_timeout
    )
    for rows in (capped, lifted):
        growth(rows, "shape", "ask_s", "chars")
        growth(rows, "shape", "search_s", "chars")
    growth(builds, "shape", "build_s", "lines")
    worst = max(max(r["ask_s"], r["search_s"]) for r in capped)
    report = {"capped": capped, "caps_lifted": lifted, "build": builds, "worst_capped_s": worst}
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        columns = ["shape", "chars", "ask_s", "ask_s_x", "search_s", "search_s_x"]
        print("ask and search as served (caps in force), CPU seconds; _x: growth per doubling")
        print(table(capped, columns))
        print("\nthe stages with the caps lifted: x2 is linear, x4 is quadratic")
        print(table(lifted, columns))
        print("\nkb build of one hostile file, CPU seconds of the process")
        print(table(builds, ["shape", "lines", "build_s", "build_s_x", "ok", "timed_out"]))
        print(f"\nworst capped ask or search: {worst:.2f} s CPU (budget {args.budget:g} s)")
    return 0 if worst <= args.budget else 1


if __name__ == "__main__":
    sys.exit(main())
