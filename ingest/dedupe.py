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

import re

from .records import Block, Duplicate, Line
from .text import squash_spaces

# Source lines shorter than this are never treated as a glued copy of others.
_MIN_GLUED = 120
# Share of a line's characters that other lines must cover for it to be a copy of them.
_COVERED = 0.95
# Share a line beside a glued copy must repeat of other lines to belong to the glued stretch.
_NEIGHBOUR_COVERED = 0.85
# A table of contents has at least this many headings, most of which recur in the body.
_MIN_TOC = 5
_TOC_RECUR = 0.6
_SPACE = re.compile(r"\s+")


def _covered_share(text: str, pieces: list[tuple[int, str]]) -> tuple[float, list[int]]:
    """Share of ``text``'s non-space characters covered by occurrences of the pieces."""
    covered = bytearray(len(text))
    used: list[int] = []
    for key, piece in pieces:
        start = text.find(piece)
        if start < 0:
            continue
        used.append(key)
        while start >= 0:
            covered[start : start + len(piece)] = b"\x01" * len(piece)
            start = text.find(piece, start + len(piece))
    content = [j for j, ch in enumerate(text) if ch != " "]
    if not content:
        return 0.0, used
    return sum(covered[j] for j in content) / len(content), used


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
    glued: dict[int, list[int]] = {}
    for no in order:
        text = texts[no]
        if len(text) < _MIN_GLUED:
            continue
        pieces = [(k, texts[k]) for k in order if k != no and 8 <= len(texts[k]) < len(text)]
        share, used = _covered_share(text, pieces)
        if share >= _COVERED and len(used) >= 2:
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
    changed = True
    while changed:
        changed = False
        for no in order:
            if no in dropped:
                continue
            i = position[no]
            if not any(order[j] in dropped for j in (i - 1, i + 1) if 0 <= j < len(order)):
                continue
            text = texts[no]
            pieces = [
                (k, texts[k])
                for k in order
                if k != no
                and k not in dropped
                and 0 < len(texts[k]) <= len(text)
                and (len(texts[k]) >= 8 or len(texts[k]) == len(text))
            ]
            share, used = _covered_share(text, pieces)
            if used and share >= _NEIGHBOUR_COVERED:
                dropped.add(no)
                changed = True
                records.append(
                    Duplicate(
                        document,
                        no,
                        no,
                        min(used),
                        max(used),
                        f"repeat of {len(used)} line(s), beside a glued copy",
                        len(text),
                    )
                )
    records.sort(key=lambda d: d.line_start)
    return [line for line in lines if line.no not in dropped], records


def drop_table_of_contents(
    document: str, blocks: list[Block]
) -> tuple[list[Block], list[Duplicate]]:
    """Drop a table of contents: a run of numbered headings without content whose numbers recur.

    Titles in a table of contents often differ a little from the body ("Play chant without
    [Trigger]" / "Play a chant without [Trigger]"), so numbers decide.
    """
    runs: list[list[int]] = []
    for i, b in enumerate(blocks):
        empty = i + 1 >= len(blocks) or blocks[i + 1].kind == "heading"
        if b.kind == "heading" and b.number and empty:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    drop: set[int] = set()
    records: list[Duplicate] = []
    for run in runs:
        if len(run) < _MIN_TOC:
            continue
        later = {
            blocks[k].number: k
            for k in range(run[-1] + 1, len(blocks))
            if blocks[k].kind == "heading"
        }
        recurs = [blocks[i].number in later for i in run]
        if sum(recurs) < _TOC_RECUR * len(run):
            continue
        # The body's first headings can extend the run; they do not recur, and they stay.
        run = run[: len(recurs) - recurs[::-1].index(True)]
        later = {
            blocks[k].number: k
            for k in range(run[-1] + 1, len(blocks))
            if blocks[k].kind == "heading"
        }
        recurring = [later[blocks[i].number] for i in run if blocks[i].number in later]
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
    return kept_blocks, records
