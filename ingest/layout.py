"""How a rulebook is laid out, read from its own lines.

* **Numbering scheme**: comprehensive rules ``100. General`` / ``100.1.`` / ``100.1a`` /
  ``100.1a-i`` ("cr"), dotted ``1. Chapter`` / ``1.0. Section`` / ``1.0.1`` / ``1.0.1a``
  ("dotted"), ``Article 3.2.1`` ("article"), ``§4.2.1`` ("section") or none ("plain": headings by
  layout, ``1.`` lines are list items). The scheme with the most numbered lines wins, when
  they are enough of the document (data/layout.toml [numbering]); the manifest's
  ``numbering = "cr"`` only confirms it.
* **Numbers**: which numbered lines are headings (a number of few parts whose text reads as a
  title) and which are rules; a rule's parent is its number without its last part
  (``100.1a-ii`` → ``100.1a`` → ``100.1``), whatever the scheme.
* **Chapters**: ``1. Game Concepts`` above ``100. General`` is a chapter when the next section's
  number starts with it (``100 // 100 == 1``); without such lines, ``100.`` sections of a
  comprehensive rulebook are chapters themselves.
* **Sections with a role**: a table of contents, a glossary, credits and a summary of changes,
  by their names.
* **Cross-references**: "see rule 702.19", "section 102", "[1.3.2a]", "§5.2", "Article 4".

Everything a person might need to adjust (words in several languages, thresholds) is in
data/layout.toml.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .text import fold, unspaced

_FINAL_PUNCT = ".,;:!?…。，；：！？"
_HAS_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)


@cache
def layout_data() -> dict[str, Any]:
    text = resources.files("ingest").joinpath("data/layout.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def is_title_like(text: str) -> bool:
    """A short line without final punctuation that starts like a title: a heading by layout."""
    words = text.split()
    return (
        len(text) <= 80
        and 1 <= len(words) <= 10
        and text[-1] not in _FINAL_PUNCT
        # "Proceed to battle (explained later.)": a sentence that ends inside its parenthesis.
        and not (text[-1] in ")）" and len(text) > 1 and text[-2] in _FINAL_PUNCT)
        and bool(_HAS_LETTER.search(text[0]) or text[0] in '"“(' or text[0].isdigit())
        # Scripts without letter case (Chinese, Japanese) start a title with any letter.
        and (text[0].isupper() or not text[0].isalpha() or unspaced(text[0]))
    )


# ---- numbers ------------------------------------------------------------------------------
def number_parts(number: str) -> list[str]:
    """``100.1a-ii`` → ``["100", "1", "a", "ii"]``."""
    return re.findall(r"\d+|[a-z]+", number)


def parent_number(number: str) -> str:
    """The number one level up: ``100.1a-ii`` → ``100.1a`` → ``100.1`` → ``100`` → ``""``."""
    return (
        re.sub(r"(?:-[ivxl]+|[a-z]+|\.\d+)$", "", number)
        if "." in number or (re.search(r"\d[a-z]+$", number))
        else ""
    )


@dataclass(frozen=True)
class Scheme:
    """A numbering scheme: how its numbered lines look and which of them may be headings."""

    name: str
    line: re.Pattern[str]  # groups: num, text
    heading_parts: int  # a number of at most this many parts is a heading when it reads as one
    reference: str  # a number of this scheme inside a cross-reference (a regex)

    def match(self, text: str) -> re.Match[str] | None:
        return self.line.match(text)


def _words_alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def schemes() -> dict[str, Scheme]:
    data = layout_data()["numbering"]
    article = _words_alternation(data["article_words"])
    return {
        "cr": Scheme(
            "cr",
            re.compile(
                r"^(?P<num>\d{2,4}(?:\.\d+(?:[a-z]+)?(?:-[ivxl]+)?)?)\.?(?:\s+(?P<text>\S.*)|$)"
            ),
            1,
            r"\d{1,4}(?:\.\d+[a-z]{0,2}(?:-[ivxl]+)?)?",
        ),
        "dotted": Scheme(
            "dotted",
            re.compile(r"^(?P<num>\d{1,2}(?:\.\d{1,3}){0,3}[a-z]?)\.?(?:\s+(?P<text>\S.*)|$)"),
            2,
            r"\d{1,2}(?:\.\d{1,3}){0,3}[a-z]?",
        ),
        "article": Scheme(
            "article",
            re.compile(
                rf"^(?:{article})\s*(?P<num>\d+(?:\.\d+)*)\.?(?:\s+(?P<text>\S.*)|$)",
                re.IGNORECASE,
            ),
            1,
            r"\d+(?:\.\d+)*",
        ),
        "section": Scheme(
            "section",
            re.compile(r"^§\s*(?P<num>\d+(?:\.\d+)*)\.?(?:\s+(?P<text>\S.*)|$)"),
            1,
            r"\d+(?:\.\d+)*",
        ),
    }


def _counts_as_rule(scheme: Scheme, m: re.Match[str]) -> bool:
    """Whether a matched line is evidence of the scheme (a rule, not a lone number)."""
    number, text = m.group("num"), (m.group("text") or "")
    numeric = re.findall(r"\d+", number)
    if scheme.name == "cr":
        return len(numeric) >= 2 and len(numeric[0]) >= 3
    if scheme.name == "dotted":
        return len(numeric) >= 3 or (len(numeric) == 2 and bool(text) and not is_title_like(text))
    return bool(text)


def detect_numbering(texts: list[str], declared: str = "") -> str:
    """The numbering scheme of a document's (stripped, non-empty) lines; "plain" for none.

    ``declared`` is the manifest's hint ("cr"): it is taken when any line is numbered so, but
    cannot turn an unnumbered document into a numbered one.
    """
    data = layout_data()["numbering"]
    counts = {name: 0 for name in schemes()}
    declared_lines = 0  # lines numbered in the declared scheme, titles included
    for text in texts:
        for name, scheme in schemes().items():
            m = scheme.match(text)
            if m and _counts_as_rule(scheme, m):
                counts[name] += 1
            if m and name == declared and len(number_parts(m.group("num"))) >= 2:
                declared_lines += 1
    if declared in counts and (counts[declared] or declared_lines):
        return declared
    best = max(counts, key=lambda k: counts[k])
    enough = counts[best] >= data["min_lines"] and counts[best] >= data["min_share"] * len(texts)
    return best if enough else "plain"


# ---- sections with a role, divisions -----------------------------------------------------
def _name_key(text: str) -> str:
    return " ".join(fold(text).strip().rstrip(":：").split())


@cache
def _roles() -> dict[str, str]:
    return {
        _name_key(name): role for role, names in layout_data()["sections"].items() for name in names
    }


def section_role(title: str, anchor: str = "") -> str:
    """ "contents", "glossary", "credits" or "changes" for a heading of that name (or markup
    anchor)."""
    role = _roles().get(_name_key(title), "")
    if role:
        return role
    for name in anchor.split():
        if name.lower() in ("contents", "toc", "table-of-contents", "glossary", "credits"):
            return {"toc": "contents", "table-of-contents": "contents"}.get(
                name.lower(), name.lower()
            )
    return ""


@cache
def _division() -> re.Pattern[str]:
    data = layout_data()["numbering"]
    words = _words_alternation(data["division_words"])
    patterns = [rf"(?:{words})\s+[0-9IVXLCivxlc]+\b", *data["division_patterns"]]
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


def is_division(text: str) -> bool:
    """ "Part I: The Moor", "Chapter 3", "第三章": an unnumbered heading of a numbered text."""
    return bool(_division().match(text)) and len(text) <= 100


def division_number(text: str) -> tuple[str, str] | None:
    """``("2", "RULE ERRORS")`` for "SECTION 2: RULE ERRORS" (or "第2节：规则错误"): the arabic
    number a division heading names and the title after it; None without one."""
    m = _division().match(text)
    if not m or len(text) > 100:
        return None
    digits = re.search(r"\d+", m.group())
    if not digits:
        return None
    return digits.group(), text[m.end() :].strip(" :：.-–—")


# ---- glossary entries --------------------------------------------------------------------
def split_entry(text: str) -> tuple[str, str] | None:
    """``(term, definition)`` of a one-line glossary entry ("Breath — A Caller's life...")."""
    data = layout_data()["glossary"]
    best: tuple[int, str] | None = None
    for sep in data["separators"]:
        at = text.find(sep)
        if at > 0 and (best is None or at < best[0]):
            best = (at, sep)
    if best is None:
        return None
    at, sep = best
    term, definition = text[:at].strip(), text[at + len(sep) :].strip()
    if (
        term
        and definition
        and len(term) <= data["max_term_chars"]
        and len(term.split()) <= data["max_term_words"]
        and term[-1] not in _FINAL_PUNCT
    ):
        return term, definition
    return None


def is_term_line(text: str) -> bool:
    """A line that can be a glossary term on its own (its definition on the next line)."""
    data = layout_data()["glossary"]
    return (
        len(text) <= data["max_term_chars"]
        and len(text.split()) <= data["max_term_words"]
        and text[-1] not in _FINAL_PUNCT
    )


# ---- cross-references --------------------------------------------------------------------
@cache
def reference_pattern(scheme_name: str) -> re.Pattern[str] | None:
    """Cross-references in text of a document numbered in ``scheme_name`` (None for plain):
    each named group holds the number(s) of one form."""
    scheme = schemes().get(scheme_name)
    if scheme is None:
        return None
    data = layout_data()
    num = f"(?:{scheme.reference})"
    # Bracketed and parenthesised numbers must have a dot: "[3]" is a cost, "[3.2]" a rule.
    dotted = rf"(?=\d+\.\d){num}"
    joined = _words_alternation(data["references"]["list_words"])
    many = rf"{num}(?:\s*(?:{joined})\s*{num})*"
    cues = _words_alternation(data["references"]["cue_words"] + data["numbering"]["article_words"])
    forms = [rf"(?<![\w.])(?:{cues})\s*(?P<cue>{many})"]
    for i, form in enumerate(data["references"]["patterns"]):
        inner = dotted if form.startswith(("\\[", "\\(")) else num
        forms.append(form.replace("{num}", f"(?P<p{i}>{inner})"))
    return re.compile("|".join(f"(?:{f})" for f in forms), re.IGNORECASE)


def reference_numbers(scheme_name: str, text: str) -> list[tuple[str, int, int]]:
    """Every number a cross-reference of ``text`` names, with where it stands."""
    pattern = reference_pattern(scheme_name)
    if pattern is None:
        return []
    number = re.compile(schemes()[scheme_name].reference)
    out: list[tuple[str, int, int]] = []
    for m in pattern.finditer(text):
        for name, value in m.groupdict().items():
            if value is None:
                continue
            start = m.start(name)
            for n in number.finditer(value):
                out.append((n.group(), start + n.start(), start + n.end()))
    return out
