"""What every normalization rule shares: the context that records repairs, and helpers."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..records import DocText, Line, Repair

# Characters of context kept on each side of a change in the repair log.
CONTEXT = 24


@dataclass
class Context:
    """Given to every rule: the document being normalized and the repair log."""

    doc: DocText
    vocabulary: frozenset[str] = frozenset()
    bigrams: frozenset[str] = frozenset()  # "a b" word pairs of the clean English documents
    repairs: list[Repair] = field(default_factory=list)

    def record(self, rule: str, line: int, before: str, after: str) -> None:
        self.repairs.append(Repair(self.doc.doc_id, rule, line, before, after))


Rule = Callable[[list[Line], Context], list[Line]]


def snippet(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of ``text[start:end]`` widened by CONTEXT characters on each side."""
    return max(0, start - CONTEXT), min(len(text), end + CONTEXT)


def sub_recorded(
    pattern: re.Pattern[str],
    repl: Callable[[re.Match[str]], str],
    line: Line,
    ctx: Context,
    rule: str,
) -> str:
    """``pattern.sub`` on one line, recording each replacement with its context."""
    text = line.text
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(text):
        new = repl(m)
        if new == m.group():
            continue
        lo, hi = snippet(text, m.start(), m.end())
        before = text[lo:hi]
        after = text[lo : m.start()] + new + text[m.end() : hi]
        ctx.record(rule, line.no, before, after.replace("\n", "¶"))
        out.append(text[pos : m.start()])
        out.append(new)
        pos = m.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def join_into(line: Line, following: Line, text: str) -> Line:
    """``line`` with ``following`` joined into it: ``text`` is the joined text; the source
    lines it spans run to the last one ``following`` spans."""
    end = following.end if following.end is not None else following.no
    return replace(line, text=text, end=end)


def split_lines(lines: list[Line], texts: list[str]) -> list[Line]:
    """Rebuild lines after rules inserted ``\\n``: each piece keeps its source line number."""
    result: list[Line] = []
    for line, text in zip(lines, texts, strict=True):
        for k, piece in enumerate(text.split("\n")):
            # A markup line's structure stays with its first piece.
            result.append(Line(line.no, piece, line.depth, line.mark if k == 0 else None))
    return result


def map_lines(pattern: re.Pattern[str], repl: Callable[[re.Match[str]], str], rule: str) -> Rule:
    """A rule that rewrites each line with ``pattern``; ``\\n`` in a replacement splits lines."""

    def apply(lines: list[Line], ctx: Context) -> list[Line]:
        return split_lines(lines, [sub_recorded(pattern, repl, line, ctx, rule) for line in lines])

    apply.__name__ = rule
    return apply
