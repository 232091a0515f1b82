"""N ``kb serve --public`` replicas on loopback behind HAProxy: the deployment of
docs/deploy.md, run on one machine for tests/test_replicas.py and bench/replicas.py.

HAProxy (Debian's, installed by scripts/install-haproxy.sh) balances on the fewest
connections, checks every replica's health twice a second (/-/kb-health: a tiny query on
the replica's connection and in one of its workers), and retries on another replica only a
request that a replica did not start (refused connection, reset, empty answer, 503 "busy"):
a replica killed mid-run costs no request, and a heavy request is never multiplied. The
database is immutable, so every replica serves the same file and none needs to know of the
others.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servers import free_port, wait_for

from kb.web.serve import ServeError

HAPROXY = Path("/usr/sbin/haproxy")

CONFIG = """\
global
    maxconn 1024

defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout check 2s
    # Retried on another replica: only what a replica did not start. A refused or reset
    # connection, an empty answer (the replica died), a 503 (kb serve's "busy, nothing was
    # started"). Never a response timeout: the request that timed out is the heavy one, and
    # it would run on every replica in turn; never a 504 (kb serve's "this request used its
    # budget").
    retries 2
    option redispatch 1
    retry-on conn-failure empty-response 503
    # Red when the replica cannot run a tiny query on its connection and in a worker.
    option httpchk GET /-/kb-health
    http-check expect status 200
    default-server check inter 500ms fall 2 rise 2

frontend kb
    bind 127.0.0.1:{port}
    # What no page needs is refused before it reaches a replica.
    http-request deny deny_status 405 unless METH_GET || METH_HEAD
    http-request return status 414 content-type text/plain string "414 URI Too Long" \
        if {{ url_len gt 8192 }}
    default_backend replicas

backend replicas
    balance leastconn
{servers}

# HAProxy's own counters (CSV at /stats;csv), on loopback only, for the test and the bench.
listen stats
    bind 127.0.0.1:{stats_port}
    stats enable
    stats uri /stats
"""


@dataclass
class Cluster:
    """A running cluster: its base URL (HAProxy) and its replicas' processes and ports."""

    base: str
    stats_url: str
    replicas: list[subprocess.Popen[bytes]] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)

    def servers(self) -> dict[str, dict[str, str]]:
        """HAProxy's view of each replica (r1, r2...): ``status`` (UP, DOWN), ``stot``
        (requests sent to it), ``retr`` (retried elsewhere), ``eresp`` (failed answers)."""
        import csv
        import io

        with urllib.request.urlopen(self.stats_url + ";csv", timeout=5) as response:
            text = response.read().decode().removeprefix("# ")
        rows = csv.DictReader(io.StringIO(text))
        return {r["svname"]: r for r in rows if r["pxname"] == "replicas" and r["svname"][0] == "r"}

    def kill(self, index: int) -> None:
        """kill -9 one replica (and so its workers, whose input closes)."""
        os.kill(self.replicas[index].pid, signal.SIGKILL)
        self.replicas[index].wait()


def haproxy_config(port: int, replica_ports: list[int], stats_port: int) -> str:
    servers = "\n".join(f"    server r{i + 1} 127.0.0.1:{p}" for i, p in enumerate(replica_ports))
    return CONFIG.format(port=port, servers=servers, stats_port=stats_port)


@contextmanager
def running_process(
    command: list[str], url: str, timeout: float
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` until the context ends, once ``url`` answers (its log kept aside)."""
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for(url, proc, log, timeout)
            yield proc
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


@contextmanager
def running_cluster(
    db_path: Path | str, replicas: int = 3, timeout: float = 60.0
) -> Iterator[Cluster]:
    """Start ``replicas`` × ``kb serve --public`` and HAProxy in front; yield the Cluster."""
    if not HAPROXY.exists():
        raise ServeError(f"{HAPROXY} not found: run scripts/install-haproxy.sh")
    ports = [free_port() for _ in range(replicas)]
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        procs = []
        for port in ports:
            command = [sys.executable, "-m", "kb", "serve", "--public", "--db", str(db_path)]
            url = f"http://127.0.0.1:{port}/-/versions.json"
            procs.append(
                stack.enter_context(running_process([*command, "--port", str(port)], url, timeout))
            )
        front, stats = free_port(), free_port()
        config = Path(tmp) / "haproxy.cfg"
        config.write_text(haproxy_config(front, ports, stats), encoding="utf-8")
        check = subprocess.run([str(HAPROXY), "-c", "-f", str(config)], capture_output=True)
        if check.returncode:
            raise ServeError(f"haproxy rejects its configuration: {check.stderr.decode()}")
        base = f"http://127.0.0.1:{front}"
        stack.enter_context(
            running_process(
                [str(HAPROXY), "-db", "-f", str(config)], base + "/-/versions.json", timeout
            )
        )
        stats_url = f"http://127.0.0.1:{stats}/stats"
        yield Cluster(base=base, stats_url=stats_url, replicas=procs, ports=ports)


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of already sorted values (0 when there are none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, round(p / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass
class Load:
    """What a bounded load run saw: every request's path, status, start and latency."""

    results: list[tuple[str, int, float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def summary(self, since: float = 0.0, until: float = float("inf")) -> dict[str, Any]:
        chosen = [r for r in self.results if since <= r[2] < until]
        latencies = sorted(r[3] for r in chosen)
        span = (max(r[2] + r[3] for r in chosen) - min(r[2] for r in chosen)) if chosen else 0
        return {
            "requests": len(chosen),
            "failed": sum(1 for r in chosen if r[1] != 200),
            "throughput": round(len(chosen) / span, 1) if span else 0.0,
            "p50_ms": round(percentile(latencies, 50) * 1000, 1),
            "p95_ms": round(percentile(latencies, 95) * 1000, 1),
            "p99_ms": round(percentile(latencies, 99) * 1000, 1),
            "max_ms": round((latencies[-1] if latencies else 0) * 1000, 1),
        }


def drive(
    base: str,
    paths: list[str],
    *,
    clients: int,
    seconds: float,
    max_requests: int,
    at: dict[float, Any] | None = None,
) -> Load:
    """GET ``paths`` in turn from ``clients`` threads, for at most ``seconds`` and
    ``max_requests``; ``at`` maps a second of the run to an action (kill a replica)."""
    import httpx

    load = Load()
    lock = threading.Lock()
    started = time.perf_counter()
    issued = 0

    def worker(n: int) -> None:
        nonlocal issued
        with httpx.Client(base_url=base, timeout=30) as client:
            i = n
            while True:
                with lock:
                    if issued >= max_requests or time.perf_counter() - started > seconds:
                        return
                    issued += 1
                path = paths[i % len(paths)]
                i += clients
                t0 = time.perf_counter()
                try:
                    status = client.get(path).status_code
                except httpx.HTTPError as exc:
                    status = 0
                    with lock:
                        load.errors.append(f"{path}: {type(exc).__name__}")
                with lock:
                    load.results.append((path, status, t0 - started, time.perf_counter() - t0))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for second, action in sorted((at or {}).items()):
        time.sleep(max(0.0, second - (time.perf_counter() - started)))
        action()
    for t in threads:
        t.join()
    return load
