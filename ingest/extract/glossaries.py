"""A rulebook's own glossary as terms of its game's glossary.

The segmenter makes every entry of a glossary section a ``term`` rule (the term as its title,
the definition as its text). Each becomes a ``Term`` of the game (id ``<game>:<slug>``) with
its definition, the rule that defines it (the newest version's, when several versions of the
rulebook define it) and one rendering, in the document's language: so ``kb terms`` lists it,
the build counts it in every document of the game, and rule text can link it. The rules an
entry cites are its rule's cross-references (``rule_references``).
"""

from __future__ import annotations

from ..glossary import Rendering, Term
from ..outline import slugify
from ..records import DocumentResult

# The rendering source a term written in a document's language is stored under.
_SOURCE = {"en": "en", "vi": "vi", "zh": "zh"}


def document_terms(documents: list[DocumentResult], superseded: dict[str, str]) -> list[Term]:
    """The terms every glossary section of the corpus defines, current versions first."""
    ordered = sorted(
        documents, key=lambda d: (d.doc.doc_id in superseded, d.doc.translation_of is not None)
    )
    terms: dict[str, Term] = {}
    for d in ordered:
        game = d.doc.spec.game
        for rule in d.rules:
            if rule.kind != "term" or not rule.title:
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
                    Rendering(term_id, lang, _SOURCE.get(lang, lang), rule.title, preferred=True),
                ),
                definition=rule.text,
                rule=rule.id,
            )
    return sorted(terms.values(), key=lambda t: t.id)
