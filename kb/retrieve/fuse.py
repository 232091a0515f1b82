"""Fusion: the candidate lists (lexical, structure, dense) into one score per passage, by
reciprocal rank: a passage at rank k of a list of kind K scores ``fusion[K] / (RRF_K + k)``,
the weights of kb/data/ask_weights.toml [fusion] (written by bench/train_ranker.py).
"""

from __future__ import annotations

from ..store import datafiles

# The reciprocal-rank constant.
RRF_K = 20


def fusion_weights() -> dict[str, float]:
    return dict(datafiles.load("ask_weights").get("fusion", {}))


def fuse(lists: list[tuple[str, list[int]]]) -> dict[int, float]:
    """Passage (rules.seq) -> fused score; a list whose kind weighs 0 adds nothing, but its
    passages are still candidates (scored 0), so the ranker sees them."""
    weights = fusion_weights()
    fused: dict[int, float] = {}
    for kind, seqs in lists:
        weight = weights.get(kind, 0.0)
        for k, seq in enumerate(seqs):
            fused[seq] = fused.get(seq, 0.0) + weight / (RRF_K + k)
    return fused
