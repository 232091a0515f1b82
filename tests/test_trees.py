"""The trees that re-order the linear ranker's head (kb.retrieve.trees): walked as LightGBM
walks them, reading only features the ranker computes, and only the head moves."""

from __future__ import annotations

from typing import Any

from kb.retrieve import trees
from kb.retrieve.features import FEATURES
from kb.retrieve.fuse import fusion_weights

# One split on feature 0 (value <= 0.5 goes left) with two leaves; one tree that is a leaf.
SPLIT = {"nodes": [[0, 0.5, -1, -2]], "leaves": [-1.0, 2.0]}
LEAF = {"nodes": [], "leaves": [0.25]}


def test_a_value_at_the_threshold_goes_left_and_leaves_add_up() -> None:
    assert trees.score([SPLIT, LEAF], [0.5]) == -0.75
    assert trees.score([SPLIT, LEAF], [0.6]) == 2.25


def test_a_deeper_tree_follows_both_branches() -> None:
    # feature 1 <= 0 -> (feature 0 <= 0.3 -> leaf 0 else leaf 1) else leaf 2
    tree = {"nodes": [[1, 0.0, 1, -3], [0, 0.3, -1, -2]], "leaves": [1.0, 2.0, 3.0]}
    assert [trees.score([tree], x) for x in ([0.1, 0.0], [0.9, 0.0], [0.1, 1.0])] == [1, 2, 3]


def test_every_feature_the_written_trees_read_is_one_the_ranker_computes() -> None:
    """A feature renamed or dropped without retraining would read 0 for every passage."""
    known = set(FEATURES) | {f"rr_{kind}" for kind in fusion_weights()} | {"linear", "accentless"}
    model = trees.model()
    assert set(model["features"]) <= known
    width = len(model["features"])
    for tree in model["trees"]:
        assert all(0 <= node[0] < width for node in tree["nodes"])


def test_only_the_head_is_reordered_and_ties_keep_the_linear_order() -> None:
    model = {"top": 3, "features": ["literal"], "trees": [SPLIT]}
    ranked = [
        {"seq": seq, "score": 10 - seq, "features": {"literal": lit}}
        for seq, lit in [(1, 0.0), (2, 1.0), (3, 0.0), (4, 1.0)]
    ]
    out = trees.rerank(ranked, [], model)
    # Passage 2 rises over 1 and 3 (which tie and keep their order); 4 is below the head.
    assert [r["seq"] for r in out] == [2, 1, 3, 4]
    assert "tree_score" not in out[3]


def test_trees_boosted_from_the_linear_score_add_to_it() -> None:
    """With ``base``, the trees correct the linear score rather than replace it: a passage
    the trees do not tell apart keeps its linear lead."""
    model = {"top": 2, "features": ["literal"], "trees": [LEAF], "base": 0.5}
    ranked = [
        {"seq": 1, "score": 4.0, "features": {"literal": 0.0}},
        {"seq": 2, "score": 3.0, "features": {"literal": 0.0}},
    ]
    out = trees.rerank(ranked, [], model)
    assert [r["seq"] for r in out] == [1, 2]
    assert [r["tree_score"] for r in out] == [2.25, 1.75]


def test_the_trees_read_whether_the_question_is_vietnamese_without_its_marks() -> None:
    """The embedder reads accentless Vietnamese as noise; the trees are told so."""
    from types import SimpleNamespace

    def u(text: str, lang: str) -> Any:
        return SimpleNamespace(text=text, lang=lang)

    assert trees.accentless(u("tinh toan thiet hai", "vi")) == 1.0
    assert trees.accentless(u("tính toán thiệt hại", "vi")) == 0.0
    assert trees.accentless(u("damage calculation", "en")) == 0.0
