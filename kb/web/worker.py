"""A worker process of the website: runs ask and search pages off the server's event loop.

``python -m kb.web.worker DB [NICE]`` reads requests from stdin and writes answers to stdout, each a
frame (4-byte length, then a pickle). A request is ``(module, function name, args, kwargs,
budget in seconds)``; the function is called as ``fn(kb, *args, **kwargs)`` with a
``KnowledgeBase`` over the worker's own read-only connection (the same functions, limits and
authorizer as Datasette's connections), and SQLite is interrupted when the request has used its
budget of CPU time (this thread's, so time spent waiting for a core does not count). The answer
is ``("ok", value)``, ``("error", exception)`` or ``("interrupted", None)``.

The worker lowers its own priority (``worker_nice`` of kb/data/limits.toml), so on a busy
machine the server's pages come first, and exits when its stdin closes (the server went
away, even by kill -9). Its "ready" frame says which file it opened (device, inode, size,
modification time: kb.web.database's identity of a version), checked before and after
opening, so the pool knows which version of a rebuilt file it answers from.
kb.web.offload starts, feeds and kills these processes.
"""

from __future__ import annotations

import importlib
import os
import pickle
import sqlite3
import sys
from pathlib import Path
from typing import Any, BinaryIO

from ..store.db import Connection, register_functions
from .frames import read_frame, write_frame
from .sqlguard import CpuDeadline, guard

NICE = 2


def _identity(path: str) -> tuple[int, int, int, int]:
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def connect(path: str) -> tuple[sqlite3.Connection, tuple[int, int, int, int]]:
    """Read-only (O_RDONLY) and immutable, like Datasette's connection to the knowledge base;
    with the identity of the file it opened."""
    uri = f"{Path(path).resolve().as_uri()}?mode=ro&immutable=1"
    while True:
        before = _identity(path)
        # SQLite opens the file here, not at the first query.
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False, factory=Connection)
        if _identity(path) == before:
            break
        conn.close()  # replaced while it opened: open the new one
    conn.row_factory = sqlite3.Row
    conn.text_factory = lambda b: str(b, "utf-8", "replace")
    register_functions(conn)
    guard(conn)
    return conn, before


def _picklable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def serve(path: str, requests: BinaryIO, answers: BinaryIO) -> None:
    from ..api import KnowledgeBase

    conn, opened = connect(path)
    kb = KnowledgeBase.over(conn)
    deadline = CpuDeadline()  # of this thread's CPU time
    conn.set_progress_handler(deadline, 1000)
    # The page modules, imported before saying "ready": the budget counts work, not imports.
    importlib.import_module("kb.web.routes")
    write_frame(answers, ("ready", opened))
    while (request := read_frame(requests)) is not None:
        module, name, args, kwargs, budget = request
        fn = getattr(importlib.import_module(module), name)
        deadline.start(budget)
        try:
            answer: tuple[str, Any] = ("ok", fn(kb, *args, **kwargs))
        except sqlite3.OperationalError as exc:
            interrupted = exc.args == ("interrupted",)
            answer = ("interrupted", None) if interrupted else ("error", _picklable(exc))
        except Exception as exc:
            answer = ("error", _picklable(exc))
        finally:
            deadline.stop()
        write_frame(answers, answer)


def main() -> None:
    os.nice(int(sys.argv[2]) if len(sys.argv) > 2 else NICE)
    # Frames go to the real stdout; anything printed goes to stderr (the server's log).
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.argv[1], sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
