"""The ask page, ``/ask?q=&game=&lang=``: a judge's question, the composed answer first, then
the passages it rests on.

Built on kb.ask (understand -> retrieve -> compose). This module adds what a web page needs on
top of ``kb ask --json``: permalinks for every cited rule, the chart anchor of the timing
window, card pages for the cards named, and, for a card name that could mean several cards,
the choices as links (ambiguity is a result to show, not a guess to make). Re-exported by
kb.pages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ingest.text import has_diacritics

from ...lexicon.phrasebook import named_phrases, phrase_language
from ...lookups.labels import language_name
from ..urls import (
    ask_url,
    card_search_url,
    card_url,
    rule_sources,
    rule_url,
    search_form,
    search_url,
    timing_url,
    unknown_rule,
)
from .extras import readable, rule_extras

if TYPE_CHECKING:
    from ...api import KnowledgeBase

ASK_LIMIT = 5
ASK_MAX = 20
# "1. Start of the Damage Step": a step that numbers itself, in a list that numbers it again.


def _card(kb: KnowledgeBase, name: str, game: str) -> dict[str, Any]:
    """A card named in an answer, with its page when the name is a card's (it always should)."""
    row = kb.row("card_named", name=name, game=game)
    return {"name": name, "url": card_url(row["id"]) if row else card_search_url(name, game)}


def _timing(kb: KnowledgeBase, timing: dict[str, Any] | None) -> dict[str, Any] | None:
    """The answer's timing window, with its box on the chart."""
    if not timing:
        return None
    node = kb.row("timing_node_place", id=timing["id"])
    url = timing_url(node["game"], node["ruleset"], node["id"]) if node else None
    return {**timing, "url": url}


def _answer(kb: KnowledgeBase, answer: dict[str, Any] | None, game: str) -> dict[str, Any] | None:
    if answer is None:
        return None
    cited = [s["id"] for s in answer["sources"]] + [
        r for n in answer["nuances"] for r in n["rules"]
    ]
    because = answer.get("because") or []
    conflicts = answer.get("conflicts") or []
    cited += [b["rule"] for b in because] + [c["rule"] for g in conflicts for c in g]
    sources = rule_sources(kb, cited)

    def fact(b: dict[str, Any]) -> dict[str, Any]:
        return {
            **b,
            "url": rule_url(b["rule"]),
            "cite": sources.get(b["rule"]) or unknown_rule(b["rule"]),
        }

    return {
        **answer,
        "warnings": [readable(kb, w) for w in answer.get("warnings") or []],
        "sequence": answer.get("sequence") or [],
        "because": [fact(b) for b in because],
        "conflicts": [[fact(c) for c in group] for group in conflicts],
        "sources": [sources.get(s["id"]) or unknown_rule(s["id"]) for s in answer["sources"]],
        "nuances": [
            {
                "text": n["text"],
                "rules": [{"id": r, "url": rule_url(r)} | _label(sources, r) for r in n["rules"]],
            }
            for n in answer["nuances"]
        ],
        "timing": _timing(kb, answer["timing"]),
        "cards": [_card(kb, name, game) for name in answer["cards"]],
        "ruling_url": rule_url(answer["ruling_id"]) if answer.get("ruling_id") else None,
    }


def _label(sources: Mapping[str, Mapping[str, Any]], rule_id: str) -> dict[str, str]:
    """A cited rule as a reader knows it (kb.web.urls.cite), never its id, and the label's
    language (a section title is in its document's)."""
    cited = sources.get(rule_id) or unknown_rule(rule_id)
    return {"label": cited["label"], "label_lang": cited["label_lang"]}


def _fold_versions(kb: KnowledgeBase, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Current versions first: a passage of a superseded rulebook whose current version is
    also a passage is folded into it ("also in 7.0"), and one that kb.ask chose to stand for
    identical texts (its ``also``) gives its place to the current one; one whose current
    version is not shown stays, marked, with a link to the current wording (extras)."""
    extras = rule_extras(kb, [h["id"] for h in hits])
    shown = {h["id"] for h in hits}
    folded: dict[str, list[dict[str, Any]]] = {}
    kept = []
    for h in hits:
        current = (extras.get(h["id"]) or {}).get("current")
        older = {"id": h["id"], "url": rule_url(h["id"]), "version": h["cite"].get("version")}
        if current and current.get("id") in shown:
            folded.setdefault(current["id"], []).append(older)
            continue
        if current and current.get("id") in [a["id"] for a in h["also"]]:
            cite = rule_sources(kb, [current["id"]]).get(current["id"])
            h = {**h, "id": current["id"], "cite": cite or unknown_rule(current["id"])}
            h["also"] = [a for a in h["also"] if a["id"] != current["id"]]
            folded.setdefault(current["id"], []).append(older)
        kept.append(h)
    for h in kept:
        h["older"] = folded.get(h["id"], [])
    return kept


def _hit(kb: KnowledgeBase, hit: Mapping[str, Any], cite: dict[str, Any]) -> dict[str, Any]:
    also = rule_sources(kb, hit["also"])
    return {
        **hit,
        "cite": cite,
        "timing": _timing(kb, hit["timing"]),
        "cards": [_card(kb, name, hit["game"]) for name in hit["cards"]],
        "also": [
            {
                "id": a,
                "url": rule_url(a),
                "document_title": (also.get(a) or {}).get("document_title", ""),
                "document_lang": (also.get(a) or {}).get("document_lang", ""),
            }
            | _label(also, a)
            for a in hit["also"]
        ],
        "translations": [{**t, "url": rule_url(t["id"])} for t in hit["translations"]],
        "shown_translation": {
            **hit["shown_translation"],
            "url": rule_url(hit["shown_translation"]["id"]),
        }
        if hit["shown_translation"]
        else None,
    }


def _replace_first(text: str, typed: str, name: str) -> str:
    """The question with the words the user typed for a card replaced by one card's name."""
    words = [re.escape(w) for w in typed.split()]
    pattern = re.compile(r"[\W_]*".join(words), re.IGNORECASE) if words else None
    if pattern is None or not pattern.search(text):
        return text
    return pattern.sub(lambda _: name, text, count=1)


def _ambiguous(
    kb: KnowledgeBase, q: str, understood: dict[str, Any], game: str, lang: str
) -> list[dict[str, Any]]:
    """Each name that could mean several cards, with each card's page and the question asked
    again with that card's full name."""
    out = []
    for a in understood.get("ambiguous") or []:
        choices = []
        for name in a["candidates"]:
            card = _card(kb, name, understood.get("game") or game)
            choices.append(
                {**card, "ask_url": ask_url(_replace_first(q, a["typed"], name), game, lang)}
            )
        out.append({"typed": a["typed"], "choices": choices})
    return out


def ask(
    kb: KnowledgeBase, q: str, *, game: str = "", lang: str = "", limit: int = ASK_LIMIT
) -> dict[str, Any]:
    """The answer to ``q`` as kb.ask gives it (``confident`` false when nothing matched), with
    links; without a question, just the form."""
    q = q.strip()
    limit = max(1, min(limit, ASK_MAX))
    out: dict[str, Any] = {
        "q": q,
        "game": game,
        "lang": lang,
        "query": q,
        "understood": None,
        "confident": False,
        "answer": None,
        "hits": [],
        "ambiguous": [],
        "question_lang": "",
        "read_as": None,
        "not_covered": None,
        "coverage": None,
        "warnings": [],
        "extras": {},
        "search_url": search_url(q, game, lang),
        "form": search_form(kb),
    }
    if not q:
        return out
    # The question's language from the names it uses: "tinh toan thiet hai" is the
    # Vietnamese name of a moment, without its accents (kb.ask reads accentless text as
    # English). It is the passages' preferred language unless the form says another.
    read_as = phrase_language(named_phrases(kb.conn, q))
    result = kb.ask(q, game=game, lang=lang or read_as, limit=limit)
    understood = result["understood"]
    question_lang = read_as if understood.get("lang") == "en" and read_as else understood["lang"]
    card_game = game or understood.get("game") or ""
    sources = rule_sources(kb, [h["id"] for h in result["hits"]])
    hits = [_hit(kb, h, sources.get(h["id"]) or unknown_rule(h["id"])) for h in result["hits"]]
    hits = _fold_versions(kb, hits)
    out.update(
        understood=understood,
        question_lang=question_lang,
        # Said whenever the words alone do not show the language: accentless Vietnamese
        # read as Vietnamese, or the passages' language differing from the question's.
        read_as={"lang": read_as, "name": language_name(read_as)}
        if read_as and (understood.get("lang") != read_as or not has_diacritics(q))
        else None,
        confident=result["confident"],
        answer=_answer(kb, result["answer"], card_game),
        not_covered=result.get("not_covered"),
        coverage=result.get("coverage"),
        warnings=[readable(kb, w) for w in result.get("warnings") or []],
        hits=hits,
        extras=rule_extras(kb, [h["id"] for h in hits]),
        ambiguous=_ambiguous(kb, q, understood, game, lang),
    )
    return out
