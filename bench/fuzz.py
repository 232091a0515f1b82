"""Fixed-seed fuzz of the command line and the website, with the figures issue 14 asks for.

* **CLI**: N fuzzed command lines (any command, text and undecodable bytes as arguments,
  options with odd values), each a real ``kb`` process on a built database. Counted:
  tracebacks, exit statuses other than 0, 1, 2, errors longer than one line, output that is
  not valid UTF-8 (or not JSON with ``--json``), and the CPU time of each process.
* **Web**: N fuzzed requests to a real ``kb serve --public`` (every route, Datasette's own
  pages and SQL API; text, FTS and SQL syntax, template and script payloads, percent-escapes
  of invalid UTF-8, very long values), sent one at a time. Counted: 5xx answers, tracebacks
  in bodies, the CPU time the server and its workers spent on each request. Meanwhile a
  probe fetches pages the fuzz does not target; their p95 latency is compared with the p95
  in quiet windows of the same run (before each 250 fuzzed requests, 4 s of probing alone).

Done when: 0 tracebacks, 0 5xx, no request over 2 s of CPU, and the probe's p95 during the
fuzz within 2 times its p95 before. The exit status says so.

Inputs come from Hypothesis strategies, derandomized (the same inputs on every run). The
report is printed as JSON.

    .venv/bin/python bench/fuzz.py                    # 2,000 + 2,000, builds a database
    .venv/bin/python bench/fuzz.py --db kb.sqlite --cli 200 --web 200
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
CPU_BUDGET = 2.0
PROBE_RATIO = 2.0
TICKS = os.sysconf("SC_CLK_TCK")

# Payloads an attacker or a careless user types, besides random text.
PAYLOADS = [
    "honest vs honest",
    "Honest đấu Honest",
    "闪电 限制",
    '"',
    "NEAR(a b)",
    "title:honest",
    "{title body}: x",
    "a* OR b^",
    "'; drop table rules; --",
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "{{7*7}}",
    "${7*7}",
    "../../../../etc/passwd",
    "%00",
    "\u202eevil",
    "\ufeff",
    "105.3a",
    "fow-cr-8.01:105.4",
    "select randomblob(200000000)",
    "select fts3_tokenizer('simple')",
]
text = st.one_of(
    st.sampled_from(PAYLOADS),
    st.text(max_size=60),
    st.text(alphabet="aeiouhnst đấ闪电 .:-*\"'", max_size=200),
    st.builds(lambda word, n: (word + " ") * n, st.sampled_from(PAYLOADS), st.integers(1, 8000)),
    st.builds(lambda n: " ".join(f"w{i}x{i * 7 % 13}" for i in range(n)), st.integers(0, 3000)),
)


# ---------------------------------------------------------------------------------------------
# CLI

COMMANDS = ["ask", "search", "show", "card", "compare", "timing", "terms", "history"]
argument = st.one_of(
    text.filter(lambda s: "\x00" not in s and len(s) < 100_000),
    st.binary(max_size=80).filter(lambda b: b"\x00" not in b).map(os.fsdecode),
)
option = st.one_of(
    st.just([]),
    st.just(["--json"]),
    st.tuples(st.sampled_from(["--lang", "--game"]), st.one_of(argument, st.just(""))).map(list),
    st.tuples(st.just("--limit"), st.sampled_from(["0", "1", "-5", "999", "x", "5"])).map(list),
)
command_line = st.builds(
    lambda cmd, args, opts: [cmd, *[a for o in opts for a in o], "--", *args],
    st.sampled_from(COMMANDS),
    st.lists(argument, min_size=1, max_size=1),
    st.lists(option, max_size=3),
)


def check_cli(result: dict[str, Any]) -> list[str]:
    problems = []
    out, err, status = result["out"], result["err"], result["status"]
    if b"Traceback" in err or b"Traceback" in out:
        problems.append("traceback")
    if status not in (0, 1, 2):
        problems.append(f"exit status {status}")
    if status != 0 and len([line for line in err.splitlines() if line.strip()]) > 1:
        problems.append("error of more than one line")
    try:
        decoded = out.decode("utf-8")
    except UnicodeDecodeError:
        problems.append("stdout not valid UTF-8")
        decoded = None
    if decoded is not None and "--json" in result["argv"] and status in (0, 1) and decoded:
        try:
            json.loads(decoded)
        except ValueError:
            if not decoded.startswith("No matches"):
                problems.append("--json output is not JSON")
    return problems


def fuzz_cli(db: Path, n: int, workers: int) -> dict[str, Any]:
    argvs: list[list[str]] = []

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(command_line)
    def collect(argv: list[str]) -> None:
        argvs.append(argv)

    collect()

    def one(argv: list[str]) -> dict[str, Any]:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        command = [sys.executable, "-m", "kb", argv[0], "--db", str(db), *argv[1:]]
        proc = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        reader = ThreadPoolExecutor(2)
        out_f = reader.submit(proc.stdout.read)  # type: ignore[union-attr]
        err_f = reader.submit(proc.stderr.read)  # type: ignore[union-attr]
        _, status, usage = os.wait4(proc.pid, 0)
        result = {
            "argv": argv,
            "status": os.waitstatus_to_exitcode(status),
            "out": out_f.result(),
            "err": err_f.result(),
            "cpu": usage.ru_utime + usage.ru_stime,
        }
        reader.shutdown()
        result["problems"] = check_cli(result)
        return result

    started = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        results = list(pool.map(one, argvs))
    problems = Counter(p for r in results for p in r["problems"])
    cpus = sorted(r["cpu"] for r in results)
    worst = max(results, key=lambda r: r["cpu"])
    return {
        "inputs": len(results),
        "seconds": round(time.perf_counter() - started, 1),
        "exit_statuses": dict(Counter(r["status"] for r in results)),
        "tracebacks": problems.get("traceback", 0),
        "problems": dict(problems),
        "examples": [
            {"argv": [a[:80] for a in r["argv"]], "problems": r["problems"]}
            for r in results
            if r["problems"]
        ][:5],
        "cpu_p50_s": round(cpus[len(cpus) // 2], 3),
        "cpu_max_s": round(worst["cpu"], 3),
        "cpu_max_input": [a[:80] for a in worst["argv"]],
        "over_budget": sum(1 for c in cpus if c > CPU_BUDGET),
    }


# ---------------------------------------------------------------------------------------------
# Web

ROUTES = [
    "/search?q={t}",
    "/search.json?q={t}&game={u}&lang={u}&limit={n}",
    "/ask?q={t}",
    "/ask.json?q={t}&game={u}&lang={u}&limit={n}",
    "/card?q={t}",
    "/card/{t}",
    "/doc/{t}",
    "/doc/fow-cr-8.01/{t}",
    "/rule/{t}",
    "/timing/{t}",
    "/timing/yugioh/{t}",
    "/compare/{t}",
    "/compare/fow-basic?variants={t}",
    "/compare/fow-basic/diff/{t}?left={u}&right={u}",
    "/diff/{t}/{u}",
    "/history/{t}",
    "/history?q={t}",
    "/g/{t}",
    "/kb/rules?_sort={t}",
    "/kb/rules?_sort_desc={t}&_size={n}",
    "/kb/rules?_facet={t}",
    "/kb/rules.json?_search={t}&_next={u}",
    "/kb/rules?{u}={t}",
    "/kb/rules.csv?_stream=1&_search={t}",
    "/kb.json?sql={t}",
    "/kb.json?sql=select+{t}",
    "/kb/search.json?q={t}",
    "/kb/rules/{t}",
    "/{t}",
]
# Raw (already escaped) pieces: invalid UTF-8 and broken escapes, sent as they are.
RAW = ["%ff%fe", "%", "%%", "%c3%28", "%ed%a0%80", "~", "~ff", "%2e%2e%2f", "%0d%0a"]
piece = st.one_of(
    # At most 30,000 characters (a cut may break an escape: also a fair input), so that
    # a URL stays under the 64 KB an HTTP client agrees to send.
    text.map(lambda s: quote(s[:20_000], safe="")[:30_000]),
    st.sampled_from(RAW),
)
request_path = st.builds(
    lambda route, t, u, n: route.format(t=t, u=u, n=n),
    st.sampled_from(ROUTES),
    piece,
    st.one_of(st.just(""), piece),
    st.sampled_from(["", "1", "0", "-1", "x", "99999999999999999999", "5"]),
)
# The fuzz runs in windows of WINDOW requests, each after QUIET_SECONDS of probing alone.
WINDOW = 250
QUIET_SECONDS = 4.0
PROBE = ["/", "/doc/fow-cr-8.01/105", "/card/honest", "/timing/yugioh/tcg", "/kb/documents"]


def _cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its living children (the server and its workers)."""
    total = 0.0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    for p in [str(pid), *children]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def probe(base: str) -> None:
    """``--probe BASE``: fetch the PROBE pages in turn until stdin closes; print the
    latencies (JSON). Run as its own process, so the fuzzing client's work does not slow
    the probe's own measurements."""
    import httpx

    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    latencies, failures, i = [], 0, 0
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                failures += client.get(PROBE[i % len(PROBE)]).status_code != 200
            except httpx.HTTPError:
                failures += 1
            latencies.append(time.perf_counter() - t0)
            i += 1
            time.sleep(0.05)
    print(json.dumps({"latencies": latencies, "failures": failures}))


class Probe:
    """The probe process (``--probe``), started and stopped around a phase."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--probe", self.base]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def finish(self) -> tuple[list[float], int]:
        assert self.proc is not None
        out, _ = self.proc.communicate("")
        data = json.loads(out)
        return sorted(data["latencies"]), data["failures"]

    def measure(self, seconds: float) -> tuple[list[float], int]:
        self.start()
        time.sleep(seconds)
        return self.finish()


def get(port: int, path: str, redirects: int = 3) -> tuple[int, str]:
    """GET on a fresh connection, following redirects; (0, error) when the connection fails.

    http.client, not httpx: httpx refuses to send a URL over 64 KB, which is a fair input."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read().decode("utf-8", "replace")
        location = response.getheader("location") or ""
        if response.status in (301, 302, 303, 307, 308) and redirects and location.startswith("/"):
            return get(port, location, redirects - 1)
        return response.status, body
    except (OSError, http.client.HTTPException) as exc:
        return 0, f"{type(exc).__name__}: {exc}"
    finally:
        conn.close()


def p95(values: list[float]) -> float:
    return values[max(0, round(0.95 * len(values)) - 1)] if values else 0.0


def fuzz_web(db: Path, n: int) -> dict[str, Any]:
    from cluster import running_process
    from servers import free_port

    paths: list[str] = []

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(request_path)
    def collect(path: str) -> None:
        paths.append(path)

    collect()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "kb", "serve", "--public", "--db", str(db)]
    with running_process([*command, "--port", str(port)], base + "/-/versions.json", 60) as proc:
        for path in PROBE + ["/ask?q=honest", "/search?q=honest"] * 3:  # warm, both workers
            get(port, path)
        probe = Probe(base)
        # Quiet windows and fuzz windows alternate, so a change in the machine's other load
        # during the run weighs on both sides of the comparison alike.
        before: list[float] = []
        during: list[float] = []
        probe_failures = 0
        results = []
        started = time.perf_counter()
        for i, path in enumerate(paths):
            if i % WINDOW == 0:
                if i:
                    window, failed = probe.finish()
                    during += window
                    probe_failures += failed
                window, failed = probe.measure(QUIET_SECONDS)
                before += window
                probe_failures += failed
                probe.start()
            cpu0 = _cpu(proc.pid)
            t0 = time.perf_counter()
            status, body = get(port, path)
            results.append(
                {
                    "path": path,
                    "status": status,
                    "seconds": time.perf_counter() - t0,
                    "cpu": _cpu(proc.pid) - cpu0,
                    "traceback": "Traceback" in body,
                    "error": body[:200] if status == 0 else "",
                }
            )
        window, failed = probe.finish()
        during, probe_failures = sorted(during + window), probe_failures + failed
        before.sort()
        seconds = time.perf_counter() - started
    statuses = Counter(r["status"] for r in results)
    worst = max(results, key=lambda r: r["cpu"])
    return {
        "requests": len(results),
        "seconds": round(seconds, 1),
        "statuses": dict(sorted(statuses.items())),
        "5xx": sum(v for k, v in statuses.items() if k >= 500),
        "failed_connections": statuses.get(0, 0),
        "tracebacks": sum(r["traceback"] for r in results),
        "examples_5xx": [r["path"][:120] for r in results if r["status"] >= 500][:5],
        "examples_failed": [
            {"path": r["path"][:120], "length": len(r["path"]), "error": r["error"]}
            for r in results
            if r["status"] == 0
        ][:5],
        "cpu_max_s": round(worst["cpu"], 3),
        "cpu_max_path": worst["path"][:120],
        "over_budget": sum(1 for r in results if r["cpu"] > CPU_BUDGET),
        "latency_max_s": round(max(r["seconds"] for r in results), 3),
        "probe_p95_quiet_ms": round(p95(before) * 1000, 1),
        "probe_p95_during_fuzz_ms": round(p95(during) * 1000, 1),
        "probe_ratio": round(p95(during) / p95(before), 2) if before else None,
        "probe_requests": [len(before), len(during)],
        "probe_failures": probe_failures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built database (default: build one)")
    parser.add_argument("--cli", type=int, default=2000, help="fuzzed command lines")
    parser.add_argument("--web", type=int, default=2000, help="fuzzed web requests")
    parser.add_argument("--workers", type=int, default=2, help="CLI processes at once")
    parser.add_argument("--probe", metavar="BASE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        probe(args.probe)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from kb.store.build import build

            db = Path(tmp) / "kb.sqlite"
            build(REPO / "corpus", db)
        web = fuzz_web(db, args.web) if args.web else None
        cli = fuzz_cli(db, args.cli, args.workers) if args.cli else None
    ok = True
    if cli:
        ok &= cli["tracebacks"] == 0 and not cli["problems"] and cli["over_budget"] == 0
    if web:
        ok &= web["5xx"] == 0 and web["tracebacks"] == 0 and web["over_budget"] == 0
        ok &= web["failed_connections"] == 0 and web["probe_failures"] == 0
        ok &= (web["probe_ratio"] or 0) <= PROBE_RATIO
    report = {"cli": cli, "web": web, "ok": ok}
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
