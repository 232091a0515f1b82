"""Ranking: every fused candidate scored by the features of kb.retrieve.features, weighed by
the learned weights of kb/data/ask_weights.toml [weights] (bench/train_ranker.py writes them).

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..store import datafiles
from ..store.db import column, run
from .features import FEATURES, Ranking
from .groups import Group
from .query import Understanding, typed_spans


def weights() -> dict[str, float]:
    """kb/data/ask_weights.toml [weights], one per feature, in the order of FEATURES; a
    feature the file does not weigh yet (a new one, before training) weighs 0."""
    written = datafiles.load("ask_weights")["weights"]
    return {name: written.get(name, 0.0) for name in FEATURES}


def neighbours(conn: sqlite3.Connection, nodes: set[str]) -> set[str]:
    """Parents and children of the named timing nodes."""
    out: set[str] = set()
    for node in sorted(nodes):
        out.update(column(conn, "ask_timing_neighbours", node=node))
    return out - nodes


def rank(
    conn: sqlite3.Connection,
    u: Understanding,
    fused: dict[int, float],
    *,
    groups: list[Group],
    lang: str = "",
    dense: dict[int, float] | None = None,
    latent: dict[int, float] | None = None,
) -> list[dict[str, Any]]:
    """The fused candidate passages, best first, each with its ``features`` and ``score``
    (the learned weights of kb/data/ask_weights.toml [weights]). ``dense``: each passage's
    similarity to the question, when the database has vectors; ``latent`` each candidate's
    latent terms' similarity to the question's, when it has those."""
    if not fused:
        return []
    ranking = Ranking(
        u=u,
        groups=groups,
        typed=typed_spans(u),
        fused=fused,
        near=neighbours(conn, {t["node"] for t in u.timing} | set(u.qualified_from)),
        lang=lang or u.lang,
        dense=dense or {},
        latent=latent or {},
    )
    w = weights()
    rows = run(conn, "passages", seqs=sorted(fused))
    for row in rows:
        features = {name: fn(row, ranking) for name, fn in FEATURES.items()}
        row["features"] = {k: round(v, 3) for k, v in features.items()}
        row["score"] = round(sum(w[k] * v for k, v in features.items()), 4)
    rows.sort(key=lambda r: (-r["score"], r["seq"]))
    return rows
