"""Understanding passes that read everyday words: expansions from the judge's vocabulary,
the card data asked for, unqualified terms, years, cues (definition, quantity), the content
words left, and which game the question is about when it names none.
"""

from __future__ import annotations

import json
import re
from collections.abc import Set as AbstractSet
from typing import Any

from ingest.text import CJK_RUN, fold, folded_words

from ..lexicon.phrases import find_phrase, match_phrases, span_of, spans_free, unplaced
from ..lexicon.words import Token, expansions, has_cue, query_data, stopwords, vs_words
from ..store.db import column, run
from ..store.vocabulary import Vocabulary, game_rule_counts, phrase_expression
from .context import Context
from .passes_names import is_own, term_belongs_to


def everyday_phrases(ctx: Context) -> None:
    """Everyday phrases of kb/data/query.toml [expand] and the English forms they stand for
    ("bộ bài" is "deck"). A phrase that folds to a function word counts only typed with its
    accents ("la" is "là", is, unless typed "lá", card)."""
    stop = stopwords()
    accented = {w.lower() for w in query_data().get("accents_required", {}).get("words", [])}
    typed = ctx.typed.lower()
    for entry in expansions():
        key = entry["key"]
        as_typed = rf"(?<!\w){re.escape(entry['typed'])}(?!\w)"
        if (key in stop or entry["typed"] in accented) and not re.search(as_typed, typed):
            continue
        if find_phrase(ctx.folded, key, plural_inside=True):
            ctx.result.expansions[key] = entry["forms"]


def card_facts(ctx: Context) -> None:
    """Which card data a question about a card asks for (ATK, level, attribute...)."""
    if not ctx.result.cards:
        return
    for field_name, names in query_data()["facts"].items():
        if has_cue(ctx.folded, [folded_words(n) for n in names]):
            ctx.result.facts.append(field_name)


def expanded_concepts(ctx: Context) -> None:
    """Moments and terms the everyday phrases name ("giai đoạn hồi phục" expands to "recovery
    phase", a moment). Found in the expansions, not in the question: no place in it."""
    r = ctx.result
    expanded = " | ".join(fold(f) for forms in r.expansions.values() for f in forms)
    if not expanded:
        return
    known = {t.get("node") for t in r.timing} | {t.get("term") for t in r.terms}
    for found in match_phrases(expanded, ctx.timing_vocab, []):
        if found["node"] not in known:
            r.timing.append(unplaced(found))
            known.add(found["node"])
    for found in match_phrases(expanded, ctx.terms_vocab, []):
        if found["term"] not in known:
            r.terms.append(unplaced(found))
            known.add(found["term"])


def _general_spans(ctx: Context, general: str) -> list[tuple[int, int]]:
    """Where the question names ``general``: as the term itself, or through an everyday
    phrase that expands to it ("bộ bài" is "deck")."""
    r = ctx.result
    keys = {t["key"] for t in ctx.terms_vocab if t["term"] == general}
    spans = [(t["start"], t["end"]) for t in r.terms if t["term"] == general and "end" in t]
    for key, forms in r.expansions.items():
        if keys & {folded_words(f) for f in forms}:
            spans += find_phrase(ctx.folded, key, plural_inside=True)[:1]
    return spans


def unqualified_terms(ctx: Context) -> None:
    """A term named without a qualifier stands for a more specific one (query.toml
    [unqualified]): "deck" with nothing but function words and game names where its qualifier
    would stand (before it in English, after it in Vietnamese) is the main deck."""
    r = ctx.result
    neutral = stopwords() | ctx.game_words
    known = {t["term"] for t in r.terms}
    for general, specific in query_data().get("unqualified", {}).items():
        if general not in known or specific in known:
            continue
        entry = next((e for e in ctx.terms_vocab if e["term"] == specific), None)
        for start, end in _general_spans(ctx, general):
            # Vietnamese questions often keep English words in English order: both sides.
            side = ctx.folded[:start].split()[-1:]
            if r.lang == "vi":
                side += ctx.folded[end:].split()[:1]
            if entry is not None and all(w in neutral for w in side):
                r.terms.append({**entry, "start": start, "end": end})
                break


def game_of_concepts(ctx: Context) -> None:
    """A game-specific term or moment names the game ("normal summon" is Yu-Gi-Oh!); words that
    are a term of every game or of several do not ("graveyard"), and neither does a term of one
    game that another game's rules use as an everyday word ("monster", "damage" of a game whose
    glossary defines them). Only what the question itself names: "攻击力" expands to "attack
    power", which is not Vanguard's power."""
    r = ctx.result
    if r.game:
        return
    by_span: dict[Any, set[str]] = {}
    for t in [*r.timing, *r.terms]:
        if "start" in t:
            game = t["game"] if term_belongs_to(ctx.vocab, t) else "*"
            by_span.setdefault(span_of(t), set()).add(game)
    games = {next(iter(g)) for g in by_span.values() if len(g) == 1} - {"*"}
    if len(games) == 1:
        r.game = games.pop()


def cues(ctx: Context) -> None:
    """Years ("2005": the era asked about), "what is" (a definition), "how many" (a number)."""
    r = ctx.result
    r.years = re.findall(r"(?<!\d)(?:19[89]\d|20[0-4]\d)(?!\d)", ctx.text)
    r.definition = any(fold(c) in ctx.folded for c in query_data()["definition"]["cues"])
    # Chinese has no spaces: a cue inside a run of characters counts.
    r.quantity = has_cue(ctx.folded, query_data()["quantity"]["cues"])


_CLITIC = re.compile(r"(\w+)'(?:s|re|ve|ll|d|m)")


def content_words(ctx: Context) -> None:
    """The words no name, moment or term took, without function words (also written with a
    clitic: "what's"), and without the words that name a document ("CR 8.01")."""
    stop = stopwords() | vs_words() | set(ctx.result.years)
    stop |= {w for w in column(ctx.conn, "ask_document_kinds")}
    known = stop | set(ctx.result.expansions)  # what a run of Chinese may be made of

    def function_word(key: str) -> bool:
        m = _CLITIC.fullmatch(key)
        if CJK_RUN.fullmatch(key):
            return read_whole(key, known)
        return key in stop or (m is not None and m.group(1) in stop)

    words: list[str] = []
    around: list[str] = []
    for t in ctx.tokens:
        if spans_free(ctx.used, t.start, t.end):
            words.append(t.key)
        else:
            around += _unread_pieces(ctx, t)
    ctx.result.words = [w for w in words if not function_word(w)]
    ctx.result.around = [p for p in around if not function_word(p)]


def _unread_pieces(ctx: Context, t: Token) -> list[str]:
    """Of a run of Chinese partly read, the pieces between what was read (Chinese writes no
    spaces: "卡" read as a term in "我能偷看自己奇墨池里的卡吗" leaves "我能偷看自己奇墨池里的"
    and "吗", not nothing)."""
    if not CJK_RUN.fullmatch(t.key) or len(t.key) != t.end - t.start:
        return []
    free = "".join(
        ch if spans_free(ctx.used, t.start + i, t.start + i + 1) else " "
        for i, ch in enumerate(t.key)
    )
    return free.split()


def read_whole(run: str, known: AbstractSet[str]) -> bool:
    """Whether a run of Chinese is, end to end, function words and words the question was
    already read by ("是多少": "是" + "多少"; "年规则": "年" + "规则", expanded to "year",
    "rules"). Chinese writes no spaces, so such a run is often what is left between the
    names a question was read by, and holds no further word the answer must account for."""
    ends = {0}  # where a segmentation into known words can stand
    for i in range(1, len(run) + 1):
        if any(run[j:i] in known for j in ends if j < i):
            ends.add(i)
    return len(run) in ends


def _adjacent_pairs(ctx: Context) -> list[str]:
    """Pairs of content words that stand next to each other in the question ("main timing")."""
    content = set(ctx.result.words)
    keys = [t.key for t in ctx.tokens]
    pairs = [f"{a} {b}" for a, b in zip(keys, keys[1:], strict=False) if {a, b} <= content]
    return list(dict.fromkeys(pairs))


def _every_game_writes(langs: list[str], vocab: Vocabulary) -> bool:
    """Whether every game has rules in one of ``langs`` (true when the languages of the games
    are not known: a database built before they were stored)."""
    return all(set(written) & set(langs) for written in vocab.game_langs.values())


def game_of_words(ctx: Context) -> None:
    """The game the content words point to.

    The words give a ``game_hint`` when they all point to one game. A pair of adjacent words
    that only one game's rules say, in at least ``phrase_rules`` of them ("main timing"), is
    that game's term: it decides the game, unless other words point elsewhere. A word points to
    the game that uses it most (for its size) when every other game uses it at most
    ``share_ratio`` as often, and in fewer than ``everyday_rules`` rules (kb/data/query.toml
    [games]): "flash", "sentinel" are Vanguard's, "resonator" Force of Will's, but "monster" is
    no one game's when several games' rules say it, whatever their sizes.

    A word written in a language some game has no rules in ("vật", "chưa": a game with no
    Vietnamese text holds no Vietnamese word) cannot tell that game from the others: its vote
    counts only when no word every game could hold has voted ("úp bẫy" alone still points to
    the game whose Vietnamese rules say it; "quest" beside it points to Lorcana).
    """
    r = ctx.result
    if r.game or not r.words:
        return
    sizes = ctx.vocab.game_rules or game_rule_counts(ctx.conn)
    rows = run(ctx.conn, "ask_word_counts", words=r.words)
    votes: set[str] = set()
    partial: set[str] = set()  # votes of words some game cannot hold
    for row in rows:
        if row["rules"] < 2:
            continue
        counts = json.loads(row["games"])
        game = max(counts, key=lambda g: (counts[g] / max(1, sizes.get(g, 0)), g))
        if is_own(counts, sizes, game):
            every = _every_game_writes(json.loads(row["langs"]), ctx.vocab)
            (votes if every else partial).add(game)
    votes = votes or partial
    r.game_hint = next(iter(votes)) if len(votes) == 1 else None
    least = query_data()["games"]["phrase_rules"]
    for pair in _adjacent_pairs(ctx):
        counts = {
            row["game"]: row["rules"]
            for row in run(ctx.conn, "phrase_games", expression=phrase_expression(pair))
        }
        game = next(iter(counts)) if len(counts) == 1 else None
        # A phrase decides unless the question's other words point to another game.
        if game and counts[game] >= least and votes <= {game}:
            r.game = r.game_hint = game
            r.game_guessed = True
            return


def one_game_per_span(ctx: Context) -> None:
    """Of the terms of several games read in the same words, those of the question's game
    ("kích hoạt" is Yu-Gi-Oh!'s activate and Vanguard's trigger)."""
    r = ctx.result
    game = r.game or r.game_hint
    if not game:
        return
    games: dict[Any, set[str]] = {}
    for t in r.terms:
        games.setdefault(span_of(t), set()).add(t["game"])
    r.terms = [
        t for t in r.terms if t["game"] in ("*", game) or not games[span_of(t)] & {"*", game}
    ]
