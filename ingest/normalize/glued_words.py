"""split_glued_words: English words glued where a PDF line ended (``gamewins``, ``orher``).

A word is a candidate only if it is unknown: not in the vocabulary of the corpus's clean
English documents and not a common English word. It is split where a unigram language model
finds the most probable segmentation into known words, so ``therest`` becomes ``the rest``,
not ``there st``. The counts are those of the ``wordsegment`` package (a trillion-word web
corpus), with the corpus vocabulary added so game terms such as ``lifebreak`` count as words.
The model is loaded only when a document uses this rule.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from ..english import unigrams
from ..records import Line
from .base import Context, sub_recorded

_WORD = re.compile(r"(?<![\w'’])[A-Za-z]{4,}(?:['’][A-Za-z]+)?(?![\w'’])")
# Below this count a whole word is not trusted to be a real word on the web counts alone.
_COMMON = 2_000_000
# Every part of a split must be at least this common, unless the corpus itself uses it.
_PART = 200_000
# Count given to words of the corpus vocabulary that the web counts lack or undercount.
_VOCABULARY_COUNT = 5_000_000
_SHORT_PARTS = {"a", "i"}
_MAX_PART = 24


def _count(word: str, vocabulary: frozenset[str]) -> float:
    counts, _ = unigrams()
    count = counts.get(word, 0.0)
    return max(count, _VOCABULARY_COUNT) if word in vocabulary else count


def _segment(text: str, vocabulary: frozenset[str]) -> list[str]:
    """Most probable segmentation of ``text`` under the unigram model (Viterbi)."""
    _, total = unigrams()
    best: list[tuple[float, int]] = [(0.0, 0)] + [(-math.inf, 0)] * len(text)
    for end in range(1, len(text) + 1):
        for start in range(max(0, end - _MAX_PART), end):
            part = text[start:end]
            count = _count(part, vocabulary)
            # Unknown strings get a probability that falls steeply with their length.
            logp = math.log10(count / total) if count else -(10 + len(part))
            score = best[start][0] + logp
            if score > best[end][0]:
                best[end] = (score, start)
    parts, end = [], len(text)
    while end > 0:
        start = best[end][1]
        parts.append(text[start:end])
        end = start
    return parts[::-1]


def _valid_part(part: str, vocabulary: frozenset[str]) -> bool:
    if len(part) == 1 and part not in _SHORT_PARTS:
        return False
    return _count(part, vocabulary) >= _PART


def _attested(
    plain: str, parts: list[str], bigrams: frozenset[str], vocabulary: frozenset[str]
) -> list[str]:
    """The two-word split the clean documents actually write, when the model's split is not.

    Web counts cannot tell ``are covered`` from ``a recovered``; the earlier version of the same
    rulebook, written with spaces, can.
    """
    if not bigrams or (len(parts) == 2 and " ".join(parts) in bigrams):
        return parts
    for k in range(1, len(plain)):
        a, b = plain[:k], plain[k:]
        if f"{a} {b}" in bigrams and _valid_part(a, vocabulary) and _valid_part(b, vocabulary):
            return [a, b]
    return parts


def split_word(
    word: str, vocabulary: frozenset[str], bigrams: frozenset[str] = frozenset()
) -> str | None:
    """``word`` with spaces where it is two or more glued words, or None if it is one word.

    ``bigrams`` ("a b" pairs of the corpus's clean documents) settle splits the model gets
    wrong."""
    letters = [i for i, ch in enumerate(word) if ch not in "'’"]
    plain = "".join(word[i] for i in letters).lower()
    if _count(plain, vocabulary) >= _COMMON:
        return None
    parts = _segment(plain, vocabulary)
    if len(parts) < 2:
        return None
    if not all(_valid_part(part, vocabulary) for part in parts):
        return None
    parts = _attested(plain, parts, bigrams, vocabulary)
    # Map the parts back onto the original characters (apostrophes stay where they were).
    out, pos = [], 0
    for part in parts:
        start = letters[pos]
        pos += len(part)
        end = letters[pos] if pos < len(letters) else len(word)
        out.append(word[start:end])
    return " ".join(out)


def split_glued_words(lines: list[Line], ctx: Context) -> list[Line]:
    def repl(m: re.Match[str]) -> str:
        return split_word(m.group(), ctx.vocabulary, ctx.bigrams) or m.group()

    return [
        replace(line, text=sub_recorded(_WORD, repl, line, ctx, "split_glued_words"))
        for line in lines
    ]
