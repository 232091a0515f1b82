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


def test_readme_command_reference_is_current() -> None:
    """Every command's --help, as the README shows it (scripts/readme_reference.py)."""
    from kb.cli.reference import with_reference

    assert with_reference(README) == README, "run scripts/readme_reference.py"


# Questions whose answers between them hold every key `kb ask --json` can print.
JSON_QUESTIONS = [
    "honest vs honest",
    "can Shrink be activated during damage calculation",
    "闪电 限制",
    "tinh toan thiet hai",
    "max hand size in FoW",
    "FoW: can a resonator with [Precision] attack a recovered J/resonator",
    "can digimon be activated during damage calculation",
]


def _key_paths(obj: dict[str, object]) -> set[str]:
    """Top-level keys, the keys of objects under them, and of the items of lists of objects."""
    out = set()
    for key, value in obj.items():
        out.add(key)
        if isinstance(value, dict):
            out |= {f"{key}.{k}" for k in value}
        elif isinstance(value, list):
            out |= {f"{key}[].{k}" for item in value if isinstance(item, dict) for k in item}
    return out


def test_readme_json_keys_are_the_keys_kb_ask_prints(built_db: Path) -> None:
    """The README's `kb ask --json` table names every key the output holds, and no other."""
    import json

    from run_kb import run_kb

    section = README.split("<!-- reference:ask-json -->", 1)[1].split("<!-- /reference", 1)[0]
    documented = set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.M))
    printed: set[str] = set()
    for question in JSON_QUESTIONS:
        out = run_kb("ask", question, "--json", db=built_db)
        printed |= _key_paths(json.loads(out.stdout))
    assert printed - documented == set(), "keys kb ask prints that the README does not name"
    assert documented - printed == set(), "keys the README names that kb ask never prints"
