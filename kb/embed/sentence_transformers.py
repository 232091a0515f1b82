"""Any model sentence-transformers can load, for machines that have it (or may download it).

Not a dependency of the project (it needs PyTorch): install ``sentence-transformers`` and
build with ``kb build --embedder sentence-transformers:<model name or path>``. The model's
own query/passage prefixes are the caller's business: e5 models get "query: " / "passage: ".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import EmbedderError, fit


class SentenceTransformersEmbedder:
    def __init__(self, model: str) -> None:
        if not model:
            raise EmbedderError(
                "sentence-transformers needs a model: sentence-transformers:<model>"
            )
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbedderError(
                "sentence-transformers is not installed (pip install sentence-transformers)"
            ) from None
        try:
            self._model: Any = SentenceTransformer(model)
        except Exception as exc:  # a missing model, no network: one line, not a traceback
            raise EmbedderError(f"sentence-transformers could not load {model!r}: {exc}") from None
        self.name = f"st:{model}"
        self.dim = int(self._model.get_sentence_embedding_dimension())
        self._prefix = "e5" in model.lower()
        self.latent_name: str | None = None  # a pooled vector only

    def _encode(self, texts: Sequence[str], prefix: str) -> list[list[float]]:
        if self._prefix:
            texts = [f"{prefix}: {t}" for t in texts]
        vectors = self._model.encode(list(texts), normalize_embeddings=True)
        return [list(map(float, v)) for v in vectors]

    def tokens(self, text: str) -> int:
        return len(self._model.tokenize([text])["input_ids"][0])

    def query(self, text: str, max_tokens: int = 0) -> list[float]:
        return self._encode([fit(text, max_tokens, self.tokens)], "query")[0]

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        return self._encode(texts, "passage")

    def latents(self, text: str, max_tokens: int = 0) -> list[tuple[int, float]]:
        return []
