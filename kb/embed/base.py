"""The interface every embedding backend offers, and its one error."""

from __future__ import annotations

import array
from collections.abc import Sequence
from typing import Protocol


class EmbedderError(Exception):
    """A backend that cannot run here (a missing package, an unsupported CPU)."""


class Embedder(Protocol):
    """Texts to L2-normalised vectors of ``dim`` floats; questions and passages apart (e5
    models are trained with a "query: " and a "passage: " prefix)."""

    name: str
    dim: int

    def query(self, text: str) -> list[float]: ...

    def passages(self, texts: Sequence[str]) -> list[list[float]]: ...


def quantize(vector: Sequence[float]) -> tuple[float, bytes]:
    """(scale, int8 bytes) with ``byte * scale`` close to each value: how vectors are stored
    and compared (a quarter of the floats' size; dot products rank as the floats' do)."""
    top = max((abs(x) for x in vector), default=0.0) or 1.0
    scale = top / 127
    return scale, array.array("b", (round(x / scale) for x in vector)).tobytes()
