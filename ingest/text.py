"""When two words are "the same": the one place that says so, for ingest, search, ask and the
site.

* **Scripts**: which characters are Chinese/Japanese (``CJK_RUN``, ``HAN``, ``KANA``) and which
  letters only Vietnamese writes (``VI_ONLY_LETTERS``, ``VI_TONE_MARKS``, ``VI_LETTERS``).
* **Folding** (``fold``): lower case without diacritics, ``đ`` -> ``d``: an unaccented query
  matches accented text.
* **Words** (``words``): letters runs and CJK runs; a number glued to a word is two words.
  ``tokens`` are runs of non-space instead, punctuation kept: what a word diff shows.
  CJK runs are indexed as overlapping bigrams (``cjk_bigrams``, ``index_form``), the approach
  of Lucene's CJK analyzer, so a two-character word such as 闪电 is one token.
* **Keys**: ``name_key`` (card and other names: "D.D." is "dd"), ``plural_key`` ("Spells" is
  "spell"), ``compare_form`` (what version and duplicate comparisons look at),
  ``squash_spaces``.
* **Stems** (``stem``): English inflections ("negated", "negates" are "negate"; "copies" is
  "copy") through the Snowball English stemmer (PyStemmer, Snowball's C implementation: a
  millisecond to import, a microsecond a word, so ``kb ask`` stems passages as it reads them).

Standard library only at import time: this module is on the ``kb ask`` path.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any

# ---- scripts -----------------------------------------------------------------------------
_KANA_RANGE = "\u3040-\u30ff"
_HAN_RANGE = (
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # compatibility ideographs
)
_CJK = _KANA_RANGE + _HAN_RANGE
CJK_RUN = re.compile(f"[{_CJK}]+")
# Characters of scripts written without spaces between words: Han, kana, and their
# punctuation (CJK symbols, full-width forms). Compared by code point: compiling a character
# class this wide costs every kb ask process 3 ms.
_UNSPACED = (
    (0x3000, 0x30FF),  # CJK symbols and punctuation, kana
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFF00, 0xFFEF),  # full-width forms
)


def unspaced(ch: str) -> bool:
    """Whether ``ch`` (its first character) belongs to a script written without spaces."""
    if not ch:
        return False
    point = ord(ch[0])
    return any(low <= point <= high for low, high in _UNSPACED)


def text_width(text: str) -> int:
    """Display columns of ``text``: Chinese and Japanese characters and full-width forms take
    two, as a PDF's layout set them."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def join_wrapped(before: str, after: str) -> str:
    """Two pieces of one text that a line break split: a space between them, except where
    either side is a script written without spaces ("构" + "组的卡组" is "构组的卡组")."""
    before, after = before.rstrip(), after.lstrip()
    if not before or not after:
        return before + after
    glue = "" if unspaced(before[-1]) or unspaced(after[0]) else " "
    return before + glue + after


def find_whole_word(text: str, word: str) -> tuple[int, int] | None:
    """Where ``word`` first stands in ``text`` as a whole word, a run of Chinese or Japanese
    next to it a boundary too ("fow主卡组": Chinese writes no space after a Latin name).
    Checked by hand: a regex class of every CJK range costs milliseconds to compile per word."""

    def inside(ch: str) -> bool:
        return (ch.isalnum() or ch == "_") and not CJK_RUN.match(ch)

    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if not (at and inside(text[at - 1])) and not (end < len(text) and inside(text[end])):
            return at, end
        at = text.find(word, at + 1)
    return None


# Han and kana apart (HAN, KANA): compiled on first use, as kb ask never needs them and a
# class this large costs milliseconds to compile.
_LAZY_PATTERNS = {"HAN": f"[{_HAN_RANGE}]", "KANA": f"[{_KANA_RANGE}]"}


def __getattr__(name: str) -> re.Pattern[str]:
    if name in _LAZY_PATTERNS:
        pattern = re.compile(_LAZY_PATTERNS[name])
        globals()[name] = pattern
        return pattern
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Letters only Vietnamese writes (among the corpus languages), and its five tone marks.
VI_ONLY_LETTERS = frozenset("ăâđêôơưĂÂĐÊÔƠƯ")
VI_TONE_MARKS = frozenset("\u0300\u0301\u0303\u0309\u0323")
_VI_VOWELS = "aăâeêioôơuưy"
# Every letter written Vietnamese uses beyond ASCII (vowels with any tone, and đ).
VI_LETTERS = frozenset(
    unicodedata.normalize("NFC", base + mark)
    for base in _VI_VOWELS + _VI_VOWELS.upper()
    for mark in ("", *sorted(VI_TONE_MARKS))
) | frozenset("đĐ")

# A run of letters and digits, apostrophes inside ("don't"); a run holding CJK is split into
# its CJK runs and the letter runs between them. (One pattern with the CJK ranges excluded
# from the letters reads the same but takes milliseconds to compile, on every kb ask.)
_RUN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


# Words of letters only, hyphens and apostrophes inside ("J-Ruler", "don't"): what the
# translation alignment and checks compare between languages (numbers are compared apart).
LETTER_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _word_matches(text: str) -> list[tuple[int, int]]:
    """(start, end) of each word and CJK run of ``text``, in order."""
    if not CJK_RUN.search(text):
        return [m.span() for m in _RUN.finditer(text)]
    out: list[tuple[int, int]] = []
    for m in _RUN.finditer(text):
        run, start = m.group(), m.start()
        if not CJK_RUN.search(run):
            out.append((start, m.end()))
            continue
        at = 0
        for c in CJK_RUN.finditer(run):
            out += [(start + at + p.start(), start + at + p.end())
                    for p in _RUN.finditer(run[at : c.start()])]  # fmt: skip
            out.append((start + c.start(), start + c.end()))
            at = c.end()
        out += [(start + at + p.start(), start + at + p.end()) for p in _RUN.finditer(run[at:])]
    return out


# ---- folding -----------------------------------------------------------------------------
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


def writing_language(text: str) -> str:
    """The language a name is written in, by its script alone: zh (CJK), vi (Vietnamese
    letters or tone marks, or a word only Vietnamese writes), else en."""
    if CJK_RUN.search(text):
        return "zh"
    if has_diacritics(text) or any(is_vietnamese_word(w) for w in words(text)):
        return "vi"
    return "en"


def is_vietnamese_word(word: str) -> bool:
    """A word only Vietnamese writes: a Vietnamese-only letter or a tone mark."""
    if any(ch in VI_ONLY_LETTERS for ch in word):
        return True
    return any(ch in VI_TONE_MARKS for ch in unicodedata.normalize("NFD", word))


# ---- words -------------------------------------------------------------------------------
# A number glued to a word ("8000LP", "2ndform") is two words for search.
_DIGIT_LETTER = re.compile(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")


def words(text: str) -> list[str]:
    """Split text into words and CJK runs (runs are not yet split into bigrams)."""
    text = _DIGIT_LETTER.sub(" ", unicodedata.normalize("NFC", text))
    if not CJK_RUN.search(text):
        return _RUN.findall(text)
    return [text[a:b] for a, b in _word_matches(text)]


def word_spans(text: str) -> list[tuple[str, int, int]]:
    """The words of an NFC text as ``words`` splits them, with where each stands in it."""
    out = []
    for start, end in _word_matches(text):
        for piece in _DIGIT_LETTER.split(text[start:end]):
            if piece:
                out.append((piece, start, start + len(piece)))
            start += len(piece)
    return out


_TOKEN = re.compile(r"\S+")


def tokens(text: str) -> list[str]:
    """Runs of non-space characters: the units a word diff shows. Unlike ``words``, nothing
    is dropped (punctuation stays on its word), so a diff can be read as the text; compare
    them with ``compare_form``."""
    return _TOKEN.findall(text)


@cache
def _plain_word() -> re.Pattern[str]:
    # Compiled on first use: a Unicode class costs milliseconds, and kb ask never needs it.
    return re.compile(rf"[{_CJK}]+|[^\W\d_]+", re.UNICODE)


def plain_words(text: str) -> list[str]:
    """Letter runs and CJK runs, without digits: what language detection counts."""
    return _plain_word().findall(text)


def cjk_bigrams(run: str) -> list[str]:
    """Overlapping bigrams of a CJK run; a single character stays a unigram."""
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def index_form(text: str) -> str:
    """The text as stored in the FTS index: CJK runs become space-separated bigrams."""
    text = _DIGIT_LETTER.sub(" ", text)
    return CJK_RUN.sub(lambda m: " " + " ".join(cjk_bigrams(m.group())) + " ", text)


def folded_words(text: str) -> str:
    """The folded words of a text, one space apart: the key phrases are matched on."""
    return " ".join(words(fold(text)))


# ---- keys --------------------------------------------------------------------------------
_SPACE = re.compile(r"\s+")
_NAME_DROP = str.maketrans("", "", ".'’\"“”")
_NON_WORD = re.compile(r"[\W_]+")


def squash_spaces(text: str) -> str:
    """Runs of white space as one space, trimmed."""
    return _SPACE.sub(" ", text).strip()


def name_key(text: str) -> str:
    """How names are compared (cards, aliases): case-folded, without quotes and full stops,
    other punctuation as spaces: "D.D." -> "dd", "Harpie’s" -> "harpies"."""
    text = unicodedata.normalize("NFC", text).casefold().translate(_NAME_DROP)
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def plural_key(word: str) -> str:
    """A word without its plural ``s``, case-folded: "Spells" and "spell" are the same word
    (where inflections would say too much: "limited" is not "limit")."""
    word = word.lower().replace("’", "'")
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def compare_form(text: str) -> str:
    """Case-folded words (NFKC) separated by single spaces: what version diffs compare."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


# ---- stems -------------------------------------------------------------------------------
_STEMMABLE = re.compile(r"[a-z][a-z'’]{2,}")


_LANGUAGES: dict[str, Any] = {}


def use_languages(data: dict[str, Any]) -> None:
    """data/languages.toml as a caller has it parsed already (kb ask: the database's copy), so
    the stemmer is chosen without importing tomllib (7 ms of a kb ask process)."""
    _LANGUAGES.update(data)


@cache
def _stemmer() -> Any:  # PyStemmer has no type hints; None when the data names no stemmer
    """The Snowball stemmer of the default Latin-script language (data/languages.toml), read
    without ingest/languages.py: its dataclasses cost kb ask more than the file does."""
    if _LANGUAGES:
        languages = _LANGUAGES["languages"].values()
    else:
        import tomllib
        from pathlib import Path

        # A plain file read: importlib.resources would cost kb ask 7 ms of imports (tempfile,
        # zipfile); the package is installed as files, as queries/ is read.
        text = (Path(__file__).parent / "data" / "languages.toml").read_text(encoding="utf-8")
        languages = tomllib.loads(text)["languages"].values()
    name = next((entry.get("stemmer", "") for entry in languages if entry.get("default")), "")
    if not name:
        return None
    import Stemmer  # PyStemmer

    return Stemmer.Stemmer(name)


def stemmable(word: str) -> bool:
    """English words of three letters or more have stems; other words are their own."""
    return _STEMMABLE.fullmatch(word) is not None


@cache
def stem(word: str) -> str:
    """The Snowball stem of a folded word ("negated" -> "negat", "copies" -> "copi") by the
    default language's stemmer (data/languages.toml: English); a word not of that language
    (CJK, Vietnamese, digits, short) is its own stem."""
    stemmer = _stemmer() if stemmable(word) else None
    if stemmer is None:
        return word
    return str(stemmer.stemWord(word.replace("’", "'")))


def version_key(version: str) -> tuple[int, ...]:
    """Order versions numerically, so "8.01" follows "7.0" and "10.0" follows "9.1"."""
    return tuple(int(n) for n in re.findall(r"\d+", version))
