"""The bilingual word list learned from rules paired by number (ingest/bilexicon.py)."""

from __future__ import annotations

import random

import pytest

from ingest import bilexicon
from ingest.bilexicon import learn

# A hidden dictionary the paired rules are written from: each rule says a few of its words.
DICTIONARY = {f"word{i}": f"mot{i}" for i in range(60)}


def paired_rules(n: int, seed: int = 7) -> list[tuple[frozenset[str], frozenset[str]]]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        said = rng.sample(sorted(DICTIONARY), 6)
        source = set(said) | {"the"}
        target = {DICTIONARY[w] for w in said} | {rng.choice(["bruit", "autre"])}
        pairs.append((frozenset(source), frozenset(target)))
    return pairs


def test_the_list_learns_what_translates_what() -> None:
    lexicon = learn(paired_rules(300))
    assert lexicon.pairs == 300
    learned = [w for w in DICTIONARY if DICTIONARY[w] in lexicon.translations.get(w, ())]
    assert len(learned) >= 55  # nearly every word of the dictionary
    assert "the" not in lexicon.translations  # in every rule: it teaches nothing


def test_holding_a_few_candidates_per_word_learns_the_same_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each word first competes with its CANDIDATES best translations only (a large corpus
    gives it many it never reaches); the list must be the one all of them give."""
    pairs = paired_rules(120, seed=3) * 3  # repeated rules: every co-occurrence counts
    monkeypatch.setattr(bilexicon, "CANDIDATES", 10**6)
    everything = learn(pairs)
    rounds: list[int] = []
    take = bilexicon._take

    def counted(scored: list[tuple[float, str, str]]):  # type: ignore[no-untyped-def]
        rounds.append(len(scored))
        return take(scored)

    monkeypatch.setattr(bilexicon, "_take", counted)
    monkeypatch.setattr(bilexicon, "CANDIDATES", 1)
    few = learn(pairs)
    assert len(rounds) > 1  # some word had to compete again with more
    assert few == everything
