"""Every content word of a question accounted for before a verdict stands: read by the parse
(a card, a moment and the words placing it, a class, the action, the Chain) or said by the
clauses the verdict quotes or what they are said under. A word neither read nor quoted is one
the verdict never weighed ("a second Chain in the Battle Step"): no verdict, and the answer
names the words."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

from ingest.text import CJK_RUN, cjk_bigrams, fold, stem

from ...lexicon.words import cue_pattern, query_data, stopwords
from ...lookups.timing import node_path
from ...store.db import first, run
from ...store.vocabulary import load_vocabulary
from ..passes_asks import lexicon
from ..question import Understood
from . import passages, words
from .common import Asked, Verdict, threshold
from .curated import curated

Span = tuple[int, int]


def unaccounted(asked: Asked, verdict: Verdict) -> list[str]:
    """The question's words neither read nor said, adjacent ones as one phrase ("second chain").
    One plain word of a long question (tuned: account_slack_from) may go unsaid, never a name
    nor a word narrowing one."""
    conn, u = asked.conn, asked.u
    each = said(conn, verdict)
    held = set().union(*each)
    read = _read(asked, verdict, held)
    required = [
        (start, end, options)
        for start, end, options in words.required_spans(conn, u, read)
        if not any(s < end and start < e for s, e in read)  # a game name read as the game
    ]
    missing = [r for r in required if not _said(each, held, {_as_held(a) for a in r[2]})]
    unsaid = [options for _, _, options in missing]
    slack_from = threshold("account_slack_from")
    if words.plain(unsaid) == unsaid and words.all_but_one(unsaid, required, slack_from):
        return []
    return _phrases(u.corrected or u.text, sorted((s, e) for s, e, _ in missing))


def _read(asked: Asked, verdict: Verdict, held: set[str]) -> list[Span]:
    """Where the parse read the question: its cards, classes, moments the verdict's rules are
    placed at (with the words placing them), the action, the game; what any rule supposes
    ("player": kb/data/query.toml [conditions]); the Chain when a quoted clause says which;
    the words a card-data verdict reads ("original", the field asked: [printed], [facts])."""
    conn, u = asked.conn, asked.u
    text = u.corrected or u.text
    folded = fold(text)
    spans = [(c["start"], c["end"]) for c in [*u.cards, *u.classes] if "start" in c]
    placed = _placed(conn, verdict, held)
    for t in u.timing:
        if "start" in t and placed(t["node"]):
            spans += [(t["start"], t["end"]), *_placing(conn, folded, t)]
    for action, action_cues in lexicon().actions_:
        if action == u.action:
            spans += [_phrase(u, folded, (m.start(), m.end())) for m in action_cues.finditer(text)]
    data = query_data()
    cues = [*data["conditions"]["implied"], *load_vocabulary(conn).games.get(u.game or "", [])]
    if verdict.kind == "card":
        cues += [*data["printed"]["words"], *(w for f in u.facts for w in data["facts"].get(f, []))]
    spans += [span for c in cues for span in _whole(fold(c), folded)]
    if u.chain and any(lexicon().chain(b.get("quote") or "") for b in verdict.because):
        spans += [(m.start(), m.end()) for _, c in lexicon().chains for m in c.finditer(text)]
    return spans


def _phrase(u: Understood, folded: str, span: Span) -> Span:
    """The longest everyday phrase holding the word at ``span``, read whole with it ("rút bài"
    is the action draw, its "bài" no word of its own); else the span."""
    holding = [(at, at + len(k)) for k in u.expansions if 0 <= (at := folded.find(k)) <= span[0]]
    return max([h for h in holding if span[1] <= h[1]] + [span], key=lambda h: h[1] - h[0])


def _placed(conn: sqlite3.Connection, verdict: Verdict, held: set[str]) -> Callable[[str], bool]:
    """Whether the verdict's rules stand at a moment the question names (a rule of it or of a
    moment within it, or a clause naming it; any moment when no quoted rule has one)."""
    rules = list(dict.fromkeys(b["rule"] for b in verdict.because if b.get("rule")))
    nodes = [n for p in run(conn, "passages", ids=rules) for n in (p["nodes"] or "").split()]
    within = " › ".join(node_path(conn, n) for n in nodes)
    names = words.moment_names(conn)

    def placed(node: str) -> bool:
        row = first(conn, "timing_node", id=node)
        return (
            not nodes
            or (row is not None and row["en"] in within)
            or words.holds(held, words.alternatives(names.get(node, [])))
        )

    return placed


def _placing(conn: sqlite3.Connection, folded: str, moment: dict[str, Any]) -> list[Span]:
    """The words before a moment placing something at it ("during"): read with it, but a
    qualifier its name lacks ("at the start of" the Battle Step), left for the clause to say."""
    start = moment["start"]
    names = " ".join(r["key"] for r in load_vocabulary(conn).timing if r["node"] == moment["node"])
    before = folded[:start].rstrip()
    while (last := re.search(r"\w+$", before)) and last.group() in stopwords():
        before = before[: last.start()].rstrip()  # "before the Damage Step"
    qualifiers = curated()["qualifiers"]
    return [
        (len(before) - len(cue), start)
        for cue in curated()["placing"]
        if not any(_whole(q, cue) and not _whole(q, names) for q in qualifiers)
        and _whole(cue, before[-len(cue) - 1 :])
        and before.endswith(cue)
    ]


def _whole(cue: str, text: str) -> list[Span]:
    """Where the cue stands in the text as whole words (a Chinese cue anywhere)."""
    return [m.span() for m in cue_pattern((cue,)).finditer(text)]


def said(conn: sqlite3.Connection, verdict: Verdict) -> list[set[str]]:
    """The stems of the verdict's quoted clauses with their glosses, then of each heading,
    title or moment name their rules are said under (passages.context); Chinese as its
    bigrams and characters."""
    quoted = [b.get("quote") or "" for b in verdict.because]
    quoted += [(b.get("quote_gloss") or {}).get("text", "") for b in verdict.because]
    rules = [b["rule"] for b in verdict.because if b.get("rule")]
    under = []
    for passage in run(conn, "passages", ids=list(dict.fromkeys(rules))) if rules else []:
        under += passages.context(conn, passage)
    return [_stems(" ".join(quoted)), *(_stems(text) for text in dict.fromkeys(under))]


def _stems(text: str) -> set[str]:
    # the index's words ("dm", "5") and the question's ("dm5": words._script_words)
    out = words.stems(text) | {stem(w) for w in re.findall(r"\w+", fold(text))}
    for chars in CJK_RUN.findall(fold(text)):
        out |= {*cjk_bigrams(chars), *chars}
    return out


def _said(each: list[set[str]], held: set[str], options: set[str]) -> bool:
    """Some way of writing a word is said: a word anywhere, a phrase of several words by the
    quoted clauses or by one heading alone ("starting player" is not "player" in the clause
    and "Start" in the name of the step it is under)."""
    alone = {a for a in options if "|" not in a}
    return words.holds(held, alone) or any(words.holds(s, options - alone) for s in each)


def _as_held(alternative: str) -> str:
    """A way of writing as said() holds it: a Chinese word as its bigrams."""
    parts = []
    for part in alternative.split("|"):
        parts += cjk_bigrams(part) if CJK_RUN.fullmatch(part) and len(part) > 1 else [part]
    return "|".join(sorted(set(parts)))


def _phrases(text: str, spans: list[Span]) -> list[str]:
    """The spans' words as written, spans with only spaces or hyphens between them joined."""
    shown = text if len(fold(text)) == len(text) else fold(text)
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and not shown[merged[-1][1] : start].strip(" -"):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return list(dict.fromkeys(shown[s:e].strip() for s, e in merged))
