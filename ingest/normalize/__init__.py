"""Stage 3, normalize: an ordered chain of small named rules (markdown-it-py's Ruler).

Each rule is a function ``(lines, ctx) -> lines`` in a module of its own, with fixture tests
in ``tests/fixtures/normalize/<rule>.txt``. A preset per kind of source picks the rules; the
manifest says which preset a document (or translation block) uses. Every change a rule makes
is recorded in ``ctx.repairs`` so a translator can audit it.
"""

from __future__ import annotations

from ..records import DocText, Line, Repair
from .base import Context, Rule
from .cjk_wrapped import join_cjk_wrapped_lines
from .depth_prefix import strip_depth_prefix
from .drop_lines import drop_listed_lines
from .filler_words import remove_filler_words
from .glued_headings import split_camel_words, split_glued_headings
from .glued_number_text import space_after_rule_number
from .glued_punctuation import space_glued_punctuation
from .glued_rule_numbers import split_glued_rule_numbers
from .glued_sentences import space_glued_sentences, split_glued_sentences
from .glued_words import split_glued_words
from .hyphenated_words import join_hyphenated_words
from .icon_glyphs import map_icon_glyphs
from .linebreak_leftovers import split_linebreak_leftovers
from .page_furniture import drop_page_furniture
from .title_preview import drop_title_preview
from .unicode_nfc import unicode_nfc
from .vni_mojibake import repair_vni_mojibake
from .wrapped_numbers import join_wrapped_numbers

# Every rule, in the order it runs when a preset enables it.
RULES: dict[str, Rule] = {
    "unicode_nfc": unicode_nfc,
    "strip_depth_prefix": strip_depth_prefix,
    "drop_title_preview": drop_title_preview,
    "drop_listed_lines": drop_listed_lines,
    "drop_page_furniture": drop_page_furniture,
    "split_glued_rule_numbers": split_glued_rule_numbers,
    "space_after_rule_number": space_after_rule_number,
    "join_wrapped_numbers": join_wrapped_numbers,
    "join_hyphenated_words": join_hyphenated_words,
    "join_cjk_wrapped_lines": join_cjk_wrapped_lines,
    "map_icon_glyphs": map_icon_glyphs,
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
# What a PDF's pages leave in the text, whichever tool extracted it.
_PAGES = (
    "drop_page_furniture",
    "space_after_rule_number",
    "join_wrapped_numbers",
    "join_hyphenated_words",
    "join_cjk_wrapped_lines",
    "map_icon_glyphs",
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
    # Text extracted from a PDF by a tool that lost its line breaks (fow-cr-8.01): depth
    # markers, words and sentences glued where the PDF's lines were joined.
    "pdf_extraction": ("unicode_nfc", "strip_depth_prefix")
    + _COMMON[1:]
    + _PAGES
    + ("space_glued_sentences", "split_camel_words", "split_glued_words")
    + ("space_glued_punctuation",),
    # Text extracted from a PDF with its page layout kept (one text line per printed line):
    # page footers and headers, lines wrapped at the margin (a wrapped cross-reference,
    # a hyphen at the line's end, Chinese wrapped mid-word), numbers run into their text. Its
    # words were never glued, so the glued-word splitters stay out: they would cut the game's
    # own words ("Willpower", "Takeback", card names) that no dictionary knows.
    "pdf_layout": _COMMON + _PAGES,
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
