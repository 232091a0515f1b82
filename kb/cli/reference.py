"""The command reference of docs/reference.md, generated from the commands themselves: every
command's ``--help`` as click prints it. ``scripts/readme_reference.py`` writes it there and
tests/test_docs.py checks that it is current."""

from __future__ import annotations

import re

import click

from .commands import cli

START, END = "<!-- reference:cli -->", "<!-- /reference:cli -->"
_WIDTH = 100


def _help(command: click.Command, name: str) -> str:
    # The group's context settings (-h as well as --help), as `kb <command> --help` has them:
    # click keeps a command's help option once made, so a reference built without them and a
    # real invocation earlier in the same process would disagree.
    settings = {**cli.context_settings, "terminal_width": _WIDTH, "max_content_width": _WIDTH}
    parent = click.Context(cli, info_name="kb", **settings)
    ctx = click.Context(command, info_name=name, parent=parent, **settings)
    return command.get_help(ctx).rstrip()


def cli_reference() -> str:
    """Markdown: one folded block per command, its help as ``kb <command> --help`` prints."""
    blocks = []
    for name in sorted(cli.commands):
        command = cli.commands[name]
        short = command.get_short_help_str(limit=90)
        blocks.append(
            f"<details><summary><code>kb {name}</code>: {short}</summary>\n\n"
            f"```\n{_help(command, name)}\n```\n\n</details>"
        )
    return "\n".join([START, *blocks, END])


def with_reference(text: str) -> str:
    """A document (docs/reference.md) with its command reference replaced by the current one."""
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise ValueError(f"no {START} ... {END} block")
    return pattern.sub(lambda _m: cli_reference(), text)
