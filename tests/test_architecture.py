"""The layering a newcomer relies on (ARCHITECTURE.md): ingest imports nothing from kb, no
import circles, the ask engine in small pieces, and ``kb ask`` free of heavy imports."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from import_graph import REPO, cycles, imports, modules

MODULES = modules()
GRAPH = imports(MODULES)


def _module_of(path: str) -> str:
    """``kb/store/`` -> ``kb.store``; ``kb/types.py`` -> ``kb.types``; ``kb/__init__.py`` ->
    ``kb``."""
    return path.strip("/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _layers() -> list[tuple[list[str], list[str], list[str]]]:
    """ARCHITECTURE.md's layer table: (the layer's paths, may import, never imports), each as
    module prefixes."""
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    table = text.split("## The layers and what may import what", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = line.split(" | ")
        if len(cells) != 3 or not cells[0].startswith("| `"):
            continue
        # Paths in parentheses are explanations, not entries.
        cells = [re.sub(r"\([^)]*\)", "", c) for c in cells]
        paths = [[_module_of(p) for p in re.findall(r"`([\w/.]+(?:/|\.py))`", c)] for c in cells]
        rows.append((paths[0], paths[1], paths[2]))
    return rows


def _owner(module: str, prefixes: list[str]) -> str | None:
    """The longest of ``prefixes`` that ``module`` is (or is inside), if any."""
    found = [p for p in prefixes if module == p or module.startswith(p + ".")]
    return max(found, key=len) if found else None


def test_every_import_is_one_the_architecture_table_allows() -> None:
    layers = _layers()
    assert len(layers) >= 10, "ARCHITECTURE.md's layer table was not found"
    by_path = {path: (allowed, never) for paths, allowed, never in layers for path in paths}
    broken = []
    for module, targets in GRAPH.items():
        layer = _owner(module, list(by_path))
        assert layer is not None, f"{module} is in no layer of ARCHITECTURE.md's table"
        allowed, never = by_path[layer]
        for target in sorted(targets):
            if _owner(target, list(by_path)) == layer:
                continue
            if _owner(target, never) or not _owner(target, allowed):
                broken.append(f"{module} -> {target} (layer {layer})")
    assert not broken, broken


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
    """A judge's ``kb ask`` loads neither click, Datasette, sqlite-utils, the ingestion's
    segmenters and parsers nor its record classes (dataclasses cost tens of milliseconds to
    create): they cost more than answering. Questions of every kind, each in its own process."""
    heavy = (
        "click", "datasette", "sqlite_utils", "wordsegment", "yaml", "markdown_it", "lxml",
        "translate", "docutils", "dataclasses", "ingest.records", "ingest.pipeline",
    )  # fmt: skip
    for question in (
        "honest vs honest",
        "FoW 8.01 main deck size",
        "can Shrink be activated during damage calculation",
        "FoW: both players lose at the same time, what happens",
    ):
        script = (
            "import sys\n"
            f"sys.argv = ['kb', 'ask', {question!r}, '--db', {str(built_db)!r}]\n"
            "from kb.cli.fast import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print('LOADED', sorted(m for m in {heavy!r} if m in sys.modules))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120
        )
        assert "Sources:" in out.stdout or "Not covered" in out.stdout, out.stderr[-500:]
        assert "LOADED []" in out.stdout, (question, out.stdout[-300:])


# Where SQL may be written outside queries/: the schema and the store (they write the file),
# the row helper, and the served connections' guard (pragmas, not queries).
SQL_ALLOWED = {"kb/web/sqlguard.py"}
SQL_STATEMENT = re.compile(
    r"^\s*(select\b.+\bfrom\b|insert\s+into\b|update\b.+\bset\b|delete\s+from\b|with\s+(recursive\s+)?\w+(\s*\([^)]*\))?\s+as\s*\()",
    re.I | re.S,
)


def test_sql_lives_in_queries() -> None:
    """Every query is a named file of queries/ (run by kb.store.db), so the CLI, kb ask and
    Datasette share it and none is built from values."""
    import ast

    found = []
    for path in sorted([*(REPO / "kb").rglob("*.py"), *(REPO / "ingest").rglob("*.py")]):
        rel = path.relative_to(REPO).as_posix()
        if rel in SQL_ALLOWED or rel.startswith("kb/store/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and SQL_STATEMENT.match(node.value)
            ):
                found.append(f"{rel}:{node.lineno}: {node.value[:60]!r}")
    assert not found, found
