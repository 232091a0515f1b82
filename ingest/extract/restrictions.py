"""Restriction lists (004's DM5, DM6 and DMI): limited, semi-limited and forbidden cards.

A list line is ``<list> <status>: name, name, ...`` in English or Chinese (``DMI限制卡：闪电、
黑洞``), as data/cards.toml's [[restriction_lists]] describe it per game. The status is
recognised through the glossary terms Limited, Semi-Limited and Forbidden in any of their
renderings; each name is kept as written and linked to a card when an alias resolves it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..glossary import Glossary
from ..records import DocumentResult, Restriction
from .cards import cards_data

# Names are separated by commas (an "and" may follow the last comma); "and" inside a name stays
# ("Voice of Life and Death").
_SPLIT = re.compile(r"\s*[,，、]\s*(?:and\s+)?")
_STATUSES = ("semi-limited", "forbidden", "limited")  # glossary term ids, most specific first


def _status(text: str, glossary: Glossary) -> str | None:
    for term_id in _STATUSES:
        term = glossary.by_id[term_id]
        forms = [r.text for r in term.renderings] + [term.en]
        if any(f.casefold() in text.casefold() for f in forms):
            return term_id
    return None


def _clean(name: str) -> str:
    name = re.sub(r"^(the|and)\s+", "", name.strip(" .。"), flags=re.IGNORECASE)
    return name.strip()


def extract_restrictions(
    documents: Sequence[DocumentResult], glossary: Glossary, resolve: dict[str, str]
) -> list[Restriction]:
    """Rows of every restriction list; ``resolve`` maps a case-folded alias to a card id."""
    lines = {
        e["game"]: re.compile(e["pattern"], re.IGNORECASE)
        for e in cards_data().get("restriction_lists", [])
    }
    rows: list[Restriction] = []
    per_list: dict[str, int] = {}
    for d in documents:
        pattern = lines.get(d.doc.spec.game)
        if pattern is None:
            continue
        for rule in d.rules:
            m = pattern.match(rule.text)
            if not m:
                continue
            status = _status(m.group("status"), glossary)
            if status is None:
                continue
            names = [_clean(n) for n in _SPLIT.split(m.group("items"))]
            list_name = m.group("list").upper()
            for name in (n for n in names if n):
                per_list[list_name] = per_list.get(list_name, 0) + 1
                rows.append(
                    Restriction(
                        list_name,
                        status,
                        per_list[list_name],
                        name,
                        resolve.get(name.casefold()),
                        rule.id,
                    )
                )
    return rows
