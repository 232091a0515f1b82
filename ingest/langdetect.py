"""Language of a segment: its primary language and every language present (``langs``).

Script evidence decides, word by word, from the languages' data (data/languages.toml, and a
corpus's additions): kana is the kana language's (Japanese), a run of Han characters the Han
language's (Chinese), a Latin word showing letters or marks only one language writes is that
language's (Vietnamese: ă, ơ, the tone marks), any other Latin word the default language's
(English). This is enough for the corpus languages, costs nothing, and is deterministic; a
statistical detector would add a model download or a large dependency for no gain here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .languages import Language, packaged
from .text import HAN, KANA, plain_words

# A second language is listed when it has at least this share of the words.
_MIXED_SHARE = 0.1


@dataclass(frozen=True)
class Detected:
    lang: str  # primary language, "und" when there is no evidence
    langs: str  # every language present, "+"-joined in the data's order, e.g. "en+zh"


def _script(word: str) -> str:
    if KANA.search(word):
        return "kana"
    if HAN.match(word):
        return "han"
    return "latin"


def word_languages(text: str, languages: tuple[Language, ...] | None = None) -> dict[str, int]:
    """Count words per language; Chinese and Japanese, written without spaces, by characters
    (about two make a word in running text)."""
    languages = languages or packaged()
    counts = {lang.code: 0 for lang in languages}
    chars = dict.fromkeys(counts, 0)
    by_script = {s: next((x for x in languages if x.script == s), None) for s in ("han", "kana")}
    marked = [x for x in languages if x.script == "latin" and (x.letters or x.marks)]
    default = next((x for x in languages if x.default), None)
    # An ASCII word shows no language's own letters unless some language's are ASCII.
    plain_ascii = default.code if default is not None else ""
    if any(ch.isascii() for x in marked for ch in x.letters | x.marks):
        plain_ascii = ""
    for word in plain_words(text):
        if plain_ascii and word.isascii():
            counts[plain_ascii] += 1
            continue
        script = _script(word)
        if script != "latin":
            owner = by_script[script]
            if owner is not None:
                chars[owner.code] += len(word)
            continue
        owner = next((x for x in marked if x.writes(word)), None)
        if owner is not None:
            counts[owner.code] += 1
        elif default is not None and word.isascii():
            counts[default.code] += 1
    for code, n in chars.items():
        if n:
            counts[code] = (n + 1) // 2
    return counts


def detect_language(text: str, languages: tuple[Language, ...] | None = None) -> Detected:
    languages = languages or packaged()
    counts = word_languages(text, languages)
    default = next((x.code for x in languages if x.default), "")
    latin = [x for x in languages if x.script == "latin"]
    latin_words = sum(counts[x.code] for x in latin)
    # A language whose words are enough of a Latin segment takes the default language's too.
    for x in latin:
        if x.share and latin_words and counts[x.code] / latin_words >= x.share and default:
            counts[x.code] += counts[default]
            counts[default] = 0
            break
    total = sum(counts.values())
    if not total:
        return Detected("und", "und")
    order = [x.code for x in languages]
    primary = max(order, key=lambda k: (counts[k], k == default))
    present = [k for k in order if counts[k] and counts[k] / total >= _MIXED_SHARE]
    if primary not in present:
        present.insert(0, primary)
    return Detected(primary, "+".join(present))
