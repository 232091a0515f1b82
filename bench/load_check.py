"""Bounded load check: a rules section page next to Datasette's own table page, in one run.

Starts ``kb serve`` on a free loopback port, then sends N requests at concurrency C to each page
(bounded by count and by a time limit), and prints throughput, p50/p99 latency and errors side
by side. Done when the section page's p50 is within 2x that of Datasette's /kb/rules, with no
errors; the exit status says so.

    .venv/bin/python bench/load_check.py                  # builds a fresh database first
    .venv/bin/python bench/load_check.py --db kb.sqlite -n 400 -c 8 --json

The section page measured by default is the one with the most rules (the slowest to render).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
TARGET_RATIO = 2.0
BIGGEST_SECTION = (
    "select section, count(*) as n from rules group by section order by n desc, section limit 1"
)


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of already sorted values (0 when there are none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, round(p / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def measure(base: str, path: str, n: int, concurrency: int, time_limit: float) -> dict[str, Any]:
    """GET ``path`` up to ``n`` times from ``concurrency`` threads, stopping at ``time_limit`` s."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    issued = 0
    started = time.perf_counter()
    deadline = started + time_limit

    def worker(client: httpx.Client) -> None:
        nonlocal issued
        while True:
            with lock:
                if issued >= n or time.perf_counter() > deadline:
                    return
                issued += 1
            t0 = time.perf_counter()
            try:
                response = client.get(path)
                ok = response.status_code == 200
                problem = f"HTTP {response.status_code}"
            except httpx.HTTPError as exc:
                ok, problem = False, type(exc).__name__
            elapsed = time.perf_counter() - t0
            with lock:
                latencies.append(elapsed)
                if not ok:
                    errors.append(problem)

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    with httpx.Client(base_url=base, timeout=10.0, limits=limits) as client:
        threads = [threading.Thread(target=worker, args=(client,)) for _ in range(concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    seconds = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "path": path,
        "requests": len(latencies),
        "errors": len(errors),
        "error_kinds": sorted(set(errors)),
        "seconds": round(seconds, 3),
        "throughput": round(len(latencies) / seconds, 1) if seconds else 0.0,
        "p50_ms": round(percentile(ordered, 50) * 1000, 2),
        "p99_ms": round(percentile(ordered, 99) * 1000, 2),
        "max_ms": round((ordered[-1] if ordered else 0) * 1000, 2),
        "stopped_by_time_limit": len(latencies) < n,
    }


def section_path(base: str) -> str:
    """The section page with the most rules, found through Datasette's SQL API."""
    params = {"sql": BIGGEST_SECTION, "_shape": "array"}
    [row] = httpx.get(base + "/kb.json", params=params, timeout=10).json()
    document, slug = row["section"].split(":", 1)
    return f"/doc/{document}/{slug}"


def run_check(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    from kb.web.serve import running_site

    with running_site(db) as base:
        section = args.section or section_path(base)
        targets = {"section page": section, "datasette table": "/kb/rules"}
        with httpx.Client(base_url=base, timeout=10) as client:  # warm both up
            for path in targets.values():
                for _ in range(args.warmup):
                    client.get(path).raise_for_status()
        results = {
            name: measure(base, path, args.requests, args.concurrency, args.time_limit)
            for name, path in targets.items()
        }
    a, b = results["section page"], results["datasette table"]
    ratio = round(a["p50_ms"] / b["p50_ms"], 3) if b["p50_ms"] else float("inf")
    ok = ratio <= TARGET_RATIO and a["errors"] == 0 and b["errors"] == 0
    return {
        "requests": args.requests,
        "concurrency": args.concurrency,
        "results": results,
        "p50_ratio": ratio,
        "target_ratio": TARGET_RATIO,
        "ok": ok,
    }


def print_report(report: dict[str, Any]) -> None:
    print(f"N={report['requests']} requests per page, concurrency {report['concurrency']}")
    results = report["results"]
    width = max(len(r["path"]) for r in results.values())
    print(
        f"{'page':<16} {'path':<{width}} {'done':>5} {'err':>4} {'req/s':>8}"
        f" {'p50 ms':>8} {'p99 ms':>8}"
    )
    for name, r in results.items():
        print(
            f"{name:<16} {r['path']:<{width}} {r['requests']:>5} {r['errors']:>4} "
            f"{r['throughput']:>8.1f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f}"
            + ("  (stopped by time limit)" if r["stopped_by_time_limit"] else "")
        )
    verdict = "OK" if report["ok"] else "FAIL"
    print(
        f"p50 ratio section/table: {report['p50_ratio']:.2f} "
        f"(done when <= {report['target_ratio']:.0f} with no errors): {verdict}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built database (default: build one)")
    parser.add_argument("-n", "--requests", type=int, default=400, help="requests per page")
    parser.add_argument("-c", "--concurrency", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per page, at most")
    parser.add_argument("--warmup", type=int, default=20, help="requests per page first")
    parser.add_argument("--section", help="section page path (default: the biggest section)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.concurrency < 1:
        parser.error("--requests and --concurrency must be at least 1")

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from kb.build import build

            db = Path(tmp) / "kb.sqlite"
            build(REPO / "corpus", db)
        report = run_check(db, args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
