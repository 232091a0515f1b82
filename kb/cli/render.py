"""Plain-text rendering of command results for a terminal. JSON output bypasses this."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..types import (
        AskResult,
        CardView,
        CompareRow,
        HistoryEntry,
        InfractionView,
        RuleView,
        SearchHit,
        Term,
        TimingNode,
        VersionChange,
        VersionSummary,
    )

from ..lookups.labels import authority

WIDTH = 100


def table(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """A left-aligned text table of ``columns``; numbers right-aligned."""
    if not rows:
        return "(none)"
    cells = [[("" if r.get(c) is None else str(r.get(c))) for c in columns] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    numeric = [all(isinstance(r.get(c), int | float) for r in rows) for c in columns]

    def fmt(values: Iterable[str]) -> str:
        out = []
        for i, v in enumerate(values):
            out.append(v.rjust(widths[i]) if numeric[i] else v.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [fmt(columns), fmt("-" * w for w in widths)]
    lines += [fmt(row) for row in cells]
    return "\n".join(lines)


def wrap(text: str, indent: str = "  ", width: int = WIDTH) -> str:
    """Fill each paragraph; rule ids and file names are never split (they are copied whole)."""
    return "\n".join(
        textwrap.fill(
            p,
            width=width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
        or indent
        for p in text.split("\n")
    )


def citation(hit: Mapping[str, Any]) -> str:
    """``fow-cr-8.01:103.4 · line 12 · en · official · 2018`` style source line: the rule id
    names the document (``kb show`` gives its file); the line is where it is in that file."""
    parts = [hit["id"], f"line {hit.get('line_start', '?')}", hit.get("lang", "")]
    parts.append(authority(hit.get("provenance", "")))
    if hit.get("era"):
        parts.append(hit["era"])
    return " · ".join(p for p in parts if p)


def rule(view: RuleView) -> str:
    lines = [f"{view['id']}  ({view['kind']}, {view['lang']})"]
    if view.get("section_path"):
        lines.append(f"  section: {view['section_path']}")
    title = " ".join(p for p in (view.get("label"), view.get("title")) if p)
    if title:
        lines.append(f"  title:   {title}")
    lines.append("")
    lines.append(wrap(view["text"]))
    lines.append("")
    lines.append(
        f"  source:  {view['file']} line {view['line_start']}"
        + (f"-{view['line_end']}" if view["line_end"] != view["line_start"] else "")
        + f" · document {view['document']}"
        + (f" (translation of {view['translation_of']})" if view.get("translation_of") else "")
    )
    lines.append(
        f"  origin:  {authority(view['provenance'])} · {view['game_name']}"
        f" · era {view['era'] or 'unknown'}"
    )
    if view.get("superseded_by"):
        lines.append(
            f"  version: {view['version']}, superseded by {view['superseded_by']}"
            " (not the current rule)"
        )
    for child in view.get("children", []):
        label = child.get("number") or child.get("label") or child["kind"]
        lines.append(f"  └ {child['id']} [{label}] {textwrap.shorten(child['text'], 80)}")
    for tr in view.get("translations", []):
        lines.append(f"  ↔ {tr['id']} [{tr['lang']}] {textwrap.shorten(tr['text'], 80)}")
    for g in view.get("glosses", []):
        lines.append("")
        lines.append(f"  gloss [{g['lang']}, {authority('gloss')}]:")
        lines.append(wrap(g["text"], indent="  "))
    return "\n".join(lines)


def hits(results: Sequence[SearchHit]) -> str:
    if not results:
        return "No matches."
    out = []
    for i, h in enumerate(results, start=1):
        title = " ".join(p for p in (h.get("label"), h.get("title")) if p)
        out.append(f"{i}. {h['section_path'] or h['document']}" + (f" — {title}" if title else ""))
        out.append(wrap(textwrap.shorten(h["text"], 400, placeholder=" …"), indent="   "))
        out.append(f"   [{citation(h)}]")
        if h.get("superseded_by"):
            out.append(f"   superseded by {h['superseded_by']}")
        if h.get("also"):
            out.append(f"   also in: {', '.join(h['also'])}")
    return "\n".join(out)


def _names_line(names: dict[str, list[dict[str, Any]]]) -> str:
    parts = []
    for lang in sorted(k for k in names if k != "en"):
        texts = list(dict.fromkeys(n["text"] for n in names[lang]))
        parts.append(f"{lang}: " + " / ".join(texts[:3]))
    other_en = list(dict.fromkeys(n["text"] for n in names.get("en", [])))[1:]
    if other_en:
        parts.insert(0, "also: " + " / ".join(other_en[:3]))
    return "  [" + "; ".join(parts) + "]" if parts else ""


def timing(roots: Sequence[TimingNode]) -> str:
    lines: list[str] = []

    def walk(node: TimingNode, indent: str) -> None:
        label = f"{node['label']}. " if node["label"] else ""
        lines.append(
            f"{indent}{label}{node['en']}{_names_line(node['names'])}  ({node['rules']} rules)"
        )
        for prop in node["properties"]:
            cites = ", ".join(s["rule"] for s in prop["sources"][:4])
            more = f" +{len(prop['sources']) - 4}" if len(prop["sources"]) > 4 else ""
            lines.append(f"{indent}    · {prop['display']}  — {cites}{more}")
        for child in node["children"]:
            walk(child, indent + "  ")

    for root in roots:
        lines.append(f"== {root['tree']} ==")
        walk(root, "")
        lines.append("")
    return "\n".join(lines).rstrip()


def card(view: CardView) -> str:
    lines = [f"{view['name']}  ({view['kind']}, {view['game_name']}; id {view['id']})"]
    others = [a for a in view["aliases"] if a["alias"] != view["name"]]
    if others:
        lines.append(
            "  also: "
            + ", ".join(
                f"{a['alias']} ({a['kind']}{', ' + a['lang'] if a['lang'] != 'en' else ''})"
                for a in others
            )
        )
    for fact in view["facts"]:
        lines.append(
            f"  {fact['field']}: {fact['value']}  [{fact['rule']}, {authority(fact['provenance'])}]"
        )
    for x in view["restrictions"]:
        lines.append(f"  {x['list']} list: {x['status']} (written {x['name']!r})  [{x['rule']}]")
    if view["notes"]:
        lines.append("  note: " + textwrap.shorten(view["notes"], 300))
    for group in view["rulings_by_timing"]:
        where = (
            f"{group['timing_name']} ({group['tree']})"
            if group["timing"]
            else "No particular timing window"
        )
        lines.append("")
        lines.append(f"▸ {where}")
        for r in group["rulings"]:
            head = " ".join(
                p for p in (r["kind"], r["label"], r["title"] and f"“{r['title']}”") if p
            )
            lines.append(f"  {r['id']} · {head}")
            lines.append(wrap(textwrap.shorten(r["text"], 360, placeholder=" …"), indent="    "))
            for g in r.get("glosses", []):
                gloss = textwrap.shorten(g["text"], 360, placeholder=" …")
                lines.append(wrap(f"[{g['lang']}, {authority('gloss')}] {gloss}", indent="    "))
            where = f"line {r['line_start']}"
            lines.append(f"    [{r['lang']} · {authority(r['provenance'])} · {r['era']} · {where}]")
    return "\n".join(lines)


def terms(entries: Sequence[Term]) -> str:
    lines = []
    how = {
        "form": "another English form",
        "rendering": "rendering",
        "close spelling": "close spelling",
    }
    match = entries[0].get("match") if entries else ""
    if match and match != "name":
        lines += [f"(found by a {how.get(match, match)})", ""]
    for e in entries:
        lines.append(f"{e['en']}  ({e['term']}, {e['game'] if e['game'] != '*' else 'every game'})")
        if e.get("definition"):
            lines.append(wrap(e["definition"], "  "))
            cites = ", ".join(c["number"] or c["section_title"] for c in e.get("cites", []))
            lines.append(f"  defined in {e['rule']}" + (f"; cites {cites}" if cites else ""))
        for r in e["renderings"]:
            where = (
                ", ".join(f"{doc}: {n}" for doc, n in r["counts"].items()) or "not in the corpus"
            )
            mark = " (preferred)" if r["preferred"] else ""
            source = "en, machine translation" if r["source"] == "en_mt" else r["lang"]
            lines.append(f"  {source:<26} {r['text']}{mark}  — {where}")
        lines.append("")
    return "\n".join(lines).rstrip()


def infraction(view: InfractionView) -> str:
    """An infraction as a judge reads it: its corrective action first, then its parts."""
    lines = [
        f"{view['number']} {view['name']}  ·  {view['category']}  ·  {view['document_title']}",
        "  " + " · ".join(f"{p['level']}: {p['action']}" if p["level"] else p["action"]
                          for p in view["penalties"]),
    ]  # fmt: skip
    parts = [
        ("Definition", view["definition"]),
        ("Examples", "\n".join(f"• {e}" for e in view["examples"])),
        ("Corrective action", view["corrective_action"]),
        ("Context", view["context"]),
        ("Remedy", view["remedy"]),
        ("Upgrade", view["upgrade"]),
    ]
    for label, text in parts:
        if text:
            lines += ["", f"{label}:", wrap(text, "  ")]
    lines += ["", f"[{citation(view)}]"]
    others = [
        f"{o['lang']} {o['id']} {o['name']}" for o in view["languages"] if o["id"] != view["id"]
    ]
    if others:
        lines.append("Also in: " + "; ".join(others))
    return "\n".join(lines)


def version_diff(old: str, new: str, summary: VersionSummary, rows: Sequence[VersionChange]) -> str:
    counts = summary["counts"]
    lines = [
        f"{old} ({summary['old_rules']} rules) -> {new} ({summary['new_rules']} rules)",
        "  "
        + ", ".join(
            f"{counts[k]} {k}" for k in ("added", "removed", "moved", "reworded", "unchanged")
        ),
    ]
    for c in rows:
        lines.append("")
        number = " -> ".join(n for n in (c["old_number"], c["new_number"]) if n)
        lines.append(f"{c['kind'].upper():<9} {number}")
        if c["kind"] == "added":
            lines.append(
                wrap(
                    textwrap.shorten(c["new_text"] or "", 300, placeholder=" …"),
                    indent="          ",
                )
            )
        elif c["kind"] == "removed":
            lines.append(
                wrap(
                    textwrap.shorten(c["old_text"] or "", 300, placeholder=" …"),
                    indent="          ",
                )
            )
        if c["detail"]:
            lines.append(wrap(c["detail"], indent="          "))
    return "\n".join(lines)


def rule_history(chains: Sequence[Sequence[HistoryEntry]]) -> str:
    blocks = []
    for chain in chains:
        lines = []
        for entry in chain:
            # An edition without a version number is named by its effective date alone.
            dated = [f"ver. {entry['version']}"] if entry["version"] else []
            dated += [entry["effective"]] if entry["effective"] else []
            head = f"{entry['document']} ({', '.join(dated)})" if dated else entry["document"]
            if entry["rule"] is None:
                lines.append(f"{head}: no such rule")
                continue
            change = entry["change"]
            note = (
                f" — {change['kind']}"
                + (f": {change['detail']}" if change and change["detail"] else "")
                if change
                else ""
            )
            lines.append(f"{head} {entry['number']}{note}")
            lines.append(wrap(entry["text"] or "", indent="    "))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def ask_output(result: AskResult, as_json: bool = False) -> str:
    """What ``kb ask`` prints for a result of kb.ask.ask (both entry points share it)."""
    if as_json:
        import json

        return json.dumps(result, ensure_ascii=False, indent=2)
    note = f"Note: {result['cut']}\n" if result.get("cut") else ""
    # Whether the corpus covers what is asked: said first (kb.lookups.coverage); a word no
    # document uses is worth saying only above passages.
    coverage = result.get("coverage") or {}
    message = coverage.get("message")
    if message and (result["confident"] or not coverage.get("covered")):
        note += wrap(message, indent="") + "\n\n"
    if not result["confident"]:
        return f"{note}No confident match for {result['query']!r}."
    return note + ask(result)


def ask(result: AskResult) -> str:
    lines: list[str] = []
    a = result["answer"]
    u = result["understood"]
    for amb in u["ambiguous"]:
        lines.append(
            f"Ambiguous: {amb['typed']!r} could be {', '.join(amb['candidates'])} — name the card "
            f"fully."
        )
    if a:
        where = (
            a["timing"]["path"]
            + (
                f" ({a['timing']['ruleset'].upper()})"
                if a["timing"] and a["timing"]["ruleset"] not in ("*", "")
                else ""
            )
            if a["timing"]
            else ""
        )
        header = f"{' vs '.join(u['vs']) if u['vs'] else ', '.join(a['cards'])}  ·  {where}"
        if header.strip(" ·"):  # what the answer is about, when it names a card or moment
            lines += [header.strip(" ·"), ""]
        lines.append(wrap("Ruling: " + a["ruling"], indent=""))
        if a["quote"]:
            lines.append(wrap(f"Source says: “{a['quote']}”", indent="  "))
        if a.get("quote_gloss"):
            g = a["quote_gloss"]
            lines.append(wrap(f"[{g['lang']}, {g['authority']}] “{g['text']}”", indent="  "))
        if a["sequence"]:
            lines.append("Sequence:")
            lines += [wrap(f"{i}. {s}", indent="  ") for i, s in enumerate(a["sequence"], 1)]
        if a["nuances"]:
            lines.append("Nuances:")
            lines += [
                wrap(f"· {n['text']} [{', '.join(n['rules'])}]", indent="  ") for n in a["nuances"]
            ]
        if a["warnings"]:
            lines.append("Warnings:")
            lines += [wrap(f"! {w}", indent="  ") for w in a["warnings"]]
        lines.append("Sources:")
        for s in a["sources"]:
            lines.append(
                f"  {s['id']} — line {s['line']} · {s['lang']} · {s['authority']} · {s['era']}"
            )
        lines.append("")
    elif result["not_covered"]:
        lines.append(wrap(result["not_covered"], indent=""))
        lines.append("")
    elif u["vs"] or (u["cards"] and u["timing"]):
        lines.append(
            "No composed answer: the knowledge base has no ruling that covers this; the best "
            "passages:"
        )
        lines.append("")
    # Ruling-change notes of the cards involved, wherever their rulings are shown.
    shown_in_answer = set(a["warnings"]) if a else set()
    notes = [w for w in result.get("warnings", []) if w not in shown_in_answer]
    if notes and result["hits"]:
        lines.append("Warnings:")
        lines += [wrap(f"! {w}", indent="  ") for w in notes]
    if result["hits"]:
        heading = "Passages" if a else "Best passages"
        # Said when the database has no passage vectors: lexical matches only.
        lexical = " (lexical matches only)" if result.get("retrieval") == "lexical" else ""
        lines.append(f"{heading}{lexical}:")
    for i, h in enumerate(result["hits"], 1):
        head = h["timing"]["path"] if h["timing"] else h["section"] or h["source"]["document"]
        lines.append(f"{i}. {head}" + (f" — {h['title']}" if h["title"] else ""))
        lines.append(wrap(textwrap.shorten(h["text"], 420, placeholder=" …"), indent="   "))
        if h["shown_translation"]:
            t = h["shown_translation"]
            lines.append(
                wrap(
                    f"[{t['lang']}, {t['variant']}] " + textwrap.shorten(t["text"], 300),
                    indent="   ",
                )
            )
        for g in h.get("glosses", []):
            lines.append(
                wrap(
                    f"[{g['lang']}, {authority('gloss')}] " + textwrap.shorten(g["text"], 420),
                    indent="   ",
                )  # fmt: skip
            )
        also = f" (same text: {', '.join(h['also'])})" if h["also"] else ""
        lines.append(
            f"   [{h['id']} · line {h['source']['line']} · {h['lang']} · "
            f"{authority(h['provenance'])} · {h['era']}]{also}"
        )
    return "\n".join(lines).rstrip()


def compare(rows: Sequence[CompareRow]) -> str:
    lines: list[str] = []
    for row in rows:
        src = row["source"]
        lines.append(f"■ {src['id']}" if src else "■ (no source: a translation of nothing)")
        if src:
            lines.append(wrap(src["text"], indent="    en      "))
        for variant, targets in row["targets"].items():
            if not targets:
                lines.append(f"    {variant:<7} (no translation)")
            for t in targets:
                lines.append(
                    wrap(f"{t['text']}  [{t['id']}, {t['score']:.2f}]", indent=f"    {variant:<7} ")
                )
        for c in row["checks"]:
            lines.append(f"    ! {c['severity']} {c['check']}: {c['detail']}")
        lines.append("")
    return "\n".join(lines).rstrip()
