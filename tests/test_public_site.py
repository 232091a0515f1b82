"""The site is safe to expose: no arbitrary SQL in --public (and limited SQL elsewhere), no
write, bounded facets and parameters, only GET and HEAD, bad parameters are 400s, overlong
URLs 414, security headers, ask/search in worker processes with a budget, a health check.

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
    def __init__(self, db: Path, *, public: bool = True, **options: Any) -> None:
        self.ds = make_datasette(db, public=public, **options)
        self.runner = asyncio.Runner()

    async def _get(self, path: str, method: str = "GET") -> httpx.Response:
        await self.ds.invoke_startup()
        return await self.ds.client.request(method, path)

    def get(self, path: str) -> httpx.Response:
        return self.runner.run(self._get(path))

    def request(self, method: str, path: str) -> httpx.Response:
        return self.runner.run(self._get(path, method))

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


@pytest.fixture(scope="module")
def local(built_db: Path) -> Iterator[Site]:
    """``kb serve`` without --public: arbitrary SQL for the local user, still guarded."""
    s = Site(built_db, public=False)
    yield s
    s.close()


@pytest.mark.parametrize(
    "path",
    [
        "/kb.json?sql=select+1",
        "/kb?sql=select+1",
        "/kb/rules.json?_where=1",
        "/kb/rules.json?_where="
        + quote("printf('%.*c',999999,'a') like printf('%%%.*cb',9998,'a')"),
    ],
)
def test_public_site_runs_no_visitor_sql(site: Site, path: str) -> None:
    """A LIKE over a 1 MB string is one SQLite step: no time limit can stop it (13 CPU-s
    for one 178-byte GET, 67 through ?_where=). In --public, no SQL a visitor writes runs."""
    response = site.get(path)
    assert response.status_code == 403, response.text[:300]


def test_public_site_keeps_canned_queries_table_filters_and_search(site: Site) -> None:
    canned = site.get("/kb/search.json?q=honest&_shape=objects")
    assert canned.status_code == 200 and canned.json()["rows"]
    filtered = site.get("/kb/rules.json?game=fow&text__contains=life&_shape=objects")
    assert filtered.status_code == 200
    assert filtered.json()["rows"] and all(r["game"] == "fow" for r in filtered.json()["rows"])
    searched = site.get("/kb/rules.json?_search=chain&_shape=objects")
    assert searched.status_code == 200 and searched.json()["rows"]
    facets = site.get("/kb/repairs.json?_facet=document&_facet=rule_name&_facet=line")
    assert facets.status_code == 200
    assert {"document", "rule_name", "line"} <= set(facets.json()["facet_results"])


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/kb/rules.json?" + "&".join(["_facet=game"] * 4), "at most 3 facets (4 asked for)"),
        ("/kb/rules.json?_facet=game&_facet_array=lang&_facet=kind&_facet_date=era",
         "at most 3 facets (4 asked for)"),
        ("/kb/rules.json?_searchmode=raw&_search=a*", "_searchmode=raw is not available"),
        ("/kb/meta.json?value__contains=" + "%25e" * 501,
         "a parameter of this URL is 1,002 bytes long; the limit is 1,000"),
    ],
)  # fmt: skip
def test_public_site_refuses_what_would_cost_more_than_its_budget(
    site: Site, path: str, message: str
) -> None:
    """592 facets cost 14.5 CPU-s and 209 MB; raw FTS5 prefix queries merge whole doclists in
    one step; a LIKE costs its pattern times the value it scans."""
    response = site.get(path)
    assert response.status_code == 400
    assert message in response.json()["error"]


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/kb/search"), ("POST", "/"), ("PUT", "/kb/rules"), ("DELETE", "/ask"),
     ("PATCH", "/kb.json"), ("OPTIONS", "/")],
)  # fmt: skip
def test_only_get_and_head_are_answered(site: Site, method: str, path: str) -> None:
    """POST /kb/search was a 500 (a canned query's POST)."""
    response = site.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
    assert site.request("HEAD", path).status_code in (200, 302)


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
def test_dangerous_sql_functions_are_refused(local: Site, sql: str) -> None:
    response = local.sql(sql)
    assert response.status_code == 400
    assert "not authorized to use function" in response.json()["error"]


def test_no_string_or_blob_over_the_length_limit_is_ever_built(local: Site) -> None:
    """printf() and replace() of a huge size give NULL at once (SQLITE_TOOBIG): nothing is
    allocated, where the SQL time limit could not stop one function call."""
    huge = local.sql("select printf('%.*c', 200000000, 'x') as s").json()["rows"]
    assert huge == [{"s": None}]
    fine = local.sql("select length(printf('%.*c', 1000, 'x')) as n").json()["rows"]
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
def test_no_write_is_accepted(local: Site, sql: str, built_db: Path) -> None:
    before = built_db.read_bytes()
    response = local.sql(sql)
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


def test_the_public_row_budget(site: Site) -> None:
    rows = site.get("/kb/rules.json?_size=max&_shape=objects").json()
    assert len(rows["rows"]) == 100  # [public_settings] max_returned_rows
    assert rows["next"]


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


def test_ask_over_its_time_budget_answers_504_and_the_next_one_is_answered(
    built_db: Path,
) -> None:
    """504, not 503: the request ran and used its budget, and must not be retried elsewhere
    (a 503 says nothing was started)."""
    slow = Site(built_db, web_limits={"budget_seconds": 0.001})
    try:
        response = slow.get("/ask.json?q=honest+vs+honest")
        assert response.status_code == 504
        assert "retry-after" not in response.headers
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
        assert response.status_code == 504
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
        # The worker running (a request waits for the first one to start, not 0.01 s).
        assert busy.get("/ask.json?q=honest").status_code == 200
        responses = busy.get_all([f"/ask.json?q=honest+vs+honest+{i}" for i in range(3)])
        statuses = sorted(r.status_code for r in responses)
        assert statuses[0] == 200 and statuses[-1] == 503, statuses
        refused = [r for r in responses if r.status_code == 503]
        assert all(
            r.json()["error"].startswith("Busy: no free worker within 0.01 s") for r in refused
        )
        assert all(r.headers["retry-after"] == "2" for r in refused)
        assert busy.get("/").status_code == 200  # other pages are not held up
    finally:
        busy.close()


def test_a_full_queue_is_503_at_once_and_a_short_one_is_answered(built_db: Path) -> None:
    """16 questions at once on 2 workers all wait their turn (92% of ask and search requests
    were 503 under 16 clients); past ``queue_per_worker`` per worker, 503 at once."""
    roomy = Site(built_db, web_limits={"workers": 2, "queue_per_worker": 16})
    try:
        questions = [f"/ask.json?q=honest+vs+honest+{i}" for i in range(16)]
        assert [r.status_code for r in roomy.get_all(questions)] == [200] * 16
    finally:
        roomy.close()
    tight = Site(built_db, web_limits={"workers": 1, "queue_per_worker": 2})
    try:
        assert tight.get("/ask.json?q=honest").status_code == 200
        statuses = [r.status_code for r in tight.get_all(questions[:8])]
        # One answered at a time, two waiting: the other five are refused at once.
        assert statuses.count(503) == 5 and statuses.count(200) == 3, statuses
    finally:
        tight.close()


def test_the_health_check_goes_red_when_the_workers_cannot_answer(built_db: Path) -> None:
    import contextlib
    import os
    import signal

    checked = Site(built_db, web_limits={"workers": 1})
    try:
        assert checked.get("/ask.json?q=honest").status_code == 200  # the worker started
        ok = checked.get("/-/kb-health.json")
        assert ok.status_code == 200 and ok.json()["ok"] is True
        assert ok.json()["database"] == ok.headers["x-kb-database"]
        [worker] = checked.ds._kb_worker_pool.idle
        os.kill(worker.proc.pid, signal.SIGSTOP)  # alive, answering nothing
        try:
            red = checked.get("/-/kb-health.json")
        finally:
            with contextlib.suppress(ProcessLookupError):  # killed and reaped by the pool
                os.kill(worker.proc.pid, signal.SIGCONT)
        assert red.status_code == 503 and red.json()["ok"] is False
        assert red.json()["error"] == "no answer within 1.5 s"
        # The stuck worker was replaced: green again once the new one runs.
        assert checked.get("/ask.json?q=honest").status_code == 200
        assert checked.get("/-/kb-health.json").status_code == 200
    finally:
        checked.close()


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
