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
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from ..embed import Embedder, for_vectors, overlaps, quantize
from ..lexicon.marks import restore
from ..store import datafiles
from ..store.db import connect, run


class Vectors:
    """A database's passage vectors (its ``vector_index`` rows joined), read once per
    connection."""

    __slots__ = ("model", "dim", "seqs", "games", "game_of", "langs", "lang_of", "scales", "matrix")

    def __init__(self, parts: list[dict[str, Any]]) -> None:
        self.model, self.dim = parts[0]["model"], parts[0]["dim"]
        self.games = json.loads(parts[0]["games"])
        self.matrix = b"".join(p["matrix"] for p in parts)
        self.game_of = b"".join(p["game_of"] for p in parts)
        self.langs = json.loads(parts[0]["langs"])
        self.lang_of = b"".join(p["lang_of"] for p in parts)
        self.seqs = array.array("i", b"".join(p["seqs"] for p in parts)).tolist()
        self.scales = array.array("f", b"".join(p["scales"] for p in parts)).tolist()


_VECTORS: weakref.WeakKeyDictionary[sqlite3.Connection, Vectors | None] = (
    weakref.WeakKeyDictionary()
)
_EMBEDDERS: dict[str, Embedder | None] = {}
# The question vector a prefetch computed, by (model, text, token cap): taken by the first
# question that matches, so a long-running server holds none.
_QUERIES: dict[tuple[str, str, int], list[float]] = {}
_LATENT_QUERIES: dict[tuple[str, str, int], list[tuple[int, float]]] = {}
_PREFETCHES: list[threading.Thread] = []
_LATENT_PREFETCHES: list[threading.Thread] = []
# Vectors a prefetch read, by database file (``_file_of``), for the first connection to it.
_PREFETCHED: dict[tuple[str, int, int, int] | None, Vectors | None] = {}


def vectors(conn: sqlite3.Connection) -> Vectors | None:
    """The passage vectors of the database, or None when it has none."""
    try:
        return _VECTORS[conn]
    except (KeyError, TypeError):
        pass
    _wait()
    file = _file_of(conn)
    found = _PREFETCHED.pop(file) if file in _PREFETCHED else _read_vectors(conn)
    with contextlib.suppress(TypeError):  # a plain connection takes no weak reference
        _VECTORS[conn] = found
    return found


def _read_vectors(conn: sqlite3.Connection) -> Vectors | None:
    try:
        parts = run(conn, "dense_vectors")
    except sqlite3.OperationalError:  # a database older than vectors
        parts = []
    return Vectors(parts) if parts and parts[0]["dim"] else None


def _file_of(conn: sqlite3.Connection) -> tuple[str, int, int, int] | None:
    """The database file as it is now (a rebuild replaces the file: another inode)."""
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    if not path:
        return None
    st = os.stat(path)
    return path, st.st_ino, st.st_mtime_ns, st.st_size


def _wait() -> None:
    while _PREFETCHES:
        _PREFETCHES.pop().join()


def _wait_latents() -> None:
    _wait()
    while _LATENT_PREFETCHES:
        _LATENT_PREFETCHES.pop().join()


def _prefetch_latents(model: Embedder, text: str, longest: int) -> None:
    with contextlib.suppress(Exception):  # the main thread meets (and reports) it again
        _LATENT_QUERIES[model.name, text, longest] = model.latents(text, longest)


def prefetch(path: Path | str, question: Callable[[sqlite3.Connection], str]) -> None:
    """Read the database's vectors, load their model and embed ``question`` on a second thread.

    Reading the vectors (SQLite), the model file and embedding a question (about 8, 16 and
    20 ms) run in C with the GIL released, so a ``kb ask`` process does them while it
    imports and reads the question instead of after. ``question`` gives the text to embed, as
    the question will be read (kb.ask.prefetch caps it). Whatever goes wrong there is left
    for the main thread, which does the same work itself when the prefetched result is
    missing or was made for another text or file."""
    thread = threading.Thread(target=_prefetch, args=(path, question), daemon=True)
    thread.start()
    _PREFETCHES.append(thread)


def _prefetch(path: Path | str, question: Callable[[sqlite3.Connection], str]) -> None:
    try:
        conn = connect(path)
        try:
            found = _read_vectors(conn)
            _PREFETCHED[_file_of(conn)] = found
            model = embedder(found.model, wait=False) if found else None
            if model is not None:
                text, longest = restore(conn, question(conn)), _longest(conn)
                if model.latent_name is not None:  # on a third thread, beside the vector
                    latents = threading.Thread(
                        target=_prefetch_latents, args=(model, text, longest), daemon=True
                    )
                    latents.start()
                    _LATENT_PREFETCHES.append(latents)
                _QUERIES[model.name, text, longest] = model.query(text, longest)
        finally:
            conn.close()
    except Exception:  # noqa: BLE001 - the main thread meets (and reports) it again
        return


def _longest(conn: sqlite3.Connection) -> int:
    # kb/data/limits.toml; 0 (all tokens) for a database built before the limit
    return int(datafiles.load("limits", conn)["question"].get("max_embedded_tokens", 0))


def _query(model: Embedder, text: str, longest: int) -> list[float]:
    prefetched = _QUERIES.pop((model.name, text, longest), None)
    return prefetched if prefetched is not None else model.query(text, longest)


def _latent_query(model: Embedder, text: str, longest: int) -> list[tuple[int, float]]:
    _wait_latents()
    prefetched = _LATENT_QUERIES.pop((model.name, text, longest), None)
    return prefetched if prefetched is not None else model.latents(text, longest)


def embedder(model: str, *, wait: bool = True) -> Embedder | None:
    """The backend for vectors of ``model`` in this process (loaded once; after any
    prefetch in flight, unless ``wait`` is false)."""
    if wait:
        _wait()
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

    # The embedding model reads a question typed without its marks as another language.
    scale, query = quantize(_query(model, restore(conn, text), _longest(conn)))
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


def latent_similarity(conn: sqlite3.Connection, text: str, seqs: list[int]) -> dict[int, float]:
    """rules.seq -> cosine of ``text``'s latent terms and each passage's, for ``seqs``; {}
    when the database or the backend has no latent terms."""
    found = vectors(conn)
    model = embedder(found.model) if found is not None else None
    if model is None or model.latent_name is None or not seqs or not text.strip():
        return {}
    try:
        rows = run(conn, "dense_latents", seqs=seqs)
    except sqlite3.OperationalError:  # a database older than latent terms
        return {}
    if not rows or rows[0]["model"] != model.latent_name:
        return {}
    asked = _latent_query(model, restore(conn, text), _longest(conn))
    found_seqs = [r["seq"] for r in rows]
    scores = overlaps(asked, [r["vector"] for r in rows])
    return {seq: round(score, 4) for seq, score in zip(found_seqs, scores, strict=True)}


def similar(
    conn: sqlite3.Connection, text: str, *, game: str = "", limit: int = 60
) -> list[tuple[int, float]]:
    """(rules.seq, similarity) of the ``limit`` passages closest to ``text``, best first."""
    scores = similarity(conn, text, game=game)
    return heapq.nlargest(limit, scores.items(), key=lambda item: (item[1], -item[0]))


def nearest_by_language(
    conn: sqlite3.Connection, scores: dict[int, float], lang: str, size: int
) -> tuple[list[int], list[int]]:
    """The ``size`` passages of ``scores`` closest to the question among those written in
    ``lang``, and the ``size`` closest among the others, best first. A multilingual model puts
    a question nearer to almost any passage of its own language than to the deciding rule in
    another, so one list would hold one language only (measured on 2,999 questions: hits
    r@1/3/5 73.3/86.2/90.0 -> 73.5/86.3/90.5 with the two lists)."""
    found = vectors(conn)
    if found is None:
        return [], []
    wanted = found.langs.index(lang) if lang in found.langs else -1
    same: list[int] = []
    other: list[int] = []
    for seq, code in zip(found.seqs, found.lang_of, strict=True):
        if seq in scores:
            (same if code == wanted else other).append(seq)

    def best(seqs: list[int]) -> list[int]:
        return heapq.nsmallest(size, seqs, key=lambda seq: (-scores[seq], seq))

    return best(same), best(other)
