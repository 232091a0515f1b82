"""Exports for translators: a TMX translation memory per language pair, a TBX termbase of
the glossary, and the translation checks as CSV.

TMX and TBX are written with translate-toolkit (``translate.storage.tmx``, ``.tbx``), the
library CAT tools and pofilter are built on, so the files open in OmegaT, Virtaal or Pootle
and round-trip through translate-toolkit's own readers; nothing here writes XML by hand.

Every function takes an open connection (``kb.store.db.connect``), writes ``path`` when given and
returns the file's bytes either way.
"""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

from lxml import etree
from translate.storage import tbx, tmx

from ingest.glossary import Glossary, Rendering, load_glossary

from ..store.db import run

# TMX <prop> types carrying where a unit comes from; TMX reserves types starting "x-" for tools.
TMX_PROPS = (
    "x-source-rules",
    "x-target-rules",
    "x-source-document",
    "x-target-document",
    "x-variant",
    "x-alignment-method",
    "x-alignment-score",
)
CHECK_COLUMNS = (
    "id",
    "target_document",
    "variant",
    "check",
    "severity",
    "rule",
    "alignment",
    "source_rules",
    "term",
    "detail",
)
# TBX administrative status of a rendering (ISO 12620 values, as translate-toolkit reads them).
PREFERRED, ADMITTED, DEPRECATED = (
    "preferredTerm-admn-sts",
    "admittedTerm-admn-sts",
    "deprecatedTerm-admn-sts",
)


def _finish(data: bytes, path: Path | str | None) -> bytes:
    if path is not None:
        Path(path).write_bytes(data)
    return data


def language_pairs(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(source language, target language) of every aligned document pair, e.g. ("en", "vi")."""
    return [(row["source_lang"], row["target_lang"]) for row in run(conn, "language_pairs")]


def export_tmx(
    conn: sqlite3.Connection,
    source_lang: str = "en",
    target_lang: str = "vi",
    path: Path | str | None = None,
) -> bytes:
    """A TMX of every link from a ``source_lang`` rule to ``target_lang`` rules.

    One unit per link that has both sides (1-0 and 0-1 links have nothing to remember). The
    unit's texts are the rules' texts, joined by a space when a side has several rules; its
    ``tuid`` is the alignment id, its ``x-context`` the first source rule, and props name all
    the rules, both documents, the variant and how the link was found.
    """
    members: dict[int, dict[str, list[tuple[str, str]]]] = {}
    for row in run(conn, "tmx_members"):
        sides = members.setdefault(row["alignment"], {"source": [], "target": []})
        sides[row["side"]].append((row["rule"], row["text"]))
    store = tmx.tmxfile(sourcelanguage=source_lang, targetlanguage=target_lang)
    for link in run(conn, "tmx_links", source_lang=source_lang, target_lang=target_lang):
        alignment = link["id"]
        sides = members[alignment]
        unit = store.addsourceunit(" ".join(text for _, text in sides["source"]))
        unit.settarget(" ".join(text for _, text in sides["target"]))
        unit.xmlelement.set("tuid", str(alignment))
        unit.setcontext(sides["source"][0][0])
        values = (
            " ".join(rule for rule, _ in sides["source"]),
            " ".join(rule for rule, _ in sides["target"]),
            link["source_document"],
            link["target_document"],
            link["variant"],
            link["method"],
            f"{link['score']:.4f}",
        )
        _add_props(unit, dict(zip(TMX_PROPS, values, strict=True)))
    return _finish(bytes(store), path)


def _add_props(unit: tmx.tmxunit, props: dict[str, str]) -> None:
    """``<prop type=...>`` elements on a unit, before its ``<tuv>``s as the TMX DTD orders them.

    translate-toolkit has a setter for the ``x-context`` prop only; the others are added to the
    unit's own element tree, named in its namespace.
    """
    first_tuv = unit.xmlelement.find(unit.namespaced("tuv"))
    for kind, value in props.items():
        prop = etree.Element(unit.namespaced("prop"))
        prop.set("type", kind)
        prop.text = value
        first_tuv.addprevious(prop)


def read_tmx_props(unit: tmx.tmxunit) -> dict[str, str]:
    """The ``<prop>`` elements of a unit read back, type -> text."""
    return {
        p.get("type"): p.text or "" for p in unit.xmlelement.iterchildren(unit.namespaced("prop"))
    }


def _status(rendering: Rendering) -> str:
    """Preferred; deprecated for what machine translation produced (``en_mt``, or a note that
    says "machine translation", the glossary's label for it); admitted otherwise."""
    if rendering.preferred:
        return PREFERRED
    if rendering.source == "en_mt" or "machine translation" in rendering.note:
        return DEPRECATED
    return ADMITTED


def export_tbx(
    conn: sqlite3.Connection,
    path: Path | str | None = None,
    glossary: Glossary | None = None,
) -> bytes:
    """A TBX termbase of the glossary (ingest/data/glossary.toml): one entry per term.

    The English langSet holds the official term, its other spellings and the English that
    machine translation produced instead (``en_mt``, deprecated); each other language holds
    its renderings, the preferred one first. Each term carries its administrative status
    (preferred, admitted, deprecated for machine-translation renderings) and its note; the
    entry names the game it belongs to, by its name in the database.
    """
    glossary = glossary or load_glossary()
    games = {row["id"]: row["name"] for row in run(conn, "game_names")}
    store = tbx.tbxfile(sourcelanguage="en")
    for term in glossary.terms:
        unit = store.addsourceunit(term.en)
        unit.setid(term.id)
        english = [Rendering(term.id, "en", "en", term.en, preferred=True)]
        english += [Rendering(term.id, "en", "en", form) for form in term.en_forms]
        by_lang: dict[str, list[Rendering]] = {"en": english}
        for rendering in term.renderings:
            by_lang.setdefault(rendering.lang, []).append(rendering)
        for lang, renderings in by_lang.items():
            ordered = _unique(sorted(renderings, key=lambda r: not r.preferred))
            texts = [r.text for r in ordered]
            if lang == "en":
                unit.set_source_terms(texts, lang)
                language = unit.source_dom
            else:
                unit.set_target_terms(texts, lang)
                language = unit.get_target_dom(lang)
            for tig, rendering in zip(
                language.iterchildren(unit.namespaced("tig")), ordered, strict=True
            ):
                _term_note(unit, tig, "administrativeStatus", _status(rendering))
                if rendering.note:
                    note = etree.SubElement(tig, unit.namespaced("note"))
                    note.text = rendering.note
        game = "every game" if term.game == "*" else games.get(term.game, term.game)
        unit.addnote(f"game: {game}", origin="definition")
    return _finish(bytes(store), path)


def _unique(renderings: list[Rendering]) -> list[Rendering]:
    """First rendering of each text (a term listed both as official and as MT output)."""
    seen: set[str] = set()
    out = []
    for r in renderings:
        if r.text not in seen:
            seen.add(r.text)
            out.append(r)
    return out


def _term_note(unit: tbx.tbxunit, tig: etree._Element, kind: str, value: str) -> None:
    note = etree.SubElement(tig, unit.namespaced("termNote"))
    note.set("type", kind)
    note.text = value


def export_checks_csv(conn: sqlite3.Connection, path: Path | str | None = None) -> bytes:
    """The translation checks as CSV (UTF-8, a header row, one row per finding).

    ``source_rules`` lists the source rules of the link a finding is about, so a reviewer
    can open both sides without a second lookup.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CHECK_COLUMNS)
    for row in run(conn, "checks_export"):
        writer.writerow(["" if value is None else value for value in row.values()])
    return _finish(buffer.getvalue().encode("utf-8"), path)
