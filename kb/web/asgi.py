"""The ASGI wrapper that makes the site safe to expose (registered in kb.web.hooks).

* **414** for a request target (path and query string) over ``max_url_bytes`` of
  kb/data/limits.toml, before any work (``kb serve`` lets uvicorn read targets up to
  ``MAX_TARGET_BYTES``, so a long URL gets this answer rather than a reset connection);
* **400, not 500**, when a Datasette page fails on a parameter it was given (``?_sort=`` an
  unknown column, ``?_facet={{7*7}}``, a CSV query at the time limit): the visitor's request
  was bad, the server is fine. A 500 for a URL without a query string is left alone: that is
  a bug to see, not to hide;
* **security headers** on every response: a Content-Security-Policy without inline script
  (the kb templates have none; Datasette's own table and SQL pages lose their inline
  scripts' extras and keep working as plain forms), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy``, ``X-Frame-Options``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("kb.web")
BAD_PARAMETER = "Bad Request: a parameter of this URL cannot be used"
# What uvicorn may read of one request line and its headers (its default, 16 KB, closes the
# connection without an answer on anything longer).
MAX_TARGET_BYTES = 1024 * 1024

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


def _wants_json(scope: Scope) -> bool:
    path = scope.get("path") or ""
    return path.endswith(".json") or b"_format=json" in (scope.get("query_string") or b"")


async def _answer(scope: Scope, send: Send, status: int, message: str) -> None:
    """A short error answer: JSON for a .json URL, one line of text otherwise."""
    if _wants_json(scope):
        body = json.dumps({"ok": False, "error": message, "status": status}).encode()
        content_type = b"application/json; charset=utf-8"
    else:
        body = f"{status} {message}\n".encode()
        content_type = b"text/plain; charset=utf-8"
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *SECURITY_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def public_wrapper(app: ASGIApp, max_url_bytes: int) -> ASGIApp:
    """``app`` with the 414, the 500-to-400 rewrite and the security headers."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        query = scope.get("query_string") or b""
        target = len(scope.get("raw_path") or scope["path"].encode()) + len(query)
        if target > max_url_bytes:
            await _answer(scope, send, 414, f"URI Too Long: the limit is {max_url_bytes:,} bytes")
            return
        rewriting = started = False

        async def guarded_send(message: Message) -> None:
            nonlocal rewriting, started
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
                message = {**message, "headers": headers + SECURITY_HEADERS}
            elif rewriting:
                if not message.get("more_body"):
                    await _answer(scope, send, 400, BAD_PARAMETER)
                return
            await send(message)

        try:
            await app(scope, receive, guarded_send)
        except Exception:
            # Raised past Datasette's own handler (a facet that cannot parse its argument):
            # logged as the bug it may be, answered like any other error.
            log.exception("%s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            if query:
                await _answer(scope, send, 400, BAD_PARAMETER)
            else:
                await _answer(scope, send, 500, "Internal Server Error")

    return wrapped
