"""The layering a newcomer relies on (ARCHITECTURE.md): ingest imports nothing from kb, no
import circles, the ask engine in small pieces, and ``kb ask`` free of heavy imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from import_graph import REPO, cycles, imports, modules

MODULES = modules()
GRAPH = imports(MODULES)


def test_ingest_imports_nothing_from_kb() -> None:
    upward = sorted(
        f"{a} -> {b}"
        for a, bs in GRAPH.items()
        for b in bs
        if a.startswith("ingest") and b.startswith("kb")
    )
    assert not upward, upward


def test_no_import_circles() -> None:
    assert cycles(GRAPH) == []


def test_ask_engine_modules_and_functions_stay_small() -> None:
    """No module over 400 lines and no function over 60 lines in kb/ask."""
    too_long = []
    for name, path in MODULES.items():
        if not name.startswith("kb.ask"):
            continue
        source = path.read_text(encoding="utf-8")
        if source.count("\n") > 400:
            too_long.append(f"{name}: {source.count(chr(10))} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 60:
                    too_long.append(f"{name}.{node.name}: {length} lines")
    assert not too_long, too_long


def test_kb_ask_imports_no_heavy_module(built_db: Path) -> None:
    """A judge's ``kb ask`` loads neither click, Datasette, sqlite-utils nor the ingestion's
    segmenters: they cost more than answering."""
    script = (
        "import sys\n"
        f"sys.argv = ['kb', 'ask', 'honest vs honest', '--db', {str(built_db)!r}]\n"
        "from kb.cli.fast import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('click', 'datasette', 'sqlite_utils', 'wordsegment', 'yaml', 'markdown_it',"
        " 'lxml', 'translate', 'docutils')\n"
        "print('LOADED', sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert "Honest vs Honest" in out.stdout, out.stderr
    assert "LOADED []" in out.stdout, out.stdout[-300:]
