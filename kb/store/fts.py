"""FTS5 match expressions for user text: every word quoted, so FTS5 syntax in user input
(quotes, NEAR, column filters, ``*``) is searched as text.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

from ingest.text import CJK_RUN, cjk_bigrams, fold, has_diacritics, words


def _quote(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def _term(word: str, *, prefix: bool = False) -> str:
    """One query term: a CJK run becomes a phrase of bigrams, other words are quoted."""
    if CJK_RUN.fullmatch(word):
        grams = cjk_bigrams(word)
        if len(grams) == 1 and len(word) == 1:
            return _quote(word) + "*"
        return _quote(" ".join(grams))
    return _quote(word.lower()) + ("*" if prefix else "")


def fts_query(
    text: str,
    *,
    operator: str = "AND",
    exact_columns: tuple[str, ...] = ("title", "body"),
    folded_column: str = "folded",
    prefix_last: bool = False,
) -> str | None:
    """Build a safe FTS5 MATCH expression for user text, or None if it has no words.

    Every word is quoted, so FTS5 syntax in user input (quotes, NEAR, column filters,
    ``*``) is searched as text. An accented query searches the as-written columns and the
    folded column, so accented matches score on both and rank first; an unaccented query
    searches the folded column only.
    """
    terms = words(text)
    if not terms:
        return None
    joiner = f" {operator} "

    def group(ws: list[str]) -> str:
        parts = [_term(w, prefix=prefix_last and i == len(ws) - 1) for i, w in enumerate(ws)]
        return "(" + joiner.join(parts) + ")"

    folded_terms = [fold(w) for w in terms]
    folded = "{" + folded_column + "} : " + group(folded_terms)
    if not has_diacritics(text):
        return folded
    exact = "{" + " ".join(exact_columns) + "} : " + group(terms)
    return f"({exact}) OR ({folded})"
