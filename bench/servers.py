"""A real ``kb serve`` in a child process, for the tests and the benches (not shipped).

``running_site`` starts one on a free loopback port and stops it on exit; ``wait_for`` waits
until a URL answers. bench/cluster.py builds replicas on them.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from kb.web.serve import ServeError


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on right now (for tests and the load check)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen[Any], log: IO[str], timeout: float) -> None:
    """Until ``url`` answers; ServeError with the end of the server's log when the server
    exits or ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            raise ServeError(f"{url} did not start: {log.read()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)


@contextmanager
def running_site(
    db_path: Path | str, *, timeout: float = 30.0, public: bool = False, port: int | None = None
) -> Iterator[str]:
    """Run ``kb serve`` (``--public`` if asked) in a child process on ``port`` (a free
    loopback port unless given); yield its base URL.

    A real server for the browser tests and the load check, stopped on exit. Its log goes to a
    temporary file (a pipe nobody reads would fill up and block the server), shown in the
    error when it fails to start.
    """
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "kb", "serve", "--db", str(db_path), "--port", str(port)]
    command += ["--public"] if public else []
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for(base + "/-/versions.json", proc, log, timeout)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
