"""A worker process of the website: runs ask and search pages off the server's event loop.

``python -m kb.web.worker DB`` reads requests from stdin and writes answers to stdout, each a
frame (4-byte length, then a pickle). A request is ``(module, function name, args, kwargs,
budget in seconds)``; the function is called as ``fn(kb, *args, **kwargs)`` with a
``KnowledgeBase`` over the worker's own read-only connection (the same functions, limits and
authorizer as Datasette's connections), and SQLite is interrupted when the request has used its
budget of CPU time (this thread's, so time spent waiting for a core does not count). The answer
is ``("ok", value)``, ``("error", exception)`` or ``("interrupted", None)``.

The worker lowers its own priority (nice 10), so on a busy machine the server's pages come
first, and exits when its stdin closes (the server went away, even by kill -9).
kb.web.offload starts, feeds and kills these processes.
"""

from __future__ import annotations

import importlib
import os
import pickle
import sqlite3
import sys
import time
from typing import Any, BinaryIO

from ..store.db import Connection, register_functions
from .frames import read_frame, write_frame
from .sqlguard import guard

NICE = 10


def connect(path: str) -> sqlite3.Connection:
    """Read-only and immutable, like Datasette's connection to the knowledge base."""
    conn = sqlite3.connect(
        f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False, factory=Connection
    )
    conn.row_factory = sqlite3.Row
    conn.text_factory = lambda b: str(b, "utf-8", "replace")
    register_functions(conn)
    guard(conn)
    return conn


def _picklable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def serve(path: str, requests: BinaryIO, answers: BinaryIO) -> None:
    from ..api import KnowledgeBase

    conn = connect(path)
    kb = KnowledgeBase.over(conn)
    deadline = [float("inf")]  # in this thread's CPU seconds
    conn.set_progress_handler(lambda: int(time.thread_time() > deadline[0]), 1000)
    # The page modules, imported before saying "ready": the budget counts work, not imports.
    importlib.import_module("kb.web.routes")
    write_frame(answers, ("ready", os.getpid()))
    while (request := read_frame(requests)) is not None:
        module, name, args, kwargs, budget = request
        fn = getattr(importlib.import_module(module), name)
        deadline[0] = time.thread_time() + budget
        try:
            answer: tuple[str, Any] = ("ok", fn(kb, *args, **kwargs))
        except sqlite3.OperationalError as exc:
            interrupted = exc.args == ("interrupted",)
            answer = ("interrupted", None) if interrupted else ("error", _picklable(exc))
        except Exception as exc:
            answer = ("error", _picklable(exc))
        finally:
            deadline[0] = float("inf")
        write_frame(answers, answer)


def main() -> None:
    os.nice(NICE)
    # Frames go to the real stdout; anything printed goes to stderr (the server's log).
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.argv[1], sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
