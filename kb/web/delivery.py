"""How the website's bytes travel: gzip, cache headers and the versioned static files.

- Every response a browser accepts gzip for is compressed (``asgi-gzip``, Starlette's
  middleware on its own), Datasette's pages as much as ours: a section page shrinks to a
  fifth, the biggest comparison table to a twelfth.
- Static files (``/-/kb-static/``) are named by their content's hash in every URL the pages
  write (``site.css?v=<hash>``), so they are cached for a year, immutable. They are read
  once, all of them; any other name is a plain 404, whatever its length, and costs nothing
  kept (a name over 255 bytes made ``is_file`` raise: a 500 and a traceback each time, and
  every name asked for was cached: 38 MB per 100,000 names).
- Rules pages come from a database opened immutable: a page cannot change while the server
  runs. They are cached for a while and carry an ETag (a hash of the body), so a browser that
  comes back asks "still the same?" and gets an empty 304 instead of the page.

Only the ASGI wrapper is registered in kb.web.hooks (``asgi_wrapper``); pages call
``cached_response``.
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from asgi_gzip import GZipMiddleware
from datasette.utils.asgi import Request, Response

STATIC = resources.files("kb.web") / "static"
STATIC_PREFIX = "/-/kb-static/"
IMMUTABLE = "public, max-age=31536000, immutable"
# Pages of the immutable database: fresh for ten minutes, then revalidated by ETag.
PAGE_CACHE = "public, max-age=600"
# Below this, gzip's header costs more than it saves.
MIN_GZIP_BYTES = 500
# Level 6 (zlib's default): nearly level 9's size at a fraction of its time.
GZIP_LEVEL = 6


def gzip_wrapper(app: Callable[..., Any]) -> Callable[..., Any]:
    """The whole site behind gzip, for clients that accept it."""
    return GZipMiddleware(app, minimum_size=MIN_GZIP_BYTES, compresslevel=GZIP_LEVEL)


@cache
def _static_files() -> dict[str, bytes]:
    """Every file of kb/web/static/ by name (read once)."""
    return {
        entry.name: entry.read_bytes()
        for entry in STATIC.iterdir()
        if entry.is_file() and not entry.name.startswith(".")
    }


def _static_bytes(name: str) -> bytes | None:
    return _static_files().get(name)


@cache
def static_url(name: str) -> str:
    """The URL of a static file, with its content's hash: a changed file is a new URL."""
    body = _static_bytes(name) or b""
    return f"{STATIC_PREFIX}{name}?v={hashlib.sha256(body).hexdigest()[:10]}"


async def static_file(request: Request) -> Response:
    """A file of kb/web/static/, cached for a year (its URL changes when it does)."""
    name = request.url_vars["path"]
    body = _static_bytes(name)
    if body is None:
        return Response.text("Not found", status=404)
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if content_type.startswith("text/") or content_type.endswith("javascript"):
        content_type += "; charset=utf-8"
    return Response(body, content_type=content_type, headers={"cache-control": IMMUTABLE})


def etag(body: str | bytes) -> str:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return '"' + hashlib.blake2b(data, digest_size=12).hexdigest() + '"'


def cached_response(request: Request, response: Response) -> Response:
    """A successful page with cache headers; an empty 304 when the browser has it already."""
    if response.status != 200 or request.method != "GET":
        return response
    tag = etag(response.body)
    headers = {**response.headers, "cache-control": PAGE_CACHE, "etag": tag}
    wanted = request.headers.get("if-none-match", "")
    if tag in [t.strip() for t in wanted.split(",")]:
        return Response("", status=304, headers=headers)
    response.headers = headers
    return response
