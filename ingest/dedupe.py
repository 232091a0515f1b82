"""Deduplicate: keep one copy of text a document holds twice, and record the other.

Two shapes occur, handled at the level where each is visible:

* A glued copy repeats a stretch of lines as one long source line (004 holds most of its text
  once as a 23 KB line, then line by line; its FAQ too). A source line whose text is covered
  by the text of several other source lines is such a copy, and so is a line repeated word for
  word. This runs on normalized lines, before segmentation, so nothing of the glued copy
  (headings included) reaches the outline. The line-by-line copy is kept: it keeps the
  structure.
* A table of contents repeats every numbered heading before the body (fow-cr-7.0). This runs
  on segmented blocks, where headings and their numbers are known.
"""

from __future__ import annotations

import bisect
import re

from .layout import section_role
from .records import Block, Duplicate, Line
from .text import fold, squash_spaces

# Source lines shorter than this are never treated as a glued copy of others.
_MIN_GLUED = 120
# Share of a line's characters that other lines must cover for it to be a copy of them.
_COVERED = 0.95
# The lines a glued copy holds lie within this many times their number of source lines.
_STRETCH = 2
# Share a line beside a glued copy must repeat of other lines to belong to the glued stretch.
_NEIGHBOUR_COVERED = 0.85
# A table of contents has at least this many headings, most of which recur in the body.
_MIN_TOC = 5
_TOC_RECUR = 0.6
# What a named table of contents may hold: its entries, as the markup wrote them.
_TOC_ENTRIES = {"bullet", "item", "paragraph"}
_SPACE = re.compile(r"\s+")


_KEY = 8  # characters a piece is looked up by; every piece is at least this long
_WORD_START = re.compile(r"(?<!\w)\w|[^\w\s]")  # where a line can start inside another
_WORD_END = re.compile(r"\w+|[^\w\s]")  # the ends of these tokens: where a line can end


class _Pieces:
    """The source lines' texts indexed for finding, in one long line, every other line it
    holds, in time linear in the long line: each distinct text is filed under its first
    ``_KEY`` characters; a long line is read once, and where a word starts with a known key,
    each way the text could run on to a word's end is looked up whole. (Searching every line
    in every long line, as this replaces, cost the square of the document's length.)"""

    def __init__(self, texts: dict[int, str]) -> None:
        self.lines: dict[str, list[int]] = {}  # distinct text -> its source lines, in order
        for no, text in texts.items():
            if text:
                self.lines.setdefault(text, []).append(no)
        self.by_key: dict[str, set[str]] = {}
        self.longest: dict[str, int] = {}
        for text in self.lines:
            if len(text) >= _KEY:
                key = text[:_KEY]
                self.by_key.setdefault(key, set()).add(text)
                self.longest[key] = max(self.longest.get(key, 0), len(text))

    def covered_share(
        self, no: int, text: str, longest: int, excluded: set[int]
    ) -> tuple[float, list[int]]:
        """Share of ``text``'s non-space characters covered by other lines (of at most
        ``longest`` characters, not in ``excluded``), and those lines."""
        covered = bytearray(len(text))
        used: set[int] = set()
        ends = [m.end() for m in _WORD_END.finditer(text)]
        for m in _WORD_START.finditer(text):
            i = m.start()
            key = text[i : i + _KEY]
            bucket = self.by_key.get(key)
            if bucket is None:
                continue
            reach = i + min(longest, self.longest[key])
            for e in ends[bisect.bisect_left(ends, i + _KEY) :]:
                if e > reach:
                    break
                piece = text[i:e]
                if piece not in bucket:
                    continue
                owners = [k for k in self.lines[piece] if k != no and k not in excluded]
                if owners:
                    used.update(owners)
                    covered[i:e] = b"\x01" * (e - i)
        if len(text) < _KEY:  # a short line counts only as a repeat of the same words
            used.update(k for k in self.lines.get(text, ()) if k != no and k not in excluded)
            if used:
                covered[:] = b"\x01" * len(text)
        content = len(text) - text.count(" ")
        if not content:
            return 0.0, sorted(used)
        share = sum(1 for j, ch in enumerate(text) if covered[j] and ch != " ") / content
        return share, sorted(used)


def _source_lines(lines: list[Line]) -> dict[int, str]:
    """Normalized text of each source line (a line split by normalization is joined again)."""
    joined: dict[int, list[str]] = {}
    for line in lines:
        joined.setdefault(line.no, []).append(line.text)
    return {no: squash_spaces(" ".join(parts)) for no, parts in joined.items()}


def dedupe_lines(document: str, lines: list[Line]) -> tuple[list[Line], list[Duplicate]]:
    """Drop source lines that are glued copies of other lines, with the stretch around them."""
    texts = _source_lines(lines)
    order = [no for no, text in texts.items() if text]
    pieces = _Pieces(texts)
    glued: dict[int, list[int]] = {}
    for no in order:
        text = texts[no]
        if len(text) < _MIN_GLUED:
            continue
        share, used = pieces.covered_share(no, text, len(text) - 1, set())
        # A one-word line ("character", a glossary term) is no evidence of a glued copy, and a
        # glued copy holds a stretch of lines: sentences found in lines all over the document
        # are a rule quoted elsewhere (an update summary), wrapped at other places.
        if (
            share >= _COVERED
            and sum(1 for k in used if " " in texts[k]) >= 2
            and max(used) - min(used) <= _STRETCH * len(used)
        ):
            glued[no] = used
    records = [
        Duplicate(
            document,
            no,
            no,
            min(kept),
            max(kept),
            f"glued copy of {len(kept)} lines kept line by line",
            len(texts[no]),
        )
        for no, kept in glued.items()
    ]
    # Lines next to a glued copy that repeat other lines (a glued line that held only one or two
    # short lines, or a question glued to its answer) belong to the same glued stretch. Repeats
    # elsewhere are kept: rule texts legitimately repeat sentences.
    dropped = set(glued)
    position = {no: i for i, no in enumerate(order)}
    frontier = sorted(dropped)
    while frontier:
        grown: list[int] = []
        for near in sorted(
            {order[j] for no in frontier for i in [position[no]] for j in (i - 1, i + 1)
             if 0 <= j < len(order)} - dropped
        ):  # fmt: skip
            text = texts[near]
            share, used = pieces.covered_share(near, text, len(text), dropped)
            if used and share >= _NEIGHBOUR_COVERED:
                dropped.add(near)
                grown.append(near)
                records.append(
                    Duplicate(
                        document,
                        near,
                        near,
                        min(used),
                        max(used),
                        f"repeat of {len(used)} line(s), beside a glued copy",
                        len(text),
                    )
                )
        frontier = grown
    records.sort(key=lambda d: d.line_start)
    return [line for line in lines if line.no not in dropped], records


def _toc_key(block: Block) -> str:
    """What a table-of-contents entry and its heading in the body share: the number, or the
    title's words when the heading has no number ("Glossary")."""
    return block.number or " ".join(fold(block.title or block.text).split())


def drop_table_of_contents(
    document: str, blocks: list[Block]
) -> tuple[list[Block], list[Duplicate]]:
    """Drop a table of contents, and record it.

    Two shapes: a run of headings without content whose numbers (or titles) recur as headings
    later (a plain-text table of contents, "1. Game Concepts / 100. General / ... / Glossary"),
    and a heading named as a table of contents ("Contents", "目录") followed by a list of
    entries (a markup page's navigation). Titles in a table of contents often differ a little
    from the body ("Play chant without [Trigger]" / "Play a chant without [Trigger]"), so
    numbers decide when there are numbers.
    """
    runs: list[list[int]] = []
    for i, b in enumerate(blocks):
        empty = i + 1 >= len(blocks) or blocks[i + 1].kind == "heading"
        if b.kind == "heading" and empty:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    # Where each key is a heading, last occurrence first: one pass, not one per run.
    last_heading: dict[str, int] = {}
    for k, b in enumerate(blocks):
        if b.kind == "heading":
            last_heading[_toc_key(b)] = k
    drop: set[int] = set()
    records: list[Duplicate] = []
    for run in runs:
        if len(run) < _MIN_TOC:
            continue
        recurs = [last_heading[_toc_key(blocks[i])] > run[-1] for i in run]
        if sum(recurs) < _TOC_RECUR * len(run):
            continue
        # The body's first headings can extend the run; they do not recur, and they stay.
        run = run[: len(recurs) - recurs[::-1].index(True)]
        later = _later_headings(blocks, run[-1])
        recurring = [later[_toc_key(blocks[i])] for i in run if _toc_key(blocks[i]) in later]
        drop.update(run)
        records.append(
            Duplicate(
                document,
                blocks[run[0]].line_start,
                blocks[run[-1]].line_end,
                blocks[min(recurring)].line_start,
                blocks[max(recurring)].line_start,
                f"table of contents: {len(run)} headings, {len(recurring)} repeated in the body",
                sum(len(blocks[i].text) for i in run),
            )
        )
    for i, b in enumerate(blocks):
        if b.kind != "heading" or i in drop or section_role(b.title, b.anchor) != "contents":
            continue
        end = i + 1
        while end < len(blocks) and blocks[end].kind != "heading":
            end += 1
        entries = range(i + 1, end)
        if not entries or any(blocks[k].kind not in _TOC_ENTRIES for k in entries):
            continue
        drop.update(range(i, end))
        records.append(
            Duplicate(
                document,
                b.line_start,
                blocks[end - 1].line_end,
                blocks[end].line_start if end < len(blocks) else b.line_start,
                blocks[-1].line_end,
                f"table of contents: {len(entries)} entries",
                sum(len(blocks[k].text) for k in range(i, end)),
            )
        )
    if not drop:
        return blocks, []
    new_index: dict[int, int] = {}
    kept_blocks: list[Block] = []
    for i, b in enumerate(blocks):
        if i not in drop:
            new_index[i] = len(kept_blocks)
            kept_blocks.append(b)
    for b in kept_blocks:
        if b.parent is not None:
            b.parent = new_index.get(b.parent)
    records.sort(key=lambda d: d.line_start)
    return kept_blocks, records


def _later_headings(blocks: list[Block], after: int) -> dict[str, int]:
    """Key -> index of the last heading with that key after index ``after``."""
    return {_toc_key(b): k for k, b in enumerate(blocks) if k > after and b.kind == "heading"}
