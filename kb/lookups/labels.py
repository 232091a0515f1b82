"""Labels for codes: languages (their names in ingest/data/languages.toml, where each language
is described once) and provenance (kb/data/labels.toml).

One place for the words a reader sees, shared by the CLI, composed answers and the website.
On the ``kb ask`` path: standard library only (the parsed file comes from the database's copy
when it is current, see kb.store.datafiles).
"""

from __future__ import annotations

from ..store import datafiles


def _labels() -> dict[str, dict[str, str]]:
    return datafiles.load("labels")


def language_names() -> dict[str, str]:
    """Code -> name of every language the package reads."""
    languages = datafiles.load("languages")["languages"]
    return {code: entry["name"] for code, entry in languages.items()}


def language_name(lang: str) -> str:
    """ "vi" -> "Vietnamese"; an unknown code is shown as it is."""
    return language_names().get(lang, lang)


def authority(provenance: str) -> str:
    """What a text is: "official rules text", "machine translation, not official"..."""
    labels = _labels()["provenance"]
    return labels.get(provenance, labels["unknown"])


def authority_noun(provenance: str) -> str:
    """The same as a noun: "a <noun> in Vietnamese"."""
    nouns = _labels()["provenance_noun"]
    return nouns.get(provenance, nouns["unknown"])
