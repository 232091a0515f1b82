"""Query understanding for ``kb ask``: what a hurried judge's question names.

Finds, in any of the corpus languages and with or without diacritics: the game ("fow",
"ygo"), card names (exact names and aliases first, then close misspellings with rapidfuzz;
two close candidates are reported as ambiguous, never silently picked), the "X vs Y" pattern
(``vs``, ``đấu``, ``với``, ``对``), timing nodes ("damage calculation", "tính toán thiệt hại",
"伤害计算") and glossary terms ("mộ bài", "cemetery", "tribute"). Everything it knows comes
from the database (cards, timing names, glossary) and kb/data/query.toml.

On the ``kb ask`` path: standard library, sqlite3 and rapidfuzz only.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ingest.text import CJK_RUN, fold, name_key, words

from .. import datafiles
from ..cards import name_score
from ..vocabulary import Vocabulary, game_rule_counts

# Fuzzy card matches in free text need this score; inside an "X vs Y" side a little less.
FREE_CARD_SCORE = 82
VS_CARD_SCORE = 78
TIMING_SCORE = 88
AMBIGUITY_MARGIN = 3
MAX_NGRAM = 7


def query_data() -> dict[str, Any]:
    """kb/data/query.toml (see kb.datafiles: ask() loads it from the database's copy)."""
    return datafiles.load("query")


@cache
def stopwords() -> frozenset[str]:
    return frozenset(fold(w) for ws in query_data()["stopwords"].values() for w in ws)


@cache
def expansions() -> list[dict[str, Any]]:
    """kb/data/query.toml [expand]: (folded key, English forms), longest key first."""
    items = [
        {"key": " ".join(words(fold(k))), "typed": k.lower(), "forms": v}
        for k, v in query_data()["expand"].items()
    ]
    return sorted(items, key=lambda e: -len(e["key"]))


@dataclass
class Token:
    text: str  # as typed
    key: str  # folded
    start: int
    end: int


@dataclass
class Understood:
    text: str
    lang: str
    game: str | None = None
    cards: list[dict[str, Any]] = field(default_factory=list)  # in order of appearance
    vs: tuple[dict[str, Any], dict[str, Any]] | None = None
    ambiguous: list[dict[str, Any]] = field(default_factory=list)
    timing: list[dict[str, Any]] = field(default_factory=list)
    terms: list[dict[str, Any]] = field(default_factory=list)
    words: list[str] = field(default_factory=list)  # content words left, folded
    expansions: dict[str, list[str]] = field(default_factory=dict)  # typed phrase -> English forms
    facts: list[str] = field(default_factory=list)  # card data fields asked for (atk, level...)
    years: list[str] = field(default_factory=list)  # "2005": the era the question is about
    definition: bool = False  # "what is ...", "... là gì"
    game_hint: str | None = None  # the game only it uses words of the question belong to
    quantity: bool = False  # "how many", "tối đa": the answer is a number
    corrections: dict[str, str] = field(default_factory=dict)  # misspelt word -> index word

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
            "expansions": self.expansions,
            "facts": self.facts,
            "years": self.years,
            "definition": self.definition,
            "game_hint": self.game_hint,
            "quantity": self.quantity,
            "corrections": self.corrections,
        }


def _tokens(text: str) -> list[Token]:
    out = []
    for m in re.finditer(r"[\w\-'’.]+|[^\s\w]", text):
        raw = m.group().strip(".'’")
        if raw and (any(ch.isalnum() for ch in raw)):
            out.append(Token(raw, fold(raw), m.start(), m.end()))
    return out


def query_language(text: str) -> str:
    if CJK_RUN.search(text):
        return "zh"
    if fold(text) != text.lower():
        return "vi"
    tokens = {fold(t) for t in words(text)}
    vi_words = set(query_data()["stopwords"]["vi"]) - set(query_data()["stopwords"]["en"])
    return "vi" if len(tokens & vi_words) >= 2 else "en"


def query_words(folded_query: str) -> frozenset[str]:
    """The words of a folded question, for ruling out phrases before any regex is compiled."""
    found = words(folded_query)
    return frozenset(found + [p for w in found for p in re.split(r"['’]", w)])


def _inflections(word: str) -> tuple[str, str]:
    """(what an English inflection of ``word`` starts with, regex of its endings): "negate"
    is also "negates", "negated", "negating"; other words take a plural "s"."""
    if len(word) >= 4 and word.isascii() and word.isalpha():
        if word.endswith("e"):
            return word[:-1], "(?:e|es|ed|ing)"
        return word, "(?:s|es|ed|ing)?"
    return word, "s?"


def may_occur(
    key: str, present: frozenset[str], folded_query: str, plural_inside: bool = False
) -> bool:
    """False when the phrase ``key`` (folded words) cannot occur in the question.

    Vocabularies hold hundreds of phrases and a regex per phrase costs more to compile than the
    whole search; this check leaves a handful. As in phrase_pattern(): a name's last word may
    be inflected; with ``plural_inside`` (everyday phrases), every word may take a plural "s".
    """
    parts = key.split()
    if CJK_RUN.search(key):
        return all(p in folded_query for p in parts)
    if plural_inside:
        return all(p in present or p + "s" in present for p in parts)
    start = _inflections(parts[-1])[0]
    return all(p in present for p in parts[:-1]) and (
        parts[-1] in present or any(w.startswith(start) for w in present)
    )


@cache
def phrase_pattern(key: str, plural_inside: bool = False) -> re.Pattern[str]:
    """Whole-word regex for a folded phrase, any dash or space between its words: a name's
    last word inflected ("negated" is the term "negate"); with ``plural_inside`` (everyday
    phrases, which list their own variants: "limited" is not "limit"), a plural "s" on each."""
    parts = key.split()
    if CJK_RUN.search(key):
        return re.compile(r"[\s\-–]+".join(re.escape(w) for w in parts))
    if plural_inside:
        body = r"s?[\s\-]+".join(re.escape(w) for w in parts) + "s?"
    else:
        start, ending = _inflections(parts[-1])
        body = r"[\s\-–]+".join([*(re.escape(w) for w in parts[:-1]), re.escape(start) + ending])
    return re.compile(rf"(?<!\w){body}(?!\w)")


def _spans_free(used: list[tuple[int, int]], start: int, end: int) -> bool:
    return all(end <= s or start >= e for s, e in used)


def _match_phrases(
    folded_query: str,
    entries: list[dict[str, Any]],
    used: list[tuple[int, int]],
    typed: str | None = None,
) -> list[dict[str, Any]]:
    """Entries whose key occurs in the folded query as whole words, longest first, no overlap.

    Several entries with the same key (the same name in the TCG and the OCG tree) all match.
    A name that folds to a stopword (the Vietnamese "thẻ" folds to "the") matches only when
    ``typed``, the question as typed, writes it with its accents.
    """
    found = []
    claimed: dict[tuple[int, int], str] = {}
    present = query_words(folded_query)
    stop = stopwords()
    for entry in sorted(entries, key=lambda e: -len(e["key"])):
        key = entry["key"]
        if not key or not may_occur(key, present, folded_query):
            continue
        if key in stop and (
            typed is None
            or not re.search(rf"(?<!\w){re.escape(entry['text'].lower())}(?!\w)", typed.lower())
        ):
            continue
        for m in re.finditer(phrase_pattern(key), folded_query):
            span = (m.start(), m.end())
            if claimed.get(span) == key or _spans_free(used, *span):
                if span not in claimed:
                    used.append(span)
                    claimed[span] = key
                ident = entry.get("node") or entry.get("term")
                if not any(
                    (f.get("node") or f.get("term")) == ident and (f["start"], f["end"]) == span
                    for f in found
                ):
                    found.append({**entry, "start": m.start(), "end": m.end()})
    return found


def _unqualified(
    result: Understood, folded: str, terms_vocab: list[dict[str, Any]], vocab: Vocabulary
) -> list[dict[str, Any]]:
    """The terms that a term named without a qualifier stands for (kb/data/query.toml
    [unqualified]): "deck" with nothing but function words and game names where its qualifier
    would stand (before it in English, after it in Vietnamese) is the main deck."""
    neutral = stopwords() | {a for aliases in vocab.games.values() for a in aliases}
    known = {t["term"] for t in result.terms}
    out = []
    for general, specific in query_data().get("unqualified", {}).items():
        if general not in known or specific in known:
            continue
        keys = {t["key"] for t in terms_vocab if t["term"] == general}
        spans = [
            (t["start"], t["end"]) for t in result.terms if t["term"] == general and "end" in t
        ]
        # Named through an everyday phrase ("bộ bài" is "deck"): where the phrase stands.
        for key, forms in result.expansions.items():
            if keys & {" ".join(words(fold(f))) for f in forms}:
                m = phrase_pattern(key, True).search(folded)
                if m:
                    spans.append(m.span())
        for start, end in spans:
            # English puts the qualifier before ("rune deck"), Vietnamese after ("bộ bài phụ"),
            # and Vietnamese questions often keep English words in English order.
            side = folded[:start].split()[-1:]
            if result.lang == "vi":
                side += folded[end:].split()[:1]
            entry = next((e for e in terms_vocab if e["term"] == specific), None)
            if entry is not None and all(w in neutral for w in side):
                out.append({**entry, "start": start, "end": end})
                break
    return out


def correct(conn: sqlite3.Connection, text: str, vocab: Vocabulary) -> tuple[str, dict[str, str]]:
    """Replace misspelt words (not in the index, not a stopword) by the closest index word.

    Of equally close words the one used in more rules wins, so the result never depends on
    the order of a set.
    """
    game_words = {a for aliases in vocab.games.values() for a in aliases}
    typed = {m.group(): m.group().lower() for m in re.finditer(r"[A-Za-z]{5,}", text)}
    unknown = {w for w in typed.values() if w not in stopwords() and w not in game_words}
    if unknown:
        marks = ",".join("?" * len(unknown))
        unknown -= {
            r[0]
            for r in conn.execute(
                f"SELECT term FROM search_vocab WHERE term IN ({marks})", [*unknown]
            )
        }
    if not unknown:
        return text, {}
    from rapidfuzz import fuzz, process
    from rapidfuzz.distance import OSA

    choices = [
        r[0]
        for r in conn.execute(
            "SELECT term FROM search_vocab WHERE length(term) >= 4 ORDER BY rules DESC, term"
        )
    ] + sorted(game_words)
    fixed: dict[str, str] = {}
    for raw, word in typed.items():
        if word not in unknown:
            continue
        # A typo is a letter or two astray ("honset", "vangaurd", "sentinals"); a real word
        # the corpus does not use ("negated", "infinite") is not a typo of a similar one.
        allowed = 1 if len(word) < 8 else 2
        best = next(
            (
                choice
                for choice, _, _ in process.extract(
                    word, choices, scorer=fuzz.ratio, score_cutoff=80, limit=5
                )
                if choice[0] == word[0] and OSA.distance(word, choice) <= allowed
            ),
            None,
        )
        if best:
            fixed[raw] = best
    for wrong, right in fixed.items():
        text = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, text)
    return text, fixed


def understand(
    conn: sqlite3.Connection, text: str, vocab: Vocabulary, *, game: str = ""
) -> Understood:
    # Composed accents (NFC), as the data files are written: "lá" typed as "la" + U+0301 is "lá".
    typed = " ".join(unicodedata.normalize("NFC", text).split())
    text, corrections = correct(conn, typed, vocab)
    result = Understood(text=typed, lang=query_language(typed), corrections=corrections)
    folded = fold(text)
    used: list[tuple[int, int]] = []
    # Game named in the query.
    for gid, aliases in vocab.games.items():
        for alias in sorted(aliases, key=len, reverse=True):
            # Chinese writes no spaces: "游戏王伤害计算" names the game too.
            pattern = re.escape(alias)
            if not CJK_RUN.search(alias):
                pattern = rf"(?<!\w){pattern}(?!\w)"
            m = re.search(pattern, folded)
            if m and _spans_free(used, m.start(), m.end()):
                used.append((m.start(), m.end()))
                result.game = result.game or gid
                break
    result.game = game or result.game
    tokens = _tokens(text)
    vs_words = {fold(w) for w in query_data()["vs"]}
    vs_at = next(
        (i for i, t in enumerate(tokens) if t.key in vs_words and 0 < i < len(tokens) - 1), None
    )
    cards_vocab = [c for c in vocab.cards if not result.game or c["game"] == result.game]
    # Exact card names first, then timing names and glossary terms, then misspelt card names
    # in what is left, so "spell speed" is a term before it can look like a card.
    result.cards, result.ambiguous = _find_cards(tokens, cards_vocab, used, vs_at, fuzzy=False)
    game = result.game or (result.cards[0]["game"] if result.cards else None)
    timing_vocab = [t for t in vocab.timing if (not game or t["game"] == game) and _matchable(t)]
    result.timing = _match_phrases(folded, timing_vocab, used, text)
    terms_vocab = [t for t in vocab.terms if not game or t["game"] in ("*", game)]
    result.terms = _match_phrases(folded, terms_vocab, used, text)
    more, more_ambiguous = _find_cards(tokens, cards_vocab, used, vs_at, fuzzy=True)
    result.cards = sorted(result.cards + more, key=lambda c: c["start"])
    result.ambiguous += more_ambiguous
    if not result.timing:
        result.timing = _fuzzy_timing(tokens, timing_vocab, used)
    if vs_at is not None:
        left = [c for c in result.cards if c["end"] <= tokens[vs_at].start]
        right = [c for c in result.cards if c["start"] >= tokens[vs_at].end]
        if left and right:
            result.vs = (left[-1], right[0])
    if result.cards and not result.game:
        result.game = result.cards[0]["game"]
    present = query_words(folded)
    stop = stopwords()
    accented = {w.lower() for w in query_data().get("accents_required", {}).get("words", [])}
    for entry in expansions():
        key = entry["key"]
        if (key in stop or entry["typed"] in accented) and not re.search(
            rf"(?<!\w){re.escape(entry['typed'])}(?!\w)", typed.lower()
        ):
            continue  # "la" is "là" (is) unless typed "lá" (card), as with names
        if may_occur(key, present, folded, True) and phrase_pattern(key, True).search(folded):
            result.expansions[entry["key"]] = entry["forms"]
    for field_name, names in query_data()["facts"].items():
        for name in names:
            key = " ".join(words(fold(name)))
            if not result.cards or not may_occur(key, present, folded):
                continue
            pattern = re.escape(key) if CJK_RUN.search(key) else rf"(?<!\w){re.escape(key)}(?!\w)"
            if result.cards and re.search(pattern, folded):
                result.facts.append(field_name)
                break
    # What the expansions name: "giai đoạn hồi phục" expands to "recovery phase", a moment.
    expanded = " | ".join(fold(f) for forms in result.expansions.values() for f in forms)
    if expanded:
        known = {t.get("node") for t in result.timing} | {t.get("term") for t in result.terms}
        # Found in the expansions, not in the question: no place in the question.
        for found in _match_phrases(expanded, timing_vocab, []):
            if found["node"] not in known:
                result.timing.append(_unplaced(found))
                known.add(found["node"])
        for found in _match_phrases(expanded, terms_vocab, []):
            if found["term"] not in known:
                result.terms.append(_unplaced(found))
                known.add(found["term"])
    result.terms += _unqualified(result, folded, terms_vocab, vocab)
    if not result.game:
        # A game-specific term or moment names the game ("normal summon" is Yu-Gi-Oh!); words
        # that are also a term of every game or of another game do not ("graveyard" is Force
        # of Will's and Yu-Gi-Oh!'s, and what Vanguard players may call the drop zone).
        # Only what the question itself names: "攻击力" expands to "attack power", which is not
        # Vanguard's power.
        by_span: dict[Any, set[str]] = {}
        for t in [*result.timing, *result.terms]:
            if "start" in t:
                by_span.setdefault(_span(t), set()).add(t["game"])
        games = {next(iter(g)) for g in by_span.values() if len(g) == 1} - {"*"}
        if len(games) == 1:
            result.game = games.pop()
    result.years = re.findall(r"(?<!\d)(?:19[89]\d|20[0-4]\d)(?!\d)", text)
    cues = [fold(c) for c in query_data()["definition"]["cues"]]
    result.definition = any(c in folded for c in cues)
    quantity = [fold(c) for c in query_data()["quantity"]["cues"]]
    result.quantity = any(
        c in folded if CJK_RUN.search(c) else re.search(rf"(?<!\w){re.escape(c)}(?!\w)", folded)
        for c in quantity  # Chinese has no spaces: a cue inside a run of characters counts
    )
    stop = stopwords() | vs_words | set(result.years)
    result.words = [
        t.key for t in tokens if t.key not in stop and _spans_free(used, t.start, t.end)
    ]
    if not result.game:
        # A database built before game_rules was stored counts them now.
        game_rules = vocab.game_rules or game_rule_counts(conn)
        result.game_hint = _game_hint(conn, result.words, game_rules)
    result.terms = _one_game_per_span(result.terms, result.game or result.game_hint)
    return result


def _one_game_per_span(terms: list[dict[str, Any]], game: str | None) -> list[dict[str, Any]]:
    """Of the terms of several games read in the same words, those of the question's game
    ("kích hoạt" is Yu-Gi-Oh!'s activate and Vanguard's trigger)."""
    if not game:
        return terms
    games: dict[Any, set[str]] = {}
    for t in terms:
        games.setdefault(_span(t), set()).add(t["game"])
    return [t for t in terms if t["game"] in ("*", game) or not games[_span(t)] & {"*", game}]


def _span(found: dict[str, Any]) -> Any:
    """Where the question names a term; one found through an expansion, by its own name."""
    return (found["start"], found["end"]) if "start" in found else found["key"]


def _unplaced(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found.items() if k not in ("start", "end")}


def _game_hint(
    conn: sqlite3.Connection, content: list[str], game_rules: dict[str, int]
) -> str | None:
    """The game that the question's words point to, when they all point to one.

    A word counts when the other games use it in at most a quarter of the rules their size
    would predict ("flash", "sentinel" are Vanguard; "resonator" is Force of Will; "zones",
    in 10 Force of Will rules of 11, is only as common there as the Comprehensive Rules are
    long).
    """
    if not content:
        return None
    rows = conn.execute(
        f"SELECT term, rules, games FROM search_vocab WHERE term IN "
        f"({','.join('?' * len(content))})",
        content,
    ).fetchall()
    total = sum(game_rules.values())
    votes: set[str] = set()
    for row in rows:
        games = json.loads(row["games"])
        game, n = max(games.items(), key=lambda kv: kv[1])
        if row["rules"] < 2:
            continue
        share = game_rules.get(game, 0) / total if total else 0.0
        expected_elsewhere = row["rules"] * (1 - share)
        if row["rules"] - n <= 0.25 * expected_elsewhere:
            votes.add(game)
    return votes.pop() if len(votes) == 1 else None


def typed_spans(u: Understood) -> list[str]:
    """What the question typed for each card, moment and term it names (folded)."""
    text = fold(u.text)
    spans = [c["typed"] for c in u.cards]
    spans += [
        text[t["start"] : t["end"]]
        for t in [*u.timing, *u.terms]
        if t.get("end", 0) > t.get("start", 0)
    ]
    return [fold(s) for s in spans if s.strip()]


def _matchable(entry: dict[str, Any]) -> bool:
    """A timing name worth looking for in a question: not a lone generic word such as "turn"."""
    return " " in entry["key"] or CJK_RUN.search(entry["key"]) is not None or len(entry["key"]) >= 8


def _find_cards(
    tokens: list[Token],
    cards: list[dict[str, Any]],
    used: list[tuple[int, int]],
    vs_at: int | None,
    *,
    fuzzy: bool,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Card names in the query: exact names and aliases, or (``fuzzy``) close misspellings."""
    by_key: dict[str, list[dict[str, Any]]] = {}
    for c in cards:
        by_key.setdefault(c["key"], []).append(c)
    found: list[dict[str, Any]] = []
    ambiguous: list[dict[str, Any]] = []
    taken: set[int] = {i for i, t in enumerate(tokens) if not _spans_free(used, t.start, t.end)}
    stop = stopwords()

    def windows() -> list[tuple[int, int]]:
        out = []
        for n in range(min(MAX_NGRAM, len(tokens)), 0, -1):
            for i in range(len(tokens) - n + 1):
                if i <= (vs_at if vs_at is not None else -1) < i + n:
                    continue  # a name never spans the "vs"
                out.append((i, i + n))
        return out

    def take(i: int, j: int, card: dict[str, Any], score: float, exact: bool) -> None:
        taken.update(range(i, j))
        used.append((tokens[i].start, tokens[j - 1].end))
        found.append(
            {
                "id": card["card"],
                "name": card["name"],
                "game": card["game"],
                "kind": card["card_kind"],
                "typed": " ".join(t.text for t in tokens[i:j]),
                "score": round(score, 1),
                "exact": exact,
                "start": tokens[i].start,
                "end": tokens[j - 1].end,
            }
        )

    for i, j in [] if fuzzy else windows():
        if taken & set(range(i, j)):
            continue
        key = name_key(" ".join(t.text for t in tokens[i:j]))
        hits = {c["card"]: c for c in by_key.get(key, [])}
        if len(hits) == 1:
            take(i, j, next(iter(hits.values())), 100.0, True)
        elif len(hits) > 1:
            taken.update(range(i, j))
            ambiguous.append({"typed": key, "candidates": sorted(c["name"] for c in hits.values())})
    if not fuzzy:
        return found, ambiguous
    from rapidfuzz import fuzz, process

    choices = {k: k for k in by_key}
    for i, j in windows():
        if taken & set(range(i, j)):
            continue
        window = tokens[i:j]
        if window[0].key in stop or window[-1].key in stop or all(t.key in stop for t in window):
            continue
        key = name_key(" ".join(t.text for t in window))
        in_vs = vs_at is not None
        if len(key) < (4 if in_vs else 5):
            continue
        threshold = VS_CARD_SCORE if in_vs else FREE_CARD_SCORE
        # One word alone is compared whole ("honset" ~ "honest"); only several words, or a
        # word on one side of "vs", may be part of a longer name ("injection fairy" ~
        # "Injection Fairy Lily"), so a common word such as "damage" never becomes
        # "Damage Condenser". A window repeating a word ("spell spell") is not a name.
        if len({t.key for t in window}) < len(window):
            continue
        scorer = name_score if len(window) > 1 or (in_vs and len(key) >= 4) else fuzz.ratio
        scored = process.extract(key, choices, scorer=scorer, limit=6, score_cutoff=threshold)
        per_card: dict[str, tuple[float, dict[str, Any]]] = {}
        for alias_key, score, _ in scored:
            for card in by_key[alias_key]:
                if card["card"] not in per_card or score > per_card[card["card"]][0]:
                    per_card[card["card"]] = (score, card)
        if not per_card:
            continue
        ranked = sorted(per_card.values(), key=lambda sc: -sc[0])
        close = [sc for sc in ranked if ranked[0][0] - sc[0] <= AMBIGUITY_MARGIN]
        if len(close) > 1:
            if len(window) > 1 or in_vs:
                taken.update(range(i, j))
                ambiguous.append({"typed": key, "candidates": [sc[1]["name"] for sc in close]})
            continue
        take(i, j, ranked[0][1], ranked[0][0], False)
    return sorted(found, key=lambda c: c["start"]), ambiguous


def _fuzzy_timing(
    tokens: list[Token], timing: list[dict[str, Any]], used: list[tuple[int, int]]
) -> list[dict[str, Any]]:
    """Timing names typed with a typo ("damge step"): as many words, each close to its pair."""
    from rapidfuzz import fuzz

    by_length: dict[int, list[dict[str, Any]]] = {}
    for t in timing:
        n = len(t["key"].split())
        if n >= 2:
            by_length.setdefault(n, []).append(t)
    found: list[dict[str, Any]] = []
    for n in (4, 3, 2):
        for i in range(len(tokens) - n + 1):
            window = tokens[i : i + n]
            if not _spans_free(used, window[0].start, window[-1].end):
                continue
            key = " ".join(t.key for t in window)
            best = None
            for entry in by_length.get(n, []):
                pairs = zip(key.split(), entry["key"].split(), strict=True)
                if all(fuzz.ratio(a, b) >= 75 for a, b in pairs):
                    score = fuzz.ratio(key, entry["key"])
                    if score >= TIMING_SCORE and (best is None or score > best[0]):
                        best = (score, entry)
            if best:
                used.append((window[0].start, window[-1].end))
                found += [
                    {**e, "start": window[0].start, "end": window[-1].end}
                    for e in by_length[n]
                    if e["key"] == best[1]["key"]
                ]
    return found
