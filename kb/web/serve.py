"""``kb serve``: the knowledge base as a website, on Datasette (pinned in pyproject.toml).

The database is opened immutable (Datasette's ``-i``): nothing can write to it, and Datasette
counts its tables once instead of on every page. The pages come from the kb.web plugin;
``site/`` holds only Datasette's configuration (metadata.yaml, settings.json).

The database is always published as ``/kb`` (see kb.web.views.DB_NAME), whatever its file is
called, so Datasette's own URLs (/kb/rules, /kb/search) and metadata.yaml stay stable.
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


# Connections and tasks a public server serves at once; more are answered 503 by uvicorn.
PUBLIC_MAX_CONNECTIONS = 256


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
    site/settings.json (a smaller row and time budget for arbitrary SQL, no CSV streaming).
    ``web_limits`` replaces some of [web] (the ask and search workers' budget) for this
    instance. Used by ``kb serve``, the page tests (``make_datasette(path).client.get("/")``)
    and the load check, so all three see the same site.
    """
    from datasette.app import Datasette
    from datasette.database import Database

    _register_plugin()
    if public:
        settings = {**limits()["public_settings"], **settings}
    try:
        config = site_settings(**settings)
    except ConfigError as exc:
        raise ServeError(str(exc)) from None
    ds = Datasette(settings=config)
    ds._kb_web_limits = {**limits()["web"], **(web_limits or {})}  # read by kb.web.offload
    # With no file given, Datasette adds an empty in-memory database; the site has only one.
    if "_memory" in ds.databases:
        ds.remove_database("_memory")
    ds.add_database(Database(ds, path=str(Path(db_path).resolve()), is_mutable=False), DB_NAME)
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
    await ds.invoke_startup()
    response = await ds.client.get(path)
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
    its body is printed. ``public``: see make_datasette; uvicorn also caps the connections
    it serves at once (more get 503) and sends no Server header.
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

    from .asgi import MAX_TARGET_BYTES

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
        # Long request lines reach kb.web.asgi, which answers 414 (uvicorn would reset them).
        h11_max_incomplete_event_size=MAX_TARGET_BYTES,
        limit_concurrency=PUBLIC_MAX_CONNECTIONS if public else None,
        server_header=not public,
    )
