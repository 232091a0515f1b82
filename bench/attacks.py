"""Issue 23's trials: what one request, one socket or one build input can cost a public site.

Each trial starts a real ``kb serve --public`` in a child process (three of them behind
HAProxy, bench/cluster.py, where the trial is about the proxy) and measures on the server:

* **CPU seconds** used by the server process and its ask/search workers, read from
  /proc/<pid>/stat (utime + stime, and the children it reaped) before and after;
* **peak RSS** of the server process during the trial (VmHWM, reset through
  /proc/<pid>/clear_refs first), as the growth over its RSS before the trial;
* **the response time of ``/``** asked every 0.2 s on a new connection meanwhile;
* the **status codes** the attacking requests got.

Build-input trials run ``kb build`` on hostile input and report the exit code, whether a
traceback was printed, whether it hung, and whether the previous database is untouched.

Prints one block per trial and a last table of every figure against the issue's
done-when (a request over 1 CPU-s or 100 MB, ``/`` slower than 1 s, ...); the exit status
is 1 when any trial misses its target.

    .venv/bin/python bench/attacks.py                      # every trial (about 10 minutes)
    .venv/bin/python bench/attacks.py --db kb.sqlite --only sql-like --only idle-sockets
    .venv/bin/python bench/attacks.py --quick              # capacity 30 s instead of 120 s
    .venv/bin/python bench/attacks.py --list
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import free_port, wait_for  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options")

# The done-when of issue 23.
MAX_CPU_S = 1.0
MAX_MEMORY_MB = 100.0
MAX_HOME_S = 1.0

# ---------------------------------------------------------------------------------------------
# Processes: CPU and memory read from /proc


def _stat_fields(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(_stat_fields(int(entry))[1]) == pid:
                    out.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return out


def process_cpu(pid: int) -> float:
    """CPU seconds of ``pid``, of the children it reaped, and of its live children."""
    total = 0.0
    for p in [pid, *_children(pid)]:
        try:
            fields = _stat_fields(p)
        except OSError:
            continue
        # utime, stime, cutime, cstime: fields 14-17 of /proc/<pid>/stat.
        total += sum(int(x) for x in fields[11:15]) / CLK_TCK
    return total


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def rss_mb(pid: int) -> float:
    return _status_kb(pid, "VmRSS") / 1024


def reset_peak(pid: int) -> None:
    """Reset VmHWM to the current RSS (Linux 4.0+, same user)."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def peak_mb(pid: int) -> float:
    return _status_kb(pid, "VmHWM") / 1024


@dataclass
class Server:
    """A running ``kb serve`` child process: its base URL, process and log file."""

    base: str
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def port(self) -> int:
        return urlsplit(self.base).port or 80

    def log_bytes(self) -> int:
        return self.log.stat().st_size


@contextlib.contextmanager
def serve(db: Path, *, public: bool = True, timeout: float = 60.0) -> Iterator[Server]:
    """``kb serve [--public]`` on a free loopback port; stopped on exit."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "kb", "serve", "--db", str(db), "--port", str(port)]
    command += ["--public"] if public else []
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with open(log_path, "w+") as log:
            env = {**os.environ, "PYTHONPATH": str(REPO)}
            proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
            try:
                wait_for(base + "/", proc, log, timeout)
                _wait_ready(base, timeout)
                yield Server(base=base, proc=proc, log=log_path)
            finally:
                if proc.poll() is None:
                    os.kill(proc.pid, signal.SIGCONT)
                    proc.terminate()
                    try:
                        proc.wait(timeout=15)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()


def _wait_ready(base: str, timeout: float) -> None:
    """Until the ask/search workers have started (the health check is green; a server
    without one answers 404): a trial must not measure their start-up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/-/kb-health", timeout=10).status_code in (200, 404):
                return
        time.sleep(0.2)


@dataclass
class Usage:
    """What a set of processes used between ``start`` and ``stop``."""

    pids: list[int]
    cpu_before: float = 0.0
    rss_before: float = 0.0
    cpu_s: float = 0.0
    peak_growth_mb: float = 0.0
    rss_after_mb: float = 0.0

    def start(self) -> Usage:
        for pid in self.pids:
            reset_peak(pid)
        self.rss_before = sum(rss_mb(p) for p in self.pids)
        self.cpu_before = sum(process_cpu(p) for p in self.pids)
        return self

    def stop(self) -> Usage:
        self.cpu_s = round(sum(process_cpu(p) for p in self.pids) - self.cpu_before, 2)
        self.peak_growth_mb = round(sum(peak_mb(p) for p in self.pids) - self.rss_before, 1)
        self.rss_after_mb = round(sum(rss_mb(p) for p in self.pids), 1)
        return self


class Probe(threading.Thread):
    """GET ``url`` on a new connection every ``every`` seconds until stopped."""

    def __init__(self, url: str, every: float = 0.2, timeout: float = 60.0) -> None:
        super().__init__(daemon=True)
        self.url, self.every, self.timeout = url, every, timeout
        self.results: list[tuple[int, float]] = []
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            t0 = time.perf_counter()
            try:
                status = httpx.get(self.url, timeout=self.timeout).status_code
            except httpx.HTTPError:
                status = 0
            self.results.append((status, time.perf_counter() - t0))
            self._stop_event.wait(self.every)

    def stop(self) -> dict[str, Any]:
        self._stop_event.set()
        self.join(self.timeout + 5)
        times = [t for _, t in self.results]
        return {
            "home_max_s": round(max(times), 2) if times else None,
            "home_not_200": sum(1 for s, _ in self.results if s != 200),
            "home_requests": len(self.results),
        }


@contextlib.contextmanager
def probing(url: str) -> Iterator[dict[str, Any]]:
    probe = Probe(url)
    probe.start()
    out: dict[str, Any] = {}
    try:
        yield out
    finally:
        out.update(probe.stop())


def fetch(url: str, *, method: str = "GET", timeout: float = 180.0) -> dict[str, Any]:
    """Status, body size and headers of one request (the body read and counted, not kept)."""
    t0 = time.perf_counter()
    size = 0
    try:
        with httpx.stream(method, url, timeout=timeout) as response:
            for chunk in response.iter_raw():
                size += len(chunk)
            status, headers = response.status_code, dict(response.headers)
    except httpx.HTTPError as exc:
        status, headers = 0, {"error": type(exc).__name__}
    return {
        "status": status,
        "bytes": size,
        "seconds": time.perf_counter() - t0,
        "headers": headers,
    }


def in_parallel(urls: list[str], timeout: float = 180.0) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = [{} for _ in urls]

    def one(i: int) -> None:
        results[i] = fetch(urls[i], timeout=timeout)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(urls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def statuses(results: list[dict[str, Any]]) -> str:
    return ",".join(str(s) for s in sorted(Counter(r["status"] for r in results).elements()))


# ---------------------------------------------------------------------------------------------
# The worst requests of the list

# One LIKE / GLOB / instr over a 1 MB string is one SQLite VM step: the progress handler that
# enforces the SQL time limit is never called during it.
_MB_A = "printf('%.*c',999999,'a')"
SQL_LIKE = f"select {_MB_A} like printf('%%%.*cb',9998,'a')"
SQL_GLOB = f"select {_MB_A} glob printf('*%.*cb',9998,'a')"
SQL_INSTR = f"select instr({_MB_A},printf('%.*cb',99999,'a'))"
WHERE_LIKE = f"{_MB_A} like printf('%%%.*cb',9998,'a')"
ROWS_X_VALUES = f"select {_MB_A} as v from rules limit 500"


def facets_url(db: Path, count: int = 592) -> str:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        columns = [r[1] for r in conn.execute("pragma table_info(rules)")]
    return "/kb/rules.json?" + "&".join(
        f"_facet={c}" for c in itertools.islice(itertools.cycle(columns), count)
    )


def worst_requests(db: Path) -> dict[str, str]:
    """The heaviest GETs of the issue's list, and the heaviest a visitor can still send."""
    letters = " OR ".join(f"{a}{b}*" for a in "abcdefghij" for b in "aeiou")
    return {
        "sql LIKE": "/kb.json?sql=" + quote(SQL_LIKE),
        "sql GLOB": "/kb.json?sql=" + quote(SQL_GLOB),
        "sql instr": "/kb.json?sql=" + quote(SQL_INSTR),
        "_where LIKE": "/kb/rules.json?_where=" + quote(WHERE_LIKE),
        "rows x values": "/kb.json?_shape=array&sql=" + quote(ROWS_X_VALUES),
        "592 facets": facets_url(db),
        "filter LIKE on meta": "/kb/meta.json?value__contains=" + quote("%e" * 1500 + "%z"),
        "filter GLOB on rules": "/kb/rules.json?text__glob=" + quote("*e" * 1500 + "*z"),
        "raw FTS": "/kb/rules.json?_searchmode=raw&_search=" + quote(letters),
        "table page max": "/kb/rules?_size=max&_labels=on",
        "canned search": "/kb/search.json?q=" + quote(" ".join(f"w{i}" for i in range(900))),
        "longest ask": "/ask?q=" + quote("why can a player not chain during damage step " * 12),
        "version diff": "/diff/fow-cr-7.0/fow-cr-8.01",
        "whole document": "/read/ygo-gameking-2005",
        "compare": "/compare/fow-basic",
        "longest search": "/search?all=1&limit=1000&q=" + quote("the a to of card " * 20),
    }


# ---------------------------------------------------------------------------------------------
# Trials


@dataclass
class Trial:
    name: str
    about: str
    run: Callable[[Path, argparse.Namespace], dict[str, Any]]
    cluster: bool = False


TRIALS: dict[str, Trial] = {}


def trial(name: str, about: str, cluster: bool = False) -> Callable[[Any], Any]:
    def register(fn: Callable[[Path, argparse.Namespace], dict[str, Any]]) -> Any:
        TRIALS[name] = Trial(name, about, fn, cluster)
        return fn

    return register


def _one_request(server: Server, path: str, *, copies: int = 1) -> dict[str, Any]:
    """``copies`` × GET ``path`` at once, ``/`` probed meanwhile; CPU and memory measured."""
    usage = Usage([server.pid]).start()
    with probing(server.base + "/") as home:
        results = in_parallel([server.base + path] * copies)
    usage.stop()
    return {
        "status": statuses(results),
        "cpu_s": usage.cpu_s,
        "cpu_s_per_request": round(usage.cpu_s / copies, 2),
        "peak_growth_mb": usage.peak_growth_mb,
        "response_mb": round(max(r["bytes"] for r in results) / 1e6, 1),
        "request_bytes": len(path),
        **home,
    }


def _bomb_trial(key: str) -> Callable[[Path, argparse.Namespace], dict[str, Any]]:
    def run(db: Path, args: argparse.Namespace) -> dict[str, Any]:
        path = worst_requests(db)[key]
        with serve(db) as server:
            fetch(server.base + "/ask?q=honest")  # workers started
            return _one_request(server, path)

    return run


for _key, _name in [
    ("sql LIKE", "sql-like"),
    ("sql GLOB", "sql-glob"),
    ("sql instr", "sql-instr"),
    ("_where LIKE", "where-like"),
    ("rows x values", "rows-x-values"),
    ("592 facets", "facets"),
    ("filter LIKE on meta", "filter-like"),
    ("filter GLOB on rules", "filter-glob"),
    ("raw FTS", "fts-raw"),
    ("table page max", "table-max"),
    ("canned search", "canned-search"),
    ("longest ask", "longest-ask"),
    ("version diff", "version-diff"),
    ("whole document", "whole-document"),
    ("compare", "compare"),
    ("longest search", "longest-search"),
]:
    trial(_name, f"F1/F2: one GET, {_key}")(_bomb_trial(_key))


def baseline(base: str, seconds: float = 4.0) -> float | None:
    """The slowest ``/`` over ``seconds`` with no attack: what the shared machine allows."""
    with probing(base + "/") as home:
        time.sleep(seconds)
    return home["home_max_s"]


@trial("worst-x3", "F1: each worst request three at a time, / probed meanwhile")
def worst_x3(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with serve(db) as server:
        fetch(server.base + "/ask?q=honest")
        quiet = baseline(server.base)
        for name, path in worst_requests(db).items():
            if name in args.x3_skip:
                continue
            r = _one_request(server, path, copies=3)
            out[name] = {k: r[k] for k in ("status", "cpu_s_per_request", "peak_growth_mb",
                                          "home_max_s", "home_not_200")}  # fmt: skip
    worst_cpu = max(v["cpu_s_per_request"] for v in out.values())
    worst_home = max(v["home_max_s"] or 0 for v in out.values())
    return {
        "by_request": out,
        "cpu_s_per_request": worst_cpu,
        "peak_growth_mb": max(v["peak_growth_mb"] for v in out.values()),
        "home_max_s": worst_home,
        "home_max_s_without_attack": quiet,
        "home_not_200": sum(v["home_not_200"] for v in out.values()),
    }


def all_up(cluster: Any, timeout: float = 60.0) -> None:
    """Until HAProxy sees every replica UP (their workers started): startup is not a trial."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if all(v["status"] == "UP" for v in cluster.servers().values()):
                return
        time.sleep(0.5)


@trial("proxy-bombs", "F1: the worst requests three at a time through HAProxy", cluster=True)
def proxy_bombs(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    from cluster import running_cluster

    paths = worst_requests(db)
    chosen = ["sql LIKE", "_where LIKE", "592 facets"]
    out: dict[str, Any] = {}
    with running_cluster(db, replicas=3) as cluster:
        all_up(cluster)
        quiet = baseline(cluster.base)
        pids = [p.pid for p in cluster.replicas]
        for name in chosen:
            before = {k: int(v.get("wretr") or 0) for k, v in cluster.servers().items()}
            usage = Usage(pids).start()
            downs: list[str] = []
            done = threading.Event()

            def watch(done: threading.Event = done, downs: list[str] = downs) -> None:
                while not done.wait(0.5):
                    with contextlib.suppress(Exception):
                        downs.extend(k for k, v in cluster.servers().items() if v["status"] != "UP")

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            with probing(cluster.base + "/") as home:
                results = in_parallel([cluster.base + paths[name]] * 3, timeout=300)
            done.set()
            watcher.join()
            usage.stop()
            after = {k: int(v.get("wretr") or 0) for k, v in cluster.servers().items()}
            out[name] = {
                "status": statuses(results),
                "cpu_s_all_replicas": usage.cpu_s,
                "retried_by_haproxy": sum(after.values()) - sum(before.values()),
                "home_max_s": home["home_max_s"],
                "home_not_200": home["home_not_200"],
                "replica_down_seen": len(downs),
            }
    return {
        "by_request": out,
        "cpu_s_per_request": round(max(v["cpu_s_all_replicas"] for v in out.values()) / 3, 2),
        "home_max_s": max(v["home_max_s"] or 0 for v in out.values()),
        "home_max_s_without_attack": quiet,
        "home_not_200": sum(v["home_not_200"] for v in out.values()),
        "retried_by_haproxy": sum(v["retried_by_haproxy"] for v in out.values()),
    }


def _raw(host: str, port: int, data: bytes, *, wait: float = 5.0) -> bytes:
    """Send ``data`` on a new socket; everything the server answers within ``wait`` s."""
    with socket.create_connection((host, port), timeout=wait) as sock:
        sock.sendall(data)
        answer = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            answer += chunk
    return answer


def _open_sockets(port: int, count: int, first_bytes: bytes = b"") -> list[socket.socket]:
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if first_bytes:
            s.sendall(first_bytes)
        socks.append(s)
    return socks


def _closed_by_server(socks: list[socket.socket]) -> tuple[int, list[bytes]]:
    """How many of ``socks`` the server closed (EOF or reset), and what it sent on them."""
    closed, sent = 0, []
    for s in socks:
        s.setblocking(False)
        try:
            data = s.recv(65536)
            if data:
                sent.append(data)
                with contextlib.suppress(OSError):
                    while s.recv(65536):
                        pass
            closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    return closed, sent


def _home_once(base: str, timeout: float = 10.0) -> tuple[int, float, dict[str, str]]:
    t0 = time.perf_counter()
    try:
        r = httpx.get(base + "/", timeout=timeout)
        return r.status_code, round(time.perf_counter() - t0, 2), dict(r.headers)
    except httpx.HTTPError as exc:
        return 0, round(time.perf_counter() - t0, 2), {"error": type(exc).__name__}


@trial("idle-sockets", "F3: 300 idle connections, then GET /")
def idle_sockets(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    with serve(db) as server:
        socks = _open_sockets(server.port, 300)
        try:
            time.sleep(0.5)
            status, seconds, headers = _home_once(server.base)
            statuses_seen = [status]
            for _ in range(4):
                statuses_seen.append(_home_once(server.base)[0])
            time.sleep(max(0.0, args.idle_wait))
            closed, _ = _closed_by_server(socks)
            after = _home_once(server.base)[0]
        finally:
            for s in socks:
                s.close()
    return {
        "home_statuses_with_300_idle": ",".join(map(str, statuses_seen)),
        "home_s": seconds,
        "home_not_200": sum(1 for s in statuses_seen if s != 200),
        "answer_has_security_headers": all(h in headers for h in SECURITY_HEADERS),
        f"idle_closed_by_server_after_{args.idle_wait:g}s": closed,
        "home_status_after": after,
    }


@trial("half-sent", "F3: 100 requests sent up to their last header line, never finished")
def half_sent(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    with serve(db) as server:
        socks = _open_sockets(server.port, 100, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        try:
            home = _home_once(server.base)
            time.sleep(max(0.0, args.idle_wait))
            closed, sent = _closed_by_server(socks)
        finally:
            for s in socks:
                s.close()
    first = sent[0].split(b"\r\n", 1)[0].decode(errors="replace") if sent else ""
    with_headers = sum(1 for s in sent if b"content-security-policy" in s.lower())
    return {
        "home_status": home[0],
        "home_s": home[1],
        f"closed_by_server_after_{args.idle_wait:g}s": closed,
        "answer_on_close": first,
        "answers_with_security_headers": with_headers,
    }


@trial("uvicorn-400", "F3: a malformed request: does the server's 400 carry the headers?")
def uvicorn_400(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    with serve(db) as server:
        answer = _raw("127.0.0.1", server.port, b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
    head = answer.split(b"\r\n\r\n", 1)[0].decode(errors="replace")
    return {
        "status_line": head.split("\r\n", 1)[0],
        "has_security_headers": all(h in head.lower() for h in SECURITY_HEADERS),
    }


@trial("smuggling", "Smaller: Content-Length and Transfer-Encoding on one request")
def smuggling(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    smuggled = b"GET /smuggled-by-attacks HTTP/1.1\r\nHost: x\r\n\r\n"
    body = b"0\r\n\r\n" + smuggled
    request = (
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n"
        % len(body)
    ) + body
    with serve(db) as server:
        answer = _raw("127.0.0.1", server.port, request, wait=5.0)
        time.sleep(0.3)
        log = server.log.read_text(errors="replace")
    lines = re.findall(rb"HTTP/1\.1 (\d{3})", answer)
    return {
        "answers": ",".join(x.decode() for x in lines),
        "smuggled_request_served": "/smuggled-by-attacks" in log,
    }


@trial("static-long-name", "Smaller: /-/kb-static/ with a 300-byte name, and many names")
def static_long_name(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    with serve(db) as server:
        log_before = server.log_bytes()
        long = fetch(server.base + "/-/kb-static/" + "a" * 300 + ".css")
        time.sleep(0.2)
        log_per_request = server.log_bytes() - log_before
        n = args.static_names
        with httpx.Client(base_url=server.base, timeout=30) as client:
            for i in range(300):  # warm: allocator and caches of an ordinary 404
                client.get(f"/-/kb-static/warm-{i}.css")
            rss0 = rss_mb(server.pid)
            usage = Usage([server.pid]).start()
            codes: Counter[int] = Counter()
            for i in range(n):
                codes[client.get(f"/-/kb-static/n{i:06d}-{'b' * 200}.css").status_code] += 1
            usage.stop()
            rss1 = rss_mb(server.pid)
    return {
        "status_300_byte_name": long["status"],
        "log_bytes_per_request": log_per_request,
        "distinct_names": n,
        "statuses": dict(codes),
        "rss_growth_mb": round(rss1 - rss0, 1),
        "rss_growth_mb_per_100k": round((rss1 - rss0) * 100_000 / n, 1),
    }


@trial("post", "Smaller: POST /kb/search and other methods")
def post(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    with serve(db) as server:
        results = {
            f"{m} {p}": fetch(server.base + p, method=m)["status"]
            for m, p in [("POST", "/kb/search"), ("POST", "/"), ("PUT", "/kb/rules"),
                         ("DELETE", "/ask"), ("POST", "/kb.json")]
        }  # fmt: skip
    return {"statuses": results, "server_errors": sum(1 for s in results.values() if s >= 500)}


@trial("db-open-mode", "Smaller: how the server and its workers hold the database file")
def db_open_mode(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    modes: Counter[str] = Counter()
    with serve(db) as server:
        fetch(server.base + "/kb/rules")
        fetch(server.base + "/ask?q=honest+vs+honest")
        fetch(server.base + "/search?q=damage&all=1")
        target = str(db.resolve())
        for pid in [server.pid, *_children(server.pid)]:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}").removesuffix(" (deleted)") != target:
                        continue
                    with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                        flags = int(next(x for x in f if x.startswith("flags:")).split()[1], 8)
                    modes[{0: "O_RDONLY", 1: "O_WRONLY", 2: "O_RDWR"}[flags & 3]] += 1
    return {"descriptors": dict(modes), "writable": modes["O_RDWR"] + modes["O_WRONLY"]}


# A word no document of the bundled corpus holds, in the one document a rebuild adds.
NEW_WORD = "zyzzogeton"
NEW_DOCUMENT = f"""Rebuilt rules

1. General

1.1. A {NEW_WORD} is a card kind that only the rebuilt database knows.
1.2. Each player may hold one {NEW_WORD} at a time.
"""


def _get_json(url: str) -> Any:
    """The JSON of ``url``, asked again for up to 10 s while it is 503 (a worker restarting)."""
    for _ in range(50):
        response = httpx.get(url, timeout=30)
        if response.status_code != 503:
            break
        time.sleep(0.2)
    return response.json()


def _versions(base: str) -> dict[str, Any]:
    documents = _get_json(base + "/kb/documents.json?_shape=array")
    fts = httpx.get(base + f"/kb/rules.json?_search={NEW_WORD}&_shape=array", timeout=30)
    search = _get_json(base + f"/search.json?q={NEW_WORD}")
    ask = _get_json(base + f"/ask.json?q=what+is+a+{NEW_WORD}")
    return {
        "table page documents": len(documents),
        "table page search finds it": bool(fts.status_code == 200 and fts.json()),
        "search finds it": bool(search.get("hits")),
        # The question is echoed in the answer: the new rule's text, not the word, says it.
        "ask cites it": "only the rebuilt database knows" in json.dumps(ask),
    }


@trial("rebuild", "Smaller: a rebuild while serving: do all pages answer from one version?")
def rebuild(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        served = Path(tmp) / "kb.sqlite"
        shutil.copyfile(db, served)
        corpus = Path(tmp) / "corpus"
        shutil.copytree(REPO / "corpus", corpus)
        (corpus / "rebuilt-rules.txt").write_text(NEW_DOCUMENT, encoding="utf-8")
        with serve(served) as server:
            before = _versions(server.base)
            build = _kb_build(["--corpus", str(corpus), "--db", str(served)], timeout=300)
            after = _versions(server.base)
            # A worker that starts after the rebuild (one killed, or the pool's first).
            for child in _children(server.pid):
                os.kill(child, signal.SIGKILL)
            time.sleep(1.0)
            after_worker_restart = _versions(server.base)
    new_after = {k: v for k, v in after.items() if k != "table page documents"}
    return {
        "before": before,
        "build_exit": build["exit"],
        "after": after,
        "after_worker_restart": after_worker_restart,
        "mixed_versions": len({*new_after.values(), after["table page documents"] > before[
            "table page documents"]}) > 1 or after != after_worker_restart,
    }  # fmt: skip


def _kb_build(arguments: list[str], *, timeout: float = 120.0, preexec: Any = None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "kb", "build", "--quiet", *arguments]
    try:
        out = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env=env,
            preexec_fn=preexec, cwd=REPO,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"exit": None, "hung": True, "traceback": False, "stderr_lines": 0, "error": ""}
    lines = [x for x in out.stderr.splitlines() if x.strip()]
    return {
        "exit": out.returncode,
        "hung": False,
        "traceback": "Traceback" in out.stderr,
        "stderr_lines": len(lines),
        "error": lines[-1][:160] if lines else "",
    }


TINY_MANIFEST = """[games.fow]
name = "Force of Will"

[[documents]]
file = "tiny.txt"
id = "tiny"
game = "fow"
lang = "en"
provenance = "official"
"""
TINY_DOCUMENT = "Tiny rules\n\n1. Rules\n\n1.1. A player may draw a card.\n1.2. A card is drawn.\n"


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


@trial("build-inputs", "Smaller: kb build on hostile input; the previous database untouched")
def build_inputs(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    cases: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        previous = root / "previous.sqlite"
        shutil.copyfile(db, previous)
        good = _sha(previous)

        def corpus(name: str, manifest: str | None = TINY_MANIFEST) -> Path:
            folder = root / name
            folder.mkdir()
            (folder / "tiny.txt").write_text(TINY_DOCUMENT, encoding="utf-8")
            if manifest is not None:
                (folder / "sources.toml").write_text(manifest, encoding="utf-8")
            return folder

        def case(name: str, arguments: list[str], db_path: Path = previous, **kw: Any) -> dict:
            result = _kb_build(["--db", str(db_path), *arguments], **kw)
            result["previous_untouched"] = _sha(previous) == good
            cases[name] = result
            return result

        nul = corpus("nul", TINY_MANIFEST.replace('"tiny.txt"', '"ti\\u0000ny.txt"'))
        case("NUL in a manifest path", ["--corpus", str(nul)])
        nested = corpus("nested", TINY_MANIFEST + "x = " + "[" * 50_000 + "]" * 50_000 + "\n")
        case("deeply nested TOML", ["--corpus", str(nested)])
        inline = corpus("inline", TINY_MANIFEST + "y = " + "{a=" * 50_000 + "1" + "}" * 50_000)
        case("deeply nested inline tables", ["--corpus", str(inline)])
        fifo_corpus = corpus("fifo", None)
        os.mkfifo(fifo_corpus / "sources.toml")
        case("sources.toml is a FIFO", ["--corpus", str(fifo_corpus)], timeout=30)
        full = corpus("full")

        def small_disk() -> None:
            import resource

            resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

        case("full disk (RLIMIT_FSIZE 64 KB)", ["--corpus", str(full)], preexec=small_disk)
        fifo_db = root / "fifo.sqlite"
        os.mkfifo(fifo_db)
        r = case("--db is a FIFO", ["--corpus", str(full)], db_path=fifo_db)
        r["still_a_fifo"] = stat.S_ISFIFO(os.lstat(fifo_db).st_mode)
        link = root / "link.sqlite"
        link.symlink_to(previous)
        r = case("--db is a symlink", ["--corpus", str(full)], db_path=link)
        r["still_a_symlink"] = link.is_symlink()
    bad = [
        name
        for name, r in cases.items()
        if r["hung"] or r["traceback"] or r["exit"] in (0, None) or not r["previous_untouched"]
        or r["stderr_lines"] != 1 or r.get("still_a_fifo") is False
        or r.get("still_a_symlink") is False
    ]  # fmt: skip
    return {"cases": cases, "failing_cases": bad}


# ---------------------------------------------------------------------------------------------
# Capacity

QUESTIONS = [
    "honest vs honest",
    "can shrink be activated during damage calculation",
    "how many chains during damage calculation",
    "what happens when both players lose at the same time",
    "when is the damage step",
    "can I activate a quick-play spell in the damage step",
    "how many cards can a player have in hand",
    "when does a resonator recover",
]
SEARCHES = ["damage step", "chain", "buoc thiet hai", "graveyard", "magic stone", "guard",
            "life", "draw", "ride", "trigger"]  # fmt: skip
OTHER_PAGES = [
    ("/", 10),
    ("/doc/fow-cr-8.01/105", 8),
    ("/doc/ygo-damage-step/top", 4),
    ("/rule/fow-cr-8.01:105.4.json", 6),
    ("/card/honest", 5),
    ("/glossary/fow", 3),
    ("/timing/yugioh/tcg", 3),
    ("/compare/fow-basic", 3),
    ("/history/314.1", 2),
    ("/kb/rules", 6),
    ("/kb/rules?_search=chain", 4),
    ("/kb/documents", 2),
    ("/suggest.json?q=hon", 4),
]


def realistic_mix(seed: int = 23, n: int = 4000) -> list[str]:
    """Pages in the proportions of a rules site: a quarter ask and search, the rest pages."""
    rng = random.Random(seed)
    weighted = [p for p, w in OTHER_PAGES for _ in range(w)]
    out = []
    for _ in range(n):
        roll = rng.random()
        if roll < 0.12:
            out.append("/ask?q=" + quote(rng.choice(QUESTIONS)))
        elif roll < 0.25:
            out.append("/search?all=1&q=" + quote(rng.choice(SEARCHES)))
        else:
            out.append(rng.choice(weighted))
    return out


def is_heavy(path: str) -> bool:
    return path.startswith(("/ask", "/search"))


def capacity_summary(load: Any) -> dict[str, Any]:
    from cluster import percentile

    results = load.results
    heavy = [r for r in results if is_heavy(r[0])]
    latencies = sorted(r[3] for r in results)
    heavy_latencies = sorted(r[3] for r in heavy)
    span = max(r[2] + r[3] for r in results) - min(r[2] for r in results) if results else 0
    return {
        "requests": len(results),
        "req_per_s": round(len(results) / span, 1) if span else 0.0,
        "p50_s": round(percentile(latencies, 50), 3),
        "p95_s": round(percentile(latencies, 95), 3),
        "p99_s": round(percentile(latencies, 99), 3),
        "ask_search_requests": len(heavy),
        "ask_search_503_pct": round(100 * sum(1 for r in heavy if r[1] == 503) / len(heavy), 2)
        if heavy
        else 0.0,
        "ask_search_p95_s": round(percentile(heavy_latencies, 95), 3),
        "statuses": dict(Counter(r[1] for r in results)),
        "errors": len(load.errors),
    }


def machine_cpu() -> float:
    """CPU seconds every process of the machine has used (/proc/stat: all but idle, iowait)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / CLK_TCK


def own_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@trial("capacity", "Capacity: 16 clients, the realistic page mix, for --capacity-seconds")
def capacity(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    from cluster import drive

    paths = realistic_mix()
    with serve(db) as server:
        drive(server.base, paths[:64], clients=16, seconds=60, max_requests=64)  # warm
        usage = Usage([server.pid]).start()
        machine, client, started = machine_cpu(), own_cpu(), time.perf_counter()
        load = drive(
            server.base, paths, clients=16, seconds=args.capacity_seconds, max_requests=10**6
        )
        usage.stop()
        seconds = time.perf_counter() - started
        machine, client = machine_cpu() - machine, own_cpu() - client
    return {
        **capacity_summary(load),
        "cpu_s": usage.cpu_s,
        "cpu_ms_per_request": round(1000 * usage.cpu_s / max(1, len(load.results)), 1),
        "peak_growth_mb": usage.peak_growth_mb,
        # The machine is shared: the cores the server had are what others left it.
        "cores_server": round(usage.cpu_s / seconds, 2),
        "cores_load_generator": round(client / seconds, 2),
        "cores_other_processes": round(max(0.0, machine - usage.cpu_s - client) / seconds, 2),
    }


@trial("searches-12", "Capacity: 12 searches at once, three rounds")
def searches_12(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    codes: Counter[int] = Counter()
    with serve(db) as server:
        fetch(server.base + "/search?q=warm")
        for round_ in range(3):
            urls = [
                server.base + "/search?all=1&q=" + quote(f"{SEARCHES[i % len(SEARCHES)]} {round_}")
                for i in range(12)
            ]
            codes.update(r["status"] for r in in_parallel(urls, timeout=60))
    return {"statuses": dict(codes), "busy_503": codes[503]}


@trial("frozen-replica", "Capacity: a replica frozen 15 s (SIGSTOP) under load", cluster=True)
def frozen_replica(db: Path, args: argparse.Namespace) -> dict[str, Any]:
    from cluster import drive, running_cluster

    paths = realistic_mix(seed=5)
    with running_cluster(db, replicas=3) as cluster:
        all_up(cluster)
        drive(cluster.base, paths[:48], clients=8, seconds=60, max_requests=48)
        victim = cluster.replicas[2].pid
        load = drive(
            cluster.base,
            paths,
            clients=16,
            seconds=30,
            max_requests=10**6,
            at={5.0: lambda: os.kill(victim, signal.SIGSTOP),
                20.0: lambda: os.kill(victim, signal.SIGCONT)},
        )  # fmt: skip
        servers = cluster.servers()
    failed = [(p, s, round(t, 1)) for p, s, t, _ in load.results if s != 200]
    return {
        "requests": len(load.results),
        "client_visible_failures": len(failed),
        "failures": Counter(s for _, s, _ in failed),
        "first_failures": failed[:5],
        "p99_s": capacity_summary(load)["p99_s"],
        "haproxy": {k: {x: v.get(x) for x in ("status", "wretr", "wredis", "eresp")}
                    for k, v in servers.items()},
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Verdicts against the done-when


def verdict(name: str, r: dict[str, Any]) -> tuple[bool, str]:
    """(target met, the figure that says so) for one trial's result."""
    if "cpu_s_per_request" in r and "proxy" not in name:
        ok = (
            r["cpu_s_per_request"] <= MAX_CPU_S
            and r.get("peak_growth_mb", 0) <= MAX_MEMORY_MB
            and (r.get("home_max_s") or 0) < MAX_HOME_S
            and r.get("home_not_200", 0) == 0
        )
        return ok, (
            f"status {r.get('status', '-')}, {r['cpu_s_per_request']:.2f} CPU-s/request, "
            f"peak +{r.get('peak_growth_mb', 0):.0f} MB, / at most {r.get('home_max_s')} s"
            + (f", {r['response_mb']} MB answer" if r.get("response_mb") else "")
            + (
                f" ({r['home_max_s_without_attack']} s with no attack)"
                if "home_max_s_without_attack" in r
                else ""
            )
        )
    if name == "proxy-bombs":
        ok = (r["cpu_s_per_request"] <= MAX_CPU_S and (r["home_max_s"] or 0) < MAX_HOME_S
              and r["home_not_200"] == 0 and r["retried_by_haproxy"] == 0)  # fmt: skip
        return ok, (
            f"{r['cpu_s_per_request']:.2f} CPU-s/request (all replicas), / at most "
            f"{r['home_max_s']} s ({r['home_not_200']} not 200; "
            f"{r.get('home_max_s_without_attack')} s with no attack), "
            f"{r['retried_by_haproxy']} HAProxy retries"
        )
    if name == "idle-sockets":
        ok = r["home_not_200"] == 0 and r["answer_has_security_headers"]
        return ok, f"/ with 300 idle sockets: {r['home_statuses_with_300_idle']} in {r['home_s']} s"
    if name == "half-sent":
        closed = next(v for k, v in r.items() if k.startswith("closed_by_server"))
        ok = r["home_status"] == 200 and closed == 100
        return ok, (f"{closed}/100 closed by the server, answer {r['answer_on_close']!r}, "
                    f"/ {r['home_status']}")  # fmt: skip
    if name == "uvicorn-400":
        return r[
            "has_security_headers"
        ], f"{r['status_line']!r}, headers {r['has_security_headers']}"
    if name == "smuggling":
        return not r["smuggled_request_served"], (
            f"answers {r['answers']}, smuggled request served: {r['smuggled_request_served']}"
        )
    if name == "static-long-name":
        ok = r["status_300_byte_name"] == 404 and r["rss_growth_mb_per_100k"] < 5
        return ok, (
            f"{r['status_300_byte_name']}, {r['log_bytes_per_request']} log bytes, "
            f"+{r['rss_growth_mb_per_100k']} MB per 100k names"
        )
    if name == "post":
        return r["server_errors"] == 0, json.dumps(r["statuses"])
    if name == "db-open-mode":
        return r["writable"] == 0, json.dumps(r["descriptors"])
    if name == "rebuild":
        return not r["mixed_versions"], f"after: {json.dumps(r['after'])}"
    if name == "build-inputs":
        return not r["failing_cases"], f"failing: {r['failing_cases']}"
    if name == "capacity":
        ok = r["ask_search_503_pct"] <= 1.0 and r["p95_s"] <= 1.0 and r["errors"] == 0
        return ok, (
            f"{r['req_per_s']} req/s, ask+search 503 {r['ask_search_503_pct']}%, p95 "
            f"{r['p95_s']} s (ask+search {r['ask_search_p95_s']} s), p99 {r['p99_s']} s"
        )
    if name == "searches-12":
        return r["busy_503"] == 0, json.dumps(r["statuses"])
    if name == "frozen-replica":
        return r["client_visible_failures"] == 0, (
            f"{r['client_visible_failures']} client-visible failures of {r['requests']}"
        )
    return True, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a built database (default: build one)")
    parser.add_argument("--only", action="append", help="run only this trial (repeat)")
    parser.add_argument("--skip", action="append", default=[], help="skip this trial (repeat)")
    parser.add_argument("--list", action="store_true", help="list the trials")
    parser.add_argument("--quick", action="store_true", help="capacity for 30 s, 20k names")
    parser.add_argument("--capacity-seconds", type=float, default=120.0)
    parser.add_argument("--static-names", type=int, default=50_000)
    parser.add_argument("--idle-wait", type=float, default=15.0, help="seconds idle sockets wait")
    parser.add_argument(
        "--x3-skip", action="append", default=[], help="a worst request not to send three at once"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.list:
        for t in TRIALS.values():
            print(f"{t.name:<18} {t.about}")
        return 0
    if args.quick:
        args.capacity_seconds = min(args.capacity_seconds, 30.0)
        args.static_names = min(args.static_names, 20_000)
    chosen = [TRIALS[n] for n in (args.only or TRIALS) if n not in args.skip]
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from kb.store.build import build

            db = Path(tmp) / "kb.sqlite"
            build(REPO / "corpus", db)
        db = db.resolve()
        for t in chosen:
            started = time.perf_counter()
            try:
                result = t.run(db, args)
            except Exception as exc:  # a trial that cannot run is a result too
                result = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            ok, figure = verdict(t.name, result) if "error" not in result else (False, "")
            result.update(target_met=ok, figure=figure or result.get("error", ""))
            result["trial_seconds"] = round(time.perf_counter() - started, 1)
            # The machine is shared: how busy it was says how far response times can be read.
            result["load_average_1min"] = round(os.getloadavg()[0], 1)
            report[t.name] = result
            if not args.json:
                mark = "ok  " if ok else "MISS"
                print(f"{mark} {t.name:<18} {result['figure']}", flush=True)
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        print()
        for name, result in report.items():
            details = {k: v for k, v in result.items() if k not in ("figure", "target_met")}
            print(f"{name}: {json.dumps(details, default=str)}")
    return 0 if all(r["target_met"] for r in report.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
