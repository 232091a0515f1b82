"""Language of a segment: en, vi, zh, or a mix (``langs`` lists every language present).

Script evidence decides, word by word: a word with a Vietnamese-only letter or tone mark is
Vietnamese, a run of Han characters is Chinese, kana is Japanese, other Latin words count as
English. This is enough for the corpus languages, costs nothing, and is deterministic; a
statistical detector would add a model download or a large dependency for no gain here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .text import HAN, KANA, is_vietnamese_word, plain_words

# A share of Vietnamese words above this makes a Latin-script segment Vietnamese: machine
# translations leave English terms in Vietnamese sentences, never the other way round.
_VI_SHARE = 0.2
# A second language is listed when it has at least this share of the words.
_MIXED_SHARE = 0.1


@dataclass(frozen=True)
class Detected:
    lang: str  # primary language, "und" when there is no evidence
    langs: str  # every language present, "+"-joined in a fixed order, e.g. "en+zh"


def word_languages(text: str) -> dict[str, int]:
    """Count words per language; Chinese and Japanese, written without spaces, by characters."""
    counts = {"en": 0, "vi": 0, "zh": 0, "ja": 0}
    cjk_chars = {"zh": 0, "ja": 0}
    for word in plain_words(text):
        if KANA.search(word):
            cjk_chars["ja"] += len(word)
        elif HAN.match(word):
            cjk_chars["zh"] += len(word)
        elif is_vietnamese_word(word):
            counts["vi"] += 1
        elif word.isascii():
            counts["en"] += 1
    # About two characters make a word in running Chinese or Japanese text.
    for lang, chars in cjk_chars.items():
        counts[lang] = (chars + 1) // 2
    return counts


def detect_language(text: str) -> Detected:
    counts = word_languages(text)
    latin = counts["en"] + counts["vi"]
    if latin and counts["vi"] / latin >= _VI_SHARE:
        counts["vi"] += counts["en"]
        counts["en"] = 0
    total = sum(counts.values())
    if not total:
        return Detected("und", "und")
    primary = max(("en", "vi", "zh", "ja"), key=lambda k: (counts[k], k == "en"))
    present = [
        k for k in ("en", "vi", "zh", "ja") if counts[k] and counts[k] / total >= _MIXED_SHARE
    ]
    if primary not in present:
        present.insert(0, primary)
    return Detected(primary, "+".join(present))
