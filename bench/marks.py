"""How well kb ask gives a question typed without marks its marks back (kb.lexicon.marks).

The embedding model reads unmarked Vietnamese as another language, so the dense list and the
latent terms of a question typed plainly are only as good as its restored marks. The questions
typed with marks are the truth: each is folded (its marks taken away), restored, and compared
word by word with what its author typed.

    .venv/bin/python bench/marks.py --db kb.sqlite [--sets dev+spent] [--confusions 30]

Prints, per set group, the share of words and of whole questions restored as typed, and with
``--confusions`` the commonest (typed, restored) pairs that differ (words only, never a
question: keep it off the fresh set).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tomllib
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from retrieval import set_paths  # noqa: E402

from ingest.text import fold, has_diacritics  # noqa: E402
from kb.lexicon.marks import restore  # noqa: E402


def marked_questions(paths: list[Path], lang: str) -> list[str]:
    """The questions of ``lang`` typed with their marks, answerable or not."""
    out = []
    for path in paths:
        for q in tomllib.loads(path.read_text(encoding="utf-8"))["questions"]:
            if q.get("lang") == lang and has_diacritics(q["q"]):
                out.append(q["q"])
    return out


def compare(conn: sqlite3.Connection, questions: list[str]) -> tuple[int, int, int, Counter]:
    """Words restored as typed, words, questions restored whole, and the differing pairs."""
    right = words = whole = 0
    wrong: Counter[tuple[str, str]] = Counter()
    for typed in questions:
        restored = restore(conn, fold(typed))
        a, b = typed.lower().split(), restored.lower().split()
        if len(a) != len(b):  # restoring never splits or joins words
            raise SystemExit(f"restored {len(b)} words of {len(a)}: {typed!r}")
        same = [x == y for x, y in zip(a, b, strict=True)]
        right, words, whole = right + sum(same), words + len(a), whole + all(same)
        wrong.update((x, y) for x, y, ok in zip(a, b, same, strict=True) if not ok)
    return right, words, whole, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=REPO / "kb.sqlite")
    parser.add_argument("--sets", default="dev+spent", help="groups joined by +, as retrieval.py")
    parser.add_argument("--lang", default="vi")
    parser.add_argument("--confusions", type=int, default=0)
    args = parser.parse_args(argv)
    if not args.db.is_file():
        parser.error(f"--db: no database at {args.db}")
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    print(f"{args.lang} questions typed with marks, folded and restored; {args.db}")
    wrong_all: Counter[tuple[str, str]] = Counter()
    for group in args.sets.split("+"):
        questions = marked_questions(set_paths(group), args.lang)
        right, words, whole, wrong = compare(conn, questions)
        wrong_all += wrong
        print(
            f"{group:8} {len(questions):5} questions  words {100 * right / max(words, 1):5.1f}%"
            f"  whole questions {100 * whole / max(len(questions), 1):5.1f}%"
        )
    for (typed, restored), n in wrong_all.most_common(args.confusions):
        print(f"  {n:4}  {typed} -> {restored}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
