"""Named SQL: one ``<name>.sql`` file per question the data answers.

The CLI runs these files and the website publishes them as Datasette canned queries, so both
ask the same SQL (a query only the code needs says ``-- publish: no`` and stays unpublished).
A file starts with ``-- title:`` and ``-- description:`` comment lines;
parameters are named (``:q``, ``:game``; a list is passed as JSON and read with
``json_each(coalesce(nullif(:ids, ''), '[]'))``); user search text goes through
``kb_match(:q)``, a SQL function that turns it into a safe FTS5 expression (kb.store.db,
with kb.store.fts).
``kb.store.db`` runs them (``run``, ``first``, ``column``, ``execute``). The few writes of
``kb build`` outside kb/store/ (``meta_store``) are queries too, never published.
"""

from __future__ import annotations

import os
import re
from functools import cache
from typing import NamedTuple

_HEADER = re.compile(r"^--\s*(\w+)\s*:\s*(.*)$")
_PARAM = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)")


# On the ``kb ask`` path: plain file reads, no importlib.resources or dataclasses (they cost
# more to import than the query costs to run).
_HERE = os.path.dirname(os.path.abspath(__file__))


class Query(NamedTuple):
    name: str
    title: str
    description: str
    sql: str
    publish: bool = True

    @property
    def params(self) -> list[str]:
        seen: list[str] = []
        for p in _PARAM.findall(re.sub(r"'[^']*'", "", self.sql)):
            if p not in seen:
                seen.append(p)
        return seen


def _parse(name: str, text: str) -> Query:
    meta: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m and not body:
            meta[m.group(1).lower()] = m.group(2).strip()
        else:
            body.append(line)
    return Query(
        name,
        meta.get("title", name),
        meta.get("description", ""),
        "\n".join(body).strip(),
        meta.get("publish", "yes").lower() != "no",
    )


@cache
def load(name: str) -> Query:
    """The query in ``queries/<name>.sql``."""
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise FileNotFoundError(f"no query named {name!r}")
    with open(os.path.join(_HERE, f"{name}.sql"), encoding="utf-8") as f:
        return _parse(name, f.read())


def names() -> list[str]:
    return sorted(n[:-4] for n in os.listdir(_HERE) if n.endswith(".sql"))


def published() -> list[str]:
    """The queries the website offers as canned queries."""
    return [n for n in names() if load(n).publish]
