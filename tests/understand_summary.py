"""What an understanding pass wrote, as short text lines: the expected output of the fixture
files in tests/fixtures/ask/passes/ (one file per pass, markdown-it-py's format)."""

from __future__ import annotations

from typing import Any

from kb.ask.question import Understood


def _value(field: str, value: Any) -> str:
    if field == "cards":
        return ", ".join(f"{c['id']}{'' if c['exact'] else ' (fuzzy)'}" for c in value) or "-"
    if field == "ambiguous":
        return "; ".join(f"{a['typed']}: {' | '.join(a['candidates'])}" for a in value) or "-"
    if field == "timing":
        return ", ".join(dict.fromkeys(t["node"] for t in value)) or "-"
    if field == "terms":
        return ", ".join(dict.fromkeys(t["term"] for t in value)) or "-"
    if field == "classes":
        return ", ".join(c["class"] for c in value) or "-"
    if field == "vs":
        return f"{value[0]['id']} vs {value[1]['id']}" if value else "-"
    if field == "expansions":
        return "; ".join(f"{k} -> {' | '.join(v)}" for k, v in value.items()) or "-"
    if field == "corrections":
        return ", ".join(f"{k} -> {v}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return ", ".join(value) or "-"
    if value is None or value == "":
        return "-"
    return str(value).lower() if isinstance(value, bool) else str(value)


def summary(result: Understood, fields: tuple[str, ...]) -> str:
    return "\n".join(f"{f}: {_value(f, getattr(result, f))}" for f in fields)
