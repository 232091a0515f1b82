"""Fixed-seed fuzz of ask, search, the command line and the website (Hypothesis,
derandomized: the same inputs on every run). Small and fast here; bench/fuzz.py runs 2,000
command lines and 2,000 web requests against a real server and prints the figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.ask import ask
from kb.limits import limits, normalise
from kb.search import search
from kb.web.offload import stop_workers
from kb.web.serve import make_datasette

pytestmark = pytest.mark.system  # thousands of generated inputs

REPO = Path(__file__).resolve().parents[1]
FIXED = settings(
    derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)
PAYLOADS = [
    "honest vs honest", "闪电 限制", '"', "NEAR(a b)", "title:honest", "a* OR b^",
    "'; drop table rules; --", "<script>alert(1)</script>", "{{7*7}}", "../../etc/passwd",
    "\u202eevil", "105.3a", "select randomblob(200000000)",
]  # fmt: skip
text = st.one_of(
    st.sampled_from(PAYLOADS),
    st.text(max_size=40),
    st.builds(lambda w, n: (w + " ") * n, st.sampled_from(PAYLOADS), st.integers(1, 3000)),
    st.builds(lambda n: " ".join(f"w{i}q" for i in range(n)), st.integers(0, 500)),
)


@settings(FIXED, max_examples=40)
@given(question=text)
def test_any_question_is_answered_within_the_caps(conn: sqlite3.Connection, question: str) -> None:
    result = ask(conn, question)
    bounds = limits()["question"]
    assert len(result["query"]) <= bounds["max_chars"]
    assert (result["cut"] is None) == (result["query"] == normalise(question))
    assert isinstance(search(conn, question, limit=3), list)


COMMANDS = ["ask", "search", "show", "card", "compare", "timing", "terms", "history"]
argument = st.one_of(
    text.filter(lambda s: "\x00" not in s),
    st.binary(max_size=40).filter(lambda b: b"\x00" not in b).map(os.fsdecode),
)
command_line = st.builds(
    lambda cmd, opts, arg: [cmd, *opts, "--", arg],
    st.sampled_from(COMMANDS),
    st.sampled_from([[], ["--json"], ["--lang", "xx"], ["--game", "ygo"], ["--limit", "0"]]),
    argument,
)


@settings(FIXED, max_examples=15)
@given(argv=command_line)
def test_any_command_line_ends_in_an_answer_or_one_line_error(
    built_db: Path, argv: list[str]
) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "kb", argv[0], "--db", str(built_db), *argv[1:]],
        capture_output=True,
        cwd=REPO,
        timeout=120,
    )
    assert b"Traceback" not in out.stderr, out.stderr[-500:]
    assert out.returncode in (0, 1, 2)
    stdout = out.stdout.decode("utf-8")  # strict: always valid UTF-8
    if out.returncode and not stdout:
        errors = [line for line in out.stderr.decode("utf-8").splitlines() if line.strip()]
        assert len(errors) == 1 and errors[0].startswith("Error: "), errors
    if "--json" in argv and out.returncode in (0, 1) and stdout.startswith(("[", "{")):
        json.loads(stdout)


ROUTES = [
    "/search?q={t}", "/ask.json?q={t}&lang={u}&limit={u}", "/card?q={t}", "/card/{t}",
    "/doc/{t}", "/rule/{t}", "/timing/{t}", "/compare/{t}", "/diff/{t}/{u}", "/history/{t}",
    "/kb/rules?_sort={t}", "/kb/rules?_facet={t}", "/kb.json?sql={t}", "/kb/rules/{t}", "/{t}",
]  # fmt: skip
piece = st.one_of(
    text.map(lambda s: quote(s[:5000], safe="")),
    st.sampled_from(["%ff%fe", "%", "%c3%28", "~ff", "%2e%2e%2f"]),
)
request_path = st.builds(
    lambda r, t, u: r.format(t=t, u=u),
    st.sampled_from(ROUTES),
    piece,
    st.one_of(st.just(""), piece),
)


@pytest.fixture(scope="module")
def site(built_db: Path) -> Iterator[tuple[object, asyncio.Runner]]:
    ds = make_datasette(built_db, public=True)
    runner = asyncio.Runner()
    runner.run(ds.invoke_startup())
    yield ds, runner
    runner.run(stop_workers(ds))
    runner.close()


@settings(FIXED, max_examples=60)
@given(path=request_path)
def test_any_request_gets_an_answer_below_500(site: tuple, path: str) -> None:
    ds, runner = site
    response = runner.run(ds.client.get(path))
    assert response.status_code < 500, (path, response.status_code, response.text[:300])
    assert "Traceback" not in response.text
