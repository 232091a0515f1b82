"""Rule text to HTML for the website: Markdown with raw HTML off, plus links between rules.

Rule text comes from scraped pages, PDF extraction and machine translation, so it is untrusted:
a rule may hold ``<script>`` or ``<img onerror>``. markdown-it-py parses it with raw HTML
disabled and its renderer escapes every text and attribute. Links to other rules and to cards
are inserted as link tokens into the parsed token stream, never by editing the HTML string, so
they cannot open a hole in the escaping.

Only this module, the templates and ingest.worddiff's ``to_html`` produce HTML; the pages
return plain data. Word diffs are page data as ingest.worddiff segments (``{"op", "text"}``);
``segments_html`` renders them, escaped, for the templates (the ``wdiff_html`` filter).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml as escape_html
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import Markup, escape

from ingest import worddiff
from ingest.text import CJK_RUN

# A rule number cited in text: 105.3a, 1010.1a. Not a date (2005.11.01) or a decimal (8.0).
RULE_NUMBER = re.compile(r"(?<![\w.])(\d{3,4}\.\d+[a-z]?)(?!\w|\.\d)")

# Block and inline rules that make no sense for rule text, or would fetch or link outside the
# site: no images (an untrusted text must not make the browser load anything), no links
# (javascript: or not), no headings or code blocks from stray '#' or indentation.
_DISABLED = [
    "image",
    "link",
    "autolink",
    "html_inline",
    "html_block",
    "code",
    "fence",
    "heading",
    "lheading",
    "hr",
    "reference",
]


def cited_numbers(text: str) -> list[str]:
    """Rule numbers that ``text`` cites, in order, without repeats (for looking them up)."""
    return list(dict.fromkeys(RULE_NUMBER.findall(text)))


def card_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for the card names to link in a text: whole words, any case, the longest
    name first where names overlap ("D.D. Warrior Lady" before "D.D. Warrior").

    Any case, because the rules write "honest" and "Honest", and machine translations
    capitalize at random; the names are only those the build found in that rule (its
    ``ruling_cards``), so a common word is never taken for a card elsewhere.
    """
    unique = sorted({n for n in names if n.strip()}, key=lambda n: (-len(n), n))
    if not unique:
        return None
    alternation = "|".join(re.escape(n) for n in unique)
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)


def segments_html(segments: Iterable[Mapping[str, str]]) -> Markup:
    """A word diff of page data (``{"op", "text"}`` segments) as HTML for a template.

    Marked safe for Jinja only because ingest.worddiff's ``to_html`` escapes every text."""
    return Markup(worddiff.to_html(worddiff.from_dicts(segments)))


def _link(url: str, label: str, css: str) -> list[Token]:
    opening = Token("link_open", "a", 1, attrs={"href": url, "class": css})
    text = Token("text", "", 0, content=label)
    return [opening, text, Token("link_close", "a", -1)]


def _split(
    content: str,
    numbers: Mapping[str, str],
    cards: Mapping[str, str],
    pattern: re.Pattern[str] | None,
    terms: Mapping[str, str] | None = None,
    term_pattern: TermMatcher | None = None,
    linked: set[str] | None = None,
) -> Iterator[Token]:
    """Text tokens for ``content``, with known rule numbers, card names and glossary terms as
    links.

    ``cards`` is keyed by case-folded name, ``terms`` by the name as written; ``pattern`` and
    ``term_pattern`` find those names (card_pattern). A term is linked once per rule
    (``linked`` holds the term pages already linked): a glossary link on every "Graveyard"
    would drown the text.
    """
    found: list[tuple[int, int, int, str, str, str]] = []
    for m in RULE_NUMBER.finditer(content):
        if m.group(1) in numbers:
            found.append((m.start(1), 0, m.end(1), numbers[m.group(1)], m.group(1), "rule-ref"))
    for m in pattern.finditer(content) if pattern else ():
        url = cards.get(m.group().casefold())
        if url:
            found.append((m.start(), 1, m.end(), url, m.group(), "card-ref"))
    for m in term_pattern.finditer(content) if term_pattern and terms else ():
        url = terms.get(m.group()) or terms.get(m.group().casefold())  # type: ignore[union-attr]
        if url:
            found.append((m.start(), 2, m.end(), url, m.group(), "term-ref"))
    position = 0
    for start, _, end, url, label, css in sorted(found):
        if css == "term-ref" and linked is not None:
            if url in linked or start < position:
                continue
            linked.add(url)
        if start < position:  # overlapping matches: the first one wins
            continue
        if start > position:
            yield Token("text", "", 0, content=content[position:start])
        yield from _link(url, label, css)
        position = end
    if position < len(content):
        yield Token("text", "", 0, content=content[position:])


def _add_links(state: StateCore) -> None:
    """Core rule: split text tokens around cited rule numbers and card names (see _split)."""
    numbers = state.env.get("numbers") or {}
    cards = state.env.get("cards") or {}
    pattern = state.env.get("card_pattern")
    terms = state.env.get("terms") or {}
    term_pattern = state.env.get("term_pattern")
    linked: set[str] = set()
    if not numbers and not cards and not terms:
        return
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        for token in block.children:
            if token.type == "text":
                children.extend(
                    _split(token.content, numbers, cards, pattern, terms, term_pattern, linked)
                )
            else:
                children.append(token)
        block.children = children


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).disable(_DISABLED)
    # After text_join, so each run of text is one token.
    md.core.ruler.push("kb_links", _add_links)
    return md


# Built once: construction costs far more than rendering one rule, and render() keeps its
# state per call, so the threads of the web server can share it.
_MD = _parser()


_WORD = re.compile(r"\w+")


class TermMatcher:
    """Finds glossary terms in a text. Terms of one word are matched as the glossary writes
    them, capitals included ("Will", Force of Will's resource, is a term; "will" is not);
    terms of several words in any case (the rulebooks write "Chase Area" and "chase area").

    A text is first split into words: only the names whose first word it holds are looked
    for, with a pattern of those few (cached), instead of one alternation of every term at
    every place of every text (the cost of a long page)."""

    def __init__(self, names: list[str]) -> None:
        self.always: list[str] = []
        self.by_first: dict[str, list[str]] = {}
        for name in names:
            first = _WORD.match(name)
            if first is None or CJK_RUN.match(name):  # Chinese writes no spaces
                self.always.append(name)
            else:
                self.by_first.setdefault(first.group().casefold(), []).append(name)

    def finditer(self, content: str) -> Iterator[re.Match[str]]:
        found = {w.casefold() for w in _WORD.findall(content)} & self.by_first.keys()
        candidates = self.always + [n for w in found for n in self.by_first[w]]
        if not candidates:
            return iter(())
        return _names_pattern(tuple(sorted(candidates))).finditer(content)


@lru_cache(maxsize=4096)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    parts = [
        f"(?i:{re.escape(n)})" if len(n.split()) > 1 else re.escape(n)
        for n in sorted(names, key=lambda n: (-len(n), n))
    ]
    return re.compile(rf"(?<!\w)(?:{'|'.join(parts)})(?!\w)")


TermIndex = tuple[dict[str, str], "TermMatcher | None"]


def _term_index(terms: Mapping[str, str] | None) -> TermIndex:
    """The glossary terms to link: name (case-folded when of several words) -> URL, and the
    matcher that finds them (TermMatcher)."""
    names: dict[str, str] = {}
    written = []
    for name, url in (terms or {}).items():
        if not name.strip():
            continue
        several = len(name.split()) > 1
        names.setdefault(name.casefold() if several else name, url)
        written.append(name)
    return names, (TermMatcher(written) if written else None)


def _render(
    text: str,
    numbers: Mapping[str, str] | None,
    cards: Mapping[str, str] | None,
    term_index: TermIndex | None,
) -> str:
    folded = {name.casefold(): url for name, url in (cards or {}).items()}
    folded_terms, term_pattern = term_index or ({}, None)
    env = {
        "numbers": numbers or {},
        "cards": folded,
        "card_pattern": card_pattern(folded),
        "terms": folded_terms,
        "term_pattern": term_pattern,
    }
    if is_plain(text):
        return _plain_html(text, env)
    return _MD.render(text, env)


# Text Markdown reads as one plain paragraph: no character that could start inline syntax or
# an entity, no line that could start a list or a quote, no hard break, no blank line.
# (Brackets and angle brackets are plain here: links, autolinks and raw HTML are disabled.)
_SYNTAX = set("\\`*_!&~|#\t\r\x00")
# A line may start with a letter, a digit, a quote or a parenthesis.
_LINE_START = set("\"'(“‘")
_LIST_START = re.compile(r"\d{1,9}[.)](?:\s|$)")


def is_plain(text: str) -> bool:
    """True when markdown-it would render ``text`` as one paragraph of the same text: most
    rules. Those skip the parser (the biggest cost of a long page); ``_plain_html`` gives
    the very same HTML, which tests/test_site_judge.py checks on every rule of the corpus."""
    if not text or _SYNTAX.intersection(text) or "\n\n" in text:
        return False
    for line in text.split("\n"):
        first = line[:1]
        if not first or first.isspace() or line[-1].isspace():
            return False
        if not (first.isalnum() or first in _LINE_START):
            return False
        if _LIST_START.match(line):
            return False
    return True


def _plain_html(text: str, env: Mapping[str, Any]) -> str:
    """One paragraph, every text escaped, the links of _split: what markdown-it renders for a
    plain text (is_plain), without its parser."""
    parts = ["<p>"]
    linked: set[str] = set()
    for token in _split(
        text,
        env["numbers"],
        env["cards"],
        env["card_pattern"],
        env["terms"],
        env["term_pattern"],
        linked,
    ):
        if token.type == "text":
            parts.append(escape_html(token.content))
        elif token.type == "link_open":
            href, css = token.attrs["href"], token.attrs["class"]
            parts.append(f'<a href="{escape_html(str(href))}" class="{escape_html(str(css))}">')
        else:
            parts.append("</a>")
    parts.append("</p>\n")
    return "".join(parts)


def rule_html(
    text: str,
    numbers: Mapping[str, str] | None = None,
    cards: Mapping[str, str] | None = None,
    terms: Mapping[str, str] | None = None,
) -> str:
    """Safe HTML for one rule's text.

    ``numbers`` maps a rule number cited in the text to the URL of that rule, ``cards`` a card
    name (as any alias of the card is written) to the URL of its page, ``terms`` a glossary
    term (as any rendering writes it) to its glossary page; only those are linked, so a number
    that is not a rule of the document (a date, a page number) stays plain text.
    """
    return _render(text, numbers, cards, _term_index(terms) if terms else None)


def rules_html(
    rules: Iterable[Mapping[str, Any]],
    numbers: Mapping[str, str] | None = None,
    cards: Mapping[str, Mapping[str, str]] | None = None,
    terms: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Markup]:
    """Rule id -> HTML of its text, for a template.

    ``cards`` maps a rule id to the card names to link in that rule (see ``card_names``),
    ``terms`` a game to the glossary terms to link in its rules (kb.web.pages.glossary's
    ``term_links``; a rule without a ``game`` links none). Marked safe for Jinja only because
    ``rule_html`` built it from escaped tokens; any other string must go through the
    template's autoescaping.
    """
    cards = cards or {}
    indexes = {game: _term_index(names) for game, names in (terms or {}).items()}
    return {
        r["id"]: Markup(
            _render(r["text"], numbers, cards.get(r["id"]), indexes.get(r.get("game") or ""))
        )
        for r in rules
    }


def card_names(mentions: Mapping[str, Iterable[Mapping[str, Any]]]) -> dict[str, dict[str, str]]:
    """Rule id -> {name: card URL} from the card mentions of kb.pages (``card_links``): every
    name each mentioned card goes by, so the text links it as it is written."""
    return {
        rule_id: {name: card["url"] for card in cards for name in card["names"]}
        for rule_id, cards in mentions.items()
    }


# A quoted stretch in a sentence: "cuộc sống điểm", “Honest”.
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”')


def quoted_lang(text: str, language: Any) -> Markup:
    """Escaped ``text`` with each quoted stretch in another language marked with its ``lang``
    (a translation check's detail quotes Vietnamese renderings in an English sentence);
    ``language`` says what language a stretch is written in
    (kb.lexicon.phrasebook.text_language)."""
    out, position = [], 0
    for m in _QUOTED.finditer(text):
        quoted = m.group(1) or m.group(2)
        lang = language(quoted)
        if lang == "en":
            continue
        out.append(escape(text[position : m.start()]))
        out.append(Markup('<span lang="{}">{}</span>').format(lang, m.group()))
        position = m.end()
    out.append(escape(text[position:]))
    return Markup("").join(out)


def article_openings(
    rules: Iterable[Mapping[str, Any]], bodies: Mapping[str, Markup]
) -> dict[str, Markup]:
    """Rule id -> the opening of its ``<article>`` on a long page (whole documents): anchor,
    permalink and rendered text, built here in one string instead of by the template, whose
    per-rule cost dominates a page of a thousand rules. The template closes the article
    after what it adds (kb.web.pages.extras)."""
    out = {}
    for r in rules:
        label = r["number"] or "¶"
        out[r["id"]] = Markup(
            f'<article class="rule kind-{escape(r["kind"])} depth-{escape(r["depth"])}"'
            f' id="{escape(r["anchor"])}"><div class="rule-body" lang="{escape(r["lang"])}">'
            f'<a class="permalink" href="{escape(r["url"])}">{escape(label)}</a> '
            f"{bodies[r['id']]}</div>"
        )
    return out
