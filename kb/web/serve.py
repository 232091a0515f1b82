"""``kb serve``: the knowledge base as a website, on Datasette (pinned in pyproject.toml).

The database is opened immutable (Datasette's ``-i``): nothing can write to it, and Datasette
counts its tables once instead of on every page. The pages come from the kb.web plugin;
``site/`` holds only Datasette's configuration (metadata.yaml, settings.json).

The database is always published as ``/kb`` (see kb.web.views.DB_NAME), whatever its file is
called, so Datasette's own URLs (/kb/rules, /kb/search) and metadata.yaml stay stable. It is
a kb.web.database.KbDatabase: opened read-only at the OS level, and each answer comes from
one version of the file, the one on disk when the request arrived (a rebuild is picked up by
the next request, everywhere at once).

uvicorn runs kb.web.protocol's HTTP protocol (request deadlines, a cap on open connections
that closes idle ones first, no request smuggling, security headers on its own answers).
"""

from __future__ import annotations

import asyncio
import errno
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..limits import limits
from ..store.db import KbError, connect
from .site_config import ConfigError, site_settings
from .views import DB_NAME

if TYPE_CHECKING:
    from datasette.app import Datasette


class ServeError(Exception):
    """A reason the site cannot start (no database, port taken), shown as a one-line error."""


def check_database(db_path: Path | str) -> Path:
    """The database path, if it is a knowledge base; else ServeError saying what to do."""
    path = Path(db_path)
    try:
        connect(path).close()
    except KbError as exc:
        raise ServeError(str(exc)) from None
    return path


def make_datasette(
    db_path: Path | str,
    *,
    public: bool = False,
    web_limits: dict[str, Any] | None = None,
    **settings: Any,
) -> Datasette:
    """A Datasette instance for the website: ``db_path`` immutable as ``kb``, settings from
    site/settings.json, the kb.web plugin registered.

    ``public``: the settings of [public_settings] in kb/data/limits.toml replace those of
    site/settings.json (no arbitrary SQL, a smaller row and time budget, no CSV streaming),
    and kb.web.asgi applies [public] (facets, parameter sizes, raw search, answer size).
    ``web_limits`` replaces some of [web] (the ask and search workers' budget) for this
    instance. Used by ``kb serve``, the page tests (``make_datasette(path).client.get("/")``)
    and the load check, so all three see the same site.
    """
    from datasette.app import Datasette

    from .database import KbDatabase

    _register_plugin()
    if public:
        settings = {**limits()["public_settings"], **settings}
    try:
        config = site_settings(**settings)
    except ConfigError as exc:
        raise ServeError(str(exc)) from None
    ds = Datasette(settings=config)
    ds._kb_web_limits = {**limits()["web"], **(web_limits or {})}  # read by kb.web.offload
    ds._kb_public = public  # read by kb.web.hooks (the [public] refusals of kb.web.asgi)
    # With no file given, Datasette adds an empty in-memory database; the site has only one.
    if "_memory" in ds.databases:
        ds.remove_database("_memory")
    ds.add_database(KbDatabase(ds, str(Path(db_path).resolve()), DB_NAME), DB_NAME)
    return ds


def _register_plugin() -> None:
    """The plugin is registered by its entry point when the package is installed; from a
    checkout that is not installed, register it here."""
    from datasette.plugins import pm

    import kb.web

    if not pm.is_registered(kb.web):
        pm.register(kb.web, "kb")


def _check_port(host: str, port: int) -> None:
    """Fail in one line, before Datasette starts, when the port is taken."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(f"port {port} on {host} is in use (try --port)") from None
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


async def _get(ds: Datasette, path: str) -> tuple[int, str, str]:
    from .offload import stop_workers

    await ds.invoke_startup()
    try:
        response = await ds.client.get(path)
    finally:
        await stop_workers(ds)  # before the event loop closes
    return response.status_code, response.text, response.headers.get("location", "")


def serve_site(
    db_path: Path | str,
    *,
    host: str = "127.0.0.1",
    port: int = 8001,
    get_path: str | None = None,
    public: bool = False,
) -> None:
    """Serve the site until interrupted; with ``get_path``, print that one page and return.

    Like ``datasette --get``: a page that does not answer 200 is an error (ServeError), after
    its body is printed. ``public``: see make_datasette; uvicorn also sends no Server header.
    The ask/search workers start with the server.
    """
    path = check_database(db_path)
    ds = make_datasette(path, public=public)
    if get_path is not None:
        status, text, location = asyncio.run(_get(ds, get_path))
        print(text)
        if status != 200:
            where = f" -> {location}" if location else ""
            raise ServeError(f"GET {get_path}: HTTP {status}{where}")
        return
    _check_port(host, port)
    import uvicorn

    from .protocol import MAX_HEAD_BYTES, protocol_class

    ds._kb_start_workers = True  # read by kb.web.hooks' startup hook
    web = limits()["web"]
    _raise_open_files(int(web["max_connections"]) + 256)
    mode = "public, " if public else ""
    print(
        f"Serving {path} ({mode}read-only) at http://{host}:{port}/ (Ctrl-C to stop)",
        file=sys.stderr,
    )
    uvicorn.run(
        ds.app(),
        host=host,
        port=port,
        log_level="info",
        lifespan="on",
        workers=1,
        http=protocol_class(web),
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        # Requests in progress are bounded by kb.web.asgi, open connections by
        # kb.web.protocol; uvicorn's own limit counted idle connections as work.
        limit_concurrency=None,
        timeout_keep_alive=int(web["keep_alive_seconds"]),
        server_header=not public,
    )


def _raise_open_files(wanted: int) -> None:
    """Let the process hold ``wanted`` file descriptors (connections), up to the hard limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
