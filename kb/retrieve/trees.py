"""Re-ranking: the linear ranker's best candidates ordered again by gradient-boosted trees
(LambdaMART), which carry to a game the training never saw better than a weighted sum
(bench/train_ranker.py --logo --trees measures both).

The trees are kb/data/ask_trees.toml, written by ``bench/train_ranker.py --write-trees``; they
read the features of kb.retrieve.features, each candidate list's reciprocal rank and the linear
score. Evaluated here in pure Python (a few hundred shallow trees over a few dozen candidates),
so no model library joins a judge's process. Without the file's trees, the linear order stands.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

from typing import Any

from ingest.text import fold

from ..store import datafiles
from .fuse import RRF_K
from .query import Understanding


def model() -> dict[str, Any]:
    """kb/data/ask_trees.toml: ``features`` (names, in the order the nodes index them), ``top``
    (how many of the linear ranker's best are re-ordered), ``trees``, and ``base`` (the trees
    were boosted from the linear score times ``base``: a passage's score is that plus theirs)."""
    return dict(datafiles.load("ask_trees"))


def accentless(u: Understanding) -> float:
    """1 for Vietnamese typed without its marks: the trees were trained when the embedder
    read it as noise (dense retrieval alone put the deciding passage first for 0 to 10% of
    such questions), so they weigh the dense features by it. Its marks are now restored
    before the question is read (kb.ask.understand, kb.lexicon.marks), so the flag stays 1
    only where no word got its marks back. (Restored for the embedding alone, with the flag
    left at 0, it was measured and not kept: vi without marks r@1 66.8 -> 66.4; restored for
    the whole reading since the everyday text, 65.4 -> 65.6, top 3 80.8 -> 81.9.)"""
    return float(u.lang == "vi" and fold(u.text) == u.text.lower())


def list_ranks(lists: list[tuple[str, list[int]]]) -> dict[int, dict[str, float]]:
    """Each passage's reciprocal rank in each kind of candidate list (summed when a kind has
    several lists), as the trainer computed it: first place is 1."""
    out: dict[int, dict[str, float]] = {}
    for kind, seqs in lists:
        for k, seq in enumerate(seqs):
            ranks = out.setdefault(seq, {})
            ranks[f"rr_{kind}"] = ranks.get(f"rr_{kind}", 0.0) + RRF_K / (RRF_K + k)
    return out


def score(trees: list[dict[str, Any]], x: list[float]) -> float:
    """The sum of the trees' leaves ``x`` falls into. A node is [feature, threshold, left,
    right]; a child below 0 is the leaf ``~child``; a tree without nodes is one leaf."""
    total = 0.0
    for tree in trees:
        nodes, leaves = tree["nodes"], tree["leaves"]
        i = 0 if nodes else -1
        while i >= 0:
            feature, threshold, left, right = nodes[i]
            i = left if x[int(feature)] <= threshold else right
        total += leaves[~i]
    return total


def rerank(
    ranked: list[dict[str, Any]],
    lists: list[tuple[str, list[int]]],
    m: dict[str, Any] | None = None,
    question: dict[str, float] | None = None,
) -> list[dict[str, Any]]:
    """``ranked`` (the linear order) with its first ``top`` passages ordered by the trees of
    ``m`` (kb/data/ask_trees.toml by default; ties keep the linear order); each re-ordered row
    gets its ``tree_score``. ``question``: what the trees read of the question itself, the
    same for every candidate (they weigh the other features by it)."""
    m = m if m is not None else model()
    trees, top = m.get("trees", []), int(m.get("top", 0))
    if not trees or not top:
        return ranked
    names = m["features"]
    rr = list_ranks(lists)
    head = ranked[:top]
    for row in head:
        values = {
            **row["features"],
            **rr.get(row["seq"], {}),
            "linear": row["score"],
            **(question or {}),
        }
        boosted = score(trees, [values.get(n, 0.0) for n in names])
        row["tree_score"] = round(boosted + float(m.get("base", 0.0)) * row["score"], 4)
    order = sorted(range(len(head)), key=lambda i: (-head[i]["tree_score"], i))
    return [head[i] for i in order] + ranked[top:]
