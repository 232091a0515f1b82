"""Dense candidates: the passages whose embedding is closest to the question's.

The question is embedded by the backend that made the stored vectors (the model named in
meta's ``vectors_model``), then compared with every passage's int8 vector by one SIMD call
(simsimd: brute force, about a millisecond for ten thousand passages, and no numpy to import).
A database built without vectors, or a machine where the model cannot run, gives no dense
candidates: retrieval is lexical only, and ``available`` says so.
"""

from __future__ import annotations

import array
import contextlib
import heapq
import json
import sqlite3
import weakref
from typing import Any, cast

from ..embed import Embedder, for_vectors, quantize
from ..store import datafiles
from ..store.db import run


class Vectors:
    """A database's passage vectors (its ``vector_index`` rows joined), read once per
    connection."""

    __slots__ = ("model", "dim", "seqs", "games", "game_of", "scales", "matrix")

    def __init__(self, parts: list[dict[str, Any]]) -> None:
        self.model, self.dim = parts[0]["model"], parts[0]["dim"]
        self.games = json.loads(parts[0]["games"])
        self.matrix = b"".join(p["matrix"] for p in parts)
        self.game_of = b"".join(p["game_of"] for p in parts)
        self.seqs = array.array("i", b"".join(p["seqs"] for p in parts)).tolist()
        self.scales = array.array("f", b"".join(p["scales"] for p in parts)).tolist()


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
        parts = run(conn, "dense_vectors")
    except sqlite3.OperationalError:  # a database older than vectors
        parts = []
    found = Vectors(parts) if parts and parts[0]["dim"] else None
    with contextlib.suppress(TypeError):  # a plain connection takes no weak reference
        _VECTORS[conn] = found
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


def similarity(conn: sqlite3.Connection, text: str, *, game: str = "") -> dict[int, float]:
    """rules.seq -> cosine similarity to ``text`` of every passage (of one game when ``game``
    is given); {} without vectors."""
    found = vectors(conn)
    model = embedder(found.model) if found is not None else None
    if found is None or model is None or not text.strip():
        return {}
    import simsimd

    # kb/data/limits.toml; 0 (all tokens) for a database built before the limit
    longest = datafiles.load("limits", conn)["question"].get("max_embedded_tokens", 0)
    scale, query = quantize(model.query(text, longest))
    matrix = memoryview(found.matrix).cast("b", (len(found.seqs), found.dim))
    dots: Any = simsimd.cdist(memoryview(query).cast("b"), matrix, metric="dot")
    scores: list[float] = cast(list[list[float]], memoryview(dots).tolist())[0]
    if game and game not in found.games:
        return {}
    wanted = found.games.index(game) if game else -1
    return {
        seq: round(score * weight * scale, 4)
        for seq, g, score, weight in zip(
            found.seqs, found.game_of, scores, found.scales, strict=True
        )
        if wanted < 0 or g == wanted
    }


def similar(
    conn: sqlite3.Connection, text: str, *, game: str = "", limit: int = 60
) -> list[tuple[int, float]]:
    """(rules.seq, similarity) of the ``limit`` passages closest to ``text``, best first."""
    scores = similarity(conn, text, game=game)
    return heapq.nlargest(limit, scores.items(), key=lambda item: (item[1], -item[0]))
