"""What each guard of kb/ask/verdicts earns: every guard (an ``if`` whose body returns,
continues or breaks; and each operand of its ``and`` / ``or`` test) switched off alone, every
verdict set's questions decided again, and the answers that change counted.

A guard whose removal changes no answer on any set protects against nothing the sets hold;
one whose removal only gains right answers costs them (verdicts are compared, not the
sentences around them: a guard of the wording always "earns nothing"). Either is a candidate
for deletion (issue 22: delete what does not earn its lines); the test suite and the fresh
held-out set then judge the deletion.

The slow part of kb ask (understanding, retrieval, ranking) does not depend on
kb/ask/verdicts, so it runs once per question and is cached (``--cache``); each knockout then
re-runs ``kb.ask.verdicts.decide`` only, in a copy of the package (about 15 s for 4,000
questions). The fresh held-out set (bench/retrieval.py FRESH) is never read.

    python bench/verdict_knockouts.py [--db kb.sqlite] [--cache FILE] [--jobs 2] [--only FILE]
                                      [--branches]

``--branches`` switches the rest instead: every other ``if`` (never taken; always taken too
when it has an ``else``) and every filter of a comprehension (always passing), and each
operand of their tests: what a branch that adds a reading, or a filter that narrows one,
earns.

It prints one line per knockout: the guard's file and line (and operand), then right answers
lost and gained and wrong answers removed and added, over all the sets; then the guards whose
removal loses no right answer and adds no wrong one.
"""

from __future__ import annotations

import argparse
import ast
import pickle
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
PACKAGE = REPO / "kb" / "ask" / "verdicts"


def question_sets() -> list[Path]:
    """Every verdict set but the fresh held-out one."""
    from retrieval import FIXTURES, FRESH

    return [p for p in sorted(FIXTURES.glob("verdicts*.toml")) if p.name not in FRESH]


def cache_questions(db: Path, out: Path) -> None:
    """Ask every question once; keep what kb.ask.verdicts.decide is given."""
    from kb.ask import ask, engine
    from kb.store.db import connect

    conn = connect(db)
    given: list[bytes] = []
    decide = engine.decide

    def recording(conn: Any, u: Any, passages: Any = None) -> Any:
        given.append(pickle.dumps((u, passages)))
        return decide(conn, u, passages)

    engine.decide = recording  # type: ignore[assignment]
    rows = []
    for path in question_sets():
        for q in tomllib.loads(path.read_text(encoding="utf-8"))["questions"]:
            given.clear()
            ask(conn, q["q"])
            rows.append((path.stem, q, given[-1]))
    out.write_bytes(pickle.dumps(rows))


def decide_all(db: str, cache: str) -> None:
    """Decide every cached question with the kb on sys.path; print right and wrong verdicts
    and correctly declined unanswerable questions, one per line."""
    from verdicts import judge

    from kb.ask.verdicts import decide
    from kb.store.db import connect

    conn = connect(Path(db))
    for name, q, blob in pickle.loads(Path(cache).read_bytes()):
        u, passages = pickle.loads(blob)
        _, verdict = decide(conn, u, passages)
        outcome = judge(q, {"verdict": verdict.verdict} if verdict else None)
        if outcome != "abstained":
            print(f"{outcome} {name} {q['id']} {verdict.verdict if verdict else None!r}")


Switch = tuple[int, int, str]  # (line, node's place in ast.walk, what is switched)


def _tests(node: ast.AST) -> list[tuple[str, ast.expr]]:
    """The tests a node holds: an ``if``'s, and each filter of a comprehension."""
    if isinstance(node, ast.If):
        return [("", node.test)]
    if isinstance(node, ast.comprehension):
        return [(f"filter {k} ", test) for k, test in enumerate(node.ifs)]
    return []


def switches(path: Path, branches: bool = False) -> list[Switch]:
    """What can be switched off in a module: each guard (an ``if`` whose body only returns,
    continues or breaks) and each operand of its ``and`` / ``or``; with ``branches``, instead,
    every other ``if`` (never taken, and always taken when it has an ``else``) and every
    filter of a comprehension (always passing), with their operands."""
    out: list[Switch] = []
    exits = (ast.Return, ast.Continue, ast.Break)
    for place, node in enumerate(ast.walk(ast.parse(path.read_text(encoding="utf-8")))):
        guard = isinstance(node, ast.If) and len(node.body) == 1 and isinstance(node.body[0], exits)
        if guard == branches:
            continue
        line = getattr(node, "lineno", getattr(getattr(node, "target", None), "lineno", 0))
        for prefix, test in _tests(node):
            out.append((line, place, prefix + ("never" if isinstance(node, ast.If) else "always")))
            if isinstance(node, ast.If) and node.orelse:
                out.append((line, place, "always"))
            if isinstance(test, ast.BoolOp):
                out += [(line, place, f"{prefix}operand {k}") for k in range(len(test.values))]
    return out


def knocked_out(source: str, place: int, what: str) -> str:
    """The module with one switch turned: a test made constant, or an operand neutral."""
    tree = ast.parse(source)
    node = list(ast.walk(tree))[place]
    words = what.split()
    ifs = getattr(node, "ifs", [])
    k = int(words[1]) if words[0] == "filter" else None
    test = node.test if k is None else ifs[k]  # type: ignore[attr-defined]
    if len(words) > 1 and words[-2] == "operand":
        assert isinstance(test, ast.BoolOp)
        test.values[int(words[-1])] = ast.Constant(isinstance(test.op, ast.And))
    elif k is None:
        node.test = ast.Constant(words[-1] == "always")  # type: ignore[attr-defined]
    else:
        ifs[k] = ast.Constant(True)
    return ast.unparse(ast.fix_missing_locations(tree))


def run_copy(root: Path, db: Path, cache: Path) -> set[str] | None:
    """The outcome lines of decide_all with the code at ``root``; None if it failed."""
    code = f"import sys; sys.path[:0] = [{str(root)!r}, {str(REPO / 'bench')!r}]; "
    code += "import verdict_knockouts as k; k.decide_all(sys.argv[1], sys.argv[2])"
    done = subprocess.run(
        [sys.executable, "-c", code, str(db), str(cache)], capture_output=True, text=True
    )
    return set(done.stdout.splitlines()) if done.returncode == 0 else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "kb-ko.pkl")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="one module of kb/ask/verdicts, e.g. quantity.py")
    parser.add_argument(
        "--branches", action="store_true", help="the other ifs and comprehension filters"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    if not args.cache.exists():
        cache_questions(args.db, args.cache)
    work = Path(tempfile.mkdtemp(prefix="kb-ko-"))
    roots = [work / f"w{i}" for i in range(args.jobs)]
    for root in roots:
        for part in ("kb", "ingest"):
            shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    base = run_copy(roots[0], args.db, args.cache)
    if base is None:
        raise SystemExit("the verdicts do not run unchanged")
    modules = [PACKAGE / args.only] if args.only else sorted(PACKAGE.glob("*.py"))
    cases = [(m, *switch) for m in modules for switch in switches(m, args.branches)]
    free = list(roots)

    def one(case: tuple[Path, int, int, str]) -> str:
        module, line, place, what = case
        root = free.pop()
        target = root / module.relative_to(REPO)
        try:
            target.write_text(knocked_out(module.read_text(encoding="utf-8"), place, what))
            now = run_copy(root, args.db, args.cache)
        finally:
            shutil.copy(module, target)
            free.append(root)
        where = f"{module.name}:{line} {what}"
        if now is None:
            return f"{where:<40} fails without it"
        lost, gained = base - now, now - base
        counts = [
            sum(x.startswith(kind) for x in changed)
            for changed, kind in (
                (lost, "right"),
                (gained, "right"),
                (lost, "wrong"),
                (gained, "wrong"),
            )
        ]
        free_of_cost = "  <- earns nothing" if counts[0] == counts[3] == 0 else ""
        return f"{where:<40} right -{counts[0]} +{counts[1]}  wrong -{counts[2]} +{counts[3]}" + (
            free_of_cost
        )

    right = sum(x.startswith("right") for x in base)
    print(f"{len(cases)} knockouts; unchanged: {right} right, {len(base) - right} wrong")
    with ThreadPoolExecutor(args.jobs) as pool:
        lines = list(pool.map(one, cases))
    for line in lines:
        print(line)
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
