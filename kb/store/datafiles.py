"""Curated TOML data files, read fast on the ``kb ask`` path.

Importing tomllib and parsing a data file costs several milliseconds, a noticeable share of a
``kb ask`` process. ``kb build`` stores each data file the ask path reads in the database's
``meta`` table as its text plus the parsed data in JSON; at query time the file is read (cheap)
and, when its text is the stored text, the stored JSON is used. An edited data file is parsed
again, so editing one never needs a rebuild to take effect.

On the ``kb ask`` path: standard library only.
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

from ingest.text import fold

from .db import execute, first

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Data files on the ask path, by name: path relative to the repository (package) root.
ASK_FILES = {
    "query": os.path.join("kb", "data", "query.toml"),
    "rulings": os.path.join("ingest", "data", "rulings.toml"),
    "labels": os.path.join("kb", "data", "labels.toml"),
    "languages": os.path.join("ingest", "data", "languages.toml"),
    "matching": os.path.join("kb", "data", "matching.toml"),
    "ask_weights": os.path.join("kb", "data", "ask_weights.toml"),
    "ask_trees": os.path.join("kb", "data", "ask_trees.toml"),
    "statements": os.path.join("ingest", "data", "statements.toml"),
    "limits": os.path.join("kb", "data", "limits.toml"),
    "verdict_thresholds": os.path.join("kb", "data", "verdict_thresholds.toml"),
    "coverage": os.path.join("kb", "data", "coverage.toml"),
}
_loaded: dict[str, Any] = {}


def located(relative: str) -> str:
    """The absolute path of a data file, from its path relative to the repository (package)
    root."""
    return os.path.join(_ROOT, relative)


def _meta_key(name: str) -> str:
    return f"data:{name}"


def load(name: str, conn: sqlite3.Connection | None = None) -> Any:
    """The parsed data file ``name`` (a key of ASK_FILES); stored JSON when it is current."""
    if name in _loaded:
        return _loaded[name]
    with open(os.path.join(_ROOT, ASK_FILES[name]), encoding="utf-8") as f:
        text = f.read()
    data = None
    if conn is not None:
        try:
            stored = first(conn, "meta_value", key=_meta_key(name))
        except sqlite3.Error:
            stored = None
        if stored is not None:
            cached = json.loads(stored["value"])
            if cached.get("source") == text:
                data = cached["data"]
    if data is None:
        import tomllib

        data = tomllib.loads(text)
    _loaded[name] = data
    return data


def store(conn: sqlite3.Connection) -> None:
    """Store every ask-path data file in ``meta`` (called by ``kb build``)."""
    import tomllib

    for name, path in ASK_FILES.items():
        with open(os.path.join(_ROOT, path), encoding="utf-8") as f:
            text = f.read()
        value = json.dumps({"source": text, "data": tomllib.loads(text)}, ensure_ascii=False)
        execute(conn, "meta_store", key=_meta_key(name), value=value)


def stopwords() -> frozenset[str]:
    """The function words of kb/data/query.toml, folded as the index folds text (what the
    build's learned lists and dictionaries leave out, and a question's search too:
    kb.lexicon.words.stopwords)."""
    return frozenset(fold(w) for ws in load("query")["stopwords"].values() for w in ws)
