"""Everyday English by its use: the unigram counts of the ``wordsegment`` package (a
trillion-word web corpus). The glued-word repair weighs splits by them; the build stores the
common words so kb ask can tell a word spelt right from a typo of a corpus word ("piece" is
not "pierce" misspelt).
"""

from __future__ import annotations

from functools import cache


@cache
def unigrams() -> tuple[dict[str, float], float]:
    """(word -> count, total count)."""
    import wordsegment

    wordsegment.load()
    return wordsegment.UNIGRAMS, wordsegment.Segmenter.TOTAL


def common_words(min_count: float, min_length: int) -> list[tuple[str, int]]:
    """(word, count) of the words used at least ``min_count`` times, of ``min_length``
    letters or more, sorted."""
    counts, _ = unigrams()
    return sorted((w, int(n)) for w, n in counts.items() if n >= min_count and len(w) >= min_length)
