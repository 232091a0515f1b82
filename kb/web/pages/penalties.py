"""Penalty pages: ``/penalty`` (every infraction of the penalty guidelines, by game, language
and category, with its corrective action at each level of play) and ``/penalty/<rule id>``
(one infraction whole: definition, examples, corrective action, context, remedy, upgrade,
where it comes from, and the same infraction in the guidelines' other languages).

Built on the ``infractions`` table (ingest/extract/infractions.py): nothing here names a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...lookups.labels import authority, language_name
from ..urls import cite, document_url, game_url, penalty_url, rule_url

if TYPE_CHECKING:
    from ...api import KnowledgeBase


def penalty_index(kb: KnowledgeBase, lang: str = "") -> dict[str, Any]:
    """Every infraction, grouped by game, language and category, in the guidelines' order."""
    games: dict[str, dict[str, Any]] = {}
    for row in kb.infractions(lang=lang):
        game = games.setdefault(
            row["game"],
            {"id": row["game"], "name": row["game_name"], "url": game_url(row["game"]),
             "languages": {}},
        )  # fmt: skip
        language = game["languages"].setdefault(
            row["lang"],
            {"lang": row["lang"], "language_name": language_name(row["lang"]),
             "document": row["document"], "document_title": row["document_title"],
             "categories": {}},
        )  # fmt: skip
        language["categories"].setdefault(row["category"], []).append(
            {**row, "url": penalty_url(row["id"])}
        )
    out = []
    for game in games.values():
        languages = []
        for language in game["languages"].values():
            categories = [
                {"name": name, "infractions": rows}
                for name, rows in language.pop("categories").items()
            ]
            languages.append({**language, "categories": categories})
        out.append({**game, "languages": languages})
    return {"lang": lang, "games": out, "count": sum(
        len(c["infractions"]) for g in out for lg in g["languages"] for c in lg["categories"]
    )}  # fmt: skip


def penalty(kb: KnowledgeBase, rule_id: str) -> dict[str, Any] | None:
    """One infraction with its parts, its source and its other languages; None if none."""
    view = kb.infraction(rule_id)
    if view is None:
        return None
    return {
        **view,
        "url": penalty_url(view["id"]),
        "rule_url": rule_url(view["id"]),
        "document_url": document_url(view["document"]),
        "game_url": game_url(view["game"]),
        "index_url": penalty_url(),
        "language_name": language_name(view["lang"]),
        "provenance_label": authority(view["provenance"]),
        "cite": cite(dict(view)),
        "languages": [
            {
                **other,
                "language_name": language_name(other["lang"]),
                "url": penalty_url(other["id"]),
                "current": other["id"] == view["id"],
            }
            for other in view["languages"]
        ],  # fmt: skip
    }
