"""The wheel works without the checkout: built, installed in a fresh venv outside the
repository, it builds the bundled corpus, answers, and serves the site (through `kb serve`
and through plain `datasette`, which finds the plugin by its entry point).

The fresh venv gets the wheel alone; its dependencies come from the test venv's
site-packages through a path file, so the test needs no network and never sees the editable
install of the checkout (a path file line adds a directory, it does not run that directory's
own path files)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.system  # the wheel installed in a fresh venv

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, deadline: float) -> str:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode("utf-8")
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wheel")
    wheels = root / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)],
        check=True,
        cwd=root,
    )
    (wheel,) = list(wheels.glob("*.whl"))
    env = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    py = env / "bin" / "python"
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    site_packages = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    deps = sysconfig.get_paths()["purelib"]
    Path(site_packages, "test-deps.pth").write_text(deps + "\n", encoding="utf-8")
    return env


def _run(env: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(env / "bin" / args[0]), *args[1:]],
        cwd=cwd, env=clean, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_the_installed_wheel_is_not_the_checkout(venv: Path, tmp_path: Path) -> None:
    where = _run(venv, "python", "-c", "import kb, ingest; print(kb.__file__, ingest.__file__)",
                 cwd=tmp_path)  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert str(REPO) not in where.stdout and str(venv) in where.stdout


def test_the_wheel_builds_answers_and_serves(venv: Path, tmp_path: Path) -> None:
    built = _run(venv, "kb", "build", "--db", "kb.sqlite", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "kb.sqlite").stat().st_size > 100_000
    answer = _run(venv, "kb", "ask", "--db", "kb.sqlite", "honest vs honest", cwd=tmp_path)
    assert answer.returncode == 0, answer.stderr
    assert "Honest" in answer.stdout and "ygo-damage-step:" in answer.stdout

    for command in (
        ["kb", "serve", "--db", "kb.sqlite", "--port"],
        ["python", "-m", "datasette", "kb.sqlite", "--port"],
    ):
        port = _free_port()
        clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        server = subprocess.Popen(
            [str(venv / "bin" / command[0]), *command[1:], str(port)],
            cwd=tmp_path, env=clean, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            page = _get(f"http://127.0.0.1:{port}/g/fow", time.monotonic() + 60)
            css = _get(f"http://127.0.0.1:{port}/-/kb-static/site.css", time.monotonic() + 10)
        finally:
            server.terminate()
            server.wait(timeout=20)
        assert "Force of Will" in page, command
        assert "{" in css and "}" in css, command


def test_every_package_of_the_checkout_ships() -> None:
    """A subpackage left out of pyproject's list works in the checkout and breaks the wheel."""
    import tomllib

    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(REPO).parts)
        for top in ("kb", "ingest", "queries")
        for p in (REPO / top).rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)
