"""Versions of a rulebook: ``/diff`` (the compared pairs), ``/diff/<old>/<new>?kind=`` (what
changed, filterable by kind) and ``/history/<rule id or number>`` (what each version says).

Built on kb.lookups.history, which reads the ``rule_changes`` the build wrote: the counts are
the same as ``kb diff``'s, a moved rule links to its place in both versions, and a reworded one
shows the full word diff. Re-exported by kb.pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from ingest.worddiff import as_dicts

from ...lookups.history import KINDS, changes, compared_pairs, find_document, summary, text_diff
from ...lookups.labels import authority
from ...store.db import KbError
from ..urls import diff_url, document_url, history_url, rule_sources, unknown_rule

if TYPE_CHECKING:
    from ...api import KnowledgeBase

# What ``kb diff`` lists when no kind is asked for.
DEFAULT_KINDS = tuple(k for k in KINDS if k != "unchanged")
# More changes than this and no chapter chosen: the page lists the chapters, not the changes
# (the whole diff of a comprehensive rulebook is a page too long for a phone).
PAGE_CHANGES = 100


def diff_index(kb: KnowledgeBase) -> dict[str, Any]:
    """The version pairs the build compared, each with its diff page and the old document's
    title (what a reader sees, rather than the documents' ids)."""
    titles = {d["id"]: d["title"] for d in kb.rows("documents", game="")}
    return {
        "pairs": [
            {
                **p,
                "url": diff_url(p["old_document"], p["new_document"]),
                "old_title": titles.get(p["old_document"], p["old_document"]),
            }
            for p in compared_pairs(kb.conn)
        ]
    }


def _segments(old: str | None, new: str | None) -> list[dict[str, str]]:
    """The full word diff of two texts as segments ([] when they read the same)."""
    return as_dicts(text_diff(old, new))


def _side(
    rule_id: str | None, number: str | None, text: str | None, cites: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    if rule_id is None:
        return None
    return {
        **(cites.get(rule_id) or unknown_rule(rule_id)),
        "number": number,
        "text": text,
        "history_url": history_url(rule_id),
    }


def _change(row: Mapping[str, Any], cites: dict[str, dict[str, Any]]) -> dict[str, Any]:
    changed = row["kind"] in ("reworded", "moved")
    return {
        "id": row["id"],
        "kind": row["kind"],
        "similarity": row["similarity"],
        "detail": row["detail"],
        "old": _side(row["old_rule"], row["old_number"], row["old_text"], cites),
        "new": _side(row["new_rule"], row["new_number"], row["new_text"], cites),
        "segments": _segments(row["old_text"], row["new_text"]) if changed else [],
    }


def _documents(kb: KnowledgeBase, ids: list[str]) -> dict[str, dict[str, Any]]:
    return {
        d["id"]: {
            **d,
            "url": document_url(d["id"]),
            "provenance_label": authority(d["provenance"]),
        }
        for d in kb.rows("documents_by_id", documents=ids)
    }


def _chapters(
    kb: KnowledgeBase, rows: Sequence[Mapping[str, Any]]
) -> tuple[dict[int, str], list[dict[str, Any]]]:
    """Each change's chapter (the top-level section of its new rule, else its old one) and
    the chapters in order with their counts of changes."""
    ids = [r["new_rule"] or r["old_rule"] for r in rows]
    where = {row["rule"]: row for row in kb.rows("rules_chapters", ids=ids)}
    of: dict[int, str] = {}
    chapters: dict[str, dict[str, Any]] = {}
    for r in rows:
        info = where.get(r["new_rule"] or r["old_rule"])
        slug = info["slug"] if info else ""
        of[r["id"]] = slug
        chapter = chapters.setdefault(
            slug,
            {
                "slug": slug,
                "number": info["number"] if info else "",
                "title": info["title"] if info else "Other",
                "ord": info["ord"] if info else 1 << 30,
                "count": 0,
            },
        )
        chapter["count"] += 1
    return of, sorted(chapters.values(), key=lambda c: c["ord"])


def diff(
    kb: KnowledgeBase,
    old: str,
    new: str,
    kinds: list[str] | None = None,
    chapter: str = "",
) -> dict[str, Any]:
    """What changed from ``old`` to ``new`` (ids or versions): counts by kind and the changes of
    the kinds asked for (default: all but unchanged, as ``kb diff``), by chapter: those of one
    ``chapter`` (a top-level section's slug), or all of them when they are few enough for one
    page (``PAGE_CHANGES``), else none and the chapters to choose from.

    Raises KbError (the route answers 404 with its message) for a pair the build did not
    compare or an unknown kind.
    """
    old_id, new_id = find_document(kb.conn, old), find_document(kb.conn, new)
    wanted = tuple(dict.fromkeys(kinds or DEFAULT_KINDS))
    rows = changes(kb.conn, old_id, new_id, wanted)
    chapter_of, chapters = _chapters(kb, rows)
    matching = len(rows)
    if chapter:
        rows = [r for r in rows if chapter_of[r["id"]] == chapter]
    elif len(rows) > PAGE_CHANGES and not kinds:
        rows = []
    cites = rule_sources(kb, (r[side] or "" for r in rows for side in ("old_rule", "new_rule")))
    facts = summary(kb.conn, old_id, new_id)
    docs = _documents(kb, [old_id, new_id])
    return {
        "old": docs[old_id],
        "new": docs[new_id],
        "summary": facts,
        "kinds": [
            {
                "kind": k,
                "count": facts["counts"][k],
                "url": diff_url(old_id, new_id, [k]),
                "shown": k in wanted,
            }
            for k in KINDS
        ],
        "shown": list(wanted),
        "chapter": chapter,
        "chapters": [
            {**c, "url": _with_chapter(diff_url(old_id, new_id, kinds or []), c["slug"])}
            for c in chapters
        ],
        "matching": matching,
        "split": not chapter and not kinds and matching > PAGE_CHANGES,
        "url": _with_chapter(diff_url(old_id, new_id, kinds or []), chapter),
        "all_url": diff_url(old_id, new_id, KINDS),
        "default_url": diff_url(old_id, new_id),
        "changes": [_change(r, cites) for r in rows],
    }


def _with_chapter(url: str, chapter: str) -> str:
    if not chapter:
        return url
    return url + ("&" if "?" in url else "?") + urlencode({"chapter": chapter})


def history(kb: KnowledgeBase, ref: str) -> dict[str, Any] | None:
    """Each rule ``ref`` names (an id, or a number that may name different rules in different
    versions) through every compared version, oldest first, with the word diff against the
    version before. None when no compared document has such a rule."""
    try:
        histories = kb.history(ref)
    except KbError:
        return None
    ids = [e["rule"] for chain in histories for e in chain if e["rule"]]
    cites = rule_sources(kb, ids)
    docs = _documents(kb, list(dict.fromkeys(e["document"] or "" for c in histories for e in c)))
    out = []
    for chain in histories:
        entries, previous = [], None
        for e in chain:
            entries.append(
                {
                    **e,
                    "document_info": docs.get(e["document"] or ""),
                    "cite": cites.get(e["rule"]) if e["rule"] else None,
                    "segments": _segments(previous, e["text"]),
                }
            )
            previous = e["text"]
        out.append(entries)
    return {"ref": ref, "histories": out, "url": history_url(ref)}
