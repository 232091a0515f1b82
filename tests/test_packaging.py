"""The wheel holds every package of the tree: a subpackage missing from pyproject.toml's
list installs a ``kb`` that fails on its first import (the container of docs/deploy.md
installs the wheel, not the checkout)."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_every_package_of_the_tree_is_in_the_wheel() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    tree = {
        ".".join(init.parent.relative_to(REPO).parts)
        for top in ("ingest", "kb", "queries")
        for init in (REPO / top).rglob("__init__.py")
    }
    assert tree - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    data = config["tool"]["setuptools"]["package-data"]
    assert "data/*.toml" in data["kb"]  # kb/data/limits.toml among them


def test_every_data_file_of_kb_is_in_the_wheel() -> None:
    """A data file no package-data pattern names is left out of the wheel: the installed kb
    would build without it (kb/data/everyday/vi.txt: Vietnamese questions lose their marks)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["kb"]
    files = {p for p in (REPO / "kb" / "data").rglob("*") if p.is_file()}
    shipped = {p for pattern in patterns for p in (REPO / "kb").glob(pattern)}
    assert files and sorted(str(p.relative_to(REPO)) for p in files - shipped) == []
