"""Glossary use at build time: rendering counts per document, and official-terms readings.

Counting finds, in every document, how often each rendering of each term occurs, matched as
whole words, longest first (so ``bộ cộng hưởng`` is not also counted as ``cộng hưởng``).
A machine translation from Chinese into English gets a second reading in which the renderings
the machine made (``cemetery``, ``Mantra speed``, ``chestnut ball``) are replaced by the
official terms and card names; the raw text stays as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..glossary import Glossary, Rendering
from ..records import CardAlias, DocumentResult, Reading, TermCount


def _renderings_for(d: DocumentResult, glossary: Glossary) -> list[Rendering]:
    game = d.doc.spec.game
    if d.doc.lang == "vi":
        return glossary.renderings("vi", game=game)
    if d.doc.lang == "zh":
        return glossary.renderings("zh", game=game)
    found = glossary.english_forms(game)
    if d.doc.provenance == "machine":
        found += glossary.renderings("en", source="en_mt", game=game)
    return found


def count_terms(documents: Sequence[DocumentResult], glossary: Glossary) -> list[TermCount]:
    counts: list[TermCount] = []
    for d in documents:
        renderings = _renderings_for(d, glossary)
        zh = glossary.renderings("zh", game=d.doc.spec.game)
        tally: Counter[Rendering] = Counter()
        for rule in d.rules:
            for rendering, _, _ in glossary.find(rule.text, renderings):
                tally[rendering] += 1
            if "zh" in rule.langs.split("+") and d.doc.lang != "zh":
                for rendering, _, _ in glossary.find(rule.text, zh):
                    tally[rendering] += 1
        for r, n in sorted(tally.items(), key=lambda kv: (kv[0].term, kv[0].lang, kv[0].text)):
            counts.append(TermCount(r.term, d.doc.doc_id, r.lang, r.source, r.text, r.preferred, n))
    return counts


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
