"""Where the package's bundled data lives: the site configuration and the corpus.

In a checkout they are the top-level folders ``site/`` and ``corpus/``. A wheel ships them as
the package data of ``kb._site`` and ``kb._corpus`` (pyproject.toml maps the two folders
there), so an installed ``kb`` finds them without a checkout.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]


def _bundled(package: str, folder: str) -> Path:
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return _CHECKOUT / folder


def site_dir() -> Path:
    """The Datasette configuration: metadata.yaml and settings.json."""
    return _bundled("kb._site", "site")


def bundled_corpus() -> Path:
    """The corpus that ships with the package: ``kb build``'s default."""
    return _bundled("kb._corpus", "corpus")
