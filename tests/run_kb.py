"""Run the real ``kb`` command line in a subprocess, as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_kb(
    *args: str, db: Path | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m kb ARGS [--db DB]``, output captured as text."""
    db_args = ["--db", str(db)] if db is not None else []
    return subprocess.run(
        [sys.executable, "-m", "kb", *args, *db_args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )
