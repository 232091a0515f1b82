"""Make a corpus N times the bundled one, for measuring ``kb ask`` and the build at scale.

Every bundled document is copied N-1 more times under a new file name and a new document id
(``<id>-x<k>``), with its manifest entry (variants, heading hints, fillers) cloned, so the
pipeline does exactly the work it does on the real corpus, N times over. Copy k of a rulebook
with versions becomes its own rulebook (``ruleset`` gets the same suffix) so version diffs
pair each copy with its own earlier version, and a translation listed as its own file
translates its own copy's source (``translation_of`` gets the suffix too: before 2026-12-03
the copies all translated the first copy's source, one source with N translations), as they
would for N distinct rulebooks.

    .venv/bin/python bench/make_big_corpus.py /tmp/big-corpus            # 100x
    .venv/bin/python bench/make_big_corpus.py /tmp/big-corpus --copies 10
    .venv/bin/kb build --corpus /tmp/big-corpus --db /tmp/big.sqlite
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"
MANIFEST = "sources.toml"
DOCUMENT = "[[documents]]"


def split_manifest(text: str) -> tuple[str, list[str]]:
    """The manifest's head (comments, [games]) and one text block per [[documents]] entry."""
    head, *blocks = re.split(r"^(?=\[\[documents\]\]\s*$)", text, flags=re.MULTILINE)
    return head, blocks


def clone_block(block: str, k: int) -> tuple[str, str, str]:
    """Copy k of one [[documents]] entry: (new block, original file name, new file name)."""
    file = re.search(r'^file\s*=\s*"([^"]+)"', block, flags=re.MULTILINE)
    if not file:
        raise ValueError(f"{MANIFEST}: a [[documents]] entry has no file")
    original = file.group(1)
    stem, dot, ext = original.rpartition(".")
    new_file = f"{stem}-x{k}.{ext}" if dot else f"{original}-x{k}"
    out = block.replace(file.group(0), f'file = "{new_file}"', 1)
    out = re.sub(
        r'^(id|ruleset|translation_of)\s*=\s*"([^"]+)"',
        rf'\1 = "\2-x{k}"',
        out,
        flags=re.MULTILINE,
    )
    return out, original, new_file


def make(target: Path, copies: int) -> int:
    """Write the enlarged corpus to ``target``; returns the number of document files."""
    if copies < 1:
        raise ValueError(f"--copies must be at least 1, not {copies}")
    head, blocks = split_manifest((CORPUS / MANIFEST).read_text(encoding="utf-8"))
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    out = [head, *blocks]
    files = 0
    for block in blocks:
        shutil.copyfile(CORPUS / clone_block(block, 0)[1], target / clone_block(block, 0)[1])
        files += 1
    for k in range(1, copies):
        for block in blocks:
            new_block, original, new_file = clone_block(block, k)
            shutil.copyfile(CORPUS / original, target / new_file)
            out.append(new_block)
            files += 1
    (target / MANIFEST).write_text("".join(out), encoding="utf-8")
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path, help="folder to write (replaced if it exists)")
    parser.add_argument("--copies", type=int, default=100, help="size as a multiple [100]")
    args = parser.parse_args()
    try:
        files = make(args.target, args.copies)
    except (OSError, ValueError) as e:
        print(f"make_big_corpus: {e}", file=sys.stderr)
        return 2
    print(f"{files} documents ({args.copies}x the bundled corpus) in {args.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
