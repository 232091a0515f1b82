"""Read fixture files: many input/expected cases side by side in one readable text file.

The format is markdown-it-py's: a title line, then the input and the expected output, each
closed by a line holding a single ``.``::

    Glued heading [lang=vi]
    .
    Mục tiêu của trò chơiThấp hơn
    .
    Mục tiêu của trò chơi
    Thấp hơn
    .

Options in square brackets at the end of the title are passed to the test. Lines before the
first case that start with ``#`` are comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_OPTIONS = re.compile(r"\s*\[(?P<opts>[^\]]*)\]\s*$")


@dataclass
class Case:
    title: str
    input: str
    expected: str
    line: int
    options: dict[str, str] = field(default_factory=dict)


def read_cases(path: Path) -> list[Case]:
    lines = path.read_text(encoding="utf-8").split("\n")
    cases: list[Case] = []
    i = 0
    while i < len(lines):
        if not lines[i].strip() or (not cases and lines[i].startswith("#")):
            i += 1
            continue
        title, start = lines[i], i + 1
        if i + 1 >= len(lines) or lines[i + 1] != ".":
            raise ValueError(f"{path}:{i + 1}: expected '.' after the case title")
        j = i + 2
        parts: list[list[str]] = [[], []]
        for part in parts:
            while j < len(lines) and lines[j] != ".":
                part.append(lines[j])
                j += 1
            if j >= len(lines):
                raise ValueError(f"{path}:{start}: case is not closed with '.'")
            j += 1
        options: dict[str, str] = {}
        m = _OPTIONS.search(title)
        if m:
            title = title[: m.start()]
            for item in m.group("opts").split(";"):
                key, _, value = item.partition("=")
                options[key.strip()] = value.strip()
        cases.append(Case(title.strip(), "\n".join(parts[0]), "\n".join(parts[1]), start, options))
        i = j
    return cases
