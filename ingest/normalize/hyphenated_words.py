"""join_hyphenated_words: a word a PDF broke at a hyphen at the end of a line.

``...meant for high-`` / ``level Disney Lorcana rules questions`` is one word split by the
line break: its second part moves up to join the first (``high-level``), so the word is whole
wherever the line is joined later. Whether the hyphen stays is read from the words, as a
reader would:

1. the hyphenated word is written whole elsewhere in the document (``end-of-match``): kept;
2. the word without the hyphen is (``return`` for ``re-`` / ``turn``), or the corpus's clean
   English uses it, or it is a common English word (``opponents`` for ``oppo-`` / ``nents``):
   the hyphen only broke the word, and goes;
3. both parts are English words on their own (``Entry-`` / ``level``, ``play-`` / ``draw``):
   a compound, the hyphen is kept;
4. otherwise the hyphen only broke the word, and goes.

A dash standing apart (``Mickey Mouse -`` / ``Brave Little Tailor``) is no hyphen: the
character before it must be a letter. Chinese and Japanese break lines anywhere and never
hyphenate a word, so a hyphen beside their characters is a real one (``螃蟹怪-`` / ``太闪亮！``,
a card's name and version) and stays.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..english import unigrams
from ..records import Line
from ..text import unspaced
from .base import Context, join_into

_END = re.compile(r"(?P<word>[^\W\d_]+(?:-[^\W\d_]+)*)-$")
_START = re.compile(r"^(?P<word>[^\W\d_]+(?:['’-][^\W\d_]+)*)(?P<rest>[^\s]*)\s*")
_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
WORD_COUNT = 2_000_000
"""Web count above which a word is a common English word (fragments such as "nents" or "ing"
are counted too, but far less often)."""


def _known(word: str) -> bool:
    counts, _ = unigrams()
    return counts.get(word.lower(), 0.0) >= WORD_COUNT


def keep_hyphen(first: str, second: str, written: set[str], vocabulary: frozenset[str]) -> bool:
    """Whether ``first-`` at a line's end and ``second`` on the next line are a hyphenated
    word (True) or one word broken by the line (False); ``written`` holds the document's
    words as written (lower case), ``vocabulary`` the clean English words of the corpus."""
    if unspaced(first[-1]) or unspaced(second[0]):
        return True
    hyphenated = f"{first}-{second}".lower()
    whole = f"{first}{second}".lower()
    if hyphenated in written:
        return True
    if whole in written or whole in vocabulary or _known(whole):
        return False
    last = first.rsplit("-", 1)[-1]
    return _known(second) and (_known(last) or last.lower() in written)


def join_hyphenated_words(lines: list[Line], ctx: Context) -> list[Line]:
    ends = [i for i, line in enumerate(lines[:-1]) if _END.search(line.text.rstrip())]
    if not ends:
        return lines
    written = {w.lower() for line in lines for w in _WORDS.findall(line.text)}
    out = list(lines)
    dropped: set[int] = set()
    for i in ends:
        if i in dropped:
            continue
        nxt = out[i + 1]
        m = _START.match(nxt.text.strip())
        end = _END.search(out[i].text.rstrip())
        if not m or not end:
            continue
        first, second = end.group("word"), m.group("word")
        hyphen = "-" if keep_hyphen(first, second, written, ctx.vocabulary) else ""
        before = out[i].text.rstrip()
        joined = before[:-1] + hyphen + second + m.group("rest")
        rest = nxt.text.strip()[m.end() :]
        ctx.record(
            "join_hyphenated_words",
            out[i].no,
            f"{first}-¶{second}{m.group('rest')}",
            f"{first}{hyphen}{second}{m.group('rest')}",
        )
        if rest:
            indent = nxt.text[: len(nxt.text) - len(nxt.text.lstrip())]
            out[i] = replace(out[i], text=joined)
            out[i + 1] = replace(nxt, text=indent + rest)
        else:
            out[i] = join_into(out[i], nxt, joined)
            dropped.add(i + 1)
    return [line for k, line in enumerate(out) if k not in dropped]
