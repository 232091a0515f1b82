"""English inflections for matching a question's words in passages ("moving" is "move",
"copies" is "copy").

On the ``kb ask`` path: standard library only.
"""

from __future__ import annotations

import os
import re

from ingest.text import fold, words

from .question import stopwords


def crude_stem(word: str) -> str | None:
    """A crude English stem for a prefix query ("triggers" -> "trigger"), or None."""
    if not word.isascii() or not word.isalpha() or len(word) < 5:
        return None
    stem = re.sub(r"(ing|ed|es|s)$", "", word)
    return stem if len(stem) >= 4 and stem != word else None


_SUFFIX = "(?:s|es|ed|d|ing)?"


def _bases(word: str) -> list[str]:
    """What an inflected English word may be built on: "moving" on "move", "changes" on
    "change", "copies" on "copy", "stopped" on "stop". A stem shorter than three letters is
    not guessed at ("thing" is not "the" + "ing")."""
    bases = [word]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            bases += [base, base + "e"]
            if base[-1] == base[-2] and len(base) > 3:
                bases.append(base[:-1])  # "stopped", "running"
    if word.endswith("ies"):
        bases.append(word[:-3] + "y")
    elif word.endswith(("ses", "xes", "zes", "ches", "shes")):
        bases.append(word[:-2])
    elif word.endswith("s") and not word.endswith("ss"):
        bases.append(word[:-1])
    # A guess that is a function word ("noted" on "not") would match nearly every passage.
    return [b for b in dict.fromkeys(bases) if len(b) >= 3 and (b == word or b not in stopwords())]


def _inflected(word: str) -> str:
    """Regex of an English word in any of its inflections; other words as they are."""
    if not (word.isascii() and word.isalpha() and len(word) > 2):
        return re.escape(word)
    bases = _bases(word) if len(word) >= 5 and word not in stopwords() else [word]
    alternation = "|".join(re.escape(b) for b in sorted(bases, key=len, reverse=True))
    return f"(?:{alternation}){_SUFFIX}"


def needles(form: str) -> tuple[str, ...]:
    """Strings a text must contain for the form's pattern to match: each word's shortest base."""
    out = []
    for w in words(fold(form)):
        inflectable = w.isascii() and w.isalpha() and len(w) >= 5
        # What every inflection shares ("copies", "copy": "cop").
        out.append(os.path.commonprefix(_bases(w)) if inflectable else w)
    return tuple(out)


def form_pattern(form: str, *, loose: bool = False) -> re.Pattern[str] | None:
    """A form as whole words of folded text, each English word with its inflections.

    ``loose`` lets up to three other words stand between the form's words, for everyday
    paraphrases ("no cards in deck" finds "no cards in their main deck").
    """
    ws = words(fold(form))
    if not ws:
        return None
    parts = [_inflected(w) for w in ws]
    gap = r"(?:\s+\S+){0,3}\s+" if loose else r"\s+"
    return re.compile(r"(?<!\w)" + gap.join(parts) + r"(?!\w)")
