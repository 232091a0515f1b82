"""Suggestions while typing in the search box, ``/suggest.json?q=``: cards, glossary terms,
rule numbers and sections whose names start with (or contain) what was typed, each with the
page it opens. Small and fast: the names come from the precomputed vocabulary, rule numbers
and sections from two indexed queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ingest.text import fold, words

from ...search import RULE_NUMBER
from ...store.vocabulary import load_vocabulary
from ..urls import card_url, rule_url, section_url, term_url

if TYPE_CHECKING:
    from ...api import KnowledgeBase

LIMIT = 8
# Fewer letters than this suggest nothing but rule numbers (one letter matches everything).
MIN_LETTERS = 2


def _rank(key: str, wanted: str) -> int | None:
    """0: the name starts with what was typed, 1: a word of it does, 2: it holds it."""
    if key.startswith(wanted):
        return 0
    if f" {wanted}" in f" {key}":
        return 1
    return 2 if wanted in key else None


def suggest(kb: KnowledgeBase, q: str, limit: int = LIMIT) -> dict[str, Any]:
    text = " ".join(q.split())
    out: list[tuple[tuple[int, int, str], dict[str, Any]]] = []
    if RULE_NUMBER.fullmatch(text) or (":" in text and " " not in text):
        for r in kb.rows("suggest_rules", prefix=text.rstrip("."), limit=limit):
            label = f"{r['number'] or r['id']} · {r['document_title']}"
            out.append(
                (
                    (0, 0, r["id"]),
                    {
                        "kind": "rule",
                        "label": label,
                        "text": r["text"][:90],
                        "lang": r["lang"],
                        "url": rule_url(r["id"]),
                    },
                )
            )
    wanted = " ".join(words(fold(text)))
    if len(wanted) >= MIN_LETTERS:
        vocab = load_vocabulary(kb.conn)
        seen: set[str] = set()
        for c in vocab.cards:
            rank = _rank(c["key"], wanted)
            if rank is not None and c["card"] not in seen:
                seen.add(c["card"])
                out.append(
                    (
                        (rank, 1, c["name"]),
                        {
                            "kind": "card",
                            "label": c["name"],
                            "text": c["alias"] if c["alias"] != c["name"] else "",
                            "lang": c["lang"] or "en",
                            "url": card_url(c["card"]),
                        },
                    )
                )
        for t in vocab.terms:
            rank = _rank(t["key"], wanted)
            if rank is not None and t["term"] not in seen:
                seen.add(t["term"])
                out.append(
                    (
                        (rank, 2, t["en"]),
                        {
                            "kind": "term",
                            "label": t["en"],
                            "text": t["text"] if t["text"] != t["en"] else "",
                            "lang": "en",
                            "url": term_url(t["term"], t["game"]),
                        },
                    )
                )
        for s in kb.rows("suggest_sections"):
            rank = _rank(" ".join(words(fold(s["title"]))), wanted)
            if rank is not None:
                label = f"{s['number']} {s['title']}".strip()
                out.append(
                    (
                        (rank, 3, label),
                        {
                            "kind": "section",
                            "label": label,
                            "text": s["document_title"],
                            "lang": s["lang"],
                            "url": section_url(s["document"], s["slug"]),
                        },
                    )
                )
    out.sort(key=lambda x: x[0])
    return {"q": text, "suggestions": [s for _, s in out[:limit]]}
