"""Which first: who has priority first at a moment, and which card of "X vs Y" resolves first.

On the ``kb ask`` path: standard library, sqlite3 and ``ingest`` text modules only.
"""

from __future__ import annotations

import sqlite3

from ...store.db import run
from ..question import Understood
from .asked import Asked
from .common import Verdict, because, moment_name


def priority(conn: sqlite3.Connection, u: Understood, asked: Asked) -> Verdict | None:
    """Who has priority first at the moment asked about (one answer for every ruleset)."""
    nodes = list(dict.fromkeys(t["node"] for t in u.timing))
    nodes = asked.of_rulesets(conn, nodes)
    facts = [f for n in nodes for f in run(conn, "verdict_orders", moment=n)]
    whos = {f["subject"] for f in facts}
    if len(whos) != 1 or u.cards:
        return None
    who = whos.pop()
    where = ", ".join(dict.fromkeys(moment_name(conn, f["moment"]) for f in facts))
    return Verdict(
        f"the {who}",
        f"The {who} has priority first: {where}.",
        [because(conn, f) for f in facts],
        kind="order",
        moment=facts[0]["moment"],
    )
