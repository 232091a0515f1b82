"""The README stays true: its Quick start is what CI runs, every command is shown, its examples
are what the commands print, and it stays a user's document; docs/reference.md holds every
command's current help and every key ``kb ask --json`` prints."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from kb.cli.commands import cli

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
REFERENCE = (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
# A user's document: what it is, the two commands, a tour, configuration, deployment.
README_MAX_LINES = 250


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


def test_readme_is_a_user_document_of_at_most_250_lines() -> None:
    assert len(README.splitlines()) <= README_MAX_LINES
    for heading in ("## Quick start", "## A tour", "## Configuration", "## Deployment"):
        assert f"\n{heading}\n" in README, heading
    assert "## Measured" not in README  # the measurements live in docs/benchmarks.md


def test_links_of_the_readme_and_the_docs_resolve() -> None:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).exists(), (page.name, target)


def test_command_reference_is_current() -> None:
    """Every command's --help, as docs/reference.md shows it (scripts/readme_reference.py)."""
    from kb.cli.reference import with_reference

    assert with_reference(REFERENCE) == REFERENCE, "run scripts/readme_reference.py"


def _examples() -> list[tuple[list[str], list[str]]]:
    """The README's ``$ kb ...`` examples: the arguments, and the lines shown of the output
    (``...`` stands for lines left out)."""
    out = []
    for block in re.findall(r"```\n(\$ kb .+?)```", README, flags=re.S):
        for example in re.split(r"\n\n(?=\$ kb )", block.strip("\n")):
            command, *shown = example.split("\n")
            args = shlex.split(command.removeprefix("$ kb ").split("  #", 1)[0])
            out.append((args, [line for line in shown if line and line != "..."]))
    return out


EXAMPLES = _examples()


@pytest.mark.parametrize(("args", "shown"), EXAMPLES, ids=[" ".join(a) for a, _ in EXAMPLES])
def test_readme_examples_are_what_the_commands_print(
    built_db: Path, args: list[str], shown: list[str]
) -> None:
    """Each line an example shows is a line of the real output, in the same order."""
    from run_kb import run_kb

    if args[0] == "build":
        pytest.skip("kb build writes a database: its example is not run here")
    out = run_kb(*args, db=built_db).stdout.splitlines()
    at = 0
    for line in shown:
        assert line in out[at:], (line, out[:40])
        at = out.index(line, at) + 1


def test_readme_examples_cover_the_tour() -> None:
    assert len(EXAMPLES) >= 8
    shown = {a[0] for a, _ in EXAMPLES}
    assert {"ask", "search", "show", "terms", "diff"} <= shown


# Questions whose answers between them hold every key `kb ask --json` can print.
JSON_QUESTIONS = [
    "honest vs honest",
    "can Shrink be activated during damage calculation",
    "闪电 限制",
    "tinh toan thiet hai",
    "max hand size in FoW",
    "FoW: can a resonator with [Precision] attack a recovered J/resonator",
    "can digimon be activated during damage calculation",
    "pokemon retreat cost",
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
    """docs/reference.md's `kb ask --json` table names every key the output holds, and no
    other."""
    import json

    from run_kb import run_kb

    section = REFERENCE.split("<!-- reference:ask-json -->", 1)[1].split("<!-- /reference", 1)[0]
    documented = set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.M))
    printed: set[str] = set()
    for question in JSON_QUESTIONS:
        out = run_kb("ask", question, "--json", db=built_db)
        printed |= _key_paths(json.loads(out.stdout))
    assert printed - documented == set(), "keys kb ask prints that the README does not name"
    assert documented - printed == set(), "keys the README names that kb ask never prints"
