"""Query understanding for ``kb ask``: what a hurried judge's question names.

A chain of small named passes (as markdown-it-py's rulers), run in order over a shared
Context: each reads the question and records what it found in ``Understood``. Names are found
in any corpus language, with or without diacritics: the game ("fow", "ygo"), card names
(exact first, then close misspellings; two close candidates are ambiguous, never silently
picked), "X vs Y", timing moments ("tính toán thiệt hại", "伤害计算"), glossary terms ("mộ
bài", "cemetery"). Everything it knows comes from the database (cards, timing names,
glossary) and kb/data/query.toml.

Exact names are read before terms and terms before misspellings, so "spell speed" is a term
before it can look like a card.

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from ..lexicon.marks import restore
from ..store.vocabulary import Vocabulary
from . import passes_asks as asks
from . import passes_names as names
from . import passes_verdict as verdict
from . import passes_words as everyday
from .context import Context
from .question import Understood

Pass = Callable[[Context], None]

# (name, pass, the fields of Understood it writes): the order is the algorithm.
PASSES: list[tuple[str, Pass, tuple[str, ...]]] = [
    ("read_text", names.read_text, ("text", "corrections", "corrected")),
    ("language", names.language, ("lang",)),
    ("game_named", names.game_named, ("game",)),
    ("game_of_ruleset", names.game_of_ruleset, ("game",)),
    ("vs_word", names.vs_word, ()),
    ("exact_cards", names.exact_cards, ("cards", "ambiguous")),
    ("moments", names.moments, ("timing",)),
    ("terms", names.terms, ("terms",)),
    ("fuzzy_cards", names.fuzzy_cards, ("cards", "ambiguous")),
    ("fuzzy_moments", names.fuzzy_moments, ("timing",)),
    ("qualified_moments", names.qualified_moments, ("timing", "unresolved", "qualified_from")),
    ("language_of_names", names.language_of_names, ("lang",)),
    ("vs_pair", names.vs_pair, ("vs", "game")),
    ("everyday_phrases", everyday.everyday_phrases, ("expansions",)),
    ("card_facts", everyday.card_facts, ("facts",)),
    ("expanded_concepts", everyday.expanded_concepts, ("timing", "terms")),
    ("unqualified_terms", everyday.unqualified_terms, ("terms",)),
    ("game_of_concepts", everyday.game_of_concepts, ("game",)),
    ("cues", everyday.cues, ("years", "definition", "quantity")),
    ("content_words", everyday.content_words, ("words", "around")),
    ("game_of_words", everyday.game_of_words, ("game", "game_hint")),
    ("one_game_per_span", everyday.one_game_per_span, ("terms",)),
    ("asks", asks.asks, ("kind",)),
    ("classes", verdict.classes, ("classes",)),
    ("rulesets", verdict.rulesets, ("rulesets",)),
    ("action", verdict.action, ("action", "chain", "modality")),
    ("unknown_words", verdict.unknown_words, ("unknown",)),
]
PASS_NAMES = [name for name, _, _ in PASSES]


def run_passes(
    conn: sqlite3.Connection,
    text: str,
    vocab: Vocabulary,
    *,
    game: str = "",
    until: str | None = None,
) -> Context:
    """Run the passes in order (up to and including ``until``); the Context they leave."""
    if until is not None and until not in PASS_NAMES:
        raise ValueError(f"no understanding pass {until!r}")
    ctx = Context(conn=conn, vocab=vocab, typed=text, game=game)
    for name, fn, _ in PASSES:
        fn(ctx)
        if name == until:
            break
    return ctx


def understand(
    conn: sqlite3.Connection, text: str, vocab: Vocabulary, *, game: str = ""
) -> Understood:
    """What the question names (see the module docstring). A question typed without its
    language's marks is read with them given back (kb.lexicon.marks), as it is embedded."""
    return run_passes(conn, restore(conn, text), vocab, game=game).result
