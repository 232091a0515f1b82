"""Ask and search off Datasette's SQL threads and event loop: a small pool of worker
processes (kb.web.worker), with bounded concurrency and a time budget per request.

A question costs CPU in Python (understanding, ranking), which a thread would do while
holding the interpreter lock, delaying every other page. In a worker process at a lower
priority it delays nothing. The numbers are in kb/data/limits.toml [web]:

* ``workers`` processes at most, started on first use and kept;
* a request waits at most ``queue_seconds`` for a free worker: then 503 "busy" (at most
  four waiting requests per worker; more get 503 at once);
* a request may use ``budget_seconds`` of CPU: SQLite is interrupted then (503 "too slow",
  at once); a request still unanswered after ``wall_seconds`` (computing where SQLite cannot
  interrupt it, or starved of CPU) has its worker killed and replaced, and gets 503 too.

Routes call ``offload(datasette, fn, *args)`` where they would call ``kb.web.views.query``:
``fn`` is a module-level function ``fn(kb, *args, **kwargs)`` and its exceptions (NotFound,
KbError) are raised in the route as if it had run there.
"""

from __future__ import annotations

import asyncio
import collections
import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from datasette.views.base import DatasetteError

from ..limits import cap, limits
from .frames import HEADER, encode
from .views import kb_database

if TYPE_CHECKING:
    from datasette.app import Datasette
    from datasette.utils.asgi import Request

T = TypeVar("T")
START_SECONDS = 60.0  # a worker's start (imports) on a slow machine
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


class Busy(DatasetteError):
    def __init__(self, message: str) -> None:
        super().__init__(message, title="Busy", status=503)


class _Worker:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    async def call(self, request: tuple[Any, ...]) -> tuple[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(encode(request))
        await self.proc.stdin.drain()
        return await self.read()

    async def read(self) -> tuple[str, Any]:
        assert self.proc.stdout
        (size,) = HEADER.unpack(await self.proc.stdout.readexactly(HEADER.size))
        return pickle.loads(await self.proc.stdout.readexactly(size))

    def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()


class WorkerPool:
    """At most ``size`` workers on one database, for one event loop."""

    def __init__(self, db_path: str, web: dict[str, Any]) -> None:
        self.db_path = db_path
        self.size = int(web["workers"])
        self.queue_seconds = float(web["queue_seconds"])
        self.budget = float(web["budget_seconds"])
        self.wall = float(web["wall_seconds"])
        self.loop = asyncio.get_running_loop()
        self.idle: list[_Worker] = []
        self.waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self.count = 0

    async def _start(self) -> _Worker:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH", "")) if p
        )}  # fmt: skip
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "kb.web.worker", self.db_path,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
        )  # fmt: skip
        worker = _Worker(proc)
        try:
            kind, _ = await asyncio.wait_for(worker.read(), START_SECONDS)
        except (TimeoutError, asyncio.IncompleteReadError):
            worker.kill()
            raise Busy("The question service could not start; try again.") from None
        assert kind == "ready"
        return worker

    async def _acquire(self) -> _Worker:
        if self.idle:
            return self.idle.pop()
        if self.count < self.size:
            self.count += 1
            try:
                return await self._start()
            except BaseException:
                self.count -= 1
                raise
        if len(self.waiting) >= 4 * self.size:
            raise Busy("Too many questions at once; try again in a moment.")
        future: asyncio.Future[_Worker] = self.loop.create_future()
        self.waiting.append(future)
        try:
            return await asyncio.wait_for(future, self.queue_seconds)
        except TimeoutError:
            raise Busy(
                f"Busy: no free worker within {self.queue_seconds:g} s; try again."
            ) from None

    def _release(self, worker: _Worker) -> None:
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_result(worker)
                return
        self.idle.append(worker)

    async def _replace(self) -> None:
        """A new worker for a killed one (its place stays counted meanwhile)."""
        try:
            worker = await self._start()
        except Exception:
            self.count -= 1
            return
        self._release(worker)

    async def run(self, module: str, name: str, args: tuple[Any, ...], kwargs: dict) -> Any:
        worker = await self._acquire()
        request = (module, name, args, kwargs, self.budget)
        try:
            kind, value = await asyncio.wait_for(worker.call(request), self.wall)
        except BaseException:  # no answer in time, cancelled, or the worker died: never reused
            worker.kill()
            self.loop.create_task(self._replace())
            raise
        self._release(worker)
        if kind == "interrupted":
            raise Busy(f"Too slow: this request needed more than its {self.budget:g} s of CPU.")
        if kind == "error":
            raise value
        return value

    def close(self) -> None:
        for worker in self.idle:
            worker.kill()
        self.idle.clear()

    async def aclose(self) -> None:
        """Stop the idle workers and wait for them (before the event loop closes)."""
        workers, self.idle = self.idle, []
        for worker in workers:
            worker.kill()
            await worker.proc.wait()


async def stop_workers(datasette: Datasette) -> None:
    """Stop the workers of ``datasette`` started on the running event loop."""
    pool: WorkerPool | None = getattr(datasette, "_kb_worker_pool", None)
    if pool is not None and pool.loop is asyncio.get_running_loop():
        await pool.aclose()


def _pool(datasette: Datasette) -> WorkerPool:
    """The datasette instance's pool for the running event loop (a new loop, a new pool)."""
    loop = asyncio.get_running_loop()
    pool: WorkerPool | None = getattr(datasette, "_kb_worker_pool", None)
    if pool is None or pool.loop is not loop:
        if pool is not None:
            pool.close()
        web = getattr(datasette, "_kb_web_limits", None) or limits()["web"]
        pool = WorkerPool(kb_database(datasette).path, web)
        datasette._kb_worker_pool = pool
    return pool


async def offload(datasette: Datasette, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``fn(kb, *args, **kwargs)`` in a worker process; 503 when busy or over budget."""
    pool = _pool(datasette)
    try:
        return await pool.run(fn.__module__, fn.__qualname__, args, kwargs)
    except (TimeoutError, asyncio.IncompleteReadError, BrokenPipeError, ConnectionError):
        raise Busy(f"Too slow: no answer within {pool.wall:g} s; try again.") from None


def text_arg(request: Request, name: str, kind: str) -> str:
    """A query-string text argument capped as kb.limits caps ``kind`` ("question", "search")."""
    return cap(request.args.get(name) or "", kind).text
