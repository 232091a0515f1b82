"""The served database file, one version per answer (kb.web.serve registers it as ``kb``).

``kb build`` replaces the file whole (a new file renamed over the old one), so a running
server can see a new version at any moment. Datasette keeps one connection per SQL thread
and database *name*, and the ask/search workers open the file when they start: after a
rebuild, table pages answered from the old file and ask/search from the new one.

Here a version is the file's identity (device, inode, size, modification time), looked up
with one ``stat`` per request (kb.web.asgi's ``pin_version``): the request is pinned to the
version current when it arrived, every query it makes runs on a connection to that version,
and the worker pool (kb.web.offload) replaces its workers when the version changes. A
request that arrived before the rebuild finishes on the old file, even on an SQL thread
that never opened it: each version keeps one connection opened when it was first seen
(``anchor``), closed once no request uses it. Every connection is opened read-only at the
OS level (``mode=ro``: O_RDONLY) and immutable.

Datasette's own pages run several queries per request (count, rows, each facet), each under
the SQL time limit. With ``kb serve --public`` a request also has a budget of CPU time for all
its SQL (``max_sql_ms_per_request`` of kb/data/limits.toml [public]): each query may use at
most what is left of it, so a table page with its facets costs a bounded amount whatever
it asks for. Every time limit is CPU time (kb.web.sqlguard.cpu_time_limit).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from datasette.database import Database, QueryInterrupted, Results
from datasette.inspect import inspect_hash
from datasette.tracer import trace

from ..limits import limits
from .sqlguard import cpu_time_limit

if TYPE_CHECKING:
    from datasette.app import Datasette

T = TypeVar("T")
Identity = tuple[int, int, int, int]


def identity(path: str) -> Identity:
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def connect_read_only(path: str) -> sqlite3.Connection:
    """A read-only (O_RDONLY), immutable connection to ``path``."""
    uri = f"{Path(path).resolve().as_uri()}?mode=ro&immutable=1"
    return sqlite3.connect(uri, uri=True, check_same_thread=False)


@dataclass(eq=False)
class Version:
    """One version of the file: its identity and what was computed for it."""

    key: Identity
    anchor: sqlite3.Connection | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0
    retired: bool = False
    table_counts: dict[str, int | None] | None = None
    hash: str | None = None

    @property
    def label(self) -> str:
        """A short name for the version (the X-KB-Database header)."""
        return f"{self.key[1]:x}-{self.key[3] // 1_000_000:x}"


_PINNED: contextvars.ContextVar[Version | None] = contextvars.ContextVar("kb_version", default=None)


@dataclass
class SqlBudget:
    """CPU milliseconds the SQL of one request may still use."""

    ms: float

    def spend(self, seconds: float) -> None:
        self.ms -= seconds * 1000


_BUDGET: contextvars.ContextVar[SqlBudget | None] = contextvars.ContextVar(
    "kb_sql_budget", default=None
)


class DatabaseFile:
    """The versions of one database file; ``current()`` is one ``stat``."""

    def __init__(self, path: str, prepare: Callable[[sqlite3.Connection], None]) -> None:
        self.path = path
        self.prepare = prepare
        self.lock = threading.Lock()
        self.latest = self._open_version()
        self.listeners: list[Callable[[Version], None]] = []

    def _open_version(self) -> Version:
        """The file as it is now, with an anchor connection verified to be that file."""
        while True:
            before = identity(self.path)
            conn = connect_read_only(self.path)  # SQLite opens the file now, not later
            if identity(self.path) == before:
                self.prepare(conn)
                return Version(key=before, anchor=conn)
            conn.close()  # replaced meanwhile: try again

    def current(self) -> Version:
        """The version on disk now (a new one if the file was replaced since)."""
        try:
            key = identity(self.path)
        except OSError:
            return self.latest  # removed for a moment (or for good): keep serving what we have
        if key == self.latest.key:
            return self.latest
        with self.lock:
            if key != self.latest.key:
                old, self.latest = self.latest, self._open_version()
                self._retire_if_unused(old)
                for listener in self.listeners:
                    listener(self.latest)
        return self.latest

    def enter(self, version: Version) -> None:
        with self.lock:
            version.users += 1

    def leave(self, version: Version) -> None:
        with self.lock:
            version.users -= 1
            self._retire_if_unused(version)

    def _retire_if_unused(self, version: Version) -> None:
        if version is self.latest or version.users > 0 or version.retired:
            return
        version.retired = True
        if version.anchor is not None:
            with version.lock:
                version.anchor.close()
                version.anchor = None


def pinned() -> Version | None:
    """The version the request being answered is pinned to (None outside a request)."""
    return _PINNED.get()


def pin(version: Version) -> contextvars.Token[Version | None]:
    return _PINNED.set(version)


def unpin(token: contextvars.Token[Version | None]) -> None:
    _PINNED.reset(token)


class KbDatabase(Database):
    """Datasette's Database for the knowledge base file, answering each request from the
    version it is pinned to (the latest one outside a request)."""

    def __init__(self, ds: Datasette, path: str, name: str) -> None:
        super().__init__(ds, path=path, is_mutable=False)
        self.name = name  # add_database sets it too; the first anchor is prepared with it
        self.file = DatabaseFile(path, lambda conn: ds._prepare_connection(conn, self.name))
        self._local = threading.local()

    def version(self) -> Version:
        return pinned() or self.file.current()

    def connect(self, write: bool = False) -> sqlite3.Connection:
        assert not write, "the knowledge base is read-only"
        conn = connect_read_only(self.path)
        self._all_file_connections.append(conn)
        return conn

    def _connection(self, version: Version) -> tuple[sqlite3.Connection, threading.Lock | None]:
        """This thread's connection to ``version``; the version's anchor (with its lock) when
        the file on disk is another version already."""
        conns: dict[Identity, sqlite3.Connection] = self._local.__dict__.setdefault("conns", {})
        for key in [k for k in conns if k != version.key and k != self.file.latest.key]:
            conns.pop(key).close()  # versions no request uses any more
        conn = conns.get(version.key)
        if conn is not None:
            return conn, None
        if not version.retired and identity(self.path) == version.key:
            conn = connect_read_only(self.path)
            if identity(self.path) == version.key:
                self.ds._prepare_connection(conn, self.name)
                conns[version.key] = conn
                return conn, None
            conn.close()
        if version.anchor is None:
            raise sqlite3.OperationalError("the database was replaced during this request")
        return version.anchor, version.lock

    async def execute_fn(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        version = self.version()

        def run() -> T:
            conn, lock = self._connection(version)
            if lock is None:
                return fn(conn)
            with lock:
                if version.anchor is None:
                    raise sqlite3.OperationalError("the database was replaced during this request")
                return fn(conn)

        if self.ds.executor is None:
            return run()
        return await asyncio.get_running_loop().run_in_executor(self.ds.executor, run)

    async def execute(
        self,
        sql: str,
        params: Any = None,
        truncate: bool = False,
        custom_time_limit: int | None = None,
        page_size: int | None = None,
        log_sql_errors: bool = True,
    ) -> Results:
        """Datasette's Database.execute, with its time limit in CPU time and charged to the
        request's SQL budget (--public)."""
        limit_ms: float = self.ds.sql_time_limit_ms
        if custom_time_limit and custom_time_limit < limit_ms:
            limit_ms = custom_time_limit
        budget = _BUDGET.get()
        if budget is not None:
            if budget.ms <= 0:
                raise QueryInterrupted(sqlite3.OperationalError("interrupted"), sql, params)
            limit_ms = min(limit_ms, budget.ms)
        page_size = page_size or self.ds.page_size
        max_returned_rows = self.ds.max_returned_rows

        def run(conn: sqlite3.Connection) -> Results:
            started = time.thread_time()
            try:
                with cpu_time_limit(conn, limit_ms):
                    cursor = conn.cursor()
                    cursor.execute(sql, params if params is not None else {})
                    most = max_returned_rows + (1 if max_returned_rows == page_size else 0)
                    if most and truncate:
                        rows = cursor.fetchmany(most + 1)
                        return Results(rows[:most], len(rows) > most, cursor.description)
                    return Results(cursor.fetchall(), False, cursor.description)
            except (sqlite3.OperationalError, sqlite3.DatabaseError) as e:
                if e.args == ("interrupted",):
                    raise QueryInterrupted(e, sql, params) from None
                if log_sql_errors:
                    sys.stderr.write(f"ERROR: conn={conn}, sql = {sql!r}, params = {params}: {e}\n")
                    sys.stderr.flush()
                raise
            finally:
                if budget is not None:
                    budget.spend(time.thread_time() - started)

        with trace("sql", database=self.name, sql=sql.strip(), params=params):
            return await self.execute_fn(run)

    # What Datasette caches per immutable database is cached per version.

    @property
    def cached_table_counts(self) -> dict[str, int | None] | None:
        return self.version().table_counts

    async def table_counts(self, limit: int = 10) -> dict[str, int | None]:
        version = self.version()
        if version.table_counts is None:
            counts = await super().table_counts(limit)
            self._cached_table_counts = None
            version.table_counts = counts
        return version.table_counts

    @property
    def hash(self) -> str:
        version = self.version()
        if version.hash is None:
            on_disk = identity(self.path) == version.key
            version.hash = inspect_hash(Path(self.path)) if on_disk else version.label
        return version.hash

    @property
    def size(self) -> int:
        return self.version().key[2]

    @property
    def mtime_ns(self) -> int:
        return self.version().key[3]


def version_of(ds: Datasette) -> DatabaseFile | None:
    """The served file's versions (None when the site runs on a plain Database)."""
    from .views import kb_database

    db = kb_database(ds)
    return db.file if isinstance(db, KbDatabase) else None


async def _reread_schema(ds: Datasette) -> None:
    """Datasette re-reads the schema of a database whose PRAGMA schema_version changed; a
    rebuilt file may have another schema under the same number, so it is read again."""
    from datasette.utils.internal_db import populate_schema_tables

    from .views import kb_database

    internal = ds.databases.get("_internal")
    if internal is not None and getattr(ds, "internal_db_created", False):
        await populate_schema_tables(internal, kb_database(ds))


def pin_version(app: Any, ds: Datasette) -> Any:
    """ASGI: pin each request to the database version current when it arrived (its answer
    says which, ``X-KB-Database``), and give it its SQL budget (--public)."""

    seen: list[Version | None] = [None]
    sql_ms = 0.0

    async def pinned_app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal sql_ms
        file = version_of(ds) if scope["type"] == "http" else None
        if seen[0] is None and getattr(ds, "_kb_public", False):
            sql_ms = float(limits()["public"]["max_sql_ms_per_request"])
        if file is None:
            await app(scope, receive, send)
            return
        version = file.current()
        if seen[0] is not None and seen[0] is not file.latest:
            await _reread_schema(ds)
        seen[0] = file.latest
        file.enter(version)
        token = pin(version)
        budget = _BUDGET.set(SqlBudget(sql_ms) if sql_ms else None)

        async def send_version(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"x-kb-database", version.label.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await app(scope, receive, send_version)
        finally:
            _BUDGET.reset(budget)
            unpin(token)
            file.leave(version)

    return pinned_app
