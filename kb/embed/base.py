"""The interface every embedding backend offers, and its one error."""

from __future__ import annotations

import array
from collections.abc import Callable, Sequence
from typing import Protocol


class EmbedderError(Exception):
    """A backend that cannot run here (a missing package, an unsupported CPU)."""


class Embedder(Protocol):
    """Texts to L2-normalised vectors of ``dim`` floats; questions and passages apart (e5
    models are trained with a "query: " and a "passage: " prefix)."""

    name: str
    dim: int

    def tokens(self, text: str) -> int:
        """How many tokens the model reads for ``text`` as a question."""
        ...

    def query(self, text: str, max_tokens: int = 0) -> list[float]:
        """The question's vector, of at most its first ``max_tokens`` tokens (0: all)."""
        ...

    def passages(self, texts: Sequence[str]) -> list[list[float]]: ...


def quantize(vector: Sequence[float]) -> tuple[float, bytes]:
    """(scale, int8 bytes) with ``byte * scale`` close to each value: how vectors are stored
    and compared (a quarter of the floats' size; dot products rank as the floats' do)."""
    top = max((abs(x) for x in vector), default=0.0) or 1.0
    scale = top / 127
    return scale, array.array("b", (round(x / scale) for x in vector)).tobytes()


def fit(text: str, max_tokens: int, count: Callable[[str], int]) -> str:
    """The longest prefix of ``text`` (cut at a space where one is near) that ``count`` puts
    at or under ``max_tokens`` tokens; ``text`` itself when it fits or ``max_tokens`` is 0.

    A transformer's cost grows faster than its input: a question of 500 characters of
    punctuation or Chinese is 250 tokens or more and cost 0.5 s of CPU to embed, more than
    the rest of answering it. Counting is a tokenizer pass (about 0.2 ms), so the binary
    search over prefix lengths costs a few milliseconds only for a question over the cap."""
    if not max_tokens or count(text) <= max_tokens:
        return text
    low, high = 0, len(text)  # count(text[:low]) fits, count(text[:high]) does not
    while high - low > 1:
        middle = (low + high) // 2
        if count(text[:middle]) <= max_tokens:
            low = middle
        else:
            high = middle
    head = text[:low]
    space = head.rfind(" ")
    return head[:space] if space > low // 2 else head
