"""Bounded load check: every kind of rules page next to Datasette's own table page, in one run.

Starts ``kb serve`` on a free loopback port, then sends N requests at concurrency C to each page
(bounded by count and by a time limit), as a browser does (gzip accepted), and prints
throughput, p50/p99 latency and errors side by side. Done when the p50 of every custom page
type is within 1.2x that of Datasette's /kb/rules, with no errors; the exit status says so.

    .venv/bin/python bench/load_check.py                  # builds a fresh database first
    .venv/bin/python bench/load_check.py --db kb.sqlite -n 200 -c 8 --json
    .venv/bin/python bench/load_check.py --only section --only ask

The section page measured is the one with the most rules (the slowest to render); the other
pages are each type's heaviest default page in the bundled corpus.
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
TARGET_RATIO = 1.2
TABLE = "datasette table"
# One page of each custom type (the section page is found at run time).
PAGES = {
    "home": "/",
    "game": "/g/fow",
    "document": "/doc/fow-cr-8.01",
    # A rule number: the HTML page redirects to the current version, the JSON lists every one.
    "rule by number": "/rule/105.3a.json",
    "search": "/search?q=damage+step&all=1",
    "ask": "/ask?q=honest+vs+honest",
    "ask verdict": "/ask?q=how+many+chains+during+damage+calculation",
    "card": "/card/honest",
    "card lookup": "/card",
    "timing": "/timing/yugioh/tcg",
    "compare": "/compare/fow-basic",
    "variant diff": "/compare/fow-basic/diff/fow-basic:objectives-of-the-game.2",
    "version diff": "/diff/fow-cr-7.0/fow-cr-8.01",
    "version diff chapter": "/diff/fow-cr-7.0/fow-cr-8.01?chapter=1100",
    "history": "/history/314.1",
    "glossary": "/glossary/fow",
    "glossary term": "/glossary/all/graveyard",
    "whole document": "/read/fow-cr-8.01",
    "suggest": "/suggest.json?q=hon",
}
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
    headers = {"accept-encoding": "gzip"}
    with httpx.Client(base_url=base, timeout=10.0, limits=limits, headers=headers) as client:
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
    from servers import running_site

    with running_site(db) as base:
        pages = {"section": args.section or section_path(base), **PAGES}
        if args.only:
            pages = {k: v for k, v in pages.items() if k in args.only}
        targets = {**pages, TABLE: "/kb/rules"}
        with httpx.Client(base_url=base, timeout=10) as client:  # warm every page up
            for path in targets.values():
                for _ in range(args.warmup):
                    client.get(path).raise_for_status()
        # The table page is measured first and last: the slower of the two is the reference,
        # so a page measured while the machine was busier does not pass for slow.
        results = {
            TABLE: measure(base, "/kb/rules", args.requests, args.concurrency, args.time_limit)
        }
        for name, path in pages.items():
            results[name] = measure(base, path, args.requests, args.concurrency, args.time_limit)
        again = measure(base, "/kb/rules", args.requests, args.concurrency, args.time_limit)
        if again["p50_ms"] > results[TABLE]["p50_ms"]:
            results[TABLE] = again
    table = results[TABLE]
    ratios = {
        name: round(r["p50_ms"] / table["p50_ms"], 3) if table["p50_ms"] else float("inf")
        for name, r in results.items()
        if name != TABLE
    }
    errors = sum(r["errors"] for r in results.values())
    ok = all(ratio <= TARGET_RATIO for ratio in ratios.values()) and errors == 0
    return {
        "requests": args.requests,
        "concurrency": args.concurrency,
        "results": results,
        "p50_ratios": ratios,
        "target_ratio": TARGET_RATIO,
        "errors": errors,
        "ok": ok,
    }


def print_report(report: dict[str, Any]) -> None:
    print(f"N={report['requests']} requests per page, concurrency {report['concurrency']}")
    results = report["results"]
    width = max(len(r["path"]) for r in results.values())
    print(
        f"{'page':<21} {'path':<{width}} {'done':>5} {'err':>4} {'req/s':>8}"
        f" {'p50 ms':>8} {'p99 ms':>8} {'ratio':>6}"
    )
    for name, r in results.items():
        ratio = report["p50_ratios"].get(name)
        print(
            f"{name:<21} {r['path']:<{width}} {r['requests']:>5} {r['errors']:>4} "
            f"{r['throughput']:>8.1f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f}"
            + (f" {ratio:>6.2f}" if ratio is not None else f" {'1.00':>6}")
            + ("  (stopped by time limit)" if r["stopped_by_time_limit"] else "")
        )
    verdict = "OK" if report["ok"] else "FAIL"
    worst = max(report["p50_ratios"].items(), key=lambda kv: kv[1])
    print(
        f"worst p50 ratio to the table page: {worst[1]:.2f} ({worst[0]}); done when every ratio"
        f" <= {report['target_ratio']} with no errors ({report['errors']}): {verdict}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built database (default: build one)")
    parser.add_argument("-n", "--requests", type=int, default=200, help="requests per page")
    parser.add_argument("-c", "--concurrency", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per page, at most")
    parser.add_argument("--warmup", type=int, default=10, help="requests per page first")
    parser.add_argument("--only", action="append", help="measure only this page type (repeat)")
    parser.add_argument("--section", help="section page path (default: the biggest section)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.concurrency < 1:
        parser.error("--requests and --concurrency must be at least 1")

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from kb.store.build import build

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
