"""The languages the knowledge base reads (data/languages.toml), and a corpus's additions.

Each language says how it is written and read: its script and the letters and marks only it
writes (language detection, ingest/langdetect.py), whether search folds its diacritics (the
index's folded column, kb/store/corpus.py), which stemmer its words take (ingest/text.py). A
corpus adds a language, or changes one, with a ``[languages.<code>]`` table in its
``sources.toml`` (ingest/manifest.py validates it with ``parse``). The stemmer is read by
ingest/text.py itself, which kb ask imports and which must not load these dataclasses.
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

SCRIPTS = ("latin", "han", "kana")
_KEYS: dict[str, type] = {
    "name": str,
    "script": str,
    "default": bool,
    "letters": str,
    "marks": list,
    "share": float,
    "fold_diacritics": bool,
    "stemmer": str,
    "dictionary": str,
}


class LanguageError(ValueError):
    """A language table that cannot be read; the message names the table and the field."""


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    script: str
    default: bool = False
    letters: frozenset[str] = frozenset()
    marks: frozenset[str] = frozenset()
    share: float = 0.0
    fold_diacritics: bool = True
    stemmer: str = ""
    dictionary: str = ""

    def writes(self, word: str) -> bool:
        """Whether ``word`` shows a letter or a mark only this language writes."""
        if any(ch in self.letters for ch in word):
            return True
        return bool(self.marks) and any(
            ch in self.marks for ch in unicodedata.normalize("NFD", word)
        )


def parse(code: str, entry: Any, where: str = "languages") -> Language:
    """A ``[languages.<code>]`` table; LanguageError names what is wrong."""
    table = f"[{where}.{code}]"
    if not isinstance(entry, dict):
        raise LanguageError(f"{table} must be a table")
    unknown = sorted(set(entry) - set(_KEYS))
    if unknown:
        raise LanguageError(f"{table}: unknown field(s) {', '.join(unknown)}")
    for key, value in entry.items():
        kind = _KEYS[key]
        ok = (
            isinstance(value, (int, float)) and not isinstance(value, bool)
            if kind is float
            else (isinstance(value, kind))
        )
        if not ok:
            raise LanguageError(f"{table}: field '{key}' must be a {kind.__name__}")
    if "name" not in entry or "script" not in entry:
        raise LanguageError(f"{table}: 'name' and 'script' are required")
    if entry["script"] not in SCRIPTS:
        raise LanguageError(f"{table}: script must be one of {', '.join(SCRIPTS)}")
    letters = entry.get("letters", "")
    return Language(
        code=code,
        name=entry["name"],
        script=entry["script"],
        default=entry.get("default", False),
        letters=frozenset(letters.lower() + letters.upper()),
        marks=frozenset(str(m) for m in entry.get("marks", [])),
        share=float(entry.get("share", 0.0)),
        fold_diacritics=entry.get("fold_diacritics", True),
        stemmer=entry.get("stemmer", ""),
        dictionary=entry.get("dictionary", ""),
    )


@cache
def packaged() -> tuple[Language, ...]:
    """The languages shipped with the package, in the data file's order."""
    text = resources.files("ingest").joinpath("data/languages.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)["languages"]
    return tuple(parse(code, entry) for code, entry in data.items())


def with_additions(additions: tuple[Language, ...] = ()) -> tuple[Language, ...]:
    """The packaged languages with a corpus's: a new code is added after them, a known code
    replaced where it stands."""
    if not additions:
        return packaged()
    added = {lang.code: lang for lang in additions}
    known = [added.pop(lang.code, lang) for lang in packaged()]
    return (*known, *added.values())


def by_code(languages: tuple[Language, ...] | None = None) -> dict[str, Language]:
    return {lang.code: lang for lang in languages or packaged()}
