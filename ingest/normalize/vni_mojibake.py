"""repair_vni_mojibake: Vietnamese typed in the legacy VNI encoding and read as Latin-1.

``khu vöïc`` is ``khu vực``: in VNI-Windows ``ö`` is ``ư`` and ``ï`` is the dot-below tone
mark placed after its vowel. Only words holding a character that never occurs in Vietnamese
Unicode text (ö, ï, ø, û, æ, î, ñ, ë, ü, ä, å) are candidates, and a candidate is repaired
only if the decoded word is a well-formed Vietnamese syllable.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from ..records import Line
from .base import Context, sub_recorded

# VNI-Windows letters that stand for a whole Vietnamese letter.
_LETTERS = {
    "ö": "ư",
    "Ö": "Ư",
    "ô": "ơ",
    "Ô": "Ơ",
    "ñ": "đ",
    "Ñ": "Đ",
    "ò": "ị",
    "Ò": "Ị",
    "æ": "ỉ",
    "Æ": "Ỉ",
    "ó": "ĩ",
    "Ó": "Ĩ",
    "î": "ỵ",
    "Î": "Ỵ",
}
# VNI-Windows bytes written after a vowel: tone marks, circumflex (â) and breve (ê), and the
# precomposed circumflex+tone (á à å ã ä) and breve+tone (é è ú ü ë) pairs.
_MARKS = {
    "ù": "\u0301",
    "ø": "\u0300",
    "û": "\u0309",
    "õ": "\u0303",
    "ï": "\u0323",
    "â": "\u0302",
    "ê": "\u0306",
    "á": "\u0302\u0301",
    "à": "\u0302\u0300",
    "å": "\u0302\u0309",
    "ã": "\u0302\u0303",
    "ä": "\u0302\u0323",
    "é": "\u0306\u0301",
    "è": "\u0306\u0300",
    "ú": "\u0306\u0309",
    "ü": "\u0306\u0303",
    "ë": "\u0306\u0323",
}
_MARKS.update({k.upper(): v for k, v in list(_MARKS.items())})
_TELLTALE = set("öïøûæîñëüäåÖÏØÛÆÎÑËÜÄÅ")
_VOWELS = set("aeiouyăâêôơư")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
# Initial consonants, vowel nucleus, final consonants of a Vietnamese syllable (folded).
_SYLLABLE = re.compile(
    r"^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdđghklmnpqrstvx])?"
    r"[aeiouyăâêôơư]{1,3}"
    r"(ng|nh|ch|[cmnpt])?$"
)


def decode_vni(word: str) -> str | None:
    """The Vietnamese word a VNI-encoded ``word`` stands for, or None if it is not one."""
    out: list[str] = []
    for ch in word:
        if ch in _LETTERS:
            out.append(_LETTERS[ch])
        elif (
            ch in _MARKS
            and out
            and unicodedata.normalize("NFD", out[-1])[0].lower() in _VOWELS | {"ư", "ơ"}
        ):
            out.append(_MARKS[ch])
        elif ch.isascii():
            out.append(ch)
        else:
            return None
    decoded = unicodedata.normalize("NFC", "".join(out))
    base = "".join(
        c
        for c in unicodedata.normalize("NFD", decoded.lower())
        if c not in "\u0300\u0301\u0303\u0309\u0323"
    )
    base = unicodedata.normalize("NFC", base)
    return decoded if _SYLLABLE.match(base) else None


def _repl(m: re.Match[str]) -> str:
    word = m.group()
    if not _TELLTALE.intersection(word):
        return word
    return decode_vni(word) or word


def repair_vni_mojibake(lines: list[Line], ctx: Context) -> list[Line]:
    out = []
    for line in lines:
        if _TELLTALE.intersection(line.text):
            line = replace(line, text=sub_recorded(_WORD, _repl, line, ctx, "repair_vni_mojibake"))
        out.append(line)
    return out
