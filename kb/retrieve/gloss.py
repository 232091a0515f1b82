"""The English names of what a question names, read from its understanding: what the dense
stage adds to a question typed in another language.

The embedding model reads Vietnamese typed without its marks as noise (the passages closest
to "khi nao thi duoc rut bai" are not about drawing) and matches Chinese questions to English
rules less well than English ones; the understanding passes have already read "rut bai" as
"draw a card" and "回合" as the turn, from the glossary and kb/data/query.toml. The gloss is
those names, in the question's order.
"""

from __future__ import annotations

from ingest.text import fold

from .query import Understanding


def english_gloss(u: Understanding) -> str:
    """The English names of the question's terms, moments and everyday phrases, in the order
    the question says them; "" for an English question (its own words are the names)."""
    if u.lang == "en":
        return ""
    folded = fold(u.text)
    pieces: list[tuple[int, str]] = []
    for named in [*u.terms, *u.timing]:
        if "start" in named and named.get("en"):
            pieces.append((named["start"], named["en"]))
    for key, expanded in u.expansions.items():
        at = folded.find(key)
        if at >= 0 and expanded:
            pieces.append((at, expanded[0]))
    seen: set[str] = set()
    out = []
    for _, text in sorted(pieces):
        if fold(text) not in seen:
            seen.add(fold(text))
            out.append(text)
    return ", ".join(out)
