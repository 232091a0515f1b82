"""How `kb build` scales with a document's length: one document of N, 2N, 4N and 8N lines.

Each shape is built alone (a corpus of one file, no manifest) four times, doubling it each
time; the script prints the seconds and each build's time relative to the N build. A build
near-linear in the document's length takes about 8x at 8N (the target is at most 10x; the
quadratic deduplication this replaced took 11.6x at 4N).

Shapes, the last two hostile:
  rules     a comprehensive rulebook (bench/make_large_rulebook.py): numbered rules, a table of
            contents, a glossary, cross-references; N = 500 rules
  lines     ordinary text lines of varied sentences, many longer than a glued-copy candidate
            (120 characters), sharing their first words; 8N = 15,000 sentences
            (18,603 lines with their part headings and blank lines)
  headings  Markdown headings nested as deep as Markdown goes (levels 1 to 6, again and
            again), all with the same title, one line under each; 8N = 4,000 headings
            (16,000 lines)

    python bench/build_scale.py [--shapes rules,lines,headings] [--repeat 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORDS = [
    "the",
    "active",
    "player",
    "may",
    "draw",
    "one",
    "card",
    "during",
    "main",
    "phase",
    "unless",
    "an",
    "effect",
    "says",
    "otherwise",
    "each",
    "monster",
    "that",
    "attacks",
    "deals",
    "damage",
    "equal",
    "to",
    "its",
    "power",
    "defending",
    "who",
    "loses",
    "much",
    "life",
    "when",
    "a",
    "chain",
    "resolves",
    "last",
    "link",
    "first",
    "and",
    "cards",
    "put",
    "into",
    "graveyard",
    "stay",
    "there",
    "until",
    "end",
    "of",
    "game",
]


def rules_text(n: int) -> tuple[str, str]:
    sys.path.insert(0, str(HERE))
    from make_large_rulebook import build as make_rulebook

    return "rules.txt", make_rulebook(n)


def lines_text(n: int) -> tuple[str, str]:
    rng = random.Random(n)
    out = ["Ordinary lines", ""]
    for i in range(n):
        if i % 50 == 0:
            out += [f"Part {i // 50 + 1}", ""]
        size = rng.randint(8, 36)
        out.append("The active player " + " ".join(rng.choice(WORDS) for _ in range(size)) + ".")
        if i % 5 == 4:
            out.append("")
    return "lines.txt", "\n".join(out) + "\n"


def headings_text(n: int) -> tuple[str, str]:
    out = []
    for i in range(n):
        out += [
            f"{'#' * (i % 6 + 1)} Rules",
            "",
            f"Rule text number {i} of the nested headings.",
            "",
        ]
    return "headings.md", "\n".join(out)


SHAPES: dict[str, tuple[int, Callable[[int], tuple[str, str]]]] = {
    "rules": (500, rules_text),
    "lines": (1875, lines_text),
    "headings": (500, headings_text),
}


def build_once(name: str, text: str) -> float:
    from kb.store.build import build

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        (corpus / name).write_text(text, encoding="utf-8")
        started = time.perf_counter()
        build(corpus, Path(tmp) / "kb.sqlite")
        return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--repeat", type=int, default=1, help="Builds per size (best is kept).")
    args = parser.parse_args()
    worst = 0.0
    for shape in args.shapes.split(","):
        if shape not in SHAPES:
            parser.error(f"--shapes: no shape {shape!r}; shapes: {', '.join(SHAPES)}")
        base, make = SHAPES[shape]
        times: list[float] = []
        print(f"{shape}:")
        for factor in (1, 2, 4, 8):
            name, text = make(base * factor)
            seconds = min(build_once(name, text) for _ in range(args.repeat))
            times.append(seconds)
            lines = text.count("\n") + 1
            print(
                f"  {factor}N  {lines:>7,} lines  {seconds:7.2f} s  "
                f"{seconds / times[0]:5.2f}x the N build"
            )
        worst = max(worst, times[-1] / times[0])
    print(f"worst 8N/N ratio: {worst:.2f}x (target: at most 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
