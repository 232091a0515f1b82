"""The multilingual glossary (data/glossary.toml): official terms and their renderings.

Used by the build (rendering counts, the official-terms reading of machine translations), by
the translation checks, and by query understanding (a Vietnamese or Chinese query term maps to
the English term). Standard library only: this module is on the ``kb ask`` path.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

# Keys of a [[terms]] entry that hold renderings, and the language each stands for.
RENDERING_KEYS = {"vi": "vi", "zh": "zh", "en_mt": "en"}


@dataclass(frozen=True)
class Rendering:
    term: str
    lang: str  # language of the text: vi, zh, en
    source: str  # "vi", "zh", "en_mt" (English produced by machine translation), or "en"
    text: str
    preferred: bool = False
    note: str = ""
    reading: str = ""  # for machine-translation forms: what the official-terms reading says
    # Who gives it: "curated" (data/glossary.toml, whose notes say where each comes from), or
    # the provenance of the document whose own glossary states it ("official": a publisher's
    # translation of its rulebook's glossary).
    provenance: str = "curated"


@dataclass(frozen=True)
class Term:
    """A glossary term: curated (data/glossary.toml) or defined by a rulebook's own glossary,
    which gives its ``definition`` and the ``rule`` that states it (ingest/extract/glossaries)."""

    id: str
    game: str  # a game id, or "*" for every game
    en: str  # the official term (for a rulebook's glossary, the term as the rulebook writes it)
    en_forms: tuple[str, ...]
    renderings: tuple[Rendering, ...]
    definition: str = ""
    rule: str | None = None

    def applies_to(self, game: str) -> bool:
        return self.game in ("*", game)

    def preferred(self, lang: str) -> Rendering | None:
        return next((r for r in self.renderings if r.lang == lang and r.preferred), None)


def _word_pattern(forms: list[str]) -> re.Pattern[str]:
    """Whole-word, case-insensitive alternation of ``forms``, longest first (plural s allowed,
    and the singular of a form written plural: "Life Points" is also "life point")."""
    ordered = sorted(set(forms), key=lambda f: (-len(f), f))

    def form(f: str) -> str:
        if not (f[-1:].isascii() and f[-1:].isalpha()):
            return re.escape(f)
        if f[-1:] in "sS" and f[-2:-1].isalpha() and f[-2:-1] not in "sS" and len(f) > 3:
            return re.escape(f[:-1]) + "s?"
        return re.escape(f) + "s?"

    alternation = "|".join(form(f) for f in ordered)
    return re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...]
    # Renderings the curated file gives terms a rulebook's own glossary defines ([[renderings]]
    # of data/glossary.toml, ``term`` naming "<game>:<slug>"): the build adds them to that term.
    extra: tuple[Rendering, ...] = ()

    @property
    def by_id(self) -> dict[str, Term]:
        return {t.id: t for t in self.terms}

    def renderings(
        self, lang: str, *, source: str | None = None, game: str | None = None
    ) -> list[Rendering]:
        return [
            r
            for t in self.terms
            if game is None or t.applies_to(game)
            for r in t.renderings
            if r.lang == lang and (source is None or r.source == source)
        ]

    def english_forms(self, game: str | None = None) -> list[Rendering]:
        """The official English term and its other spellings, as renderings of source "en"."""
        out = []
        for t in self.terms:
            if game is None or t.applies_to(game):
                out += [
                    Rendering(t.id, "en", "en", form, preferred=(form == t.en))
                    for form in (t.en, *t.en_forms)
                ]
        return out

    def find(self, text: str, renderings: list[Rendering]) -> list[tuple[Rendering, int, int]]:
        """Non-overlapping occurrences of ``renderings`` in ``text``, longest match first."""
        if not renderings or not text:
            return []
        return _finder(tuple(renderings)).find(text)


class Finder:
    """Occurrences of a fixed list of renderings, prepared once for many texts."""

    def __init__(self, renderings: list[Rendering]) -> None:
        self.by_text: dict[str, Rendering] = {}
        for r in sorted(renderings, key=lambda r: (not r.preferred, r.term)):
            self.by_text.setdefault(r.text.lower(), r)
        self.pattern = _cached_pattern(tuple(sorted(self.by_text))) if self.by_text else None

    def find(self, text: str) -> list[tuple[Rendering, int, int]]:
        if self.pattern is None or not text:
            return []
        found = []
        for m in self.pattern.finditer(text):
            key = m.group().lower()
            rendering = (
                self.by_text.get(key) or self.by_text.get(key[:-1]) or self.by_text.get(key + "s")
            )
            if rendering:
                found.append((rendering, m.start(), m.end()))
        return found


@cache
def _finder(renderings: tuple[Rendering, ...]) -> Finder:
    """One Finder per list of renderings: building it sorts and indexes them, which costs far
    more than a lookup (the build asks the same lists about every rule)."""
    return Finder(list(renderings))


@cache
def _cached_pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    return _word_pattern(list(forms))


def _renderings(term: str, entry: dict) -> tuple[Rendering, ...]:
    return tuple(
        Rendering(
            term,
            lang,
            key,
            r["text"],
            bool(r.get("preferred")),
            r.get("note", ""),
            r.get("reading", ""),
        )
        for key, lang in RENDERING_KEYS.items()
        for r in entry.get(key, [])
    )


def _parse(data: dict) -> Glossary:
    terms = tuple(
        Term(
            entry["id"],
            entry["game"],
            entry["en"],
            tuple(entry.get("en_forms", [])),
            _renderings(entry["id"], entry),
        )
        for entry in data["terms"]
    )
    extra = tuple(r for e in data.get("renderings", []) for r in _renderings(e["term"], e))
    return Glossary(terms, extra)


@cache
def load_glossary() -> Glossary:
    text = resources.files("ingest").joinpath("data/glossary.toml").read_text(encoding="utf-8")
    return _parse(tomllib.loads(text))
