"""kill -9 during the write of the database: the previous database stays whole, the dead
build's temporary file is removed (and reported) by the next build.

Runs bench/kill9.py, the trial script (30 trials there; 2 here, with the same checks).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system  # builds killed with SIGKILL while they write

REPO = Path(__file__).resolve().parents[1]


def test_builds_killed_while_writing_damage_nothing_and_leave_nothing() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "bench" / "kill9.py"), "--trials", "2", "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
    )
    report = json.loads(out.stdout)
    assert report["killed_while_writing"] >= 1, report  # a kill hit the write phase
    assert report["damaged_databases"] == 0
    assert [r["database_intact"] for r in report["results"]] == [True] * 2
    # Each kill leaves its own file; each next build removes the one before and says so.
    assert report["stale_removed_and_reported"] == report["temp_files_left_by_kills"]
    assert report["temp_files_after_final_build"] == 0 and report["final_build_ok"]
    assert out.returncode == 0
