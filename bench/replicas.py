"""Three ``kb serve --public`` replicas behind HAProxy on loopback, one killed mid-run.

Starts the cluster of docs/deploy.md (bench/cluster.py; HAProxy from scripts/install-haproxy.sh),
sends a bounded load (C clients, at most N requests, at most S seconds) over a mix of pages
(rules pages, search, ask, Datasette's own table page), kills one replica with SIGKILL at
the given second, and prints throughput and latency before and after the kill, with
HAProxy's view of each replica. Done when no request failed; the exit status says so.

    .venv/bin/python bench/replicas.py                    # builds a fresh database first
    .venv/bin/python bench/replicas.py --db kb.sqlite -c 8 -s 30 --kill-at 10 --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PATHS = [
    "/",
    "/doc/fow-cr-8.01/105",
    "/search?q=damage+step&all=1",
    "/ask?q=honest+vs+honest",
    "/card/honest",
    "/timing/yugioh/tcg",
    "/search?q=buoc+thiet+hai&all=1",
    "/ask?q=can+shrink+be+activated+during+damage+calculation",
    "/kb/rules?_search=chain",
    "/rule/fow-cr-8.01:105.4.json",
]


def run(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    from cluster import drive, running_cluster

    with running_cluster(db, replicas=args.replicas) as cluster:
        # Every replica's first pages and both its workers, as many clients as the run.
        warm = drive(cluster.base, PATHS, clients=args.clients, seconds=60, max_requests=80)
        if {r[1] for r in warm.results} != {200}:
            raise SystemExit(f"warm-up failed: {sorted({r[1] for r in warm.results})}")
        victim = args.replicas - 1
        load = drive(
            cluster.base,
            PATHS,
            clients=args.clients,
            seconds=args.seconds,
            max_requests=args.requests,
            at={args.kill_at: lambda: cluster.kill(victim)},
        )
        servers = cluster.servers()
    return {
        "replicas": args.replicas,
        "clients": args.clients,
        "killed": f"r{victim + 1} at {args.kill_at:g} s",
        "all": load.summary(),
        "before_kill": load.summary(until=args.kill_at),
        "after_kill": load.summary(since=args.kill_at),
        "errors": load.errors[:10]
        + [
            f"HTTP {status} {path} at {t:.1f} s"
            for path, status, t, _ in load.results
            if status != 200
        ][:10],
        "haproxy": {
            name: {
                k: row.get(k, "") for k in ("status", "stot", "wretr", "wredis", "eresp", "econ")
            }
            for name, row in servers.items()
        },
        "ok": load.summary()["failed"] == 0 and not load.errors,
        "load_average": os.getloadavg(),
    }


def print_report(report: dict[str, Any]) -> None:
    print(
        f"{report['replicas']} replicas behind HAProxy, {report['clients']} clients, "
        f"killed {report['killed']} (SIGKILL)"
    )
    print(f"{'phase':<12} {'requests':>8} {'failed':>6} {'req/s':>7} {'p50 ms':>7} "
          f"{'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}")  # fmt: skip
    for phase in ("before_kill", "after_kill", "all"):
        s = report[phase]
        print(
            f"{phase:<12} {s['requests']:>8} {s['failed']:>6} {s['throughput']:>7.1f} "
            f"{s['p50_ms']:>7.1f} {s['p95_ms']:>7.1f} {s['p99_ms']:>7.1f} {s['max_ms']:>7.1f}"
        )
    for name, row in report["haproxy"].items():
        print(
            f"  {name}: {row['status']:<5} requests {row['stot']:>6}, retried elsewhere "
            f"{row['wretr']}, redispatched {row['wredis']}, failed answers {row['eresp']}"
        )
    for error in report["errors"]:
        print(f"  error: {error}")
    print(f"load average after the run: {', '.join(f'{x:.1f}' for x in report['load_average'])}")
    print("no failed request: OK" if report["ok"] else "FAIL: some requests failed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built database (default: build one)")
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("-c", "--clients", type=int, default=8)
    parser.add_argument("-s", "--seconds", type=float, default=30.0, help="at most")
    parser.add_argument("-n", "--requests", type=int, default=20_000, help="at most")
    parser.add_argument("--kill-at", type=float, default=10.0, help="second of the kill")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.replicas < 2 or args.clients < 1:
        parser.error("--replicas must be at least 2 and --clients at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from kb.store.build import build

            db = Path(tmp) / "kb.sqlite"
            build(REPO / "corpus", db)
        report = run(db, args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
