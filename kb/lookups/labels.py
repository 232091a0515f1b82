"""Labels for codes: languages (their names in ingest/data/languages.toml, where each language
is described once) and provenance (kb/data/labels.toml).

One place for the words a reader sees, shared by the CLI, composed answers and the website.
On the ``kb ask`` path: standard library only (the parsed file comes from the database's copy
when it is current, see kb.store.datafiles).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

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


# ---------------------------------------------------------------------------------------------
# What a reader sees instead of internal names (rule ids, file names, source ids)


def short_title(title: str) -> str:
    """A document's title without its subtitle: "Force of Will basic rules: objectives, ..." ->
    "Force of Will basic rules"."""
    head = title.split(":", 1)[0].strip()
    return head or title.strip()


def rule_label(rule_id: str, number: str | None, section_title: str | None = None) -> str:
    """What a link to a rule says: its number ("105.4") when the document numbers its rules,
    else its section's title and its place in the section ("Vấn đề Honest ¶5"), never the id."""
    if number:
        return number
    slug = rule_id.split(":", 1)[-1]
    place = slug.rsplit(".", 1)[-1] if "." in slug else ""
    title = (section_title or "").strip()
    if title and place.isdigit():
        return f"{title} ¶{place}"
    return title or slug.replace("-", " ")


def lines_label(start: int | None, end: int | None = None) -> str:
    """ "line 26", "lines 93-94": where a rule is in its document's source file."""
    if start is None:
        return "line unknown"
    if end and end != start:
        return f"lines {start}-{end}"
    return f"line {start}"


_SOURCE_REF = re.compile(r"\(([\w.-]+)\)")


def name_sources(text: str, documents: Iterable[Mapping[str, Any]]) -> str:
    """``text`` with a source cited by its file's number or the document's id, as curated notes
    do ("the 2010-era TCG rulings (003)"), cited by what the document is instead ("(the
    community text in Vietnamese)"), in the note's own words and language."""
    names: dict[str, str] = {}
    for d in documents:
        title = f"the {authority_noun(d['provenance'])} in {language_name(d['lang'])}"
        names[d["id"]] = title
        stem = str(d.get("file") or "").rsplit(".", 1)[0]
        if stem:
            names.setdefault(stem, title)
            names.setdefault(stem.split("_", 1)[0], title)
    if not text or not names:
        return text
    return _SOURCE_REF.sub(lambda m: f"({names[m[1]]})" if m[1] in names else m[0], text)


def narrate(key: str, lang: str = "en", **fields: object) -> str:
    """A narration template of kb/data/labels.toml [narration.<lang>] filled in: the
    sentences a composed answer tells a worked example with."""
    templates: dict[str, str] = datafiles.load("labels")["narration"][lang]
    return templates[key].format(**fields)
