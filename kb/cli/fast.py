"""The ``kb`` executable: ``kb ask`` without importing click, everything else through kb.cli.

A judge runs ``kb ask`` at the table, and importing click and the command modules is about a
fifth of that process. A plain ``kb ask [--db F] [--game G] [--lang L] [--limit N] [--json]
QUESTION`` is therefore parsed here and answered directly; anything else (help, a bad option,
a bad value, an unknown game, a missing database, any other command) goes to the click CLI,
which defines the commands, their help and their error messages. Both call KnowledgeBase.ask
and kb.cli.render.ask_output, so they print the same thing.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from ..ask.limits import MAX_ASK_LIMIT

_VALUE_OPTIONS = {"--db": "db", "--game": "game", "--lang": "lang", "--limit": "limit"}
# Options whose value is a file or folder: any bytes are a valid Linux file name there.
_PATH_OPTIONS = ("--db", "--corpus", "--out")


def undecodable_argument(argv: list[str]) -> str | None:
    """The one-line error for the first argument that is not valid UTF-8, or None.

    Python hands undecodable bytes of an argument over as lone surrogates; text arguments
    (questions, ids, languages) must be text, while file names may be any bytes."""
    after_path_option = False
    for position, arg in enumerate(argv, start=1):
        is_path = after_path_option or arg.startswith(tuple(f"{o}=" for o in _PATH_OPTIONS))
        after_path_option = arg in _PATH_OPTIONS
        if is_path:
            continue
        bad = next((i for i, ch in enumerate(arg) if "\udc80" <= ch <= "\udcff"), None)
        if bad is not None:
            byte = ord(arg[bad]) - 0xDC00
            return (
                f"Error: argument {position} is not valid UTF-8 "
                f"(byte 0x{byte:02x} at character {bad + 1}); type the text in UTF-8"
            )
    return None


def utf8_output() -> None:
    """stdout and stderr in UTF-8 whatever the locale says: JSON output is always valid UTF-8
    (an undecodable file name is printed with backslash escapes, never as raw bytes)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="backslashreplace")


def parse_ask(argv: list[str]) -> dict[str, Any] | None:
    """The options of a plain ``kb ask`` command line, or None when click must handle it."""
    if not argv or argv[0] != "ask":
        return None
    from ..store.db import ENV_GAME

    game = os.environ.get(ENV_GAME, "")
    opts: dict[str, Any] = {"db": None, "game": game, "lang": "", "limit": 5, "json": False}
    question: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            question += args[i + 1 :]
            break
        name, eq, value = arg.partition("=")
        if name in _VALUE_OPTIONS:
            if not eq:
                if i + 1 >= len(args):
                    return None
                i += 1
                value = args[i]
            opts[_VALUE_OPTIONS[name]] = value
        elif arg == "--json":
            opts["json"] = True
        elif arg.startswith("-") and arg != "-":
            return None  # --help, -h, typos: click explains
        else:
            question.append(arg)
        i += 1
    if len(question) != 1:
        return None
    try:
        opts["limit"] = int(opts["limit"])
    except ValueError:
        return None
    if not 1 <= opts["limit"] <= MAX_ASK_LIMIT:
        return None
    opts["question"] = question[0]
    return opts


def _ask(opts: dict[str, Any]) -> int | None:
    """Answer; None when a problem needs click's error message."""
    from ..api import KbError, KnowledgeBase
    from ..lookups.rules import check_text
    from .render import ask_output

    try:
        check_text(opts["question"], "QUESTION")
        with KnowledgeBase.open(opts["db"]) as kb:
            kb.check_language(opts["lang"])
            result = kb.ask(
                opts["question"], game=opts["game"], lang=opts["lang"], limit=opts["limit"]
            )
    except KbError:
        return None
    try:
        print(ask_output(result, opts["json"]), flush=True)
    except BrokenPipeError:
        # The reader went away (kb ask ... | head): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0 if result["confident"] else 1


def main() -> None:
    utf8_output()
    problem = undecodable_argument(sys.argv[1:])
    if problem:
        print(problem, file=sys.stderr)
        sys.exit(2)
    opts = parse_ask(sys.argv[1:])
    if opts is not None:
        from ..ask.prefetch import prefetch
        from ..store.db import default_db_path

        # The vectors and the model are read, and the question embedded, on a second thread
        # while this one imports the engine.
        prefetch(opts["db"] or default_db_path(), opts["question"])
    status = _ask(opts) if opts is not None else None
    if status is not None:
        sys.exit(status)
    from .commands import main as cli_main

    cli_main()
