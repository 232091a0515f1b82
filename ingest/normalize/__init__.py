"""Stage 3, normalize: an ordered chain of small named rules (markdown-it-py's Ruler).

Each rule is a function ``(lines, ctx) -> lines`` in a module of its own, with fixture tests
in ``tests/fixtures/normalize/<rule>.txt``. A preset per kind of source picks the rules; the
manifest says which preset a document (or translation block) uses. Every change a rule makes
is recorded in ``ctx.repairs`` so a translator can audit it.
"""

from __future__ import annotations

from ..records import DocText, Line, Repair
from .base import Context, Rule
from .depth_prefix import strip_depth_prefix
from .drop_lines import drop_listed_lines
from .filler_words import remove_filler_words
from .glued_headings import split_camel_words, split_glued_headings
from .glued_punctuation import space_glued_punctuation
from .glued_rule_numbers import split_glued_rule_numbers
from .glued_sentences import space_glued_sentences, split_glued_sentences
from .glued_words import split_glued_words
from .linebreak_leftovers import split_linebreak_leftovers
from .title_preview import drop_title_preview
from .unicode_nfc import unicode_nfc
from .vni_mojibake import repair_vni_mojibake

# Every rule, in the order it runs when a preset enables it.
RULES: dict[str, Rule] = {
    "unicode_nfc": unicode_nfc,
    "strip_depth_prefix": strip_depth_prefix,
    "drop_title_preview": drop_title_preview,
    "drop_listed_lines": drop_listed_lines,
    "split_glued_rule_numbers": split_glued_rule_numbers,
    "repair_vni_mojibake": repair_vni_mojibake,
    "split_linebreak_leftovers": split_linebreak_leftovers,
    "remove_filler_words": remove_filler_words,
    "split_glued_sentences": split_glued_sentences,
    "space_glued_sentences": space_glued_sentences,
    "split_glued_headings": split_glued_headings,
    "split_camel_words": split_camel_words,
    "split_glued_words": split_glued_words,
    "space_glued_punctuation": space_glued_punctuation,
}

_COMMON = (
    "unicode_nfc",
    "drop_title_preview",
    "drop_listed_lines",
    "split_glued_rule_numbers",
    "repair_vni_mojibake",
)
PRESETS: dict[str, tuple[str, ...]] = {
    # Text typed or exported by people: only encoding-level and layout repairs.
    "clean": _COMMON,
    # Machine translation output: lost line breaks, glued sentences, filler words.
    "machine_translation": _COMMON
    + (
        "split_linebreak_leftovers",
        "remove_filler_words",
        "split_glued_sentences",
        "split_glued_headings",
        "split_camel_words",
    ),
    # Text extracted from a PDF: depth markers and words glued at line joins.
    "pdf_extraction": ("unicode_nfc", "strip_depth_prefix")
    + _COMMON[1:]
    + ("space_glued_sentences", "split_camel_words", "split_glued_words")
    + ("space_glued_punctuation",),
}


def rules_for(preset: str) -> list[tuple[str, Rule]]:
    names = set(PRESETS[preset])
    return [(name, fn) for name, fn in RULES.items() if name in names]


def normalize(
    doc: DocText, vocabulary: frozenset[str] = frozenset(), bigrams: frozenset[str] = frozenset()
) -> tuple[list[Line], list[Repair]]:
    """Run the document's preset over its lines; return the new lines and the repairs made."""
    ctx = Context(doc=doc, vocabulary=vocabulary, bigrams=bigrams)
    lines = list(doc.lines)
    for _, rule in rules_for(doc.preset):
        lines = rule(lines, ctx)
    return lines, ctx.repairs
