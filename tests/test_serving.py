"""What a socket or a rebuild can do to a real ``kb serve --public``: the guards of
kb.web.protocol (no smuggling, bounded connections, uvicorn's own answers with the security
headers), the database held read-only, one database version per answer.

Each test talks to a real server in a child process (bench/attacks.py's ``serve``, which
also gives its process id and log); bench/attacks.py measures the same trials with figures.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from attacks import SECURITY_HEADERS, TINY_DOCUMENT, TINY_MANIFEST, Server, _children, serve

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def server(built_db: Path) -> Iterator[Server]:
    with serve(built_db) as s:
        yield s


def _exchange(server: Server, data: bytes, wait: float = 5.0) -> bytes:
    """Send ``data`` on a new connection; all the server sends until it closes it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def _head(answer: bytes) -> str:
    return answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()


def test_a_request_with_content_length_and_chunked_is_refused_whole(server: Server) -> None:
    """h11 read the chunked body and then the 'body' of Content-Length as a second request:
    the smuggled request was answered (200, then 404 for the smuggled path)."""
    smuggled = b"GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
    body = b"0\r\n\r\n" + smuggled
    request = b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n" % len(body)
    answer = _exchange(server, request + b"Transfer-Encoding: chunked\r\n\r\n" + body)
    assert answer.count(b"HTTP/1.1 ") == 1, answer[:500]
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert all(name in _head(answer) for name in SECURITY_HEADERS)


def test_uvicorns_own_answers_carry_the_security_headers(server: Server) -> None:
    malformed = _exchange(server, b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n")
    assert malformed.startswith(b"HTTP/1.1 400 ")
    # Headers still coming past 32 KB (h11 only bounds what it holds incomplete).
    huge_headers = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000
    too_large = _exchange(server, huge_headers)
    assert too_large.startswith(b"HTTP/1.1 431 ")
    for answer in (malformed, too_large):
        head = _head(answer)
        assert all(name in head for name in SECURITY_HEADERS), head


def test_300_idle_connections_do_not_stop_the_site(server: Server) -> None:
    """uvicorn's limit_concurrency counted open connections: 256 idle sockets made every
    request a 503."""
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(300)]
    try:
        time.sleep(0.5)
        statuses = [httpx.get(server.base + "/", timeout=30).status_code for _ in range(5)]
        assert statuses == [200] * 5
    finally:
        for s in idle:
            s.close()


def test_past_the_connection_cap_the_longest_idle_connection_makes_room(server: Server) -> None:
    from kb.limits import limits

    cap = limits()["web"]["max_connections"]
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(cap + 5)]
    try:
        time.sleep(1.0)
        assert httpx.get(server.base + "/", timeout=30).status_code == 200
        closed = 0
        for s in idle[:20]:
            s.settimeout(0.2)
            with contextlib.suppress(TimeoutError):
                closed += s.recv(1) == b""
        assert closed >= 5  # the oldest ones, closed without an answer
    finally:
        for s in idle:
            s.close()


def test_the_database_is_held_read_only_by_the_server_and_its_workers(
    server: Server, built_db: Path
) -> None:
    """Datasette opened it with immutable=1 only, which SQLite opens O_RDWR."""
    for path in ("/kb/rules", "/ask?q=honest+vs+honest", "/search?q=damage&all=1"):
        assert httpx.get(server.base + path, timeout=30).status_code == 200
    modes = []
    for pid in [server.pid, *_children(server.pid)]:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") != str(built_db.resolve()):
                    continue
                with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                    flags = next(line for line in f if line.startswith("flags:"))
            except OSError:
                continue
            modes.append(int(flags.split()[1], 8) & os.O_ACCMODE)
    assert len(modes) >= 3, modes  # Datasette's threads and the workers
    assert set(modes) == {os.O_RDONLY}, modes


def test_the_health_check_runs_a_query_on_the_connection_and_in_a_worker(server: Server) -> None:
    response = httpx.get(server.base + "/-/kb-health", timeout=30)
    assert response.status_code == 200
    assert response.json()["ok"] is True
    assert response.json()["database"] == response.headers["x-kb-database"]


def test_a_static_name_over_255_bytes_is_a_plain_404(server: Server) -> None:
    """is_file() raised ENAMETOOLONG: a 500 and a traceback of about 2 KB in the log for each
    such request, and every name asked for stayed cached."""
    before = server.log_bytes()
    for i in range(20):
        response = httpx.get(server.base + f"/-/kb-static/{i}" + "a" * 300 + ".css", timeout=30)
        assert response.status_code == 404
    assert httpx.get(server.base + "/-/kb-static/site.css", timeout=30).status_code == 200
    time.sleep(0.5)
    logged = server.log.read_bytes()[before:]
    assert b"Traceback" not in logged
    assert len(logged) < 20 * 600  # one access-log line each, no more


# ---------------------------------------------------------------------------------------------
# A rebuild while serving

TINY = TINY_DOCUMENT
NEW = "More rules\n\n1. Rules\n\n1.1. A zyzzogeton is a card.\n1.2. A zyzzogeton is drawn.\n"


def _build(corpus: Path, db: Path) -> None:
    command = [sys.executable, "-m", "kb", "build", "--corpus", str(corpus), "--db", str(db)]
    subprocess.run([*command, "--quiet"], check=True, capture_output=True, cwd=REPO, timeout=300)


def _what_each_page_says(base: str) -> dict[str, object]:
    with httpx.Client(base_url=base, timeout=30) as client:
        documents = client.get("/kb/documents.json?_shape=array")
        table_search = client.get("/kb/rules.json?_search=zyzzogeton&_shape=array")
        search = client.get("/search.json?q=zyzzogeton")
        return {
            "table page": len(documents.json()),
            "table search": len(table_search.json()),
            "search": len(search.json()["hits"]),
            "versions": {r.headers["x-kb-database"] for r in (documents, table_search, search)},
        }


def test_after_a_rebuild_every_page_answers_from_the_new_file(tmp_path: Path) -> None:
    """Table pages answered from the old file (Datasette's connections) and search from the
    new one (a worker started after the rebuild)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "sources.toml").write_text(TINY_MANIFEST, encoding="utf-8")
    (corpus / "tiny.txt").write_text(TINY, encoding="utf-8")
    db = tmp_path / "kb.sqlite"
    _build(corpus, db)
    with serve(db) as server:
        before = _what_each_page_says(server.base)
        assert before["table page"] == 1 and before["search"] == 0
        (corpus / "more.txt").write_text(NEW, encoding="utf-8")  # unlisted: ingested too
        _build(corpus, db)
        after = _what_each_page_says(server.base)
        assert after["table page"] == 2, after
        assert after["table search"] == 2 and after["search"] == 2, after
        assert len(after["versions"]) == 1 and after["versions"] != before["versions"]
        # Workers that start later open the same file as Datasette's connections.
        killed = _children(server.pid)
        for child in killed:
            os.kill(child, 9)
        for _ in range(100):  # until the pool has replaced them (the health check says so)
            if httpx.get(server.base + "/-/kb-health", timeout=30).status_code == 200:
                break
            time.sleep(0.2)
        assert not set(killed) & set(_children(server.pid))
        assert _what_each_page_says(server.base) == after
        # The old file is no longer held open by anyone.
        held = [
            os.readlink(f"/proc/{pid}/fd/{fd}")
            for pid in [server.pid, *_children(server.pid)]
            for fd in os.listdir(f"/proc/{pid}/fd")
            if os.path.exists(f"/proc/{pid}/fd/{fd}")
        ]
        assert not [h for h in held if h.endswith("(deleted)") and "kb.sqlite" in h], held


def test_a_request_arriving_before_a_rebuild_finishes_on_the_file_it_began_with(
    tmp_path: Path,
) -> None:
    """In process: a version is pinned per request; a query of a pinned request on a thread
    that never opened that version runs on the version's own connection."""
    import asyncio

    from kb.web.database import pin, unpin
    from kb.web.serve import make_datasette

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "sources.toml").write_text(TINY_MANIFEST, encoding="utf-8")
    (corpus / "tiny.txt").write_text(TINY, encoding="utf-8")
    db = tmp_path / "kb.sqlite"
    _build(corpus, db)
    ds = make_datasette(db, public=True)
    kb = ds.databases["kb"]
    old = kb.file.current()

    async def count() -> int:
        return (await kb.execute("select count(*) from documents")).rows[0][0]

    async def scenario() -> tuple[int, int, int]:
        token = pin(old)
        kb.file.enter(old)
        try:
            (corpus / "more.txt").write_text(NEW, encoding="utf-8")
            _build(corpus, db)
            new = kb.file.current()
            assert new is not old
            # Every SQL thread, fresh or not, answers the pinned request from the old file.
            pinned_counts = await asyncio.gather(*(count() for _ in range(8)))
        finally:
            unpin(token)
            kb.file.leave(old)
        return min(pinned_counts), max(pinned_counts), await count()

    low, high, latest = asyncio.run(scenario())
    assert (low, high, latest) == (1, 1, 2)
    assert old.retired and old.anchor is None  # closed once its last request was done
    shutil.rmtree(corpus)


def test_a_public_request_has_one_cpu_budget_for_all_its_sql(built_db: Path) -> None:
    """A table page runs a count, its rows and each facet, each under the per-query limit;
    together they stop at max_sql_ms_per_request, counted in CPU time."""
    import asyncio

    from datasette.database import QueryInterrupted

    from kb.limits import limits
    from kb.web.database import _BUDGET, SqlBudget
    from kb.web.serve import make_datasette

    ds = make_datasette(built_db, public=True)
    kb = ds.databases["kb"]
    per_query = limits()["public_settings"]["sql_time_limit_ms"]
    endless = "with recursive n(i) as (select 1 union all select i + 1 from n) select max(i) from n"

    async def scenario() -> list[float]:
        budget = SqlBudget(per_query + 50.0)
        token = _BUDGET.set(budget)
        left = []
        try:
            for _ in range(3):
                with pytest.raises(QueryInterrupted):
                    await kb.execute(endless)
                left.append(budget.ms)
        finally:
            _BUDGET.reset(token)
        return left

    after_first, after_second, after_third = asyncio.run(scenario())
    assert 40 <= after_first <= 50  # the query's own limit, then what was left of the budget
    assert after_second <= 0.5 and after_third <= 0.5
    if after_second <= 0:
        assert after_third == after_second  # refused before it ran
