"""The ASGI wrapper that makes the site safe to expose (registered in kb.web.hooks).

Before any work, from the request alone (numbers in kb/data/limits.toml [web] and [public]):

* **405** for any method but GET and HEAD: the site only reads (a POST to a canned query
  was a 500);
* **414** for a request target (path and query string) over ``max_url_bytes`` (one longer
  than kb.web.protocol lets h11 hold gets the same answer from there);
* **503 with Retry-After** when ``max_requests`` requests are in progress already: open
  connections are not counted (kb.web.protocol bounds those), only work;
* with ``kb serve --public``, **400** for what would make one of Datasette's own pages cost
  more than its budget: more than ``max_facets`` facets, a query-string value over
  ``max_parameter_bytes`` on ``/kb/...``, raw FTS5 syntax (``_searchmode=raw``). Arbitrary
  SQL (``?sql=``, ``?_where=``) is refused by Datasette itself in --public
  (``default_allow_sql`` of [public_settings]).

On the way out:

* **400, not 500**, when a Datasette page fails on a parameter it was given (``?_sort=`` an
  unknown column, ``?_facet={{7*7}}``): the visitor's request was bad, the server is fine. A
  500 for a URL without a query string is left alone: that is a bug to see, not to hide;
* **Retry-After** on every 503 (each one means "nothing was started: try again, or another
  replica");
* **at most ``max_response_bytes``** in one answer (--public): past it the rest is dropped
  and the connection closed (a backstop: no page of the site comes near it);
* **security headers** on every response: a Content-Security-Policy without inline script
  (the kb templates have none; Datasette's own table and SQL pages lose their inline
  scripts' extras and keep working as plain forms), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy``, ``X-Frame-Options``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("kb.web")
BAD_PARAMETER = "Bad Request: a parameter of this URL cannot be used"
READ_METHODS = ("GET", "HEAD")
FACET_PARAMETERS = ("_facet", "_facet_array", "_facet_date")

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # style="" attributes; no script can run from CSS
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
]
_SECURITY_NAMES = {name for name, _ in SECURITY_HEADERS}


@dataclass(frozen=True)
class Guard:
    """The numbers the wrapper applies (kb/data/limits.toml [web] and, if public, [public])."""

    max_url_bytes: int
    max_requests: int
    retry_after: int
    public: bool = False
    max_facets: int = 0
    max_parameter_bytes: int = 0
    allow_raw_search: bool = True
    max_response_bytes: int = 0

    @classmethod
    def from_limits(cls, limits: dict[str, Any], public: bool) -> Guard:
        web, visitor = limits["web"], limits["public"]
        return cls(
            max_url_bytes=int(web["max_url_bytes"]),
            max_requests=int(web["max_requests"]),
            retry_after=int(web["retry_after_seconds"]),
            public=public,
            max_facets=int(visitor["max_facets"]),
            max_parameter_bytes=int(visitor["max_parameter_bytes"]),
            allow_raw_search=bool(visitor["allow_raw_search"]),
            max_response_bytes=int(visitor["max_response_bytes"]) if public else 0,
        )

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """(status, message) when the request is refused before any work, else None."""
        if scope.get("method", "GET") not in READ_METHODS:
            return 405, "Method Not Allowed: the site only answers GET and HEAD"
        query = scope.get("query_string") or b""
        target = len(scope.get("raw_path") or scope["path"].encode()) + len(query)
        if target > self.max_url_bytes:
            return 414, uri_too_long(self.max_url_bytes)
        if self.public and query:
            return self._public_refusal(scope["path"], query.decode("latin-1"))
        return None

    def _public_refusal(self, path: str, query: str) -> tuple[int, str] | None:
        pairs = parse_qsl(query, keep_blank_values=True)
        facets = sum(1 for name, _ in pairs if name in FACET_PARAMETERS)
        if facets > self.max_facets:
            return 400, f"Bad Request: at most {self.max_facets} facets ({facets} asked for)"
        if not self.allow_raw_search and ("_searchmode", "raw") in pairs:
            return 400, "Bad Request: _searchmode=raw is not available on this site"
        if path == "/kb" or path.startswith(("/kb/", "/kb.")):
            longest = max((len(v.encode()) for _, v in pairs), default=0)
            if longest > self.max_parameter_bytes:
                return 400, (
                    f"Bad Request: a parameter of this URL is {longest:,} bytes long; "
                    f"the limit is {self.max_parameter_bytes:,}"
                )
        return None


def uri_too_long(max_url_bytes: int) -> str:
    return f"URI Too Long: the limit is {max_url_bytes:,} bytes"


def _wants_json(scope: Scope) -> bool:
    path = scope.get("path") or ""
    return path.endswith(".json") or b"_format=json" in (scope.get("query_string") or b"")


async def answer(
    scope: Scope,
    send: Send,
    status: int,
    message: str,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """A short answer: JSON for a .json URL, one line of text otherwise."""
    if _wants_json(scope):
        body = json.dumps({"ok": False, "error": message, "status": status}).encode()
        content_type = b"application/json; charset=utf-8"
    else:
        body = f"{status} {message}\n".encode()
        content_type = b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *(headers or []),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def public_wrapper(app: ASGIApp, make_guard: Callable[[], Guard]) -> ASGIApp:
    """``app`` behind the refusals, the 500-to-400 rewrite, the caps and the headers.

    ``make_guard`` is called at the first request: Datasette wraps its app while it is
    constructed, before ``kb serve`` has said whether the site is public."""
    in_progress = 0
    guards: list[Guard] = []

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        nonlocal in_progress
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        if not guards:
            guards.append(make_guard())
        guard = guards[0]
        retry_after = (b"retry-after", str(guard.retry_after).encode())
        refused = guard.refusal(scope)
        if refused is not None:
            status, message = refused
            extra = [(b"allow", b"GET, HEAD")] if status == 405 else []
            await answer(scope, send, status, message, extra)
            return
        if in_progress >= guard.max_requests:
            await answer(scope, send, 503, "Busy: too many requests at once; try again.",
                         [retry_after])  # fmt: skip
            return
        query = scope.get("query_string") or b""
        rewriting = started = cut = False
        sent = 0

        async def guarded_send(message: Message) -> None:
            nonlocal rewriting, started, cut, sent
            if cut:
                return
            if message["type"] == "http.response.start":
                started = True
                if message["status"] == 500 and query:
                    rewriting = True  # the body that follows is dropped for a short one
                    return
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in _SECURITY_NAMES
                ]
                if message["status"] == 503 and not any(k == b"retry-after" for k, _ in headers):
                    headers.append(retry_after)
                message = {**message, "headers": headers + SECURITY_HEADERS}
            elif rewriting:
                if not message.get("more_body"):
                    await answer(scope, send, 400, BAD_PARAMETER)
                return
            elif guard.max_response_bytes and message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
                if sent > guard.max_response_bytes:
                    # Left unfinished: the server closes the connection, the client sees the
                    # answer cut short (its Content-Length unmet, or no last chunk).
                    cut = True
                    log.warning("answer to %s cut off past %s bytes", scope["path"], f"{sent:,}")
                    return
            await send(message)

        in_progress += 1
        try:
            await app(scope, receive, guarded_send)
        except Exception:
            # Raised past Datasette's own handler (a facet that cannot parse its argument):
            # logged as the bug it may be, answered like any other error.
            log.exception("%s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            if query:
                await answer(scope, send, 400, BAD_PARAMETER)
            else:
                await answer(scope, send, 500, "Internal Server Error")
        finally:
            in_progress -= 1

    return wrapped
