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
