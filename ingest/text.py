"""Text forms for full-text search, shared by the index (at build time) and queries.

FTS5's ``unicode61`` tokenizer treats a run of Chinese characters as one token, and
``trigram`` cannot match two-character words. We index every run of CJK characters as
overlapping character bigrams (the approach of Lucene's CJK analyzer), so a two-character
word such as 闪电 is one token and longer words are phrases of bigrams.

Vietnamese is indexed twice: as written (diacritics kept) and folded (diacritics removed,
đ -> d), so an unaccented query matches and an accented query prefers accented matches.

This module is on the ``kb ask`` path: standard library only.
"""

from __future__ import annotations

import re
import unicodedata

_CJK = (
    "\u3040-\u30ff"  # kana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # compatibility ideographs
)
CJK_RUN = re.compile(f"[{_CJK}]+")
_LETTERS = rf"[^\W_{_CJK}]"
_WORD = re.compile(rf"[{_CJK}]+|{_LETTERS}+(?:['’]{_LETTERS}+)*", re.UNICODE)

# Letters that do not decompose under NFD but still carry a "diacritic" for searchers.
_FOLD_EXTRA = str.maketrans({"đ": "d", "Đ": "D", "ð": "d", "ø": "o", "ł": "l", "ß": "ss"})


class _FoldTable(dict[int, str]):
    """str.translate table that folds one character at a time, computed on first sight.

    Folding is the hottest function of ``kb ask`` (every candidate passage is folded several
    times); a cached table is about ten times faster than decomposing whole strings.
    """

    def __missing__(self, code: int) -> str:
        decomposed = unicodedata.normalize("NFD", chr(code).translate(_FOLD_EXTRA))
        folded = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
        self[code] = folded
        return folded


_FOLD_TABLE = _FoldTable()


def fold(text: str) -> str:
    """Lower-case, remove diacritics (including đ/Đ) and return NFC text."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFC", text.translate(_FOLD_TABLE)).lower()


def has_diacritics(text: str) -> bool:
    """True if folding would change the letters of ``text`` (ignoring case)."""
    return fold(text) != unicodedata.normalize("NFC", text).lower()


def cjk_bigrams(run: str) -> list[str]:
    """Overlapping bigrams of a CJK run; a single character stays a unigram."""
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


# A number glued to a word ("8000LP", "2ndform") is two words for search.
_DIGIT_LETTER = re.compile(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")


def words(text: str) -> list[str]:
    """Split text into words and CJK runs (runs are not yet split into bigrams)."""
    return _WORD.findall(_DIGIT_LETTER.sub(" ", unicodedata.normalize("NFC", text)))


def index_form(text: str) -> str:
    """The text as stored in the FTS index: CJK runs become space-separated bigrams."""
    text = _DIGIT_LETTER.sub(" ", text)
    return CJK_RUN.sub(lambda m: " " + " ".join(cjk_bigrams(m.group())) + " ", text)


def _quote(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def _term(word: str, *, prefix: bool = False) -> str:
    """One query term: a CJK run becomes a phrase of bigrams, other words are quoted."""
    if CJK_RUN.fullmatch(word):
        grams = cjk_bigrams(word)
        if len(grams) == 1 and len(word) == 1:
            return _quote(word) + "*"
        return _quote(" ".join(grams))
    return _quote(word.lower()) + ("*" if prefix else "")


def fts_query(
    text: str,
    *,
    operator: str = "AND",
    exact_columns: tuple[str, ...] = ("title", "body"),
    folded_column: str = "folded",
    prefix_last: bool = False,
) -> str | None:
    """Build a safe FTS5 MATCH expression for user text, or None if it has no words.

    Every word is quoted, so FTS5 syntax in user input (quotes, NEAR, column filters,
    ``*``) is searched as text. An accented query searches the as-written columns and the
    folded column, so accented matches score on both and rank first; an unaccented query
    searches the folded column only.
    """
    terms = words(text)
    if not terms:
        return None
    joiner = f" {operator} "

    def group(ws: list[str]) -> str:
        parts = [_term(w, prefix=prefix_last and i == len(ws) - 1) for i, w in enumerate(ws)]
        return "(" + joiner.join(parts) + ")"

    folded_terms = [fold(w) for w in terms]
    folded = "{" + folded_column + "} : " + group(folded_terms)
    if not has_diacritics(text):
        return folded
    exact = "{" + " ".join(exact_columns) + "} : " + group(terms)
    return f"({exact}) OR ({folded})"
