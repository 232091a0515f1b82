"""The README stays true: its Quick start is what CI runs, and every command is documented."""

from __future__ import annotations

import re
from pathlib import Path

from kb.cli.commands import cli

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def quick_start_commands() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_quick_start_has_exactly_two_commands_and_ci_runs_the_test_one() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in c and c.startswith("python3.11 -m venv .venv") for c in commands)
    main, tests = commands
    assert "kb build" in main and "pytest" not in main
    assert "pytest" in tests and "scripts/install-browser.sh" in tests
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines(), ".ci/run must run the README's test command verbatim"


def test_every_cli_command_is_documented_in_the_readme() -> None:
    missing = [name for name in cli.commands if f"kb {name}" not in README]
    assert not missing, f"README does not show: {missing}"


def test_readme_links_resolve() -> None:
    for target in re.findall(r"\]\(([^)#:]+)\)", README):
        assert (REPO / target).exists(), target
