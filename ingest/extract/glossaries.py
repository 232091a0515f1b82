"""A rulebook's own glossary as terms of its game's glossary.

The segmenter makes every entry of a glossary section a ``term`` rule (the term as its title,
the definition as its text). Each becomes a ``Term`` of the game (id ``<game>:<slug>``) with
its definition, the rule that defines it (the newest version's, when several versions of the
rulebook define it) and one rendering, in the document's language: so ``kb terms`` lists it,
the build counts it in every document of the game, and rule text can link it. The rules an
entry cites are its rule's cross-references (``rule_references``).

A translation's glossary (an official Chinese rulebook's 术语表) names the same terms in its
language: an entry the alignment links to one entry of its source's glossary is a rendering
of that term (``奇能`` of "ability"), with the translation's provenance, not a term of its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .. import spill
from ..glossary import Rendering, Term
from ..outline import slugify
from ..records import DocumentResult, Link

# The rendering source a term written in a document's language is stored under.
_SOURCE = {"en": "en", "vi": "vi", "zh": "zh"}


def document_terms(
    documents: Sequence[DocumentResult],
    superseded: dict[str, str],
    links: Iterable[Link] = (),
    curated: Iterable[Rendering] = (),
) -> list[Term]:
    """The terms every glossary section of the corpus defines, current versions first, with
    the renderings their translations' glossaries give (``links``: the alignment's) and those
    the curated glossary gives them (``curated``: in a language no translation covers)."""
    docs = spill.view(documents)
    ordered = sorted(
        docs.heads, key=lambda d: (d.doc.doc_id in superseded, d.doc.translation_of is not None)
    )
    rules = docs.rules
    translates = {
        t: link.source_ids[0]
        for link in links
        if len(link.source_ids) == 1 and rules[link.source_ids[0]].kind == "term"
        for t in link.target_ids
        if rules[t].kind == "term"
    }
    terms: dict[str, Term] = {}
    renderings: dict[str, list[Rendering]] = defaultdict(list)
    given: dict[str, list[Rendering]] = defaultdict(list)
    for r in curated:
        given[r.term].append(r)
    for d in (docs.by_id(h.doc.doc_id) for h in ordered):
        game = d.doc.spec.game
        for rule in d.rules:
            if rule.kind != "term" or not rule.title:
                continue
            source = rules.get(translates.get(rule.id, ""))
            if source is not None and source.title and source.lang != rule.lang:
                term_id = f"{game}:{slugify(source.title)}"
                renderings[term_id].append(
                    Rendering(
                        term_id,
                        rule.lang,
                        _SOURCE.get(rule.lang, rule.lang),
                        rule.title,
                        preferred=True,
                        note=f"{rule.id} translates {source.id}",
                        provenance=d.doc.provenance,
                    )
                )
                continue
            term_id = f"{game}:{slugify(rule.title)}"
            if term_id in terms:
                continue
            lang = d.doc.lang
            terms[term_id] = Term(
                id=term_id,
                game=game,
                en=rule.title,
                en_forms=(),
                renderings=(
                    Rendering(
                        term_id,
                        lang,
                        _SOURCE.get(lang, lang),
                        rule.title,
                        preferred=True,
                        provenance=d.doc.provenance,
                    ),
                ),
                definition=rule.text,
                rule=rule.id,
            )
    for term_id, found in renderings.items():
        term = terms.get(term_id)
        if term is not None:
            # One preferred rendering per language: the first (the newest translation's).
            langs: set[str] = set()
            kept = []
            for r in found:
                kept.append(replace(r, preferred=r.lang not in langs))
                langs.add(r.lang)
            terms[term_id] = replace(term, renderings=term.renderings + tuple(kept))
    for term_id, found in given.items():
        if term_id in terms:
            terms[term_id] = replace(
                terms[term_id], renderings=terms[term_id].renderings + tuple(found)
            )
    return sorted(terms.values(), key=lambda t: t.id)
