"""The deployment of docs/deploy.md on one machine: three ``kb serve --public`` replicas on
loopback behind HAProxy (scripts/install-haproxy.sh installs Debian's), a bounded load, one
replica killed with SIGKILL mid-run: no request fails, and the others take its share.

bench/replicas.py runs the same with more load and prints throughput and latency.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cluster import HAPROXY, drive, running_cluster

pytestmark = pytest.mark.system  # three servers behind HAProxy, one killed

PATHS = ["/", "/search?q=damage+step&all=1", "/ask?q=honest+vs+honest", "/card/honest", "/kb/rules"]


def test_a_replica_killed_mid_run_costs_no_request(built_db: Path) -> None:
    assert HAPROXY.exists(), "HAProxy is missing: run scripts/install-haproxy.sh"
    with running_cluster(built_db, replicas=3) as cluster:
        warm = drive(cluster.base, PATHS, clients=3, seconds=30.0, max_requests=3 * len(PATHS))
        assert {r[1] for r in warm.results} == {200}, warm.results  # every replica's workers
        kill_at = 2.5
        load = drive(
            cluster.base,
            PATHS,
            clients=4,
            seconds=6.0,
            max_requests=2_000,
            at={kill_at: lambda: cluster.kill(2)},
        )
        servers = cluster.servers()
    before, after = load.summary(until=kill_at), load.summary(since=kill_at + 1)
    failed = [(path, status, round(t, 2)) for path, status, t, _ in load.results if status != 200]
    assert load.errors == [] and failed == [], (load.errors, failed)
    assert before["requests"] > 0 and after["requests"] > 0
    assert cluster.replicas[2].returncode == -9
    assert servers["r3"]["status"] == "DOWN"
    assert servers["r1"]["status"] == servers["r2"]["status"] == "UP"
    assert all(int(servers[r]["stot"]) > 0 for r in ("r1", "r2", "r3")), servers
