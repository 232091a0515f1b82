"""Understanding passes that read names: the question's text and language, the game, card
names, the "X vs Y" pattern, timing moments and glossary terms.

Each pass takes the shared Context and records what it found in ``ctx.result``; kb.ask.
understand runs them in order.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any

from ingest.text import CJK_RUN, find_whole_word, fold, writing_language

from ..lexicon.phrases import fuzzy_timing, match_phrases, spans_free
from ..lexicon.words import query_data, stopwords, tokens, unmarked_language, vs_words
from ..store.db import run
from ..store.vocabulary import Vocabulary
from .cardnames import CardFinder
from .context import Context
from .correct import correct


@cache
def _bare_words() -> frozenset[str]:
    return frozenset(w.replace("'", "") for w in query_data()["apostrophes"]["en"])


@cache
def _bare_contractions() -> tuple[re.Pattern[str], dict[str, str]]:
    """English contractions typed without their apostrophe (kb/data/query.toml
    [apostrophes]): "doesnt" -> "doesn't"."""
    written = {w.replace("'", ""): w for w in query_data()["apostrophes"]["en"]}
    body = "|".join(sorted(written, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{body})(?![\w'])", re.IGNORECASE), written


# A typeset apostrophe ("can’t") as the data files write it; "‘" stays, as it opens a quote.
_APOSTROPHES = str.maketrans({"’": "'", "ʼ": "'"})


def read_text(ctx: Context) -> None:
    """Composed accents (NFC, as the data files are written: "lá" typed as "la" + U+0301 is
    "lá"), an apostrophe as the data files write it (a phone types "can’t"), contractions
    given back their apostrophe, misspellings corrected, folded, split into tokens."""
    typed = unicodedata.normalize("NFC", ctx.typed).translate(_APOSTROPHES)
    ctx.typed = " ".join(typed.split())
    if _bare_words() & set(re.findall(r"\w+", ctx.typed.lower())):  # compiled only when needed
        pattern, written = _bare_contractions()
        ctx.typed = pattern.sub(lambda m: written[m.group().lower()], ctx.typed)
    ctx.text, ctx.result.corrections = correct(ctx.conn, ctx.typed, ctx.vocab)
    ctx.result.text = ctx.typed
    ctx.result.corrected = ctx.text
    ctx.folded = fold(ctx.text)
    ctx.tokens = tokens(ctx.text)


def language(ctx: Context) -> None:
    """Chinese if it has CJK, Vietnamese if it has Vietnamese letters or two Vietnamese-only
    function words ("the nao", "co duoc khong"), else English."""
    typed = ctx.typed
    if CJK_RUN.search(typed):
        ctx.result.lang = "zh"
    elif fold(typed) != typed.lower():
        ctx.result.lang = "vi"
    else:
        ctx.result.lang = unmarked_language(typed) or "en"


def language_of_names(ctx: Context) -> None:
    """A question read as English whose every moment and term was named in another language
    ("tinh toan thiet hai", Vietnamese typed without accents) is in that language."""
    r = ctx.result
    named = [t["text"] for t in [*r.timing, *r.terms] if "start" in t and t.get("text")]
    langs = {writing_language(n) for n in named}
    if r.lang == "en" and len(langs) == 1 and "en" not in langs:
        r.lang = langs.pop()


def is_own(counts: dict[str, int] | None, sizes: dict[str, int], game: str) -> bool:
    """Whether words that ``counts`` rules of each game hold are the game's own, not everyday
    words of another game too: no other game's rules hold them in ``everyday_rules`` rules, or
    more than ``share_ratio`` times as often as the game's own rules (kb/data/query.toml
    [games]); ``sizes`` are the games' numbers of rules. Words no rule holds are the game's by
    definition (only its glossary or timing data knows them)."""
    if not counts:
        return True
    limits = query_data()["games"]
    own = counts.get(game, 0) / max(1, sizes.get(game, 0))
    return not any(
        n >= limits["everyday_rules"]
        or (
            n >= limits["min_rules"]
            and n / max(1, sizes.get(other, 0)) > limits["share_ratio"] * own
        )
        for other, n in counts.items()
        if other != game
    )


def belongs_to(vocab: Vocabulary, key: str, game: str) -> bool:
    """Whether a name of ``game`` (a folded alias, term or moment) is its own (``is_own``)."""
    return is_own(vocab.mentions.get(key), vocab.game_rules, game)


def term_belongs_to(vocab: Vocabulary, t: dict[str, Any]) -> bool:
    """Whether a term as the question wrote it is its game's own, and so is its English term:
    "效果" is "effect", an everyday word of every game's rules, though only one game has
    Chinese rules."""
    return belongs_to(vocab, t["key"], t["game"]) and belongs_to(
        vocab, t.get("en_key", ""), t["game"]
    )


def game_named(ctx: Context) -> None:
    """A game named by one of its aliases ("ygo", "fow", "游戏王" inside a run of Chinese); an
    alias that another game's rules use as an everyday word ("gale" of a game called
    Galeharvest, where another game has a Gale Cost) names no game."""
    for gid, aliases in ctx.vocab.games.items():
        for alias in sorted(aliases, key=len, reverse=True):
            if not belongs_to(ctx.vocab, alias, gid):
                continue
            if CJK_RUN.search(alias):
                at = ctx.folded.find(alias)
                found = (at, at + len(alias)) if at >= 0 else None
            else:
                found = find_whole_word(ctx.folded, alias)
            if found and spans_free(ctx.used, *found):
                ctx.used.append(found)
                ctx.result.game = ctx.result.game or gid
                break
    ctx.result.game = ctx.game or ctx.result.game


def game_of_ruleset(ctx: Context) -> None:
    """A question naming no game, but a ruleset only one game's documents are written for
    ("OCG: ...": Yu-Gi-Oh!; not "basic" or "tournament", everyday words), is about it."""
    if ctx.result.game:
        return
    everyday = query_data()["unknown"]["everyday_count"]
    typed = {t.key for t in ctx.tokens}
    games = {
        row["games"]
        for row in run(ctx.conn, "ask_ruleset_games", min=str(everyday))
        if row["ruleset"] in typed
    }
    if len(games) == 1 and "," not in next(iter(games)):
        ctx.result.game = games.pop()


def vs_word(ctx: Context) -> None:
    """Where the "vs" of "X vs Y" is ("đấu", "với", "对"), between two other words."""
    wanted = vs_words()
    ctx.vs_at = next(
        (i for i, t in enumerate(ctx.tokens) if t.key in wanted and 0 < i < len(ctx.tokens) - 1),
        None,
    )


def exact_cards(ctx: Context) -> None:
    """Card names and aliases typed exactly (of the named game, if one is named); a Chinese
    name also inside a run of characters ("发动栗子球吗": Chinese writes no spaces)."""
    game = ctx.result.game
    ctx.cards_vocab = [c for c in ctx.vocab.cards if not game or c["game"] == game]
    finder = CardFinder(ctx.tokens, ctx.cards_vocab, ctx.used, ctx.vs_at)
    finder.exact()
    found = finder.found + _cjk_cards(ctx)
    ctx.result.cards = sorted(found, key=lambda c: c["start"])
    ctx.result.ambiguous = finder.ambiguous


def _cjk_cards(ctx: Context) -> list[dict[str, object]]:
    found = []
    names = sorted(
        (c for c in ctx.cards_vocab if CJK_RUN.fullmatch(c["key"].replace(" ", ""))),
        key=lambda c: -len(c["key"]),
    )
    for card in names:
        start = ctx.folded.find(card["key"])
        if start < 0 or not spans_free(ctx.used, start, start + len(card["key"])):
            continue
        end = start + len(card["key"])
        ctx.used.append((start, end))
        found.append({"id": card["card"], "name": card["name"], "game": card["game"],
                      "kind": card["card_kind"], "typed": card["alias"], "score": 100.0,
                      "exact": True, "start": start, "end": end})  # fmt: skip
    return found


def _matchable(entry: dict[str, object]) -> bool:
    """A timing name worth looking for in a question: not a lone generic word such as "turn"."""
    key = str(entry["key"])
    return " " in key or CJK_RUN.search(key) is not None or len(key) >= 8


def moments(ctx: Context) -> None:
    """Timing moments named exactly, of the question's game (or its first card's game)."""
    game = ctx.result.game or (ctx.result.cards[0]["game"] if ctx.result.cards else None)
    ctx.timing_vocab = [
        t for t in ctx.vocab.timing if (not game or t["game"] == game) and _matchable(t)
    ]
    if game:
        ctx.terms_vocab = [t for t in ctx.vocab.terms if t["game"] in ("*", game)]
    else:
        ctx.terms_vocab = [t for t in ctx.vocab.terms if not _everyday_translation(ctx.vocab, t)]
    ctx.result.timing = match_phrases(ctx.folded, ctx.timing_vocab, ctx.used, ctx.text)


def _everyday_translation(vocab: Vocabulary, t: dict[str, Any]) -> bool:
    """A rulebook's term in another language whose English every other game's rules say too
    ("阶段", Lorcana's "phase"): read only where the question is of that game, or a Chinese
    question about another game would read as Lorcana's."""
    return bool(t.get("defined")) and not belongs_to(vocab, t.get("en_key", ""), t["game"])


def terms(ctx: Context) -> None:
    """Glossary terms in any language ("mộ bài", "cemetery", "tribute")."""
    ctx.result.terms = match_phrases(ctx.folded, ctx.terms_vocab, ctx.used, ctx.text)


def fuzzy_cards(ctx: Context) -> None:
    """Misspelt card names in what no name, moment or term took ("honset")."""
    finder = CardFinder(ctx.tokens, ctx.cards_vocab, ctx.used, ctx.vs_at)
    finder.fuzzy()
    ctx.result.cards = sorted(ctx.result.cards + finder.found, key=lambda c: c["start"])
    ctx.result.ambiguous += finder.ambiguous


def fuzzy_moments(ctx: Context) -> None:
    """Timing moments typed with a typo ("damge step"), when none was named exactly."""
    if not ctx.result.timing:
        ctx.result.timing = fuzzy_timing(ctx.tokens, ctx.timing_vocab, ctx.used)


def vs_pair(ctx: Context) -> None:
    """The cards on either side of the "vs"; the game of the cards if none was named."""
    r = ctx.result
    if ctx.vs_at is not None:
        at = ctx.tokens[ctx.vs_at]
        left = [c for c in r.cards if c["end"] <= at.start]
        right = [c for c in r.cards if c["start"] >= at.end]
        if left and right:
            r.vs = (left[-1], right[0])
    if r.cards and not r.game:
        r.game = r.cards[0]["game"]


def _qualifier_at(folded: str, start: int, end: int) -> str | None:
    """The qualifier written right before or right after a span (kb/data/query.toml
    [qualifiers]), if any."""
    words_before = folded[max(0, start - 24) : start].split()
    while words_before and words_before[-1] in stopwords():  # "before the draw phase"
        words_before.pop()
    before = " ".join(words_before)
    after = folded[end : end + 20].lstrip()
    for qualifier, (ending, opening) in _qualifier_patterns().items():
        if ending.search(before) or opening.match(after):
            return qualifier
    return None


@cache
def _qualifier_patterns() -> dict[str, tuple[re.Pattern[str], re.Pattern[str]]]:
    """Per qualifier, one pattern for its cues ending the text before a moment and one for
    its cues opening the text after it (CJK cues without word boundaries): compiled once,
    not once per cue and moment."""
    out = {}
    for qualifier, cues in query_data()["qualifiers"].items():
        ordered = sorted({fold(c) for c in cues}, key=len, reverse=True)
        cjk = "|".join(re.escape(c) for c in ordered if CJK_RUN.search(c)) or "(?!)"
        plain = "|".join(re.escape(c) for c in ordered if not CJK_RUN.search(c)) or "(?!)"
        out[qualifier] = (
            re.compile(rf"(?:(?<!\w)(?:{plain})|(?:{cjk}))$"),
            re.compile(rf"(?:(?:{plain})(?!\w)|(?:{cjk}))"),
        )
    return out


def _qualified(ctx: Context, node: str, qualifier: str) -> list[dict[str, object]]:
    """The moments of the node's tree whose name carries the qualifier and the node's own
    name without its qualifiers ("during damage calculation" + before -> "before damage
    calculation")."""
    entries = [t for t in ctx.vocab.timing if t["node"] == node]
    if not entries:
        return []
    tree = entries[0]["tree"]
    words = {fold(c) for cues in query_data()["qualifiers"].values() for c in cues}
    words |= set(query_data()["moment_names"]["fillers"])
    bases = {" ".join(w for w in e["key"].split() if w not in words) for e in entries}
    cues = [fold(c) for c in query_data()["qualifiers"][qualifier]]
    out = []
    for t in ctx.vocab.timing:
        if t["tree"] != tree or t["node"] == node:
            continue
        has_cue = any(re.search(rf"(?<!\w){re.escape(c)}(?!\w)", t["key"]) for c in cues)
        if has_cue and any(b and b in t["key"] for b in bases):
            out.append(t)
    return out


def qualified_moments(ctx: Context) -> None:
    """A moment typed with "before", "after", "start" or "end" next to it is the moment so
    qualified; one the knowledge base lacks leaves the question unresolved (no verdict)."""
    r = ctx.result
    kept: list[dict[str, Any]] = []
    for t in r.timing:
        q = _qualifier_at(ctx.folded, t["start"], t["end"]) if "start" in t else None
        names = " ".join(e["key"] for e in ctx.vocab.timing if e["node"] == t["node"])
        cues = [fold(c) for c in query_data()["qualifiers"].get(q or "", [])]
        if q is None or any(re.search(rf"(?<!\w){re.escape(c)}(?!\w)", names) for c in cues):
            kept.append(t)
            continue
        targets = _qualified(ctx, t["node"], q)
        if not targets:
            r.unresolved = True
            kept.append(t)
        kept += [{**x, "start": t["start"], "end": t["end"]} for x in targets]
        r.qualified_from.append(t["node"])
    first: dict[str, dict[str, Any]] = {}
    for t in kept:  # each moment once, where it first stands
        first.setdefault(t["node"], t)
    r.timing = list(first.values())
