"""The timing graph as a tree: nodes with their names, properties and citations."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any, cast

from ..store.db import KbError, column, run

if TYPE_CHECKING:  # kb ask reaches this module: the typed rows' classes cost it 4 ms to build
    from ..types import TimingNode


def game_id(conn: sqlite3.Connection, name: str) -> str:
    """A game id from its id, name or alias ("ygo", "Force of Will")."""
    wanted = name.strip().casefold()
    rows = run(conn, "game_aliases")
    for row in rows:
        if wanted in {
            row["id"].casefold(),
            row["name"].casefold(),
            *(a.casefold() for a in json.loads(row["aliases"])),
        }:
            return row["id"]
    known = ", ".join(sorted(row["id"] for row in rows))
    raise KbError(f"unknown game {name!r} (the knowledge base holds: {known})")


def node_path(conn: sqlite3.Connection, node_id: str) -> str:
    """A timing node's place in its tree: "Battle Phase › Damage Step › During damage ..."."""
    return " › ".join(column(conn, "timing_node_path", node=node_id))


def timing_tree(conn: sqlite3.Connection, game: str, ruleset: str = "") -> list[TimingNode]:
    """Root nodes of every timing tree of ``game`` (optionally one ruleset), children nested."""
    gid = game_id(conn, game)
    rows = run(conn, "timing_tree", game=gid, ruleset=ruleset)
    if not rows:
        known = sorted({r["ruleset"] for r in run(conn, "timing_tree", game=gid, ruleset="")})
        hint = (
            f"; rulesets: {', '.join(known)}"
            if known
            else "; the corpus describes no timing for this game"
        )
        raise KbError(
            f"no timing graph for {game!r}{' ruleset ' + repr(ruleset) if ruleset else ''}{hint}"
        )
    names: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for n in run(conn, "timing_names", game=gid):
        names.setdefault(n["node"], {}).setdefault(n["lang"], []).append(
            {"text": n["text"], "document": n["document"], "variant": n["variant"]}
        )
    props: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
    for p in run(conn, "timing_properties", game=gid):
        entry = props.setdefault(p["node"], {}).setdefault(
            (p["key"], p["value"]),
            {"key": p["key"], "value": p["value"], "display": p["display"], "sources": []},
        )
        entry["sources"].append(
            {
                "rule": p["rule"],
                "document": p["document"],
                "lang": p["lang"],
                "provenance": p["provenance"],
                "era": p["era"],
            }
        )
    by_id: dict[str, TimingNode] = {}
    roots: list[TimingNode] = []
    for row in rows:
        node = cast(
            "TimingNode",
            {
                **row,
                "names": names.get(row["id"], {}),
                "properties": list(props.get(row["id"], {}).values()),
                "children": [],
            },
        )
        by_id[row["id"]] = node
    for row in sorted(rows, key=lambda r: (r["tree"], r["depth"], r["ord"])):
        node = by_id[row["id"]]
        (by_id[row["parent"]]["children"] if row["parent"] in by_id else roots).append(node)
    for node in by_id.values():
        node["children"].sort(key=lambda n: n["ord"])
    return roots


def node_rules(conn: sqlite3.Connection, node: str) -> list[dict[str, Any]]:
    return run(conn, "timing_rules", node=node)
