"""Dense candidates: the passages whose embedding is closest to the question's.

The question is embedded by the backend that made the stored vectors (the model named in
meta's ``vectors_model``), then compared with every passage's int8 vector by one SIMD call
(simsimd: brute force, about a millisecond for ten thousand passages, and no numpy to import).
A database built without vectors, or a machine where the model cannot run, gives no dense
candidates: retrieval is lexical only, and ``available`` says so.
"""

from __future__ import annotations

import heapq
import sqlite3
import weakref
from typing import Any

from ..embed import Embedder, for_vectors
from ..store.db import first, run
from ..store.vectors import quantize


class Vectors:
    """A database's passage vectors, read once per connection."""

    __slots__ = ("model", "seqs", "games", "scales", "matrix", "dim")

    def __init__(self, model: str, rows: list[dict[str, Any]]) -> None:
        self.model = model
        self.seqs = [r["seq"] for r in rows]
        self.games = [r["game"] for r in rows]
        self.scales = [r["scale"] for r in rows]
        self.dim = len(rows[0]["vector"]) if rows else 0
        self.matrix = b"".join(r["vector"] for r in rows)


_VECTORS: weakref.WeakKeyDictionary[sqlite3.Connection, Vectors | None] = (
    weakref.WeakKeyDictionary()
)
_EMBEDDERS: dict[str, Embedder | None] = {}


def vectors(conn: sqlite3.Connection) -> Vectors | None:
    """The passage vectors of the database, or None when it has none."""
    try:
        return _VECTORS[conn]
    except (KeyError, TypeError):
        pass
    try:
        row = first(conn, "meta_value", key="vectors_model")
        found = Vectors(row["value"], run(conn, "dense_vectors")) if row else None
    except sqlite3.OperationalError:  # a database older than vectors
        found = None
    if found is not None and not found.seqs:
        found = None
    try:
        _VECTORS[conn] = found
    except TypeError:  # a plain connection takes no weak reference: read again next time
        pass
    return found


def embedder(model: str) -> Embedder | None:
    """The backend for vectors of ``model`` in this process (loaded once)."""
    if model not in _EMBEDDERS:
        _EMBEDDERS[model] = for_vectors(model, threads=1)
    return _EMBEDDERS[model]


def available(conn: sqlite3.Connection) -> bool:
    """Dense candidates can be had: the database has vectors and their model runs here."""
    found = vectors(conn)
    return found is not None and embedder(found.model) is not None


def similar(
    conn: sqlite3.Connection, text: str, *, game: str = "", limit: int = 60
) -> list[tuple[int, float]]:
    """(rules.seq, cosine similarity) of the ``limit`` passages closest to ``text``, best
    first, of one game when ``game`` is given; [] without vectors."""
    found = vectors(conn)
    model = embedder(found.model) if found is not None else None
    if found is None or model is None or not text.strip():
        return []
    import simsimd

    scale, query = quantize(model.query(text))
    matrix = memoryview(found.matrix).cast("b", (len(found.seqs), found.dim))
    dots = memoryview(simsimd.cdist(memoryview(query).cast("b"), matrix, metric="dot"))
    scores = dots.tolist()[0]
    rows = range(len(found.seqs))
    if game:
        rows = [i for i in rows if found.games[i] == game]  # type: ignore[assignment]
    best = heapq.nlargest(limit, rows, key=lambda i: scores[i] * found.scales[i])
    return [(found.seqs[i], round(scores[i] * found.scales[i] * scale, 4)) for i in best]
