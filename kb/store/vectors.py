"""Each rule's embedding, written at build time into the ``vectors`` table.

What is embedded is the rule as a judge reads it: its section path, number and title, then
its text (``passage_text``). Vectors are cached by a hash of that text and the model: a
rebuild takes them from the database it replaces, then from the cache shipped with the
package (kb/data/vectors/, written by scripts/vector_cache.py for the bundled corpus), and
embeds only the texts neither has, saying how far it got. They are stored as int8 with one
scale per vector (a quarter of the floats' size; the dot products rank as the floats do).

A backend with latent terms (kb.embed: the strongest features of a sparse head over the
model's token states) gets them written the same way, cached the same way, into ``latents``.
"""

from __future__ import annotations

import array
import hashlib
import json
import sqlite3
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..embed import Embedder, pack_latents, quantize

Progress = Callable[[str], None]
CACHE_DIR = Path(__file__).resolve().parents[1] / "data" / "vectors"
_MAGIC = b"KBV1"
BATCH = 32


@dataclass(frozen=True)
class Kind:
    """One kind of stored embedding: its table, the meta key that names its model, and how a
    loaded backend turns passage texts into stored (scale, bytes)."""

    table: str
    meta_key: str
    encode: Callable[[Embedder, Sequence[str]], list[tuple[float, bytes]]]


VECTORS = Kind(
    "vectors", "vectors_model", lambda e, texts: [quantize(v) for v in e.passages(texts)]
)
LATENTS = Kind(
    "latents", "latents_model", lambda e, texts: [pack_latents(e.latents(t)) for t in texts]
)


def passage_text(section_path: str, number: str, title: str, text: str) -> str:
    """What a rule's embedding is computed from."""
    head = " ".join(p for p in (number, title) if p)
    return " · ".join(p for p in (section_path, head, text) if p)


def text_hash(model: str, text: str) -> str:
    return hashlib.sha1(f"{model}\n{text}".encode()).hexdigest()[:16]


def cache_file(model: str) -> Path:
    safe = "".join(ch if ch.isalnum() or ch in "-." else "_" for ch in model)
    return CACHE_DIR / f"{safe}.bin"


def read_cache(path: Path) -> dict[str, tuple[float, bytes]]:
    """hash -> (scale, int8 vector) of a cache file; empty when there is none."""
    if not path.is_file():
        return {}
    data = path.read_bytes()
    if data[:4] != _MAGIC:
        return {}
    dim, count = struct.unpack_from("<HI", data, 4)
    out: dict[str, tuple[float, bytes]] = {}
    at, size = 10, 8 + 4 + dim
    for _ in range(count):
        key, scale = data[at : at + 8].hex(), struct.unpack_from("<f", data, at + 8)[0]
        out[key] = (scale, data[at + 12 : at + size])
        at += size
    return out


def write_cache(path: Path, entries: dict[str, tuple[float, bytes]]) -> int:
    """Write ``entries`` (hash -> (scale, int8 vector)) sorted by hash; how many."""
    if not entries:
        return 0
    dim = len(next(iter(entries.values()))[1])
    parts = [_MAGIC, struct.pack("<HI", dim, len(entries))]
    for key in sorted(entries):
        scale, vector = entries[key]
        parts += [bytes.fromhex(key), struct.pack("<f", scale), vector]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(parts))
    return len(entries)


class PreviousVectors:
    """The vectors of the database a build replaces, when they are of the same model, looked
    up by text hash. They are copied into an indexed temporary table of that database's
    read-only connection, on disk: a large corpus's would not fit in a dict."""

    def __init__(self, path: Path | None, model: str, kind: Kind = VECTORS) -> None:
        self._conn: sqlite3.Connection | None = None
        if path is None or not path.is_file():
            return
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error:
            return
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (kind.meta_key,)).fetchone()
            if not row or row[0] != model:
                conn.close()
                return
            conn.execute("PRAGMA temp_store = FILE")
            conn.execute(f"CREATE TEMP TABLE known AS SELECT hash, scale, vector FROM {kind.table}")
            conn.execute("CREATE INDEX temp.known_hash ON known (hash)")
            self._conn = conn
        except sqlite3.Error:  # an old schema, a damaged file: embed again
            conn.close()

    def get(self, key: str) -> tuple[float, bytes] | None:
        if self._conn is None:
            return None
        row = self._conn.execute(
            "SELECT scale, vector FROM known WHERE hash = ? LIMIT 1", (key,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _passages(conn: sqlite3.Connection) -> Iterator[tuple[int, str, str]]:
    """(seq, game, passage text) of every rule, in order."""
    rows = conn.execute(
        "SELECT r.seq, r.game, s.path, r.number, r.title, r.label, r.text FROM rules r "
        "JOIN sections s ON s.id = r.section ORDER BY r.seq"
    )
    for seq, game, path, number, title, label, text in rows:
        yield seq, game, passage_text(path or "", number or "", title or label or "", text)


def write_vectors(
    conn: sqlite3.Connection,
    model: str,
    embedder: Callable[[], Embedder],
    previous: Path | None = None,
    say: Progress | None = None,
    kind: Kind = VECTORS,
) -> dict[str, int]:
    """Embed every rule into ``kind``'s table with ``model`` (cached texts taken as they are;
    ``embedder()`` loads the model only when some text is new); counts of how many came from
    the previous database, the shipped cache, and the model. Rows are written as they are
    found or embedded, a batch at a time: a large corpus's vectors are never all in memory."""
    say = say or (lambda _m: None)
    known = PreviousVectors(previous, model, kind)
    try:
        return _write_vectors(conn, model, embedder, known, say, kind)
    finally:
        known.close()


def _write_vectors(
    conn: sqlite3.Connection,
    model: str,
    embedder: Callable[[], Embedder],
    known: PreviousVectors,
    say: Progress,
    kind: Kind,
) -> dict[str, int]:
    shipped = read_cache(cache_file(model))
    counts = {"previous": 0, "shipped": 0, "embedded": 0}
    insert = f"INSERT INTO {kind.table} (seq, game, hash, scale, vector) VALUES (?, ?, ?, ?, ?)"
    found_rows: list[tuple[int, str, str, float, bytes]] = []
    missing: list[tuple[int, str, str, str]] = []
    new = sum(
        1
        for _, _, text in _passages(conn)
        if (key := text_hash(model, text)) not in shipped and key not in known
    )
    loaded = embedder() if new else None
    if new:
        say(f"embed {new} new passages with {model}")

    def embed_missing() -> None:
        assert loaded is not None
        stored = kind.encode(loaded, [t for *_, t in missing])
        conn.executemany(
            insert,
            [
                (seq, game, key, *packed)
                for (seq, game, key, _), packed in zip(missing, stored, strict=True)
            ],
        )
        counts["embedded"] += len(missing)
        if counts["embedded"] % (BATCH * 8) == 0 or counts["embedded"] == new:
            say(f"  embedded {counts['embedded']}/{new}")
        missing.clear()

    for seq, game, text in _passages(conn):
        key = text_hash(model, text)
        cached = known.get(key)
        source = "previous"
        if cached is None:
            cached, source = shipped.get(key), "shipped"
        if cached is None:
            missing.append((seq, game, key, text))
            if len(missing) == BATCH:
                embed_missing()
            continue
        counts[source] += 1
        found_rows.append((seq, game, key, *cached))
        if len(found_rows) == 1000:
            conn.executemany(insert, found_rows)
            found_rows.clear()
    if missing:
        embed_missing()
    conn.executemany(insert, found_rows)
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (kind.meta_key, model))
    if kind is VECTORS:
        _write_index(conn, model)
    return counts


# Vectors per row of vector_index: 2,048 x 384 bytes stays under the megabyte a website
# connection allows one blob (kb/data/limits.toml max_length).
PART_VECTORS = 2048


def _write_index(conn: sqlite3.Connection, model: str) -> None:
    """Every vector in a few rows (``vector_index``): a question reads the whole matrix with
    one query instead of a row per passage. Read back from ``vectors`` a part at a time."""
    games = [g for (g,) in conn.execute("SELECT DISTINCT game FROM vectors ORDER BY game")]
    langs = [lang for (lang,) in conn.execute("SELECT DISTINCT lang FROM rules ORDER BY lang")]
    rows = conn.execute(
        "SELECT v.seq, v.game, r.lang, v.scale, v.vector FROM vectors v"
        " JOIN rules r ON r.seq = v.seq ORDER BY v.seq"
    )
    part = 0
    while chunk := rows.fetchmany(PART_VECTORS):
        conn.execute(
            "INSERT INTO vector_index"
            " (part, model, dim, seqs, games, game_of, langs, lang_of, scales, matrix)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                part,
                model,
                len(chunk[0][4]),
                array.array("i", (r[0] for r in chunk)).tobytes(),
                json.dumps(games),
                array.array("B", (games.index(r[1]) for r in chunk)).tobytes(),
                json.dumps(langs),
                array.array("B", (langs.index(r[2]) for r in chunk)).tobytes(),
                array.array("f", (r[3] for r in chunk)).tobytes(),
                b"".join(r[4] for r in chunk),
            ),
        )
        part += 1
