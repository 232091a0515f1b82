"""Card facts: what each card the corpus names is (kind, subtype, spell speed) and does (the
properties the rules test for), and the card classes the rules talk about with their members.

Curated in data/card_facts.toml, where every fact cites a rule of the corpus or the card's
printed text (a public fact). A class is defined by the card fields its members share, so its
members are computed here, not listed by hand.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..records import CardClass, CardProperty, ClassMember, ClassName

_FIELDS = ("kind", "subtype", "spell_speed")


@cache
def card_facts_data() -> dict[str, Any]:
    text = resources.files("ingest").joinpath("data/card_facts.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@dataclass
class CardFacts:
    properties: list[CardProperty] = field(default_factory=list)
    classes: list[CardClass] = field(default_factory=list)
    names: list[ClassName] = field(default_factory=list)
    members: list[ClassMember] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _properties(entry: dict[str, Any], rules: Collection[str]) -> list[CardProperty]:
    """A card's fields and properties, each citing the corpus rule that supports it (else the
    printed text)."""
    supported: dict[str, str] = {}
    for cited in entry.get("facts", []):
        if cited["rule"] in rules:
            for what in cited.get("supports", []):
                supported.setdefault(what, cited["rule"])
    source = entry.get("source", {})
    printed = source.get("printed", "")
    if not printed and source.get("rule") in rules:
        supported = {**dict.fromkeys(_FIELDS, source["rule"]), **supported}
    out = []
    for name in _FIELDS:
        if name in entry:
            value = str(entry[name])
            out.append(CardProperty(entry["card"], name, value, supported.get(name), printed))
    for prop in entry.get("properties", []):
        out.append(CardProperty(entry["card"], "property", prop, supported.get(prop), printed))
    return out


def _matches(match: dict[str, Any], fields: dict[str, str], props: set[str]) -> bool:
    """Whether a card with these fields and properties is in a class defined by ``match``."""
    for key, want in match.items():
        if key == "kind_in":
            ok = fields.get("kind") in want
        elif key == "spell_speed_min":
            ok = fields.get("spell_speed", "").isdigit() and int(fields["spell_speed"]) >= want
        elif key == "property":
            ok = want in props
        elif key == "properties_all":
            ok = set(want) <= props
        else:
            ok = fields.get(key) == str(want)
        if not ok:
            return False
    return True


def extract_card_facts(card_ids: set[str], rule_ids: Collection[str], games: set[str]) -> CardFacts:
    """Card properties of the cards the corpus has, and the classes of the corpus's games."""
    data = card_facts_data()
    out = CardFacts()
    by_card: dict[str, tuple[dict[str, str], set[str]]] = {}
    for entry in data["cards"]:
        if entry["card"] not in card_ids:
            continue  # a curated card the corpus does not name
        props = _properties(entry, rule_ids)
        out.properties += props
        fields = {p.field: p.value for p in props if p.field != "property"}
        by_card[entry["card"]] = (fields, {p.value for p in props if p.field == "property"})
    for cls in data["classes"]:
        if cls["game"] not in games:
            continue
        names = cls.get("en", [])
        out.classes.append(
            CardClass(
                cls["id"], cls["game"], names[0] if names else cls["id"], json.dumps(cls["match"])
            )
        )
        for lang in ("en", "vi", "zh", "en_mt"):
            for text in cls.get(lang, []):
                out.names.append(ClassName(cls["id"], "en" if lang == "en_mt" else lang, text))
        out.members += [
            ClassMember(cls["id"], card)
            for card, (fields, props) in sorted(by_card.items())
            if _matches(cls["match"], fields, props)
        ]
    return out
