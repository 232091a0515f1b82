"""A question typed without its language's marks, given them back from the corpus's own text
("co duoc kich hoat khong" -> "có được kích hoạt không").

Folded search does not need the marks, but the embedding model does: it reads unmarked
Vietnamese as another language (the dense list found the deciding rule first for 17% of such
questions, 53% of the same questions typed with marks). Each word becomes the written form
the corpus (and the language's everyday text: a judge says "tôi", rules never do) uses for it
most in its context: a bigram model over the counts kb.store.marks keeps, interpolated with
the word's own frequency by Witten-Bell (no tuned constant), decoded by Viterbi. A word the
corpus never writes in the language stays as typed.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

import math
import re
import sqlite3

from ingest.text import CJK_RUN, fold, has_diacritics

from ..store import datafiles
from ..store.marks import Marks, load_marks
from .words import unmarked_language

_WORD = re.compile(r"([^\W\d_]+)")


class _Model:
    """The written forms of each folded word, and the Witten-Bell weights of one language."""

    def __init__(self, marks: Marks) -> None:
        self.marks = marks
        self.total = sum(marks.words.values()) or 1
        self.forms: dict[str, list[str]] = {}
        for word in marks.words:
            self.forms.setdefault(fold(word), []).append(word)
        self.followers: dict[str, int] = {}  # distinct words seen after each word
        for pair in marks.pairs:
            first = pair.split(" ", 1)[0]
            self.followers[first] = self.followers.get(first, 0) + 1

    def unigram(self, word: str) -> float:
        return max(1, self.marks.words.get(word, 0)) / self.total

    def bigram(self, before: str, word: str) -> float:
        seen = self.marks.words.get(before, 0)
        kinds = self.followers.get(before, 0)
        if not kinds:
            return self.unigram(word)
        together = self.marks.pairs.get(f"{before} {word}", 0)
        return (together + kinds * self.unigram(word)) / (seen + kinds)

    def best(self, typed: list[str]) -> list[str]:
        """The likeliest written form of each word (Viterbi over the bigram model)."""
        options = [self.forms.get(w, [w]) for w in typed]
        paths = {w: (math.log(self.unigram(w)), [w]) for w in options[0]}
        for choices in options[1:]:
            paths = {
                w: max(
                    (score + math.log(self.bigram(path[-1], w)), [*path, w])
                    for score, path in paths.values()
                )
                for w in choices
            }
        return max(paths.values())[1]


def restore(conn: sqlite3.Connection, text: str) -> str:
    """``text`` with the marks of its language restored, when it is typed without them in a
    language the corpus writes with marks (kb.store.marks); else ``text`` unchanged."""
    if has_diacritics(text) or CJK_RUN.search(text):
        return text
    datafiles.load("query", conn)  # the stored copy: a prefetch thread would parse the file
    lang = unmarked_language(text)
    marks = load_marks(conn).get(lang) if lang else None
    if not marks:
        return text
    if "model" not in marks.derived:
        marks.derived["model"] = _Model(marks)
    model: _Model = marks.derived["model"]
    parts = _WORD.split(text)  # words at the odd places
    typed = parts[1::2]
    if not typed:
        return text
    written = model.best([w.lower() for w in typed])
    for i, (was, form) in enumerate(zip(typed, written, strict=True)):
        parts[2 * i + 1] = form.capitalize() if was[:1].isupper() else form
    return "".join(parts)
