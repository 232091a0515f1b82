"""Write the passage-vector caches shipped with the package (kb/data/vectors/<model>.bin).

Embedding the bundled corpus takes minutes of CPU (about 80 ms a passage here), so its vectors
ship with the package, keyed by a hash of each embedded text: `kb build` takes them from the
cache and embeds only text it has never seen. Run this after the bundled corpus changes, on a
database built from it with vectors:

    .venv/bin/kb build --db /tmp/kb.sqlite
    .venv/bin/python scripts/vector_cache.py /tmp/kb.sqlite

The passages' latent terms, when the database has them, are written the same way to the
cache of their own model. Only entries of texts the database holds are written: a cache never
grows stale entries.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from kb.store.vectors import LATENTS, VECTORS, cache_file, write_cache


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("db", type=Path, help="a database built from the bundled corpus")
    args = parser.parse_args()
    conn = sqlite3.connect(f"{args.db.resolve().as_uri()}?mode=ro", uri=True)
    models = dict(conn.execute("SELECT key, value FROM meta"))
    if VECTORS.meta_key not in models:
        print(f"{args.db}: built without vectors", file=sys.stderr)
        return 1
    for kind in (VECTORS, LATENTS):
        model = models.get(kind.meta_key)
        if model is None:
            continue
        rows = conn.execute(f"SELECT hash, scale, vector FROM {kind.table}")
        path = cache_file(model)
        n = write_cache(path, {h: (s, v) for h, s, v in rows})
        print(f"wrote {n} {kind.table} of {model} to {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
