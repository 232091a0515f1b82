"""kill -9 trials: ``kb build`` killed while it writes the database, again and again.

A good database is built first. Each trial starts ``kb build`` on the same target, waits
until its temporary file appears (the pipeline is done and the database is being written),
waits a random part of the write (fixed seed) and kills the process with SIGKILL. After each
kill the target must still be a whole, readable knowledge base (``PRAGMA integrity_check``,
the row counts of the good build); the temporary file of the dead build is left behind, and
the next build must remove it and say so. After the last trial one build runs to the end:
then no temporary file may be left. Done when 0 databases are damaged and 0 temporary files
are left; the exit status says so.

    .venv/bin/python bench/kill9.py                  # 30 trials
    .venv/bin/python bench/kill9.py --trials 5 --json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def kb_build(db: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-m", "kb", "build", "--db", str(db), "--quiet"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def temp_files(db: Path) -> list[Path]:
    return sorted(db.parent.glob(f".{db.name}.tmp-*"))


def counts(db: Path) -> dict[str, int] | None:
    """Row counts of the main tables, or None when the database is damaged."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                return None
            return {
                t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("documents", "rules", "rules_fts", "meta")
            }
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None


def _wait_for_write(db: Path, proc: subprocess.Popen[str]) -> None:
    """Until the build's temporary file exists (it is writing) or the build ended."""
    own = db.with_name(f".{db.name}.tmp-{proc.pid}")
    while not own.exists() and proc.poll() is None:
        time.sleep(0.005)


def trial(
    db: Path, rng: random.Random, write_seconds: float, good: dict[str, int]
) -> dict[str, Any]:
    """One build killed at a random moment of its write; the target checked right after."""
    proc = kb_build(db)
    _wait_for_write(db, proc)
    delay = rng.uniform(0, write_seconds)
    time.sleep(delay)
    killed = proc.poll() is None
    if killed:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    stderr = proc.stderr.read() if proc.stderr else ""
    left = temp_files(db)
    return {
        "killed": killed,
        # Killed before the rename (its temp file is left), not just before the process ended.
        "killed_while_writing": killed and any(p.name.endswith(f"-{proc.pid}") for p in left),
        "after_ms": round(delay * 1000),
        "database_intact": counts(db) == good,
        "stale_removed_and_reported": stderr.count("note: removed ."),
        "temp_files_after_kill": len(left),
    }


def run(trials: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "kb.sqlite"
        proc = kb_build(db)
        _wait_for_write(db, proc)
        write_started = time.perf_counter()
        proc.wait()
        write_seconds = time.perf_counter() - write_started
        good = counts(db)
        if proc.returncode or good is None:
            raise SystemExit(f"the first build failed: {proc.stderr.read() if proc.stderr else ''}")
        results = [trial(db, rng, write_seconds, good) for _ in range(trials)]
        before_final = len(temp_files(db))
        final = kb_build(db)
        final.wait()
        final_stderr = final.stderr.read() if final.stderr else ""
        report = {
            "trials": trials,
            "seed": seed,
            "write_seconds": round(write_seconds, 2),
            "killed": sum(r["killed"] for r in results),
            "killed_while_writing": sum(r["killed_while_writing"] for r in results),
            "damaged_databases": sum(not r["database_intact"] for r in results),
            "temp_files_left_by_kills": sum(r["killed_while_writing"] for r in results),
            "temp_files_before_final_build": before_final,
            "stale_removed_and_reported": sum(r["stale_removed_and_reported"] for r in results)
            + final_stderr.count("note: removed ."),
            "temp_files_after_final_build": len(temp_files(db)),
            "final_build_ok": final.returncode == 0 and counts(db) == good,
            "results": results,
        }
    report["ok"] = (
        report["damaged_databases"] == 0
        and report["temp_files_after_final_build"] == 0
        and report["final_build_ok"]
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    report = run(args.trials, args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for i, r in enumerate(report["results"], 1):
            what = f"killed after {r['after_ms']:>4} ms" if r["killed"] else "finished first"
            what += " (in the write)" if r["killed_while_writing"] else ""
            print(
                f"trial {i:>2}: {what}; database intact: {r['database_intact']}; "
                f"stale files removed and reported: {r['stale_removed_and_reported']}; "
                f"temp files now: {r['temp_files_after_kill']}"
            )
        print(
            f"{report['trials']} trials (seed {report['seed']}, write phase "
            f"{report['write_seconds']} s): {report['killed']} killed, "
            f"{report['killed_while_writing']} of them while writing the database, "
            f"{report['damaged_databases']} damaged databases; "
            f"{report['stale_removed_and_reported']} stale temp files removed and reported; "
            f"after the final build: {report['temp_files_after_final_build']} temp files"
        )
        print("OK" if report["ok"] else "FAIL")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
