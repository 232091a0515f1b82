"""The timing graph: curated nodes (data/timing.toml) linked to the text that describes them.

A section belongs to a node when its title, without a label such as ``"Bước phụ 4": ``, is
one of the node's names, in a document of the node's game and ruleset; its rules (and those of
its sub-sections that match no node of their own) belong to the node. A rule titled with a
node's name belongs to it too (004: ``Drawphase: Pull out a card``). Properties are read from
the rules of each node with the multilingual patterns of the data file, each citing its rule.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..records import DocumentResult, Section, TimingName, TimingNode, TimingProperty, TimingRule
from ..text import CJK_RUN

_LABEL = re.compile(r'^"?(Bước phụ|Sub-?step|Substep|Step)\s*\d+"?\s*[:：]\s*', re.IGNORECASE)


@cache
def timing_data() -> dict[str, Any]:
    text = resources.files("ingest").joinpath("data/timing.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def name_key(text: str) -> str:
    """How a heading or name is compared: label removed, NFC, case-folded, spaces collapsed."""
    text = _LABEL.sub("", unicodedata.normalize("NFC", text.strip())).strip(' "“”')
    return " ".join(text.split()).casefold()


@dataclass
class TimingResult:
    nodes: list[TimingNode] = field(default_factory=list)
    names: list[TimingName] = field(default_factory=list)
    rules: list[TimingRule] = field(default_factory=list)
    properties: list[TimingProperty] = field(default_factory=list)
    rule_node: dict[str, str] = field(default_factory=dict)  # rule id -> deepest node


def load_nodes() -> list[TimingNode]:
    data = timing_data()
    trees = {f"{t['game']}/{t['ruleset']}": t for t in data["trees"]}
    raw = data["nodes"]
    by_id = {n["id"]: n for n in raw}

    def depth(node: dict[str, Any]) -> int:
        return 0 if not node["parent"] else 1 + depth(by_id[node["parent"]])

    nodes = []
    for n in raw:
        tree = trees[n["tree"]]
        nodes.append(
            TimingNode(
                id=n["id"],
                tree=n["tree"],
                game=tree["game"],
                ruleset=tree["ruleset"],
                parent=n["parent"] or None,
                ord=n["order"],
                depth=depth(n),
                kind=n["kind"],
                label=n.get("label", ""),
                en=n["en"],
            )
        )
    return nodes


def node_names(node_id: str) -> dict[str, list[str]]:
    """Every curated name of a node per language, the canonical English first."""
    entry = next(n for n in timing_data()["nodes"] if n["id"] == node_id)
    names: dict[str, list[str]] = {"en": [entry["en"]]}
    for lang, texts in entry.get("names", {}).items():
        names.setdefault(lang, [])
        names[lang] += [t for t in texts if t not in names[lang]]
    return names


def _section_ruleset(section: Section, doc_ruleset: str) -> str:
    return section.ruleset or doc_ruleset


def _fits(node: TimingNode, game: str, ruleset: str) -> bool:
    """The node is of the game, and of the ruleset (a "tcg+ocg" section fits both)."""
    return node.game == game and (node.ruleset == "*" or node.ruleset in ruleset.split("+"))


def _named_within(title: str, keys: dict[str, list[TimingNode]]) -> list[TimingNode]:
    """Nodes whose name stands inside a heading as whole words ("Phân tích Giai đoạn Chiến
    đấu" is about the Battle Phase), longest name first. Only names of two words or more (or
    three CJK characters) count: "Turn" alone is in many headings."""
    key = name_key(title)
    found: list[TimingNode] = []
    for name in sorted(keys, key=len, reverse=True):
        cjk = bool(CJK_RUN.search(name))
        if cjk and len(name) >= 3:
            inside = name in key  # Chinese writes no spaces between words
        elif not cjk and len(name.split()) >= 2:
            inside = bool(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", key))
        else:
            inside = False
        if inside:
            found += [n for n in keys[name] if n not in found]
    return found


def build_timing(
    documents: Sequence[DocumentResult], games: set[str] | None = None
) -> TimingResult:
    result = TimingResult(nodes=[n for n in load_nodes() if games is None or n.game in games])
    keys: dict[str, list[TimingNode]] = {}
    for node in result.nodes:
        for texts in node_names(node.id).values():
            for text in texts:
                keys.setdefault(name_key(text), [])
                if node not in keys[name_key(text)]:
                    keys[name_key(text)].append(node)
    seen_names: set[tuple[str, str, str, str | None]] = set()

    def add_name(
        node: str, lang: str, text: str, document: str | None, section: str | None
    ) -> None:
        if (node, lang, text, document) not in seen_names:
            seen_names.add((node, lang, text, document))
            result.names.append(TimingName(node, lang, text, document, section))

    for d in documents:
        game, doc_ruleset = d.doc.spec.game, d.doc.spec.ruleset
        section_node: dict[str, str] = {}
        about_nodes: dict[str, list[TimingNode]] = {}
        parents = {s.id: s.parent for s in d.sections}
        for s in d.sections:
            inherited = section_node.get(s.parent or "")
            ruleset = _section_ruleset(s, doc_ruleset)
            candidates = (
                [n for n in keys.get(name_key(s.title), []) if _fits(n, game, ruleset)]
                if s.parent
                else []
            )
            if candidates:
                # Prefer the node whose parent is the node of an enclosing section.
                chain = set()
                p = s.parent
                while p:
                    if p in section_node:
                        chain.add(section_node[p])
                    p = parents.get(p)
                node = next((n for n in candidates if n.parent in chain), candidates[0])
                section_node[s.id] = node.id
                add_name(
                    node.id,
                    s.lang or d.doc.lang,
                    _LABEL.sub("", s.title).strip(' "“”'),
                    d.doc.doc_id,
                    s.id,
                )
            elif inherited:
                section_node[s.id] = inherited
            elif s.parent and (
                about := [n for n in _named_within(s.title, keys) if _fits(n, game, ruleset)]
            ):
                # A heading that names a moment among other words is about it: its rules
                # belong to the moment (every ruleset's, for a "tcg+ocg" section).
                about_nodes[s.id] = about
        for rule in d.rules:
            titled = (
                [
                    n
                    for n in keys.get(name_key(rule.title), [])
                    if _fits(n, game, rule.ruleset or doc_ruleset)
                ]
                if rule.title
                else []
            )
            if titled:
                result.rule_node[rule.id] = titled[0].id
                result.rules.append(TimingRule(titled[0].id, rule.id, "titled"))
                add_name(titled[0].id, rule.lang, rule.title, d.doc.doc_id, None)
            elif rule.section in section_node:
                result.rule_node[rule.id] = section_node[rule.section]
                result.rules.append(TimingRule(section_node[rule.section], rule.id, "in"))
            elif rule.section in about_nodes:
                result.rule_node[rule.id] = about_nodes[rule.section][0].id
                for node in about_nodes[rule.section]:
                    result.rules.append(TimingRule(node.id, rule.id, "about"))
    found = {(n.node, n.lang, n.text.casefold()) for n in result.names}
    for node in result.nodes:
        for lang, texts in node_names(node.id).items():
            for text in texts:
                if (node.id, lang, text.casefold()) not in found:
                    add_name(node.id, lang, text, None, None)
    result.properties = _properties(documents, result.rule_node)
    return result


@cache
def _property_patterns() -> list[tuple[dict[str, Any], re.Pattern[str]]]:
    return [
        (p, re.compile("|".join(f"(?:{x})" for x in p["patterns"]), re.IGNORECASE))
        for p in timing_data()["properties"]
    ]


def _properties(
    documents: Sequence[DocumentResult], rule_node: dict[str, str]
) -> list[TimingProperty]:
    found: list[TimingProperty] = []
    seen: set[tuple[str, str, str, str]] = set()
    for d in documents:
        for rule in d.rules:
            node = rule_node.get(rule.id)
            if not node:
                continue
            for prop, pattern in _property_patterns():
                if (
                    pattern.search(rule.text)
                    and (node, prop["key"], prop["value"], rule.id) not in seen
                ):
                    seen.add((node, prop["key"], prop["value"], rule.id))
                    found.append(
                        TimingProperty(node, prop["key"], prop["value"], prop["display"], rule.id)
                    )
    return found
