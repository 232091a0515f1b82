"""How `kb build` scales with a document's length, and with the corpus's size.

Each shape is built alone (a corpus of one file, no manifest) four times, doubling it each
time; the script prints the seconds and peak memory of each build (each in a process of its
own) and its time relative to the N build. A build
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

  corpus    the bundled corpus, and copies of it (bench/make_big_corpus.py) given by
            --copies (default 1,10): a build streams its documents, so the peak memory of
            the 100x corpus should stay within 1.5x the bundled corpus's (issue 24); its
            time should grow linearly

    python bench/build_scale.py [--shapes rules,lines,headings,corpus] [--repeat 1]
                                [--copies 1,10,100]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
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


# A build in a process of its own: its time as it measures it (no interpreter start-up).
_CHILD = """
import sys, time
from pathlib import Path
from kb.store.build import build
started = time.perf_counter()
build(Path(sys.argv[1]), Path(sys.argv[2]))
print(time.perf_counter() - started)
"""


def build_corpus(corpus: Path) -> tuple[float, float]:
    """Seconds and peak resident memory (MB) of ``kb build`` of ``corpus``."""
    with tempfile.TemporaryDirectory() as tmp:
        child = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(corpus), str(Path(tmp) / "kb.sqlite")],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)  # the peak of this child alone
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            raise SystemExit(f"build_scale: the build of {corpus} failed ({child.returncode})")
        return float(out.split()[-1]), usage.ru_maxrss / 1024


def build_once(name: str, text: str) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        (corpus / name).write_text(text, encoding="utf-8")
        return build_corpus(corpus)


def corpus_scale(copies: list[int], repeat: int) -> float:
    """Builds of the bundled corpus made ``copies`` times larger; the worst peak ratio."""
    sys.path.insert(0, str(HERE))
    from make_big_corpus import make

    first: tuple[float, float] | None = None
    worst = 1.0
    print("corpus:")
    with tempfile.TemporaryDirectory() as tmp:
        for n in copies:
            corpus = Path(tmp) / f"corpus-{n}x"
            make(corpus, n)
            seconds, peak = min(build_corpus(corpus) for _ in range(repeat))
            first = first or (seconds, peak)
            worst = max(worst, peak / first[1])
            print(
                f"  {n:>4}x  {seconds:8.1f} s ({seconds / first[0]:6.1f}x)  "
                f"peak {peak:7.1f} MB ({peak / first[1]:4.2f}x the {copies[0]}x build)"
            )
            shutil.rmtree(corpus)
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", default=",".join([*SHAPES, "corpus"]))
    parser.add_argument("--repeat", type=int, default=1, help="Builds per size (best is kept).")
    parser.add_argument("--copies", default="1,10", help="Corpus sizes for the corpus shape.")
    args = parser.parse_args()
    worst = 0.0
    for shape in args.shapes.split(","):
        if shape == "corpus":
            peak = corpus_scale([int(n) for n in args.copies.split(",")], args.repeat)
            print(f"corpus: worst peak ratio {peak:.2f}x (target: at most 1.5x at 100x)")
            continue
        if shape not in SHAPES:
            parser.error(f"--shapes: no shape {shape!r}; shapes: {', '.join(SHAPES)}, corpus")
        base, make = SHAPES[shape]
        times: list[float] = []
        print(f"{shape}:")
        for factor in (1, 2, 4, 8):
            name, text = make(base * factor)
            seconds, peak = min(build_once(name, text) for _ in range(args.repeat))
            times.append(seconds)
            lines = text.count("\n") + 1
            print(
                f"  {factor}N  {lines:>7,} lines  {seconds:7.2f} s  "
                f"{seconds / times[0]:5.2f}x the N build  peak {peak:6.1f} MB"
            )
        worst = max(worst, times[-1] / times[0])
    if worst:
        print(f"worst 8N/N ratio: {worst:.2f}x (target: at most 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
