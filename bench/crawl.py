"""Crawl the website breadth-first from ``/``: broken internal links and page weight.

Starts ``kb serve`` on a loopback port against a built database (or crawls a site already
running at ``--url``), then follows every same-host link (``href`` and ``src``) breadth-first
from ``/``, one request at a time, as a browser asks for them (``Accept-Encoding: gzip``).
Redirects are followed by queueing their target. Links running arbitrary SQL (a ``sql=``
parameter) are not followed, nor paths under a ``--skip`` prefix.

Prints: pages fetched, status counts, broken internal links (4xx and 5xx, with the page that
links to each), the largest answers by transferred (compressed) size, and how many exceed the
size limit (issue 13: no page over 200 KB compressed by default), HTML pages apart from other
answers (JSON, CSV, the database download). The exit status is 1 when a link is broken or an
HTML page is over the limit.

    .venv/bin/python bench/crawl.py                          # builds a fresh database first
    .venv/bin/python bench/crawl.py --db /tmp/kb.sqlite --limit 3000
    .venv/bin/python bench/crawl.py --url http://127.0.0.1:8001 --limit 500 --json
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[1]
KB = 1024
LINK_ATTRIBUTES = {"href", "src"}


class LinkParser(HTMLParser):
    """Collects the ``href`` and ``src`` values of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in LINK_ATTRIBUTES and value:
                self.links.append(value.strip())


@dataclass
class Fetched:
    path: str
    status: int | str
    content_type: str = ""
    transferred: int = 0
    size: int = 0
    seconds: float = 0.0
    location: str | None = None
    links: list[str] = field(default_factory=list)


class Client:
    """One keep-alive HTTP connection to the crawled host, reopened after any failure."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.conn: http.client.HTTPConnection | None = None

    def get(self, path: str) -> Fetched:
        headers = {"Accept-Encoding": "gzip", "User-Agent": "kb-bench-crawl"}
        started = time.perf_counter()
        for attempt in (1, 2):  # a keep-alive connection the server closed: retry once
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request("GET", path, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (OSError, http.client.HTTPException) as exc:
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    elapsed = time.perf_counter() - started
                    return Fetched(path, type(exc).__name__, seconds=elapsed)
        elapsed = time.perf_counter() - started
        body = raw
        if response.getheader("Content-Encoding", "").lower() == "gzip":
            body = gzip.decompress(raw)
        content_type = response.getheader("Content-Type", "").split(";")[0].strip()
        fetched = Fetched(
            path,
            response.status,
            content_type,
            transferred=len(raw),
            size=len(body),
            seconds=elapsed,
            location=response.getheader("Location"),
        )
        if content_type == "text/html":
            parser = LinkParser()
            parser.feed(body.decode("utf-8", "replace"))
            fetched.links = parser.links
        return fetched

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def internal_path(base: str, page: str, link: str, skip: list[str]) -> str | None:
    """The path and query of ``link`` (found on ``page``) when it is to be crawled, else None."""
    target = urlsplit(urljoin(base + page, link))
    origin = urlsplit(base)
    if target.scheme not in ("http", "https") or target.netloc != origin.netloc:
        return None
    path = target.path or "/"
    if any(path.startswith(prefix) for prefix in skip):
        return None
    if "sql" in parse_qs(target.query, keep_blank_values=True):
        return None
    return urlunsplit(("", "", path, target.query, ""))


def crawl(base: str, limit: int, skip: list[str], timeout: float) -> dict[str, Any]:
    """Breadth-first from ``/`` until ``limit`` answers or nothing is left to fetch."""
    parsed = urlsplit(base)
    client = Client(parsed.hostname or "127.0.0.1", parsed.port or 80, timeout)
    queue: deque[str] = deque(["/"])
    referrer: dict[str, str | None] = {"/": None}
    results: list[Fetched] = []
    started = time.perf_counter()
    try:
        while queue and len(results) < limit:
            path = queue.popleft()
            fetched = client.get(path)
            results.append(fetched)
            found = list(fetched.links)
            if fetched.location:
                found.append(fetched.location)
            for link in found:
                target = internal_path(base, path, link, skip)
                if target is not None and target not in referrer:
                    referrer[target] = path
                    queue.append(target)
    finally:
        client.close()
    seconds = time.perf_counter() - started
    return report(results, referrer, len(queue), seconds)


def report(
    results: list[Fetched], referrer: dict[str, str | None], left: int, seconds: float
) -> dict[str, Any]:
    limit_bytes = 200 * KB
    broken = [r for r in results if isinstance(r.status, str) or r.status >= 400]
    html = [r for r in results if r.content_type == "text/html"]
    largest = sorted(results, key=lambda r: r.transferred, reverse=True)[:5]
    slowest = sorted(results, key=lambda r: r.seconds, reverse=True)[:5]

    def row(r: Fetched) -> dict[str, Any]:
        return {
            "path": r.path,
            "status": r.status,
            "type": r.content_type,
            "transferred_kb": round(r.transferred / KB, 1),
            "size_kb": round(r.size / KB, 1),
            "seconds": round(r.seconds, 3),
        }

    return {
        "fetched": len(results),
        "html_pages": len(html),
        "left_in_queue": left,
        "seconds": round(seconds, 1),
        "statuses": dict(sorted(Counter(str(r.status) for r in results).items())),
        "broken": len(broken),
        "broken_links": [
            {"path": r.path, "status": r.status, "linked_from": referrer.get(r.path)}
            for r in broken
        ],
        "largest": [row(r) for r in largest],
        "slowest": [row(r) for r in slowest],
        "limit_kb": limit_bytes // KB,
        "html_over_limit": [r.path for r in html if r.transferred > limit_bytes],
        "other_over_limit": [
            r.path for r in results if r.content_type != "text/html" and r.transferred > limit_bytes
        ],
        "ok": not broken and not any(r.transferred > limit_bytes for r in html),
    }


def print_report(rep: dict[str, Any]) -> None:
    print(
        f"fetched {rep['fetched']} ({rep['html_pages']} HTML pages) in {rep['seconds']} s;"
        f" {rep['left_in_queue']} links still queued"
    )
    print("statuses: " + ", ".join(f"{k}: {v}" for k, v in rep["statuses"].items()))
    print(f"broken internal links (4xx/5xx or no answer): {rep['broken']}")
    for b in rep["broken_links"][:10]:
        print(f"  {b['status']}  {b['path']}  (linked from {b['linked_from']})")
    if rep["broken"] > 10:
        print(f"  ... and {rep['broken'] - 10} more (--json lists them all)")
    print("largest answers by transferred size (KB compressed / KB uncompressed):")
    for r in rep["largest"]:
        print(
            f"  {r['transferred_kb']:>8.1f} / {r['size_kb']:>8.1f}  {r['status']}  {r['type']}"
            f"  {r['path']}"
        )
    print("slowest answers:")
    for r in rep["slowest"]:
        print(f"  {r['seconds']:>6.3f} s  {r['status']}  {r['path']}")
    html_over, other_over = rep["html_over_limit"], rep["other_over_limit"]
    print(f"HTML pages over {rep['limit_kb']} KB compressed: {len(html_over)}")
    for path in html_over[:10]:
        print(f"  {path}")
    print(f"other answers over {rep['limit_kb']} KB compressed: {len(other_over)}")
    for path in other_over[:10]:
        print(f"  {path}")
    print("OK" if rep["ok"] else "FAIL")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--db", type=Path, help="a built database (default: build one)")
    target.add_argument("--url", help="crawl a site already running here instead")
    parser.add_argument("--port", type=int, help="port for kb serve (default: a free one)")
    parser.add_argument("--public", action="store_true", help="serve with kb serve --public")
    parser.add_argument("--limit", type=int, default=3000, help="answers to fetch, at most")
    parser.add_argument(
        "--skip", action="append", default=[], help="path prefix not to crawl (repeatable)"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.limit < 1:
        parser.error("--limit must be at least 1")

    if args.url:
        rep = crawl(args.url.rstrip("/"), args.limit, args.skip, args.timeout)
    else:
        from servers import running_site

        with tempfile.TemporaryDirectory() as tmp:
            db = args.db
            if db is None:
                from kb.store.build import build

                db = Path(tmp) / "kb.sqlite"
                build(REPO / "corpus", db)
            with running_site(db, port=args.port, public=args.public) as base:
                rep = crawl(base, args.limit, args.skip, args.timeout)
    if args.json:
        print(json.dumps(rep, indent=2, ensure_ascii=False))
    else:
        print_report(rep)
    return 0 if rep["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
