"""Card names in a question: exact names and aliases first, then close misspellings, through
the one card matcher (kb.lookups.cards) so ``kb ask`` and the card lookup agree on a name.

A name never spans the "vs" of "X vs Y"; two close candidates are reported as ambiguous, never
silently picked.

On the ``kb ask`` path: standard library, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ingest.text import name_key

from ..lexicon.phrases import Span, spans_free
from ..lexicon.words import Token, stopwords
from ..lookups.cards import index_aliases, matching, rank_names

MAX_NGRAM = 7  # longest card name, in words


def windows(tokens: list[Token], vs_at: int | None) -> Iterator[tuple[int, int]]:
    """Runs of tokens [i, j), longest first; none spans the "vs"."""
    for n in range(min(MAX_NGRAM, len(tokens)), 0, -1):
        for i in range(len(tokens) - n + 1):
            if not i <= (vs_at if vs_at is not None else -1) < i + n:
                yield i, i + n


_POSSESSIVE = re.compile(r"['’]s?$")


class CardFinder:
    """Finds card names in the tokens of one question, marking what it takes in ``used``."""

    def __init__(
        self,
        tokens: list[Token],
        cards: list[dict[str, Any]],
        used: list[Span],
        vs_at: int | None,
    ) -> None:
        self.tokens, self.used, self.vs_at = tokens, used, vs_at
        self.by_key = index_aliases(cards)
        self.taken = {i for i, t in enumerate(tokens) if not spans_free(used, t.start, t.end)}
        self.found: list[dict[str, Any]] = []
        self.ambiguous: list[dict[str, Any]] = []

    def _key(self, i: int, j: int) -> str:
        return name_key(" ".join(t.text for t in self.tokens[i:j]))

    def _owner_key(self, i: int, j: int) -> str:
        """The window's key without a possessive on its last word ("D.D. Warrior Lady's
        effect" names D.D. Warrior Lady)."""
        words = [t.text for t in self.tokens[i:j]]
        words[-1] = _POSSESSIVE.sub("", words[-1])
        return name_key(" ".join(words))

    def _take(self, i: int, j: int, row: dict[str, Any], score: float, exact: bool) -> None:
        self.taken.update(range(i, j))
        self.used.append((self.tokens[i].start, self.tokens[j - 1].end))
        self.found.append(
            {
                "id": row["card"],
                "name": row["name"],
                "game": row["game"],
                "kind": row["card_kind"],
                "typed": " ".join(t.text for t in self.tokens[i:j]),
                "score": round(score, 1),
                "exact": exact,
                "start": self.tokens[i].start,
                "end": self.tokens[j - 1].end,
            }
        )

    def exact(self) -> None:
        """Windows that are exactly a name or alias; one shared by several cards is ambiguous."""
        for i, j in windows(self.tokens, self.vs_at):
            if self.taken & set(range(i, j)):
                continue
            key = self._key(i, j)
            rows = self.by_key.get(key) or self.by_key.get(self._owner_key(i, j), [])
            hits = {c["card"]: c for c in rows}
            if len(hits) == 1:
                self._take(i, j, next(iter(hits.values())), 100.0, True)
            elif len(hits) > 1:
                self.taken.update(range(i, j))
                names = sorted(c["name"] for c in hits.values())
                self.ambiguous.append({"typed": key, "candidates": names})

    def _fuzzy_candidate(self, i: int, j: int) -> str | None:
        """The window's name key if it may be a misspelt name, else None."""
        window = self.tokens[i:j]
        stop = stopwords()
        if window[0].key in stop or window[-1].key in stop:
            return None
        # A window repeating a word ("spell spell") is not a name.
        if len({t.key for t in window}) < len(window):
            return None
        key = self._key(i, j)
        numbers = matching()
        shortest = numbers["min_vs_length" if self._beside_vs(i, j) else "min_free_text_length"]
        return key if len(key) >= shortest else None

    def _beside_vs(self, i: int, j: int) -> bool:
        """Whether the window [i, j) stands right before or right after the "vs": the names
        of "X vs Y" do. Elsewhere a "vs" word is read as it is typed: "đấu" also ends
        "chiến đấu" (battle), and "dau" typed without marks is also "đầu" (start)."""
        return self.vs_at is not None and self.vs_at in (j, i - 1)

    def fuzzy(self) -> None:
        """Close misspellings in what is left. One word alone is compared whole ("honset" ~
        "honest"); only several words, or a word of an "X vs Y", may be part of a longer name
        ("injection fairy" ~ "Injection Fairy Lily"), so a common word such as "damage" never
        becomes "Damage Condenser"."""
        for i, j in windows(self.tokens, self.vs_at):
            if self.taken & set(range(i, j)):
                continue
            in_vs = self._beside_vs(i, j)
            key = self._fuzzy_candidate(i, j)
            if key is None:
                continue
            several = j - i > 1
            ranked = rank_names(
                key, self.by_key, free_text=not in_vs, partial=several or in_vs, limit=6
            )
            if not ranked.cards:
                continue
            if ranked.best is None:
                if several or in_vs:
                    self.taken.update(range(i, j))
                    names = [row["name"] for _, row in ranked.close]
                    self.ambiguous.append({"typed": key, "candidates": names})
                continue
            score, row = ranked.best
            self._take(i, j, row, score, False)
