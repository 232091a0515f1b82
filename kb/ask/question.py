"""What understanding found in a question (``Understood``) and the spans it typed for each
name; the words themselves are read by kb.lexicon.words.

On the ``kb ask`` path: standard library and ``ingest.text`` only.
"""

from __future__ import annotations

from typing import Any


class Understood:
    """What the understanding passes found in a question (see kb.ask.understand)."""

    def __init__(self, text: str, lang: str) -> None:
        self.text = text
        self.lang = lang
        self.game: str | None = None
        self.cards: list[dict[str, Any]] = []  # in order of appearance
        self.vs: tuple[dict[str, Any], dict[str, Any]] | None = None
        self.ambiguous: list[dict[str, Any]] = []
        self.timing: list[dict[str, Any]] = []
        self.terms: list[dict[str, Any]] = []
        self.words: list[str] = []  # content words left, folded
        # Chinese left around a name read inside a run of characters ("我能偷看自己奇墨池里的"
        # of "...里的卡吗"): searched, but not a word a verdict weighs (it weighs the question's
        # unread Chinese as a whole, ``unknown``).
        self.around: list[str] = []
        self.expansions: dict[str, list[str]] = {}  # typed phrase -> English forms
        self.facts: list[str] = []  # card data fields asked for (atk, level...)
        self.years: list[str] = []  # "2005": the era the question is about
        self.definition = False  # "what is ...", "... là gì"
        self.game_hint: str | None = None  # the game only the question's words belong to
        # The game was told by a phrase only its rules say ("hand limit"), not named.
        self.game_guessed = False
        self.quantity = False  # "how many", "tối đa": the answer is a number
        self.corrections: dict[str, str] = {}  # misspelt word -> index word
        # The question with its misspellings corrected: where the spans of cards, moments
        # and terms ("start", "end") stand.
        self.corrected = ""
        self.unresolved = False  # a moment's qualifier names no moment the knowledge base has
        # The moments a qualified moment was named by ("damage calc" of "after damage calc"):
        # passages about them are near what is asked, never what a verdict rests on.
        self.qualified_from: list[str] = []
        # The kind of verdict asked for: how_many, when, which_first, what_happens, yesno, or
        # "" for none (kb/ask/passes_asks.py).
        self.kind = ""
        # What a verdict weighs, read only of a question asking for one (kb/ask/passes_verdict.py):
        self.classes: list[dict[str, Any]] = []  # card classes named ("a counter trap")
        self.rulesets: list[str] = []  # rulesets named ("ocg")
        self.action = ""  # what it asks is done ("activate")
        self.chain = ""  # the Chain it asks about ("first", "later")
        self.modality = ""  # "can", "must"...
        self.unknown: list[str] = []  # words no rule holds ("digimon")

    def concepts(self) -> list[tuple[str, str]]:
        """(kind, id) of every card, moment and term named, each once, in that order."""
        wanted = [("card", c["id"]) for c in self.cards]
        wanted += [("timing", n) for n in dict.fromkeys(t["node"] for t in self.timing)]
        wanted += [("term", t) for t in dict.fromkeys(t["term"] for t in self.terms)]
        return wanted

    def concept_games(self) -> set[str]:
        """The games whose moments or terms the question names (a term every game has aside),
        whatever else uses the words."""
        return {t["game"] for t in [*self.timing, *self.terms]} - {"*"}

    def as_json(self) -> dict[str, Any]:
        return {
            "lang": self.lang,
            "game": self.game,
            "cards": self.cards,
            "vs": [self.vs[0]["name"], self.vs[1]["name"]] if self.vs else None,
            "ambiguous": self.ambiguous,
            "timing": [t["node"] for t in self.timing],
            "terms": [t["term"] for t in self.terms],
            "words": self.words,
            "around": self.around,
            "expansions": self.expansions,
            "facts": self.facts,
            "years": self.years,
            "definition": self.definition,
            "game_hint": self.game_hint,
            "quantity": self.quantity,
            "corrections": self.corrections,
            "unresolved": self.unresolved,
        }
