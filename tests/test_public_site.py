"""The site is safe to expose: arbitrary SQL limited, no write, bad parameters are 400s,
overlong URLs 414, security headers, and ask/search in worker processes with a time budget.

Real Datasette instances (``make_datasette(..., public=True)``) and, for what only a real
HTTP server shows (a 200 KB URL), a real ``kb serve --public``.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from servers import running_site

from kb.web.offload import stop_workers
from kb.web.serve import make_datasette
from kb.web.sqlguard import guard


class Site:
    def __init__(self, db: Path, **options: Any) -> None:
        self.ds = make_datasette(db, public=True, **options)
        self.runner = asyncio.Runner()

    async def _get(self, path: str) -> httpx.Response:
        await self.ds.invoke_startup()
        return await self.ds.client.get(path)

    def get(self, path: str) -> httpx.Response:
        return self.runner.run(self._get(path))

    def get_all(self, paths: list[str]) -> list[httpx.Response]:
        async def fetch() -> list[httpx.Response]:
            return await asyncio.gather(*(self._get(p) for p in paths))

        return self.runner.run(fetch())

    def sql(self, sql: str) -> httpx.Response:
        return self.get(f"/kb.json?sql={quote(sql)}&_shape=objects")

    def close(self) -> None:
        self.runner.run(stop_workers(self.ds))
        self.runner.close()


@pytest.fixture(scope="module")
def site(built_db: Path) -> Iterator[Site]:
    s = Site(built_db)
    yield s
    s.close()


@pytest.mark.parametrize(
    "sql",
    [
        "select randomblob(200000000)",
        "select length(zeroblob(1000000000))",
        "select hex(randomblob(16))",
        "select fts3_tokenizer('simple')",
        "select load_extension('/tmp/evil')",
        "select fts3_tokenizer('evil', x'4141414141414141')",
    ],
)
def test_dangerous_sql_functions_are_refused(site: Site, sql: str) -> None:
    response = site.sql(sql)
    assert response.status_code == 400
    assert "not authorized to use function" in response.json()["error"]


def test_no_string_or_blob_over_the_length_limit_is_ever_built(site: Site) -> None:
    """printf() and replace() of a huge size give NULL at once (SQLITE_TOOBIG): nothing is
    allocated, where the SQL time limit could not stop one function call."""
    huge = site.sql("select printf('%.*c', 200000000, 'x') as s").json()["rows"]
    assert huge == [{"s": None}]
    fine = site.sql("select length(printf('%.*c', 1000, 'x')) as n").json()["rows"]
    assert fine == [{"n": 1000}]


@pytest.mark.parametrize(
    "sql",
    [
        "update rules set text = 'x'",
        "insert into games(id, name) values ('x', 'x')",
        "attach database '/tmp/x.sqlite' as x",
        "pragma writable_schema = 1",
        "drop table rules",
    ],
)
def test_no_write_is_accepted(site: Site, sql: str, built_db: Path) -> None:
    before = built_db.read_bytes()
    response = site.sql(sql)
    assert response.status_code == 400
    assert built_db.read_bytes() == before


def test_the_authorizer_refuses_writes_even_on_a_writable_connection(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "w.sqlite")
    conn.execute("create table t(x)")
    guard(conn)
    assert conn.execute("select count(*) from t").fetchone() == (0,)
    for sql in ("insert into t values (1)", "create table u(x)", "drop table t"):
        with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
            conn.execute(sql)
    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
        conn.execute("attach database ':memory:' as m")
    conn.close()


def test_the_public_row_budget_and_canned_queries(site: Site) -> None:
    rows = site.sql("select id from rules").json()
    assert len(rows["rows"]) == 500 and rows["truncated"] is True  # [public_settings]
    canned = site.get("/kb/search.json?q=honest&_shape=objects")
    assert canned.status_code == 200 and canned.json()["rows"]


@pytest.mark.parametrize(
    "path",
    [
        "/kb/rules?_sort=no_such_column",
        "/kb/rules.json?_sort=no_such_column",
        "/kb/rules?_facet={{7*7}}",
        "/kb/rules.json?_facet={{7*7}}",
        "/kb/rules?_facet_array=text",
    ],
)
def test_datasette_errors_on_bad_parameters_are_400(site: Site, path: str) -> None:
    response = site.get(path)
    assert response.status_code == 400, response.text[:300]
    if ".json" in path:
        assert response.json()["status"] == 400
    elif "text/plain" in response.headers["content-type"]:  # a 500 rewritten by kb.web.asgi
        assert response.text == "400 Bad Request: a parameter of this URL cannot be used\n"


def test_security_headers_on_every_kind_of_answer(site: Site) -> None:
    for path in ("/", "/ask?q=honest", "/kb/rules", "/no/such/page", "/kb/rules?_sort=nope"):
        headers = site.get(path).headers
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("style-src")[0]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
        assert headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize(
    "path",
    ["/", "/ask?q=honest+vs+honest", "/search?q=damage", "/card/honest", "/compare/fow-basic"],
)
def test_kb_pages_have_no_inline_script_for_the_csp_to_block(site: Site, path: str) -> None:
    html = site.get(path).text
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", html), "inline <script>"
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), "on*= event attribute"


def test_an_overlong_url_is_414(site: Site) -> None:
    response = site.get("/search?q=" + "a" * 9000)
    assert response.status_code == 414
    assert response.text == "414 URI Too Long: the limit is 8,192 bytes\n"


def test_a_200_kb_url_gets_414_from_the_real_server_not_a_reset(built_db: Path) -> None:
    """Sent on a plain socket: HTTP clients refuse to send such a URL at all."""
    import socket
    from urllib.parse import urlsplit

    with running_site(built_db, public=True) as base:
        where = urlsplit(base)
        with socket.create_connection((where.hostname, where.port), timeout=30) as sock:
            target = "/ask?q=" + "a" * 200_000
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 414 ")
        assert answer.endswith(b"414 URI Too Long: the limit is 8,192 bytes\n")
        assert httpx.get(base + "/", timeout=30).status_code == 200


def test_ask_over_its_time_budget_answers_503_and_the_next_one_is_answered(
    built_db: Path,
) -> None:
    slow = Site(built_db, web_limits={"budget_seconds": 0.001})
    try:
        response = slow.get("/ask.json?q=honest+vs+honest")
        assert response.status_code == 503
        assert response.json()["error"] == (
            "Too slow: this request needed more than its 0.001 s of CPU."
        )
        slow.ds._kb_web_limits["budget_seconds"] = 30.0  # a new pool reads it: new loop
        slow.close()
        slow.runner = asyncio.Runner()
        answered = slow.get("/ask.json?q=honest+vs+honest")
        assert answered.status_code == 200 and answered.json()["answer"]["type"] == "vs"
    finally:
        slow.close()


def test_a_worker_past_the_wall_clock_ceiling_is_killed_and_replaced(built_db: Path) -> None:
    stuck = Site(built_db, web_limits={"wall_seconds": 0.001})
    try:
        response = stuck.get("/ask.json?q=honest+vs+honest")
        assert response.status_code == 503
        assert response.json()["error"] == "Too slow: no answer within 0.001 s; try again."
        pool = stuck.ds._kb_worker_pool
        pool.wall = 60.0
        answered = stuck.get("/ask.json?q=honest+vs+honest")  # by a new worker
        assert answered.status_code == 200 and answered.json()["answer"]["type"] == "vs"
        # The killed worker's place was taken again, never more than the pool's size.
        assert pool.count <= pool.size
        assert all(w.proc.returncode is None for w in pool.idle)
    finally:
        stuck.close()


def test_more_questions_than_workers_wait_then_get_503_busy(built_db: Path) -> None:
    busy = Site(built_db, web_limits={"workers": 1, "queue_seconds": 0.01})
    try:
        responses = busy.get_all([f"/ask.json?q=honest+vs+honest+{i}" for i in range(3)])
        statuses = sorted(r.status_code for r in responses)
        assert statuses[0] == 200 and statuses[-1] == 503, statuses
        refused = [r.json()["error"] for r in responses if r.status_code == 503]
        assert all(e.startswith("Busy: no free worker within 0.01 s") for e in refused)
        assert busy.get("/").status_code == 200  # other pages are not held up
    finally:
        busy.close()


def test_ask_and_search_pages_run_in_worker_processes(site: Site) -> None:
    import os

    assert site.get("/ask.json?q=honest").status_code == 200
    assert site.get("/search.json?q=honest").status_code == 200
    pool = site.ds._kb_worker_pool
    pids = {w.proc.pid for w in pool.idle}
    assert pids and os.getpid() not in pids and len(pids) <= pool.size


def test_a_long_id_in_the_path_is_not_found_not_a_server_error(site: Site) -> None:
    """Found by the fuzz: a 5,000-character document id made the LIKE prefix lookup exceed
    SQLite's pattern limit (a 500); the limit is now above the longest URL."""
    response = site.get("/compare/" + "honest-vs-" * 500)
    assert response.status_code == 404
