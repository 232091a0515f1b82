"""Frames between the website and its worker processes: a 4-byte length, then a pickle.

Only the server and its own workers (kb.web.offload, kb.web.worker) speak this, over pipes
that nobody else can reach: pickle is safe here."""

from __future__ import annotations

import pickle
import struct
from typing import Any, BinaryIO

HEADER = struct.Struct(">I")


def encode(obj: Any) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def read_frame(stream: BinaryIO) -> Any:
    """The next frame's object, or None at end of input."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    return pickle.loads(stream.read(size))


def write_frame(stream: BinaryIO, obj: Any) -> None:
    stream.write(encode(obj))
    stream.flush()
