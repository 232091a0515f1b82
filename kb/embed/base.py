"""The interface every embedding backend offers, and its one error."""

from __future__ import annotations

import array
import math
import operator
from collections.abc import Callable, Sequence
from typing import Protocol


class EmbedderError(Exception):
    """A backend that cannot run here (a missing package, an unsupported CPU)."""


class Embedder(Protocol):
    """Texts to L2-normalised vectors of ``dim`` floats; questions and passages apart (e5
    models are trained with a "query: " and a "passage: " prefix)."""

    name: str
    dim: int
    # The model of its sparse "latent terms" (a second, token-level view of a text: what each
    # word of it is about, kept where the pooled vector averages it away); None without one.
    latent_name: str | None

    def tokens(self, text: str) -> int:
        """How many tokens the model reads for ``text`` as a question."""
        ...

    def query(self, text: str, max_tokens: int = 0) -> list[float]:
        """The question's vector, of at most its first ``max_tokens`` tokens (0: all)."""
        ...

    def passages(self, texts: Sequence[str]) -> list[list[float]]: ...

    def latents(self, text: str, max_tokens: int = 0) -> list[tuple[int, float]]:
        """The text's strongest latent terms, (index, weight) strongest first ([] without
        ``latent_name``); questions and passages alike, without a prefix."""
        ...


# Latent terms kept per text: fewer lose first passages (measured on 3,186 questions, the
# latent similarity alone among the ranked candidates: 256 terms 49.0% first, 128 43.9%).
LATENT_TERMS = 256


def pack_latents(terms: Sequence[tuple[int, float]]) -> tuple[float, bytes]:
    """(scale, bytes) of a text's latent terms as stored: LATENT_TERMS uint16 indexes, then
    as many uint8 weights (``byte * scale``), padded with zeros to a fixed size."""
    terms = list(terms)[:LATENT_TERMS]
    top = max((w for _, w in terms), default=0.0) or 1.0
    scale = top / 255
    pad = LATENT_TERMS - len(terms)
    index = array.array("H", [i for i, _ in terms] + [0] * pad)
    weight = array.array("B", [max(0, min(255, round(w / scale))) for _, w in terms] + [0] * pad)
    return scale, index.tobytes() + weight.tobytes()


def overlaps(asked: Sequence[tuple[int, float]], stored: Sequence[bytes]) -> list[float]:
    """Cosine of a question's latent terms with each of several packed ones (``pack_latents``
    bytes; a packed scale cancels out of a cosine). The question's weights sit in a list
    indexed by term, so each passage is one pass in C (a dict per passage cost 9 ms for the
    100 ranked candidates of a question)."""
    weights = [0.0] * 65536
    for i, w in asked:
        weights[i] = w
    asked_norm = math.sqrt(sum(w * w for _, w in asked))
    out = []
    for blob in stored:
        index = array.array("H", blob[: 2 * LATENT_TERMS])
        weight = array.array("B", blob[2 * LATENT_TERMS :])
        dot = sum(map(operator.mul, map(weights.__getitem__, index), weight))
        norm = math.sqrt(sum(map(operator.mul, weight, weight)))
        out.append(dot / (asked_norm * norm) if asked_norm and norm else 0.0)
    return out


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
