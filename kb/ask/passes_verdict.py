"""Understanding passes reading what a verdict weighs in a question that asks for one (after
``asks``): the card classes and rulesets it names, the action, the Chain and the modality it
asks about, and the words no rule holds. Actions, Chains and modalities come from the lexicon
the build reads rules with (ingest/data/statements.toml). A question asking for no verdict
is not read further: kb ask is a process per question.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.text import CJK_RUN, fold, folded_words, stem

from ..lexicon.phrases import find_phrase
from ..lexicon.words import query_data
from ..store.db import column, run
from .context import Context
from .passes_asks import cue_words, is_everyday_verb, lexicon, unread_chinese


def classes(ctx: Context) -> None:
    """The card classes the question names ("a counter trap", "Bẫy Phản đòn"), each once."""
    u = ctx.result
    if not u.kind:
        return
    folded = fold(u.text)
    found: list[dict[str, Any]] = []
    taken: list[tuple[int, int]] = []
    rows = run(ctx.conn, "class_names_of_game", game=u.game or "")
    for row in sorted(rows, key=lambda r: -len(r["text"])):
        key = folded_words(row["text"])
        for start, end in find_phrase(folded, key) if key else []:
            if all(end <= s or start >= e for s, e in taken):
                taken.append((start, end))
                if row["class"] not in {f["class"] for f in found}:
                    found.append({**row, "start": start, "end": end})
    u.classes = sorted(found, key=lambda f: f["start"])


def rulesets(ctx: Context) -> None:
    """The rulesets the question names ("OCG")."""
    u = ctx.result
    if u.kind:
        folded = fold(u.text)
        named = column(ctx.conn, "ask_rulesets")
        u.rulesets = [r for r in named if re.search(rf"(?<!\w){re.escape(r)}(?!\w)", folded)]


def action(ctx: Context) -> None:
    """What the question asks is done, read past the names of several words it holds ("the
    draw phase" draws nothing); the Chain it asks about (of several named, the last: "the
    first Chain has resolved. Can I ... in a second Chain?"); its modality ("can", "must")."""
    u = ctx.result
    if not u.kind:
        return
    folded = fold(u.text)
    text = list(folded)
    for found in [*u.terms, *u.timing]:
        # A name of several English words ("draw-phase"), not an action's own term
        # ("activate", written "kích hoạt").
        if "start" in found and "-" in found.get("term", found.get("node", "")):
            text[found["start"] : found["end"]] = [" "] * (found["end"] - found["start"])
    actions = lexicon().actions("".join(text))
    u.action = actions[0] if actions else ""
    named = [(m.start(), k) for k, cues in lexicon().chains for m in cues.finditer(u.text)]
    u.chain = max(named)[1] if named else ""
    u.modality = lexicon().modality(u.text)


def unknown_words(ctx: Context) -> None:
    """Content words the index has never seen ("digimon"): no fact covers what the knowledge
    base does not know. A word is known when its every part of letters is (the index splits
    "dm5" into "dm" and "5"), or the index holds it in another inflection ("initiated")."""
    u = ctx.result
    if not u.kind:
        return
    conn = ctx.conn
    expanded = {w for key in u.expansions for w in key.split()}  # "rearrange": its forms
    parts = {w: re.findall(r"[^\W\d_]+", w) for w in u.words}
    stems = {w: stem(w) for w in u.words}
    part_stems = {p: stem(p) for ps in parts.values() for p in ps}
    looked_up = set(part_stems) | set(part_stems.values()) | set(u.words) | set(stems.values())
    known = {r["term"] for r in run(conn, "ask_word_counts", words=sorted(looked_up))}
    data = query_data()["unknown"]
    # Everyday English the rules happen not to use ("since", "friend"), not a subject.
    everyday = set(
        column(conn, "ask_everyday_words", words=sorted(set(u.words) - known),
               min=data["everyday_count"])
    )  # fmt: skip
    unknown = [
        w
        for w in u.words
        if w not in known
        and stems[w] not in known  # "going": the index has "go"
        and w not in expanded
        # "damage-inflicting": each part is known, as written or as its stem
        and not (parts[w] and all(p in known or part_stems[p] in known for p in parts[w]))
        and not _adverb(w)  # "actually": says how, not what the question is about
        # an everyday verb ("wants", "brings"): what is asked of the subject, not it
        and not is_everyday_verb(w)
        and not CJK_RUN.search(w)
        and not re.fullmatch(r"[-+]?[\d.,]+", w)  # numbers, versions ("8.01"), "-100"
        and w not in cue_words()
        and w not in everyday
        # shorter words the index lacks are function words the stopwords miss ("got")
        and len(w) >= data["min_letters"]
        and not _inflected(ctx, stems[w])
    ]
    u.unknown = unknown + _unread_cjk(ctx)


def _adverb(word: str) -> bool:
    """An adverb by its ending (kb/data/query.toml [unknown] adverb_endings)."""
    data = query_data()["unknown"]
    return len(word) >= data["adverb_min_letters"] and word.endswith(tuple(data["adverb_endings"]))


def _inflected(ctx: Context, word_stem: str) -> bool:
    """The index holds the word in another inflection ("initiated": "initiate")."""
    if word_stem == "" or not word_stem.isascii():
        return False
    found = column(ctx.conn, "ask_words_of_stem", stem=word_stem)
    return any(stem(w) == word_stem for w in found)


def _unread_cjk(ctx: Context) -> list[str]:
    """Chinese the question holds beyond the names, moments, terms and cue words it was read
    by ("同名" in "同名卡最多放几张"). Cue words are read before the names take their
    characters (the field "攻击力" holds the term "攻击")."""
    u = ctx.result
    folded = fold(u.text)
    aliases = tuple(a for names in ctx.vocab.games.values() for a in names if CJK_RUN.search(a))
    chars = list(unread_chinese(folded, aliases)) if CJK_RUN.search(folded) else list(folded)
    for found in [*u.cards, *u.timing, *u.terms]:
        if "start" in found:
            chars[found["start"] : found["end"]] = [" "] * (found["end"] - found["start"])
    return CJK_RUN.findall("".join(chars))
