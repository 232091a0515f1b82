"""The HTTP/1.1 protocol ``kb serve`` runs: uvicorn's h11 protocol with what a public site needs
at the socket (numbers in kb/data/limits.toml [web]).

* **A request must arrive whole in time.** ``request_seconds`` after a connection opens, or
  after the previous answer on it, a request that has not fully arrived gets 408 (if any of
  it was sent) and its connection is closed: idle and half-sent connections (slowloris)
  cannot pile up. uvicorn alone waits forever for a request that never completes.
* **Open connections are not requests.** uvicorn's ``limit_concurrency`` counted open
  connections, so 256 idle sockets made every request 503. Here at most ``max_connections``
  are open: a new one past it closes the connection idle the longest (only a connection that
  is busy with a request is kept); the requests in progress are bounded by kb.web.asgi.
* **No request smuggling.** A request with both ``Content-Length`` and ``Transfer-Encoding``
  (RFC 9112 6.1: a proxy and a server may frame it differently) gets 400 and its connection
  is closed, so nothing after it on the connection is read as another request.
* **A bounded head.** h11 holds at most ``MAX_HEAD_BYTES`` of a request line and headers
  (1,000 connections cannot make it hold more than 32 MB); a longer request line gets 414,
  as kb.web.asgi answers one over ``max_url_bytes``, longer headers 431.
* **uvicorn's own answers carry the security headers** (400 for a malformed request, and
  this module's 408, 414, 431 and 503), like every answer of the site (kb.web.asgi).

Written against uvicorn's ``H11Protocol`` (uvicorn and h11 are pinned in pyproject.toml);
tests/test_serving.py holds each of these against a real server.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .asgi import SECURITY_HEADERS, uri_too_long

# The request line and headers h11 may hold for one request: well above max_url_bytes and
# HAProxy's 16 KB buffer, far below what 1,000 connections could pile up otherwise.
MAX_HEAD_BYTES = 32 * 1024
# How long a refused request's connection is read (and its data dropped) before it closes.
LINGER_SECONDS = 2.0


class GuardedConnection(h11.Connection):
    """h11's connection, refusing a request framed by both Content-Length and
    Transfer-Encoding (h11 would use the chunked body and read what follows as a request),
    and remembering why a request was refused (``refused_status``)."""

    refused_status = 400

    def next_event(self) -> Any:
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as exc:
            self.refused_status = exc.error_status_hint
            raise
        if isinstance(event, h11.Request):
            names = {name for name, _ in event.headers}
            if b"transfer-encoding" in names and b"content-length" in names:
                raise h11.RemoteProtocolError(
                    "both Content-Length and Transfer-Encoding", error_status_hint=400
                )
        return event


def raw_answer(status: int, reason: str, message: str, extra: list[tuple[bytes, bytes]]) -> bytes:
    """A whole HTTP/1.1 answer that closes its connection, with the security headers."""
    body = f"{status} {message}\n".encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (b"connection", b"close"),
        *extra,
        *SECURITY_HEADERS,
    ]
    head = f"HTTP/1.1 {status} {reason}\r\n".encode()
    head += b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return head + b"\r\n" + body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's H11Protocol with the guards of this module; ``protocol_class`` sets the
    numbers."""

    request_seconds: ClassVar[float] = 10.0
    max_connections: ClassVar[int] = 1000
    retry_after: ClassVar[int] = 2
    max_url_bytes: ClassVar[int] = 8192

    def __init__(
        self,
        config: Any,
        server_state: Any,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.conn = GuardedConnection(h11.SERVER, MAX_HEAD_BYTES)
        self._deadline: asyncio.TimerHandle | None = None
        self.idle_since = self.loop.time()

    # The request deadline -------------------------------------------------------------------

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._request_expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _request_expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        answering = self.cycle is not None and not self.cycle.response_complete
        received, _ = self.conn.trailing_data
        if not answering and (received or self.conn.their_state is not h11.IDLE):
            # Some of a request came, not all of it: say why the connection closes.
            self.transport.write(
                raw_answer(408, "Request Timeout", "Request Timeout: the request did not "
                           f"arrive whole within {self.request_seconds:g} s", [])
            )  # fmt: skip
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()
        if len(self.connections) > self.max_connections:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._disarm()  # the request is all here; its answer has budgets of its own

    def on_response_complete(self) -> None:
        self.idle_since = self.loop.time()
        if not self.transport.is_closing():
            self._arm()  # for the next request on this connection
        super().on_response_complete()

    # Connections past the limit -------------------------------------------------------------

    def idle(self) -> bool:
        """Waiting for a request that has not started to arrive."""
        return (
            (self.cycle is None or self.cycle.response_complete)
            and self.conn.their_state is h11.IDLE
            and not self.conn.trailing_data[0]
        )

    def _make_room(self) -> None:
        idle = [c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol)
                and c.idle() and not c.transport.is_closing()]  # fmt: skip
        if idle:
            oldest = min(idle, key=lambda c: c.idle_since)
            oldest.transport.close()
            return
        self.transport.write(
            raw_answer(503, "Service Unavailable", "Service Unavailable: too many connections",
                       [(b"retry-after", str(self.retry_after).encode())])
        )  # fmt: skip
        self.transport.close()

    # uvicorn's own answer, with the site's headers ------------------------------------------

    def send_400_response(self, msg: str) -> None:
        conn = self.conn
        status = conn.refused_status if isinstance(conn, GuardedConnection) else 400
        if status == 431 and b"\r\n" not in conn.trailing_data[0][:MAX_HEAD_BYTES]:
            answer = raw_answer(414, "URI Too Long", uri_too_long(self.max_url_bytes), [])
        elif status == 431:
            answer = raw_answer(431, "Request Header Fields Too Large",
                                "Request Header Fields Too Large", [])  # fmt: skip
        else:
            answer = raw_answer(400, "Bad Request", f"Bad Request: {msg}", [])
        self.transport.write(answer)
        self._close_after_reading()

    # Lingering close -------------------------------------------------------------------------

    _discarding = False

    def _close_after_reading(self) -> None:
        """Close once the client has stopped sending (or after LINGER_SECONDS): closing with
        its data unread would reset the connection, and the client could lose the answer."""
        self._discarding = True
        self._disarm()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if not self._discarding:
            super().data_received(data)

    def eof_received(self) -> None:
        if self._discarding:
            self.transport.close()


def protocol_class(web: dict[str, Any]) -> type[GuardedH11Protocol]:
    """GuardedH11Protocol with the numbers of kb/data/limits.toml [web]."""
    return type(
        "KbH11Protocol",
        (GuardedH11Protocol,),
        {
            "request_seconds": float(web["request_seconds"]),
            "max_connections": int(web["max_connections"]),
            "retry_after": int(web["retry_after_seconds"]),
            "max_url_bytes": int(web["max_url_bytes"]),
        },
    )
