"""Retrieval and ranking for ``kb ask``: focused passages for an understood question.

Candidates come from several lists: FTS5 over the question's content words (all of them, and
any of them), FTS5 over every form of each recognised concept (a card's names and aliases, a
timing node's names in every language, a glossary term's renderings), the rules of the
recognised timing nodes and the rulings of the recognised cards. The lists are fused by
reciprocal rank and the candidates re-ranked with what a judge cares about: the cards and the
moment the question names, the share of its words a passage covers (typos allowed), the game,
the question's language and the authority of the source.

On the ``kb ask`` path: standard library, sqlite3 and rapidfuzz only.
"""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ingest.text import CJK_RUN, cjk_bigrams, fold, words

from ..db import kb_match, run
from .understand import Understood, query_data, stopwords, typed_spans

# How many candidates each list contributes, and the reciprocal-rank constant.
LIST_SIZE = 60
RRF_K = 20
# Weights of the re-ranking features (see rank()).
WEIGHTS = {
    "rrf": 1.0,
    "coverage": 5.0,
    "title": 2.0,
    "card": 2.5,
    "vs": 4.0,
    "timing": 1.6,
    "timing_near": 0.6,
    "language": 0.25,
    "official": 0.3,
    "machine": -0.5,
    "example": 1.0,
    "fact": 3.0,
    "game": 0.8,
    "era": 0.8,
    "defines": 1.5,
    "brevity": 0.5,
    "literal": 0.5,
    "number": 1.0,
    "proximity": 1.0,
    "shallow": 0.5,
    "key_fact": 0.5,
}


def _phrase(form: str) -> str:
    """One FTS5 phrase for a name or term, on the folded column, CJK as bigrams."""
    parts: list[str] = []
    for w in words(fold(form)):
        parts += cjk_bigrams(w) if CJK_RUN.fullmatch(w) else [w]
    return '"' + " ".join(p.replace('"', '""') for p in parts) + '"' if parts else ""


def _stem(word: str) -> str | None:
    """A crude English stem for a prefix query ("triggers" -> "trigger"), or None."""
    if not word.isascii() or not word.isalpha() or len(word) < 5:
        return None
    stem = re.sub(r"(ing|ed|es|s)$", "", word)
    return stem if len(stem) >= 4 and stem != word else None


@cache
def _spellings() -> tuple[tuple[str, ...], ...]:
    """kb/data/query.toml [spellings]: groups of spellings of the same words."""
    return tuple((k, *v) for k, v in query_data().get("spellings", {}).items())


@cache
def _spelling_pattern(spelling: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(spelling)}(?!\w)")


def spelled(forms: list[str]) -> list[str]:
    """The forms, each also in the other spellings of its words ("cannot draw" is also "can't
    draw", and "can't draw" also "cannot draw")."""
    out = list(forms)
    for form in forms:
        for group in _spellings():
            for spelling in group:
                pattern = _spelling_pattern(spelling)
                if pattern.search(form):
                    out += [pattern.sub(other, form) for other in group if other != spelling]
    return list(dict.fromkeys(out))


def word_forms(u: Understood) -> list[list[str]]:
    """Per content word: the word, its expansions; and one entry per expanded phrase."""
    out: list[list[str]] = []
    # A word of an expanded phrase ("out" of "deck out") is searched as part of the phrase.
    in_phrases = {w for key in u.expansions if " " in key for w in key.split()}
    for w in dict.fromkeys(u.words):  # a word typed twice ("one by one") weighs once
        if (len(w) < 2 and not CJK_RUN.fullmatch(w)) or w in in_phrases:
            continue
        out.append(spelled([w, *u.expansions.get(w, [])]))
    for key, forms in u.expansions.items():
        if " " in key or key not in u.words:
            out.append(spelled([key, *forms]))
    return out


def _word_group(forms: list[str]) -> str:
    parts = {p for p in (_phrase(f) for f in forms) if p}
    stem = _stem(fold(forms[0]))
    if stem:
        parts.add(f'"{stem}"*')
    return "(" + " OR ".join(sorted(parts)) + ")" if parts else ""


def _group(forms: list[str], *, prefix: bool = True) -> str:
    """A concept's forms for FTS5; with ``prefix``, a form ending in an English word ends in a
    prefix ("G unit" finds "G units": the index does not stem). Card names stay exact."""

    def english_end(form: str) -> bool:
        last = form.split()[-1] if form.split() else ""
        return len(last) >= 3 and last.isascii() and last.isalpha()

    phrases = sorted(
        {p + "*" if prefix and english_end(f) else p for f in forms if (p := _phrase(f))}
    )
    return "(" + " OR ".join(phrases) + ")" if phrases else ""


def _fts(conn: sqlite3.Connection, expression: str, game: str) -> list[int]:
    """Rules matching ``expression`` on the folded column, best first."""
    return _fts_raw(conn, "{folded} : " + expression, game) if expression else []


def _column(conn: sqlite3.Connection, sql: str, *params: Any) -> list[Any]:
    """The first column of ``sql``'s rows."""
    return [row[0] for row in conn.execute(sql, params)]


def concept_forms(conn: sqlite3.Connection, u: Understood) -> list[tuple[str, list[str]]]:
    """(concept, every form it is written in) for each recognised card, timing node and term."""
    concepts: list[tuple[str, list[str]]] = []
    for card in u.cards:
        forms = _column(conn, "SELECT alias FROM card_aliases WHERE card = ?", card["id"])
        concepts.append((f"card:{card['id']}", forms))
    for node in dict.fromkeys(t["node"] for t in u.timing):
        forms = _column(
            conn,
            "SELECT text FROM timing_names WHERE node = ? UNION SELECT en FROM timing_nodes "
            "WHERE id = ?",
            node,
            node,
        )
        concepts.append((f"timing:{node}", forms))
    for term in dict.fromkeys(t["term"] for t in u.terms):
        forms = _column(
            conn,
            "SELECT text FROM term_renderings WHERE term = ? UNION SELECT en FROM terms WHERE "
            "id = ? UNION SELECT j.value FROM terms t, json_each(t.forms) j WHERE t.id = ?",
            term,
            term,
            term,
        )
        concepts.append((f"term:{term}", forms))
    return concepts


@dataclass
class Candidates:
    lists: list[tuple[float, list[int]]] = field(
        default_factory=list
    )  # (weight, seqs in rank order)


# A group of forms found in more than this share of all rules cannot tell passages apart; it
# is not searched on its own or in the any-word list (bm25 over a very common word costs as
# much as scoring the whole corpus), only together with rarer words.
COMMON_SHARE = 0.15


def rule_count(conn: sqlite3.Connection) -> int:
    """How many rules the index holds (max rowid: constant time, unlike count(*))."""
    return conn.execute("SELECT max(rowid) FROM rules_fts").fetchone()[0] or 1


def frequencies(conn: sqlite3.Connection, forms: list[str]) -> dict[str, int]:
    """Rules containing each folded word of ``forms`` (words the index lacks are absent)."""
    keys = sorted({w for f in forms for w in words(fold(f))})
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    return dict(conn.execute(f"SELECT term, rules FROM search_vocab WHERE term IN ({marks})", keys))


def group_frequency(forms: list[str], df: dict[str, int]) -> int:
    """Upper bound of the rules matching any of ``forms``: a phrase is as rare as its rarest
    word; CJK runs and unknown words count as rare."""
    total = 0
    for f in forms:
        ws = words(fold(f))
        total += min((df.get(w, 0) for w in ws), default=0)
    return total


def _search_forms(forms: list[str]) -> list[str]:
    """Forms worth searching: a rendering that folds to a stopword of another language (the
    Vietnamese "thẻ" folds to the English "the") would match nearly every rule."""
    kept = [f for f in forms if " ".join(words(fold(f))) not in stopwords()]
    return kept or forms


def gather(conn: sqlite3.Connection, u: Understood, game: str) -> Candidates:
    c = Candidates()
    word_lists = word_forms(u)
    named = [(name, _search_forms(forms)) for name, forms in concept_forms(conn, u)]
    concept_lists = [forms for _, forms in named]
    df = frequencies(conn, [f for forms in word_lists + concept_lists for f in forms])
    common = COMMON_SHARE * rule_count(conn)
    words_ = [(g, group_frequency(forms, df)) for forms in word_lists if (g := _word_group(forms))]
    concepts = [
        (g, group_frequency(forms, df))
        for name, forms in named
        if (g := _group(forms, prefix=not name.startswith("card:")))
    ]
    word_group = [g for g, _ in words_]
    groups = [g for g, _ in concepts]
    rare_words = [g for g, n in words_ if n <= common] or (word_group if not groups else [])
    done: dict[str, list[int]] = {}

    def add(weight: float, expression: str) -> None:
        if expression not in done:
            done[expression] = _fts(conn, expression, game)
        c.lists.append((weight, done[expression]))

    if len(word_group) > 1:
        add(1.0, " AND ".join(word_group))
    if rare_words:
        add(0.7, " OR ".join(rare_words))
    if groups and (len(groups) > 1 or concepts[0][1] <= common or not word_group):
        add(1.2, " AND ".join(groups))
    if groups:
        if word_group:
            add(1.0, " AND ".join([*groups, f"({' OR '.join(word_group)})"]))
        for g, n in concepts:
            if n <= common:
                add(0.5, g)
    for node in dict.fromkeys(t["node"] for t in u.timing):
        seqs = _column(
            conn,
            "SELECT r.seq FROM timing_rules t JOIN rules r ON r.id = t.rule WHERE t.node = ? "
            "ORDER BY r.seq LIMIT ?",
            node,
            LIST_SIZE,
        )
        c.lists.append((0.6, seqs))
    for card in u.cards:
        # The card's data lines, the fields the question asks for first.
        facts = _column(
            conn,
            "SELECT r.seq FROM card_facts f JOIN rules r ON r.id = f.rule WHERE f.card = ? "
            "ORDER BY f.field NOT IN (SELECT value FROM json_each(?)), f.id LIMIT ?",
            card["id"],
            json.dumps(u.facts),
            LIST_SIZE,
        )
        if facts and u.facts:
            c.lists.append((1.0, facts))
        seqs = _column(
            conn,
            "SELECT r.seq FROM ruling_cards rc JOIN rules r ON r.id = rc.ruling WHERE rc.card "
            "= ? ORDER BY r.seq LIMIT ?",
            card["id"],
            LIST_SIZE,
        )
        c.lists.append((0.8, seqs))
    if not any(seqs for _, seqs in c.lists):
        # Nothing recognised and no content word matched: the raw text, any word.
        c.lists.append((0.5, _fts_raw(conn, kb_match(u.text, "any"), game)))
    return c


def _fts_raw(conn: sqlite3.Connection, expression: str, game: str) -> list[int]:
    """Rules matching an FTS5 ``expression`` (any column), best first; none if it is invalid."""
    sql = (
        "SELECT rules_fts.rowid FROM rules_fts JOIN rules r ON r.seq = rules_fts.rowid "
        "WHERE rules_fts MATCH ? AND (? = '' OR r.game = ?) ORDER BY bm25(rules_fts, 2.0, 1.0, "
        "0.6) LIMIT ?"
    )
    try:
        return [row[0] for row in conn.execute(sql, (expression, game, game, LIST_SIZE))]
    except sqlite3.OperationalError:
        return []


_SUFFIX = "(?:s|es|ed|d|ing)?"


def _bases(word: str) -> list[str]:
    """What an inflected English word may be built on: "moving" on "move", "changes" on
    "change", "copies" on "copy", "stopped" on "stop". A stem shorter than three letters is
    not guessed at ("thing" is not "the" + "ing")."""
    bases = [word]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            bases += [base, base + "e"]
            if base[-1] == base[-2] and len(base) > 3:
                bases.append(base[:-1])  # "stopped", "running"
    if word.endswith("ies"):
        bases.append(word[:-3] + "y")
    elif word.endswith(("ses", "xes", "zes", "ches", "shes")):
        bases.append(word[:-2])
    elif word.endswith("s") and not word.endswith("ss"):
        bases.append(word[:-1])
    # A guess that is a function word ("noted" on "not") would match nearly every passage.
    return [b for b in dict.fromkeys(bases) if len(b) >= 3 and (b == word or b not in stopwords())]


def _inflected(word: str) -> str:
    """Regex of an English word in any of its inflections; other words as they are."""
    if not (word.isascii() and word.isalpha() and len(word) > 2):
        return re.escape(word)
    bases = _bases(word) if len(word) >= 5 and word not in stopwords() else [word]
    alternation = "|".join(re.escape(b) for b in sorted(bases, key=len, reverse=True))
    return f"(?:{alternation}){_SUFFIX}"


def _needles(form: str) -> tuple[str, ...]:
    """Strings a text must contain for the form's pattern to match: each word's shortest base."""
    out = []
    for w in words(fold(form)):
        inflectable = w.isascii() and w.isalpha() and len(w) >= 5
        # What every inflection shares ("copies", "copy": "cop").
        out.append(os.path.commonprefix(_bases(w)) if inflectable else w)
    return tuple(out)


def _form_pattern(form: str, *, loose: bool = False) -> re.Pattern[str] | None:
    """A form as whole words of folded text, each English word with its inflections.

    ``loose`` lets up to three other words stand between the form's words, for everyday
    paraphrases ("no cards in deck" finds "no cards in their main deck").
    """
    ws = words(fold(form))
    if not ws:
        return None
    parts = [_inflected(w) for w in ws]
    gap = r"(?:\s+\S+){0,3}\s+" if loose else r"\s+"
    return re.compile(r"(?<!\w)" + gap.join(parts) + r"(?!\w)")


@dataclass(frozen=True)
class Group:
    """One thing the question asks about: a word with its expansions, or a concept's forms."""

    forms: tuple[str, ...]
    weight: float  # inverse document frequency: rare words matter more
    concept: bool = False
    patterns: tuple[re.Pattern[str], ...] = ()
    # Per pattern, the words a text must contain for the pattern to match: checking them with
    # ``in`` first spares most regex searches.
    needles: tuple[tuple[str, ...], ...] = ()

    def matching(self, folded: str) -> list[re.Pattern[str]]:
        return [
            p
            for p, words_ in zip(self.patterns, self.needles, strict=True)
            if all(w in folded for w in words_)
        ]


def query_groups(conn: sqlite3.Connection, u: Understood) -> list[Group]:
    groups = [(tuple(forms), False) for forms in word_forms(u)]
    groups += [(tuple(_search_forms(forms)), True) for _, forms in concept_forms(conn, u) if forms]
    total = rule_count(conn)
    keys = sorted({w for forms, _ in groups for f in forms for w in words(fold(f))})
    df = (
        dict(
            conn.execute(
                f"SELECT term, rules FROM search_vocab WHERE term IN ({','.join('?' * len(keys))})",
                keys,
            )
        )
        if keys
        else {}
    )

    def idf(form: str) -> float:
        ws = words(fold(form))
        if not ws:
            return 0.0
        # A phrase is as rare as its rarest word; CJK and unknown words count as rare.
        return max(math.log(1 + total / max(1, df.get(w, 1))) for w in ws)

    out = []
    for forms, concept in groups:
        pairs = [(_form_pattern(f, loose=not concept), _needles(f)) for f in forms]
        pairs = [(p, n) for p, n in pairs if p]
        if concept:
            # A concept is found by any of its forms: it is as common as all of them together
            # (the rare machine rendering of "opponent" does not make "opponent" rare).
            weight = 1.5 * math.log(1 + total / max(1, group_frequency(list(forms), df)))
        else:
            # As rare as what the judge typed: the forms added for it ("can't" for "cannot",
            # rare in the corpus) do not make it rarer.
            weight = idf(forms[0])
        out.append(
            Group(
                forms,
                weight,
                concept,
                tuple(p for p, _ in pairs),  # type: ignore[misc]
                tuple(n for _, n in pairs),
            )
        )
    return out


def _present(group: Group, folded: str, tokens: set[str], grams: set[str]) -> float:
    """1 if one of the group's forms (inflected, or by stem) is in the passage, less for a typo."""
    from rapidfuzz import fuzz, process

    if any(p.search(folded) for p in group.matching(folded)):
        return 1.0
    w = fold(group.forms[0])
    if CJK_RUN.fullmatch(w) and set(cjk_bigrams(w)) <= grams:
        return 1.0
    stem = _stem(w)
    if stem and f" {stem}" in folded:
        return 1.0
    if (
        not group.concept
        and len(w) >= 4
        and process.extractOne(w, tokens, scorer=fuzz.ratio, score_cutoff=80)
    ):
        return 0.8
    return 0.0


def _concept_spans(group: Group, folded: str) -> list[tuple[int, int]]:
    return [m.span() for p in group.matching(folded) for m in p.finditer(folded)]


def _shadowed(groups: list[Group], folded: str) -> set[int]:
    """Concepts whose every mention in the passage lies inside a longer mention of another
    concept: "quasi-restricted card" is Semi-Limited, not also Limited ("restricted card")."""
    spans = {i: _concept_spans(g, folded) for i, g in enumerate(groups) if g.concept}
    out = set()
    for i, mine in spans.items():
        others = [s for j, theirs in spans.items() if j != i for s in theirs]
        if mine and all(
            any(a <= start and end <= b and (b - a) > (end - start) for a, b in others)
            for start, end in mine
        ):
            out.add(i)
    return out


def coverage(groups: list[Group], text: str) -> float:
    """Share of the question's weight (rare words weigh more) that the passage covers."""
    total = sum(g.weight for g in groups)
    if not total:
        return 0.0
    folded = " " + " ".join(words(fold(text))) + " "
    tokens = set(folded.split())
    grams = {g for t in tokens if CJK_RUN.fullmatch(t) for g in cjk_bigrams(t)}
    shadowed = _shadowed(groups, folded) if sum(g.concept for g in groups) > 1 else set()
    return (
        sum(
            g.weight * _present(g, folded, tokens, grams)
            for i, g in enumerate(groups)
            if i not in shadowed
        )
        / total
    )


@cache
def _number_words() -> re.Pattern[str]:
    alternation = "|".join(re.escape(fold(w)) for w in query_data()["quantity"]["numbers"])
    return re.compile(rf"\d|(?<!\w)(?:{alternation})(?!\w)")


@cache
def _limits() -> re.Pattern[str]:
    data = query_data()["quantity"]
    cues = "|".join(re.escape(fold(w)) for w in data["limits"])
    numbers = "|".join(re.escape(fold(w)) for w in data["numbers"])
    return re.compile(rf"(?<!\w)(?:{cues})\s+(?:\S+\s+){{0,2}}?(?:\d+|{numbers})(?!\w)")


def states_number(text: str) -> float:
    """1 when the passage sets a limit ("exactly 50", "up to four"), 0.5 when it only states a
    quantity (digits or a number word)."""
    folded = fold(text)
    if _limits().search(folded):
        return 1.0
    return 0.5 if _number_words().search(folded) else 0.0


def literal(typed: list[str], text: str) -> float:
    """Share of the names the question typed that the passage writes the same way (闪电 in a
    Chinese list beats its English alias "lightning")."""
    if not typed:
        return 0.0
    folded = fold(text)
    return sum(1 for t in typed if t in folded) / len(typed)


def proximity(groups: list[Group], text: str, window: int = 4) -> float:
    """Share of neighbouring pairs of the question's words that stand close in the passage."""
    words_only = [g for g in groups if not g.concept] + [g for g in groups if g.concept]
    if len(words_only) < 2:
        return 0.0
    folded = " ".join(words(fold(text)))
    positions = []
    for g in words_only:
        spots = [
            folded.count(" ", 0, m.start()) for p in g.matching(folded) for m in p.finditer(folded)
        ]
        positions.append(spots)
    pairs = close = 0
    for a, b in zip(positions, positions[1:], strict=False):
        pairs += 1
        if a and b and min(abs(x - y) for x in a for y in b) <= window:
            close += 1
    return close / pairs if pairs else 0.0


def _defines(groups: list[Group], row: dict[str, Any]) -> bool:
    """The passage defines what the question names: it is titled with it, or one of its
    sentences opens with it followed by "is", "là", "means" or a colon."""
    title = " ".join(words(fold(row["title"] or "")))
    sentences = [" ".join(words(fold(s))) for s in re.split(r"(?<=[.!?。])\s+", row["text"])]
    for g in groups:
        for f in g.forms:
            key = " ".join(words(fold(f)))
            if not key:
                continue
            if title == key or any(
                re.match(rf"{re.escape(key)} (?:is|are|la|means|nghia la)\b", s) for s in sentences
            ):
                return True
            if fold(row["text"]).lower().startswith(key + ":"):
                return True
    return False


def rank(
    conn: sqlite3.Connection, u: Understood, candidates: Candidates, *, lang: str = ""
) -> list[dict[str, Any]]:
    fused: dict[int, float] = {}
    for weight, seqs in candidates.lists:
        for rank_, seq in enumerate(seqs):
            fused[seq] = fused.get(seq, 0.0) + weight / (RRF_K + rank_)
    if not fused:
        return []
    best_rrf = max(fused.values())
    rows = run(conn, "passages", seqs=json.dumps(sorted(fused)))
    groups = query_groups(conn, u)
    typed = typed_spans(u)
    card_ids = {c["id"] for c in u.cards}
    vs_ids = {u.vs[0]["id"], u.vs[1]["id"]} if u.vs else set()
    nodes = {t["node"] for t in u.timing}
    near = _neighbours(conn, nodes)
    wanted_lang = lang or u.lang
    # Text features depend on the text only, and a large corpus repeats texts (versions of a
    # rulebook, reprints): compute each once.
    memo: dict[tuple[str, str], float] = {}

    def once(kind: str, text: str, feature: Callable[[str], float]) -> float:
        if (kind, text) not in memo:
            memo[kind, text] = feature(text)
        return memo[kind, text]

    for row in rows:
        row_facts = set((row["facts"] or "").split())
        # A card's data line ("Attack: 1600") is about the card even without its name.
        mentioned = set((row["card_ids"] or "").split()) | {f.split(":")[0] for f in row_facts}
        row_nodes = set((row["nodes"] or "").split())
        body = " ".join(
            p for p in (row["number"], row["label"], row["title"], row["text"], row["reading"]) if p
        )
        features = {
            "rrf": fused[row["seq"]] / best_rrf,
            "coverage": once("c", f"{row['section_path']} {body}", lambda t: coverage(groups, t)),
            "title": once(
                "c", f"{row['section_path']} {row['title'] or ''}", lambda t: coverage(groups, t)
            ),
            "card": len(mentioned & card_ids) / max(1, len(card_ids)),
            "vs": float(
                bool(vs_ids)
                and vs_ids <= mentioned
                and (len(vs_ids) > 1 or row["kind"] == "example")
            ),
            "timing": float(bool(row_nodes & nodes)),
            "timing_near": float(bool(row_nodes & near) and not row_nodes & nodes),
            "language": float(wanted_lang in (row["langs"] or row["lang"]).split("+")),
            "official": float(row["provenance"] == "official"),
            "machine": float(row["provenance"] == "machine" and wanted_lang == "en"),
            "example": float(row["kind"] in ("example", "question") and bool(card_ids)),
            "fact": float(any(f"{c}:{f}" in row_facts for c in card_ids for f in u.facts)),
            "game": float(row["game"] == (u.game or u.game_hint)),
            "brevity": max(0.0, 1.0 - len(row["text"]) / 600),
            "literal": once(
                "l", f"{row['title'] or ''} {row['text']}", lambda t: literal(typed, t)
            ),
            "number": once("n", row["text"], states_number) if u.quantity else 0.0,
            "proximity": once(
                "p",
                f"{row['title'] or ''} {row['text']} {row['reading'] or ''}",
                lambda t: proximity(groups, t),
            ),
            "era": float(any(y in (row["era"] or "") for y in u.years)),
            "defines": float(u.definition and _defines(groups, row)),
            "shallow": 1.0 / (1 + (row["depth"] or 0)),
            # The passage states what may happen at a moment the question names: the timing
            # graph was built from it.
            "key_fact": min(
                1.0, sum(n in nodes for n in (row["property_nodes"] or "").split()) / 2
            ),
        }
        row["features"] = {k: round(v, 3) for k, v in features.items()}
        row["score"] = round(sum(WEIGHTS[k] * v for k, v in features.items()), 4)
    rows.sort(key=lambda r: (-r["score"], r["seq"]))
    return rows


def _neighbours(conn: sqlite3.Connection, nodes: set[str]) -> set[str]:
    """Parents and children of the named timing nodes."""
    out: set[str] = set()
    for node in nodes:
        out.update(
            _column(
                conn,
                "SELECT parent FROM timing_nodes WHERE id = ? AND parent IS NOT NULL "
                "UNION SELECT id FROM timing_nodes WHERE parent = ?",
                node,
                node,
            )
        )
    return out - nodes


def _aligned(conn: sqlite3.Connection, ids: list[str]) -> dict[str, set[str]]:
    """For each rule, the rules aligned with it (its translations, or its source)."""
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    out: dict[str, set[str]] = {}
    for me, other in conn.execute(
        f"SELECT a.rule, b.rule FROM alignment_rules a JOIN alignment_rules b ON b.alignment = "
        f"a.alignment "
        f"AND b.side != a.side WHERE a.rule IN ({marks})",
        ids,
    ):
        out.setdefault(me, set()).add(other)
    return out


def collapse(
    rows: list[dict[str, Any]], conn: sqlite3.Connection | None = None, lang: str = ""
) -> list[dict[str, Any]]:
    """One hit per piece of rules text: the same text in several versions of a document (7.0
    and 8.01), and a rule with its aligned translations, count once. A translation found first
    gives its place to its source when the question is not in the translation's language."""
    aligned = _aligned(conn, [r["id"] for r in rows[:200]]) if conn is not None else {}
    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    owner: dict[str, dict[str, Any]] = {}
    by_id = {r["id"]: r for r in rows}
    for row in rows:
        key = (row["game"], " ".join(words(fold(row["text"]))))
        kept = seen.get(key) or owner.get(row["id"])
        if kept is not None:
            kept.setdefault("also", []).append(row["id"])
            continue
        if row["translation_of"] and row["lang"] != lang:
            source = next(
                (by_id[i] for i in sorted(aligned.get(row["id"], ())) if i in by_id), None
            )
            if source is not None and source["id"] not in owner:
                row = {**source, "score": row["score"], "also": [row["id"]]}
        seen[key] = row
        out.append(row)
        owner[row["id"]] = row
        for other in aligned.get(row["id"], ()):
            owner.setdefault(other, row)
        for other in row.get("also", []):
            owner.setdefault(other, row)
    return out
