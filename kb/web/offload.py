"""Ask and search off Datasette's SQL threads and event loop: a pool of worker processes
(kb.web.worker), sized to the machine, with a bounded queue and a budget per request.

A question costs CPU in Python (understanding, ranking), which a thread would do while
holding the interpreter lock, delaying every other page. In a worker process at a slightly
lower priority it delays nothing. The numbers are in kb/data/limits.toml [web]:

* ``workers`` processes (0: one per CPU core), started with the server and kept;
* a request waits at most ``queue_seconds`` for a free worker, then gets 503 "busy"; at most
  ``queue_per_worker`` requests per worker wait, one more gets 503 at once. A 503 always
  means "nothing was started": safe to retry, here or on another replica;
* a request may use ``budget_seconds`` of CPU: SQLite is interrupted then (504 "over its
  budget", at once); a request still unanswered after ``wall_seconds`` (computing where
  SQLite cannot interrupt it, or starved of CPU) has its worker killed and replaced, and
  gets 504 too. A 504 means "it was tried and cost its budget": not to be repeated. A
  worker that dies (killed from outside) is replaced; a request it was answering gets 502;
* waiting is measured on ``LoopClock``: time the server was frozen (SIGSTOP, a paused VM)
  does not age the requests it holds, so they are answered when it runs again;
* each worker serves one version of the database file (kb.web.database): when the file is
  replaced, new workers start on it and the old ones are stopped as they come free.

Routes call ``offload(datasette, fn, *args)`` where they would call ``kb.web.views.query``:
``fn`` is a module-level function ``fn(kb, *args, **kwargs)`` and its exceptions (NotFound,
KbError) are raised in the route as if it had run there. ``check(datasette)`` runs a tiny
query in a worker ahead of the queue, for the health check.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from datasette.views.base import DatasetteError

from ..limits import cap, limits
from .database import Identity, identity, version_of
from .frames import HEADER, encode
from .views import kb_database

if TYPE_CHECKING:
    from datasette.app import Datasette
    from datasette.utils.asgi import Request

T = TypeVar("T")
START_SECONDS = 60.0  # a worker's start (imports) on a slow machine
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


class Busy(DatasetteError):
    """Nothing was started (503, Retry-After added by kb.web.asgi)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, title="Busy", status=503)


class OverBudget(DatasetteError):
    """The request ran and used up its budget (504)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, title="Too slow", status=504)


def machine_workers(configured: int) -> int:
    """``configured``, or with 0 one per CPU core this process may run on."""
    if configured > 0:
        return configured
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class LoopClock:
    """Seconds the event loop has been running: a gap between its ticks longer than a few
    ticks is time the process was frozen (or the loop blocked), and does not count."""

    TICK = 0.25

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.frozen = 0.0
        self.last = loop.time()
        self.handle = loop.call_later(self.TICK, self._tick)

    def _gap(self, now: float) -> float:
        gap = now - self.last
        return gap - self.TICK if gap > 4 * self.TICK else 0.0

    def _tick(self) -> None:
        now = self.loop.time()
        self.frozen += self._gap(now)
        self.last = now
        self.handle = self.loop.call_later(self.TICK, self._tick)

    def now(self) -> float:
        now = self.loop.time()
        return now - self.frozen - self._gap(now)

    async def wait(self, future: asyncio.Future[T], seconds: float) -> T:
        """``future``'s result, or TimeoutError after ``seconds`` of running time (the
        future is cancelled then)."""
        deadline = self.now() + seconds
        while not future.done():
            remaining = deadline - self.now()
            if remaining <= 0:
                future.cancel()
                raise TimeoutError
            await asyncio.wait({future}, timeout=remaining)
        return future.result()

    def stop(self) -> None:
        self.handle.cancel()


class WorkerLost(DatasetteError):
    """The worker answering the request died (killed from outside, or crashed): 502."""

    def __init__(self) -> None:
        super().__init__(
            "The question service stopped while answering; try again.", title="Error", status=502
        )


class _Worker:
    def __init__(self, proc: asyncio.subprocess.Process, version: Identity | None) -> None:
        self.proc = proc
        self.version = version
        self.gone = False  # killed by the pool, or found dead

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
    """``size`` workers on one database file, for one event loop."""

    def __init__(self, db_path: str, web: dict[str, Any], datasette: Datasette | None = None):
        self.db_path = db_path
        self.file = version_of(datasette) if datasette is not None else None
        self.size = machine_workers(int(web["workers"]))
        self.max_waiting = self.size * int(web["queue_per_worker"])
        self.queue_seconds = float(web["queue_seconds"])
        self.budget = float(web["budget_seconds"])
        self.wall = float(web["wall_seconds"])
        self.nice = int(web["worker_nice"])
        self.loop = asyncio.get_running_loop()
        self.clock = LoopClock(self.loop)
        self.idle: list[_Worker] = []
        self.waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self.count = 0  # workers started or starting, of the current version
        self.ready = 0  # of them, those that said "ready"
        self.version: Identity | None = self._on_disk()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    def _on_disk(self) -> Identity | None:
        if self.file is not None:
            return self.file.current().key
        try:
            return identity(self.db_path)
        except OSError:
            return None

    # Starting and stopping -------------------------------------------------------------------

    def fill(self) -> None:
        """Start workers (in the background) until there are ``size`` of this version."""
        while self.count < self.size and not self.closed:
            self._grow()

    async def _start(self, version: Identity | None) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH", "")) if p
        )}  # fmt: skip
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "kb.web.worker", self.db_path, str(self.nice),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
            )  # fmt: skip
        except OSError:
            self._start_failed(version)
            return
        worker = _Worker(proc, version)
        try:
            kind, opened = await asyncio.wait_for(worker.read(), START_SECONDS)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.CancelledError):
            worker.kill()
            self._start_failed(version)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 5)
            return
        assert kind == "ready"
        if version is not None and tuple(opened) != version:
            worker.version = tuple(opened)  # the file changed while it started
        if worker.version == self.version:
            self.ready += 1
        watch = self.loop.create_task(proc.wait())
        self.tasks.add(watch)
        watch.add_done_callback(self.tasks.discard)
        # Cancelled only as the event loop shuts down: nothing to replace then.
        watch.add_done_callback(lambda t: None if t.cancelled() else self._died(worker))
        self._release(worker)

    def _died(self, worker: _Worker) -> None:
        """A worker's process ended: an idle one (killed from outside) is replaced now, not
        handed to the next request."""
        if worker in self.idle:
            self.idle.remove(worker)
        if not worker.gone:
            self._retire(worker)

    def _start_failed(self, version: Identity | None) -> None:
        if version == self.version:
            self.count -= 1
        if self.count == 0 and not self.idle:
            # No worker at all: the waiting requests are told now, not after their wait.
            while self.waiting:
                future = self.waiting.popleft()
                if not future.done():
                    future.set_exception(Busy("The question service could not start."))

    def _switch_if_replaced(self) -> None:
        """A new file version: workers of the old one are stopped as they come free."""
        on_disk = self._on_disk()
        if on_disk == self.version:
            return
        self.version = on_disk
        self.count = self.ready = 0
        for worker in self.idle:
            worker.gone = True
            worker.kill()
        self.idle.clear()
        self.fill()

    def _release(self, worker: _Worker) -> None:
        if self.closed or worker.version != self.version:
            self._retire(worker)
            return
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_result(worker)
                return
        self.idle.append(worker)

    def _retire(self, worker: _Worker) -> None:
        """Kill ``worker``; one of the current version is replaced."""
        worker.kill()
        if worker.gone:
            return
        worker.gone = True
        if worker.version == self.version:
            self.count -= 1
            self.ready -= 1
            self._grow()

    # Answering -------------------------------------------------------------------------------

    def _grow(self) -> None:
        """One more worker, if all are busy and there is room (``fill`` starts them all)."""
        if self.count < self.size and not self.closed:
            self.count += 1
            task = self.loop.create_task(self._start(self.version))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _acquire(self, first: bool) -> _Worker:
        self._switch_if_replaced()
        while self.idle:
            worker = self.idle.pop()
            if worker.proc.returncode is None:
                return worker
            self._retire(worker)  # died idle, not yet noticed
        self._grow()
        if len(self.waiting) >= self.max_waiting and not first:
            raise Busy("Too many questions at once; try again in a moment.")
        future: asyncio.Future[_Worker] = self.loop.create_future()
        if first:
            self.waiting.appendleft(future)
        else:
            self.waiting.append(future)
        # While no worker is running yet (the server just started, or the file was
        # replaced), a request waits for one to start rather than the usual queue time.
        seconds = self.queue_seconds if self.ready > 0 else START_SECONDS
        try:
            return await self.clock.wait(future, seconds)
        except TimeoutError:
            raise Busy(
                f"Busy: no free worker within {self.queue_seconds:g} s; try again."
            ) from None
        except asyncio.CancelledError:
            if future.done() and not future.cancelled() and future.exception() is None:
                self._release(future.result())  # handed over as the request went away
            future.cancel()
            raise

    async def run(
        self,
        module: str,
        name: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        first: bool = False,
    ) -> Any:
        worker = await self._acquire(first)
        request = (module, name, args, kwargs, self.budget)
        call = self.loop.create_task(worker.call(request))
        try:
            kind, value = await self.clock.wait(call, self.wall)
        except (asyncio.IncompleteReadError, BrokenPipeError, ConnectionError):
            self._retire(worker)
            raise WorkerLost() from None
        except BaseException:  # no answer in time, or cancelled: the worker is never reused
            call.cancel()
            self._retire(worker)
            raise
        self._release(worker)
        if kind == "interrupted":
            raise OverBudget(
                f"Too slow: this request needed more than its {self.budget:g} s of CPU."
            )
        if kind == "error":
            raise value
        return value

    def close(self) -> None:
        self.closed = True
        self.clock.stop()
        for task in self.tasks:
            task.cancel()
        for worker in self.idle:
            worker.kill()
        self.idle.clear()

    async def aclose(self) -> None:
        """Stop the workers and wait for them (before the event loop closes)."""
        workers, self.idle = self.idle, []
        tasks = list(self.tasks)
        self.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        for worker in [*workers, *self.idle]:
            worker.kill()
            await worker.proc.wait()
        self.idle.clear()


async def stop_workers(datasette: Datasette) -> None:
    """Stop the workers of ``datasette`` started on the running event loop."""
    pool: WorkerPool | None = getattr(datasette, "_kb_worker_pool", None)
    if pool is not None and pool.loop is asyncio.get_running_loop():
        await pool.aclose()


def pool(datasette: Datasette) -> WorkerPool:
    """The datasette instance's pool for the running event loop (a new loop, a new pool)."""
    loop = asyncio.get_running_loop()
    current: WorkerPool | None = getattr(datasette, "_kb_worker_pool", None)
    if current is None or current.loop is not loop:
        if current is not None:
            current.close()
        web = getattr(datasette, "_kb_web_limits", None) or limits()["web"]
        current = WorkerPool(kb_database(datasette).path, web, datasette)
        datasette._kb_worker_pool = current
    return current


def start_workers(datasette: Datasette) -> None:
    """Start the workers now (kb serve, at startup), not with the first question."""
    pool(datasette).fill()


async def offload(datasette: Datasette, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``fn(kb, *args, **kwargs)`` in a worker process; 503 when busy, 504 over budget."""
    workers = pool(datasette)
    try:
        return await workers.run(fn.__module__, fn.__qualname__, args, kwargs)
    except TimeoutError:
        raise OverBudget(f"Too slow: no answer within {workers.wall:g} s; try again.") from None


def _ping(kb: Any) -> str:
    """The health check's query in a worker: the database answers (its schema version)."""
    row = kb.row("meta_value", key="schema_version")
    return str(row["value"]) if row else ""


async def check(datasette: Datasette) -> str:
    """Run a tiny query in a worker, ahead of every waiting request."""
    return str(await pool(datasette).run(__name__, "_ping", (), {}, first=True))


def text_arg(request: Request, name: str, kind: str) -> str:
    """A query-string text argument capped as kb.limits caps ``kind`` ("question", "search")."""
    return cap(request.args.get(name) or "", kind).text
