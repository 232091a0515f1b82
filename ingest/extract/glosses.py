"""Curated glosses: a rule read in another language by a person (data/glosses/*.toml, one
file per document), so a judge who does not read the rule's language still reads the ruling.

Each gloss names its rule and the first characters of the rule's text: a gloss whose rule is
gone or whose text changed is left out, with a build warning, rather than shown beside
another text.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from importlib import resources

from .. import spill
from ..records import DocumentResult, Gloss


def extract_glosses(documents: Sequence[DocumentResult]) -> tuple[list[Gloss], list[str]]:
    docs = spill.view(documents)
    rules = docs.rules
    folder = resources.files("ingest").joinpath("data/glosses")
    glosses: list[Gloss] = []
    warnings: list[str] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".toml"):
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for entry in data.get("glosses", []):
            rule = rules.get(entry["rule"])
            start = entry.get("source_start", "")
            if rule is None or not rule.text.startswith(start):
                if docs.has(entry["rule"].split(":")[0]):
                    warnings.append(
                        f"glosses/{path.name}: {entry['rule']}: no rule with that id and text "
                        "(the document changed?); gloss left out"
                    )
                continue
            glosses.append(
                Gloss(
                    rule.id,
                    entry.get("lang", "en"),
                    entry["text"],
                    entry.get("note", ""),
                    f"glosses/{path.name}",
                )  # fmt: skip
            )
    return glosses, warnings
