"""Cards: every card the corpus names, its aliases, and card data where the text gives it.

Yu-Gi-Oh! card names are quoted in English in the community texts (``"Honest"``,
``“Kuriboh”``); quoted phrases that are labels or Vietnamese phrases are not cards. Curated
knowledge (archetypes, cards named without quotes, the English that machine translation made
of card names) comes from data/cards.toml.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..langdetect import detect_language
from ..records import Card, CardAlias, CardFact, DocumentResult, Rule

_QUOTED = re.compile(r'["“]([^"“”\n]{1,80}?)["”]')


@cache
def cards_data() -> dict[str, Any]:
    text = resources.files("ingest").joinpath("data/cards.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def card_id(name: str) -> str:
    from ..text import fold

    return re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-") or "card"


@dataclass
class CardResult:
    cards: list[Card] = field(default_factory=list)
    aliases: list[CardAlias] = field(default_factory=list)
    facts: list[CardFact] = field(default_factory=list)
    mentions: dict[str, list[str]] = field(default_factory=dict)  # rule id -> card ids, in order


def _is_card_name(phrase: str, patterns: list[re.Pattern[str]], max_words: int) -> bool:
    if not phrase.strip() or len(phrase.split()) > max_words:
        return False
    if any(p.search(phrase) for p in patterns):
        return False
    return detect_language(phrase).lang in ("en", "und") and any(ch.isalpha() for ch in phrase)


def quoted_names(documents: Sequence[DocumentResult]) -> tuple[list[tuple[str, str]], list[str]]:
    """(game, name) of quoted card names in document order, and lower-case variants seen."""
    data = cards_data()["quotes"]
    patterns = [re.compile(p) for p in data["not_cards"]]
    games = set(data["games"])
    names: list[tuple[str, str]] = []
    lower: list[str] = []
    for d in documents:
        if d.doc.spec.game not in games or d.doc.provenance == "machine":
            continue
        for rule in d.rules:
            for text in (rule.title, rule.text):
                for m in _QUOTED.finditer(text):
                    phrase = " ".join(m.group(1).split())
                    if phrase.islower() and detect_language(phrase).lang in ("en", "und"):
                        lower.append(phrase)
                    elif _is_card_name(phrase, patterns, data["max_words"]):
                        names.append((d.doc.spec.game, phrase))
    return names, lower


def _alias_pattern(aliases: list[str], *, ignore_case: bool) -> re.Pattern[str] | None:
    if not aliases:
        return None
    alternation = "|".join(re.escape(a) for a in sorted(set(aliases), key=lambda a: (-len(a), a)))
    return re.compile(
        rf"(?<![\w]){'(?:' + alternation + ')'}(?![\w])", re.IGNORECASE if ignore_case else 0
    )


def extract_cards(documents: Sequence[DocumentResult], games: set[str] | None = None) -> CardResult:
    data = cards_data()
    result = CardResult()
    by_key: dict[tuple[str, str], Card] = {}

    def add_card(game: str, name: str, kind: str, source: str, notes: str = "") -> Card:
        key = (game, name.casefold())
        if key not in by_key:
            cid = card_id(name)
            if any(c.id == cid for c in result.cards):  # the same name in another game
                cid = f"{game}-{cid}"
            card = Card(cid, game, name, kind, source, notes)
            by_key[key] = card
            result.cards.append(card)
            result.aliases.append(CardAlias(card.id, name, "en", "name"))
        return by_key[key]

    archetypes = {(a["game"], a["name"].casefold()) for a in data.get("archetypes", [])}
    for entry in (e for e in data.get("cards", []) if games is None or e["game"] in games):
        card = add_card(entry["game"], entry["name"], "card", "curated", entry.get("notes", ""))
        for kind in ("aliases", "en_mt", "zh", "ja"):
            lang = {"zh": "zh", "ja": "ja"}.get(kind, "en")
            for alias in entry.get(kind, []):
                result.aliases.append(
                    CardAlias(card.id, alias, lang, "alias" if kind == "aliases" else kind)
                )
    names, lower = quoted_names(documents)
    for game, name in names:
        kind = "archetype" if (game, name.casefold()) in archetypes else "card"
        add_card(game, name, kind, "quoted")
    for phrase in lower:
        for (_game, key), card in by_key.items():
            if key == phrase.casefold() and not any(
                a.card == card.id and a.alias == phrase for a in result.aliases
            ):
                result.aliases.append(CardAlias(card.id, phrase, "en", "case"))
    result.mentions = _mentions(documents, result)
    result.facts = _facts(documents, result, add_card)
    return result


def _mentions(documents: Sequence[DocumentResult], result: CardResult) -> dict[str, list[str]]:
    """Card ids each rule names, in order of first mention."""
    game_of = {c.id: c.game for c in result.cards}
    mentions: dict[str, list[str]] = {}
    for d in documents:
        game = d.doc.spec.game
        exact: dict[str, str] = {}
        loose: dict[str, str] = {}
        for a in result.aliases:
            if game_of[a.card] != game:
                continue
            if a.kind in ("name", "case", "alias"):
                exact[a.alias] = a.card
            elif d.doc.provenance == "machine" or a.kind in ("zh", "ja"):
                loose[a.alias.casefold()] = a.card
        strict = _alias_pattern(list(exact), ignore_case=False)
        relaxed = _alias_pattern(list(loose), ignore_case=True)
        for rule in d.rules:
            text = (
                f"{rule.title}\n{rule.text}"
                if rule.title and rule.title not in rule.text
                else rule.text
            )
            found: list[tuple[int, int, str]] = []
            for pattern, table, fold_case in ((strict, exact, False), (relaxed, loose, True)):
                if pattern is None:
                    continue
                for m in pattern.finditer(text):
                    if any(s < m.end() and m.start() < e for s, e, _ in found):
                        continue
                    key = m.group().casefold() if fold_case else m.group()
                    found.append((m.start(), m.end(), table[key]))
            ids: list[str] = []
            for _, _, cid in sorted(found):
                if cid not in ids:
                    ids.append(cid)
            if ids:
                mentions[rule.id] = ids
    return mentions


def _facts(
    documents: Sequence[DocumentResult], result: CardResult, add_card: Any
) -> list[CardFact]:
    """Card data from runs of ``Label: value`` rules around an ``English name:`` line."""
    fields = [(f["field"], re.compile(f["pattern"])) for f in cards_data().get("card_fields", [])]

    def match(rule: Rule) -> list[tuple[str, str]]:
        return [(name, m.group("v").strip()) for name, p in fields if (m := p.search(rule.text))]

    facts: list[CardFact] = []
    for d in documents:
        rules = d.rules
        for i, rule in enumerate(rules):
            named = dict(match(rule)).get("name")
            if not named:
                continue
            card = add_card(d.doc.spec.game, named, "card", "curated")
            start = i
            while start > 0 and match(rules[start - 1]):
                start -= 1
            end = i
            while end + 1 < len(rules) and match(rules[end + 1]):
                end += 1
            for r in rules[start : end + 1]:
                for name, value in match(r):
                    if name != "name":
                        facts.append(CardFact(card.id, name, value, r.id))
    return facts
