"""Glossary use at build time: rendering counts per document, and official-terms readings.

Counting finds, in every document, how often each rendering of each term occurs, matched as
whole words, longest first (so ``bộ cộng hưởng`` is not also counted as ``cộng hưởng``).
A machine translation from Chinese into English gets a second reading in which the renderings
the machine made (``cemetery``, ``Mantra speed``, ``chestnut ball``) are replaced by the
official terms and card names; the raw text stays as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from ..glossary import Finder, Glossary, Rendering
from ..records import CardAlias, DocumentResult, Reading, TermCount


def _finders(lang: str, game: str, machine: bool, glossary: Glossary) -> tuple[Finder, Finder]:
    """The renderings counted in a document of ``lang`` and ``game``, and the Chinese ones
    (counted too in a rule that holds Chinese)."""
    if lang in ("vi", "zh"):
        counted = glossary.renderings(lang, game=game)
    else:
        counted = glossary.english_forms(game)
        if machine:
            counted += glossary.renderings("en", source="en_mt", game=game)
    return Finder(counted), Finder(glossary.renderings("zh", game=game))


def count_terms(documents: Sequence[DocumentResult], glossary: Glossary) -> Iterator[TermCount]:
    """How often each rendering of ``glossary`` occurs in each document, one document's
    counts at a time (the build writes them as they come)."""
    # One pair of finders per kind of document, not a lookup of the list for every rule: the
    # rulebooks' own glossaries make the lists long, and hashing one per rule grew as rules x
    # terms (hours on bench/make_big_corpus.py's 100x corpus).
    finders: dict[tuple[str, str, bool], tuple[Finder, Finder]] = {}
    for d in documents:
        key = (d.doc.lang, d.doc.spec.game, d.doc.provenance == "machine")
        if key not in finders:
            finders[key] = _finders(*key, glossary)
        renderings, zh = finders[key]
        tally: Counter[Rendering] = Counter()
        for rule in d.rules:
            for rendering, _, _ in renderings.find(rule.text):
                tally[rendering] += 1
            if "zh" in rule.langs.split("+") and d.doc.lang != "zh":
                for rendering, _, _ in zh.find(rule.text):
                    tally[rendering] += 1
        for r, n in sorted(tally.items(), key=lambda kv: (kv[0].term, kv[0].lang, kv[0].text)):
            yield TermCount(r.term, d.doc.doc_id, r.lang, r.source, r.text, r.preferred, n)


def _match_case(original: str, replacement: str) -> str:
    return replacement[0].upper() + replacement[1:] if original[:1].isupper() else replacement


def readings(
    documents: Sequence[DocumentResult],
    glossary: Glossary,
    aliases: list[CardAlias],
    names: dict[str, str],
) -> list[Reading]:
    """Official-terms readings of machine translations into English (``names``: card id -> name)."""
    out: list[Reading] = []
    for d in documents:
        if d.doc.provenance != "machine" or d.doc.lang != "en":
            continue
        game = d.doc.spec.game
        targets = {
            r.text.casefold(): r.reading or glossary.by_id[r.term].en
            for r in glossary.renderings("en", source="en_mt", game=game)
            if r.reading != "-"
        }
        for a in aliases:
            if a.kind in ("en_mt", "zh"):
                targets.setdefault(a.alias.casefold(), names[a.card])
        renderings = [
            Rendering(official, "en", "en_mt", form) for form, official in targets.items()
        ]
        for rule in d.rules:
            hits = glossary.find(rule.text, renderings)
            if not hits:
                continue
            text, changes, pos = [], [], 0
            for rendering, start, end in hits:
                written = rule.text[start:end]
                official = targets.get(written.casefold())
                if official is None:  # a plural of the listed form
                    official = targets[rendering.text] + "s"
                text += [rule.text[pos:start], _match_case(written, official)]
                changes.append((written, official))
                pos = end
            text.append(rule.text[pos:])
            out.append(Reading(rule.id, "".join(text), tuple(changes)))
    return out


def by_document(doc_ids: Iterable[str], found: Iterable[Reading]) -> Iterator[list[Reading]]:
    """The readings of each document of ``doc_ids`` in turn, from ``found`` as ``readings``
    makes them (in the documents' order): a stage that walks the documents reads their
    readings alongside instead of holding every rule's at once."""
    rest = iter(found)
    pending = next(rest, None)
    for doc_id in doc_ids:
        mine = []
        while pending is not None and pending.rule.partition(":")[0] == doc_id:
            mine.append(pending)
            pending = next(rest, None)
        yield mine
    if pending is not None:
        raise ValueError(f"reading of {pending.rule} out of its document's order")
