"""The features a candidate passage is re-ranked by: what a judge cares about.

Each feature is a small function of the passage's row and the ``Ranking`` of one question,
returning a number between 0 and 1; kb.ask.rank weighs them with kb/data/ask_weights.toml.
``FEATURES`` names them in the order they are reported (``--json`` shows each hit's values).

On the ``kb ask`` path: standard library, sqlite3, rapidfuzz and ``ingest.text`` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ingest.text import fold

from .fuse import RRF_K
from .groups import Group, coverage, defines, literal, proximity, states_number
from .query import Understanding

Row = dict[str, Any]
_VERSION = re.compile(r"(?<![\d.])\d+(?:\.\d+)+(?![\d.])")


def named_versions(text: str) -> set[str]:
    """The versions of a rulebook a question names ("CR 8.01", "2.2.0")."""
    return set(_VERSION.findall(text))


class Ranking:
    """What the features of one question's candidates are computed against."""

    def __init__(
        self,
        u: Understanding,
        groups: list[Group],
        typed: list[str],  # what the question typed for each name it names (folded)
        fused: dict[int, float],  # reciprocal-rank fusion score per passage (rules.seq)
        near: set[str],  # parents and children of the named moments
        lang: str,  # the language the passages are wanted in
        dense: dict[int, float] | None = None,  # similarity to the question per passage
        latent: dict[int, float] | None = None,  # latent terms' similarity per candidate
    ) -> None:
        self.u, self.groups, self.typed, self.fused = u, groups, typed, fused
        self.near, self.lang = near, lang
        self.best = max(fused.values()) if fused else 1.0
        self.dense = dense or {}
        # The versions ("8.01", "2.2.0") and the words the question names, for version and
        # ruleset matches.
        self.versions = named_versions(u.text)
        self.question_words = set(re.findall(r"[a-z0-9]+", fold(u.text)))
        # Similarities are compared within the question: the best candidate's is 1.
        self.dense_best = max(self.dense.values(), default=0.0)
        self.dense_floor = min(self.dense.values(), default=0.0)
        self.latent = latent or {}
        self.latent_best = max(self.latent.values(), default=0.0)
        self.latent_floor = min(self.latent.values(), default=0.0)
        self.card_ids = {c["id"] for c in u.cards}
        # A qualified moment ("after damage calc") and the moment it is qualified from: the
        # rules of either may answer ("after damage was calculated" is said of damage
        # calculation itself).
        self.nodes = {t["node"] for t in u.timing} | set(u.qualified_from)
        self.concept_games = u.concept_games()
        self.memo: dict[tuple[str, str], float] = {}

    def once(self, kind: str, text: str, feature: Callable[[str], float]) -> float:
        """Text features depend on the text only, and a large corpus repeats texts (versions
        of a rulebook, reprints): compute each once."""
        if (kind, text) not in self.memo:
            self.memo[kind, text] = feature(text)
        return self.memo[kind, text]


def _mentioned(row: Row) -> set[str]:
    """Cards the passage is about; a card's data line ("Attack: 1600") is about the card even
    without its name."""
    facts = (row["facts"] or "").split()
    return set((row["card_ids"] or "").split()) | {f.split(":")[0] for f in facts}


def rrf(row: Row, r: Ranking) -> float:
    """How high the candidate lists placed it: the fused score (each list's weight times its
    reciprocal rank), scaled so that first place in a list of weight 1 is 1. The list
    weights are learned with the feature weights (bench/train_ranker.py)."""
    return r.fused[row["seq"]] * RRF_K


def dense(row: Row, r: Ranking) -> float:
    """How close its embedding is to the question's, between the least and the most similar
    passage of the corpus (0 without vectors)."""
    if row["seq"] not in r.dense or r.dense_best <= r.dense_floor:
        return 0.0
    return (r.dense[row["seq"]] - r.dense_floor) / (r.dense_best - r.dense_floor)


def latent(row: Row, r: Ranking) -> float:
    """How far its latent terms meet the question's, between the least and the most of the
    candidates (0 without latent terms). Token-level where the embedding is pooled: measured
    on 3,186 held-out questions the rankers never trained on, alone among the candidates it
    puts the deciding passage first for 51.1% (the embedding 48.1%)."""
    if row["seq"] not in r.latent or r.latent_best <= r.latent_floor:
        return 0.0
    return (r.latent[row["seq"]] - r.latent_floor) / (r.latent_best - r.latent_floor)


def body(row: Row) -> str:
    """The passage as its features read it: section path, number, label, title, text and,
    for a machine translation, its reading in official terms."""
    parts = (row["number"], row["label"], row["title"], row["text"], row["reading"])
    return f"{row['section_path']} " + " ".join(p for p in parts if p)


def covered(row: Row, r: Ranking) -> float:
    """Share of the question's weight the passage (with its section path) covers."""
    return r.once("c", body(row), lambda t: coverage(r.groups, t))


def title(row: Row, r: Ranking) -> float:
    """Share of the question's weight its section path and title cover."""
    text = f"{row['section_path']} {row['title'] or ''}"
    return r.once("c", text, lambda t: coverage(r.groups, t))


def card(row: Row, r: Ranking) -> float:
    """Share of the named cards it is about."""
    return len(_mentioned(row) & r.card_ids) / max(1, len(r.card_ids))


def vs(row: Row, r: Ranking) -> float:
    """It is about both cards of "X vs Y" (a worked example, when they are the same card)."""
    u = r.u
    if not u.vs:
        return 0.0
    ids = {u.vs[0]["id"], u.vs[1]["id"]}
    return float(ids <= _mentioned(row) and (len(ids) > 1 or row["kind"] == "example"))


def timing(row: Row, r: Ranking) -> float:
    """It belongs to a named moment."""
    return float(bool(set((row["nodes"] or "").split()) & r.nodes))


def timing_near(row: Row, r: Ranking) -> float:
    """It belongs to a moment next to a named one (its step, or a sub-step)."""
    nodes = set((row["nodes"] or "").split())
    return float(bool(nodes & r.near) and not nodes & r.nodes)


def language(row: Row, r: Ranking) -> float:
    """It is written in the wanted language."""
    return float(r.lang in (row["langs"] or row["lang"]).split("+"))


def official(row: Row, r: Ranking) -> float:
    """The publisher's own text, of the game the question is about: within a game, the
    official rule before a community summary or a machine translation saying the same (of no
    game the question names, provenance says nothing about relevance)."""
    wanted = (
        r.u.game
        or r.u.game_hint
        or (next(iter(r.concept_games)) if len(r.concept_games) == 1 else None)
    )
    return float(row["provenance"] == "official" and row["game"] == wanted)


def machine(row: Row, r: Ranking) -> float:
    """A machine translation shown to a judge who asked in English."""
    return float(row["provenance"] == "machine" and r.lang == "en")


def example(row: Row, r: Ranking) -> float:
    """A worked example or FAQ entry, for a question about cards."""
    return float(row["kind"] in ("example", "question") and bool(r.card_ids))


def fact(row: Row, r: Ranking) -> float:
    """It states the card data the question asks for."""
    facts = set((row["facts"] or "").split())
    return float(any(f"{c}:{f}" in facts for c in r.card_ids for f in r.u.facts))


def game(row: Row, r: Ranking) -> float:
    return float(row["game"] == (r.u.game or r.u.game_hint))


def concept_game(row: Row, r: Ranking) -> float:
    """It is of a game whose moment or term the question names ("battle phase" is a moment of
    Yu-Gi-Oh!'s timing), even when other games use the same words and no game was decided."""
    return float(row["game"] in r.concept_games)


def brevity(row: Row, r: Ranking) -> float:
    """Shorter passages are easier to read at a table."""
    return max(0.0, 1.0 - len(row["text"]) / 600)


def literally(row: Row, r: Ranking) -> float:
    """It writes the names the question typed as typed (闪电, not only "lightning")."""
    return r.once("l", f"{row['title'] or ''} {row['text']}", lambda t: literal(r.typed, t))


def number(row: Row, r: Ranking) -> float:
    """For a "how many" question: it sets a limit or states a quantity."""
    return r.once("n", row["text"], states_number) if r.u.quantity else 0.0


def close(row: Row, r: Ranking) -> float:
    """The question's words stand close together in it."""
    text = f"{row['title'] or ''} {row['text']} {row['reading'] or ''}"
    return r.once("p", text, lambda t: proximity(r.groups, t))


def in_era(row: Row, years: list[str]) -> bool:
    """The passage's era holds a year the question names ("2005")."""
    return any(y in (row.get("era") or "") for y in years)


def era(row: Row, r: Ranking) -> float:
    """It is of the era the question names ("2005")."""
    return float(in_era(row, r.u.years))


def version(row: Row, r: Ranking) -> float:
    """It is of the rulebook version the question names ("CR 8.01", "2.2.0"); 0 when the
    question names none."""
    return float(bool(row["version"]) and row["version"] in r.versions)


def ruleset(row: Row, r: Ranking) -> float:
    """Its ruleset ("ocg", "tcg", "cr", "tournament") is a word of the question."""
    parts = set((row["ruleset"] or "").lower().split("+"))
    return float(bool(parts & r.question_words))


def definition(row: Row, r: Ranking) -> float:
    """For a "what is" question: it defines what is asked."""
    return float(r.u.definition and defines(r.groups, row))


def shallow(row: Row, r: Ranking) -> float:
    """Top-level rules before sub-rules."""
    return 1.0 / (1 + (row["depth"] or 0))


def key_fact(row: Row, r: Ranking) -> float:
    """It states what may happen at a named moment: the timing graph was built from it."""
    return min(1.0, sum(n in r.nodes for n in (row["property_nodes"] or "").split()) / 2)


# Feature name (as in kb/data/ask_weights.toml) -> function.
FEATURES: dict[str, Callable[[Row, Ranking], float]] = {
    "rrf": rrf,
    "dense": dense,
    "latent": latent,
    "coverage": covered,
    "title": title,
    "card": card,
    "vs": vs,
    "timing": timing,
    "timing_near": timing_near,
    "language": language,
    "official": official,
    "machine": machine,
    "example": example,
    "fact": fact,
    "game": game,
    "concept_game": concept_game,
    "brevity": brevity,
    "literal": literally,
    "number": number,
    "proximity": close,
    "era": era,
    "version": version,
    "ruleset": ruleset,
    "defines": definition,
    "shallow": shallow,
    "key_fact": key_fact,
}
