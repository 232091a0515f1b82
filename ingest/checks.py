"""Translation checks on aligned rules, in the spirit of Xbench, Okapi CheckMate and pofilter.

Run by ``align_corpus`` on its links, so every finding can point at the link and the rule it
concerns. Each check answers a question a translator or reviewer asks of a machine
translation, and reports once per place to fix, not once per symptom:

``missing``             a source rule with no translation (a 1-0 link); ``info`` when the
                        variant has the translation as a section heading instead of a rule
``extra``               a translated rule with no source (a 0-1 link that is not a heading)
``number-mismatch``     a number of the source missing from the translation, or the reverse
``untranslated``        source-language words left in the translation (one finding per link,
                        listing them); ``info`` when the only ones are glossary terms whose
                        preferred rendering is the English word ("Chase Area")
``term-non-preferred``  a glossary term always rendered one way, not the preferred one
``term-inconsistent``   a glossary term rendered several ways within one variant
``variant-disagreement`` two translations of the same source rule disagree on a number, or on
                        a term that one of them renders the preferred way

Terminology is grounded in the alignment: a rendering counts only where the aligned source
rule has the English term, so "kích hoạt" counts as a rendering of "trigger" only where the
English says "trigger". Terminology findings are made per variant and term (with a count and
the first place), not per occurrence: "card" rendered "thẻ" is one finding, not sixty.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

from . import spill
from .glossary import Glossary, Rendering
from .records import Check, DocumentResult, Link, Rule
from .text import LETTER_WORD, plural_key

DETAIL_QUOTE = 60
"""Characters of a rule quoted in a finding's detail."""
MERGED_BELOW = 0.5
"""Score of a 1-0 / 0-1 link below which its rule is probably merged into a neighbour."""
MOSTLY_SOURCE = 0.75
"""Share of a translation's words that are source words above which it is "left as is"."""

# A number with its sign; a hyphen is a minus only after a non-word character ("J-1" is not).
_NUMBER = re.compile(r"(?:(?<!\w)[+\-−])?\d+(?:[.,]\d+)*")
_WORD = LETTER_WORD
_QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”')


@dataclass(frozen=True)
class CheckData:
    """The curated lists of data/checks.toml."""

    native_words: dict[str, frozenset[str]]
    keep: frozenset[str]


@cache
def load_check_data() -> CheckData:
    text = resources.files("ingest").joinpath("data/checks.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return CheckData(
        native_words={
            lang: frozenset(w.lower() for w in words)
            for lang, words in data.get("native_words", {}).items()
        },
        keep=frozenset(w.lower() for w in data.get("keep", {}).get("words", [])),
    )


@dataclass
class _Corpus:
    """What the checks need to know about the documents, looked up by id."""

    rules: Mapping[str, Rule]
    game: dict[str, str]
    lang: dict[str, str]
    variant: dict[str, str]
    glossary: Glossary
    data: CheckData
    _forms: dict[str, list[Rendering]] = field(default_factory=dict)
    _usage: dict[tuple[str, str], dict[int, dict[str, Rendering]]] | None = None

    def text(self, ids: Iterable[str]) -> str:
        return " ".join(self.rules[i].text for i in ids)

    def forms(self, document: str) -> list[Rendering]:
        """Glossary forms to look for in a document: English terms, or their renderings."""
        if document not in self._forms:
            game, lang = self.game[document], self.lang[document]
            self._forms[document] = glossary_forms(self.glossary, lang, game)
        return self._forms[document]


def quote(text: str) -> str:
    text = " ".join(text.split())
    return f'"{text[: DETAIL_QUOTE - 1]}…"' if len(text) > DETAIL_QUOTE else f'"{text}"'


def numbers(text: str) -> Counter[str]:
    """The numbers of a text with their signs ("+5000", "-1", "4000"), decimal commas as dots."""
    return Counter(n.replace(",", ".").replace("−", "-") for n in _NUMBER.findall(text))


def glossary_forms(glossary: Glossary, lang: str, game: str) -> list[Rendering]:
    """What stands for glossary terms in a text of ``lang``: the English terms themselves, or
    their renderings in that language."""
    return glossary.english_forms(game) if lang == "en" else glossary.renderings(lang, game=game)


def term_ids(glossary: Glossary, text: str, forms: list[Rendering]) -> list[str]:
    """Ids of the glossary terms whose ``forms`` occur in ``text``, one per occurrence.

    A capitalised one-word English term ("Will") counts only where the text capitalises it
    too, so the modal verb "will" is not taken for the game term.
    """
    found = []
    for rendering, start, _end in glossary.find(text, forms):
        if (
            rendering.lang == "en"
            and " " not in rendering.text
            and rendering.text[:1].isupper()
            and text[start : start + 1].islower()
        ):
            continue
        found.append(rendering.term)
    return found


def terms_in_source(corpus: _Corpus, document: str, text: str) -> Counter[str]:
    """Glossary terms a source text uses, with their counts."""
    forms = corpus.forms(document)
    return Counter(term_ids(corpus.glossary, text, forms))


def renderings_in_target(corpus: _Corpus, link: Link) -> list[tuple[Rendering, str, int, int]]:
    """(rendering, target rule id, start, end) of every glossary rendering in the target."""
    forms = corpus.forms(link.target_document)
    out = []
    for rule_id in link.target_ids:
        text = corpus.rules[rule_id].text
        out += [(r, rule_id, s, e) for r, s, e in corpus.glossary.find(text, forms)]
    return out


def check_gaps(corpus: _Corpus, links: list[Link]) -> list[Check]:
    """1-0 and 0-1 links. A low link score means the rule's words reappear in a neighbouring
    sentence of the other side: probably merged into it rather than lost, so only a warning."""
    out = []
    for k, link in enumerate(links):
        if link.source_ids and not link.target_ids:
            text = quote(corpus.text(link.source_ids))
            if link.method == "dp:heading":
                severity, detail = "info", f"translated only as a section heading: {text}"
            elif link.score < MERGED_BELOW:
                severity = "warning"
                detail = f"no translation of its own: {text} (probably merged into a neighbour)"
            else:
                severity, detail = "error", f"no translation of {text}"
            out.append(
                Check(link.target_document, k, link.source_ids[0], "missing", severity, detail)
            )
        elif link.target_ids and not link.source_ids and link.method != "dp:heading":
            text = quote(corpus.text(link.target_ids))
            if link.score < MERGED_BELOW:
                severity = "info"
                detail = f"no source rule of its own: {text} (probably split from a neighbour)"
            else:
                severity, detail = "warning", f"no source rule for {text}"
            out.append(
                Check(link.target_document, k, link.target_ids[0], "extra", severity, detail)
            )
    return out


def check_numbers(corpus: _Corpus, links: list[Link]) -> list[Check]:
    """Numbers (with their sign: "+5000" is not "5000") of a link's two sides that differ."""
    out = []
    for k, link in enumerate(links):
        if not (link.source_ids and link.target_ids):
            continue
        source = set(numbers(corpus.text(link.source_ids)))
        target_by_rule = {t: set(numbers(corpus.rules[t].text)) for t in link.target_ids}
        target = set().union(*target_by_rule.values())
        lost, added = sorted(source - target), sorted(target - source)
        if not lost and not added:
            continue
        parts = []
        if lost:
            parts.append(f"source has {', '.join(lost)}")
        if added:
            parts.append(f"translation has {', '.join(added)}")
        rule = next((t for t, ns in target_by_rule.items() if ns - source), link.target_ids[0])
        out.append(
            Check(
                link.target_document,
                k,
                rule,
                "number-mismatch",
                "error",
                "numbers differ: " + "; ".join(parts),
            )
        )
    return out


def _quoted_words(text: str) -> set[str]:
    quoted = (m.group(1) if m.group(1) is not None else m.group(2) for m in _QUOTED.finditer(text))
    return {plural_key(w) for q in quoted for w in _WORD.findall(q)}


def _phrases(text: str, spans: list[tuple[int, int]]) -> list[str]:
    """Adjacent flagged words joined into phrases ("Chase Area"), in order, without repeats."""
    phrases: list[str] = []
    start = end = -1
    for s, e in sorted(spans):
        if start >= 0 and text[end:s].strip(" -") == "":
            end = e
            continue
        if start >= 0:
            phrases.append(text[start:end])
        start, end = s, e
    if start >= 0:
        phrases.append(text[start:end])
    return list(dict.fromkeys(phrases))


@dataclass
class _SourceWords:
    """What counts as a source word left in a translation, for one link."""

    words: set[str]  # folded words of the source text
    exempt: set[str]  # words quoted in the source: names, kept as they are
    native: frozenset[str]  # target-language words spelled like source words
    keep: frozenset[str]  # names listed in data/checks.toml

    def scan(self, text: str, kept: list[tuple[int, int]]) -> tuple[list, list, int, int]:
        """(spans to report, spans the glossary keeps, words, words that are source words)."""
        flagged, preferred = [], []
        total = from_source = 0
        for m in _WORD.finditer(text):
            word = m.group()
            total += 1
            folded = plural_key(word)
            if not word.isascii() or folded not in self.words:
                continue
            from_source += 1
            lowered = word.lower()
            if len(word) < 2 or word.isupper() or folded in self.exempt:
                continue  # initials and codes (G, ATK), quoted names
            if lowered in self.keep or lowered in self.native:
                continue
            span = (m.start(), m.end())
            if any(s <= span[0] and span[1] <= e for s, e in kept):
                preferred.append(span)
            else:
                flagged.append(span)
        return flagged, preferred, total, from_source


def check_untranslated(corpus: _Corpus, links: list[Link]) -> list[Check]:
    """Source words left in the translation of each link, one finding per link."""
    out = []
    for k, link in enumerate(links):
        if not (link.source_ids and link.target_ids):
            continue
        source_text = corpus.text(link.source_ids)
        scanner = _SourceWords(
            words={plural_key(w) for w in _WORD.findall(source_text)},
            exempt=_quoted_words(source_text),
            native=corpus.data.native_words.get(corpus.lang[link.target_document], frozenset()),
            keep=corpus.data.keep,
        )
        kept_spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for rendering, rule_id, s, e in renderings_in_target(corpus, link):
            if rendering.preferred:
                kept_spans[rule_id].append((s, e))
        left: list[str] = []
        kept: list[str] = []
        flagged_rules: list[str] = []
        kept_rules: list[str] = []
        words = from_source = 0
        for rule_id in link.target_ids:
            text = corpus.rules[rule_id].text
            flagged, preferred, n, n_source = scanner.scan(text, kept_spans[rule_id])
            words, from_source = words + n, from_source + n_source
            if flagged:
                flagged_rules.append(rule_id)
            if preferred:
                kept_rules.append(rule_id)
            left += _phrases(text, flagged)
            kept += _phrases(text, preferred)
        if not left and not kept:
            continue
        parts = []
        if words and from_source / words >= MOSTLY_SOURCE:
            parts.append("left as it is in the source language")
        if left:
            parts.append("source words left untranslated: " + ", ".join(dict.fromkeys(left)))
        if kept:
            parts.append(
                "kept in the source language as the glossary prefers: "
                + ", ".join(dict.fromkeys(kept))
            )
        out.append(
            Check(
                link.target_document,
                k,
                (flagged_rules or kept_rules)[0],
                "untranslated",
                "warning" if left else "info",
                "; ".join(parts),
            )
        )
    return out


def term_usage(
    corpus: _Corpus, links: list[Link]
) -> dict[tuple[str, str], dict[int, dict[str, Rendering]]]:
    """(variant, term) -> link index -> renderings of that term the link's target uses."""
    if corpus._usage is None:
        corpus._usage = _term_usage(corpus, links)
    return corpus._usage


def _term_usage(
    corpus: _Corpus, links: list[Link]
) -> dict[tuple[str, str], dict[int, dict[str, Rendering]]]:
    usage: dict[tuple[str, str], dict[int, dict[str, Rendering]]] = defaultdict(dict)
    for k, link in enumerate(links):
        if not (link.source_ids and link.target_ids):
            continue
        terms = terms_in_source(corpus, link.source_document, corpus.text(link.source_ids))
        if not terms:
            continue
        for rendering, _rule, _s, _e in renderings_in_target(corpus, link):
            if rendering.term in terms:
                found = usage[(link.target_document, rendering.term)].setdefault(k, {})
                found[rendering.text] = rendering
    return usage


def check_terms(corpus: _Corpus, links: list[Link]) -> list[Check]:
    """One finding per variant and glossary term rendered other than the preferred way:
    ``term-inconsistent`` when several renderings are used, ``term-non-preferred`` when one.
    Counts are of aligned links using the rendering where the source has the term."""
    out = []
    for (variant, term_id), by_link in sorted(term_usage(corpus, links).items()):
        term = corpus.glossary.by_id[term_id]
        preferred = term.preferred(corpus.lang[variant])
        counts: Counter[str] = Counter()
        first: dict[str, int] = {}
        for k, found in sorted(by_link.items()):
            for text in found:
                counts[text] += 1
                first.setdefault(text, k)
        wanted = preferred.text if preferred else None
        others = [t for t in counts if t != wanted]
        if not others:
            continue
        point = min(first[t] for t in others)
        rule = _rule_with(corpus, links[point], others)
        advice = f"; the glossary prefers {quote(wanted)}" if wanted else ""
        if len(counts) > 1:
            ways = ", ".join(f"{quote(t)} ×{n}" for t, n in counts.most_common())
            detail = f"{term.en} rendered {len(counts)} ways in this variant: {ways}{advice}"
            name = "term-inconsistent"
        else:
            ((text, n),) = counts.items()
            detail = f"{term.en} always rendered {quote(text)} (×{n}){advice}"
            name = "term-non-preferred"
        out.append(Check(variant, point, rule, name, "warning", detail, term_id))
    return out


def _rule_with(corpus: _Corpus, link: Link, texts: list[str]) -> str:
    """The first target rule of ``link`` that contains one of ``texts``."""
    lowered = [t.lower() for t in texts]
    for rule_id in link.target_ids:
        body = corpus.rules[rule_id].text.lower()
        if any(t in body for t in lowered):
            return rule_id
    return link.target_ids[0]


def check_variants(corpus: _Corpus, links: list[Link]) -> list[Check]:
    """Two translations of one source rule that disagree on a number or a preferred term."""
    return [c for _first, c in _variant_findings(corpus, links)]


def _variant_findings(corpus: _Corpus, links: list[Link]) -> list[tuple[int, Check]]:
    """check_variants's findings, each with the first link of its source rule (they are
    listed by it)."""
    by_source: dict[str, dict[str, int]] = defaultdict(dict)
    for k, link in enumerate(links):
        if link.source_ids and link.target_ids:
            for rule_id in link.source_ids:
                by_source[rule_id].setdefault(link.target_document, k)
    usage = term_usage(corpus, links)
    out = []
    for rule_id, variants in by_source.items():
        if len(variants) < 2:
            continue
        source_numbers = set(numbers(corpus.rules[rule_id].text))
        source_terms = terms_in_source(
            corpus, corpus.rules[rule_id].document, corpus.rules[rule_id].text
        )
        names = sorted(variants, key=lambda v: corpus.variant[v])
        for variant in names:
            k = variants[variant]
            others = [o for o in names if o != variant]
            target_numbers = set(numbers(corpus.text(links[k].target_ids)))
            parts = []
            numbers_differ = False
            for other in others:
                other_numbers = set(numbers(corpus.text(links[variants[other]].target_ids)))
                lost = sorted((source_numbers & other_numbers) - target_numbers)
                if lost:
                    numbers_differ = True
                    parts.append(
                        f"{corpus.variant[other]} keeps the number {', '.join(lost)}, "
                        "this translation does not"
                    )
                for term_id in sorted(source_terms):
                    preferred = corpus.glossary.by_id[term_id].preferred(corpus.lang[variant])
                    if preferred is None:
                        continue
                    mine = usage.get((variant, term_id), {}).get(k, {})
                    theirs = usage.get((other, term_id), {}).get(variants[other], {})
                    if preferred.text in theirs and mine and preferred.text not in mine:
                        parts.append(
                            f"{corpus.glossary.by_id[term_id].en}: {corpus.variant[other]} has "
                            f"the preferred {quote(preferred.text)}, this one "
                            + ", ".join(quote(t) for t in mine)
                        )
            if parts:
                severity = "warning" if numbers_differ else "info"
                finding = Check(
                    variant,
                    k,
                    links[k].target_ids[0],
                    "variant-disagreement",
                    severity,
                    "; ".join(parts),
                )
                out.append((min(variants.values()), finding))
    return out


CHECKS = (
    ("gaps", check_gaps),
    ("numbers", check_numbers),
    ("untranslated", check_untranslated),
    ("terms", check_terms),
    ("variants", check_variants),
)
"""The checks in the order their findings are listed."""


def check_links(
    links: Sequence[Link], documents: Sequence[DocumentResult], glossary: Glossary
) -> list[Check]:
    """Every finding of every check on ``links`` (indices in findings refer to ``links``), by
    check in the order of CHECKS, then as each check lists them over the whole corpus.

    Each check looks at one source document and its translations only, so the checks run on
    one source document's links at a time: their tables (term usage, a rule's translations)
    are never held for the whole corpus."""
    docs = spill.view(documents)
    game = {d.doc.doc_id: d.doc.spec.game for d in docs.heads}
    lang = {d.doc.doc_id: d.doc.lang for d in docs.heads}
    variant = {d.doc.doc_id: d.doc.variant for d in docs.heads}
    # Per check, (where the corpus-wide check would list it, finding).
    found: dict[str, list[tuple[Any, Check]]] = {name: [] for name, _check in CHECKS}
    for index in _by_source_document(links):
        local = [links[k] for k in index]
        corpus = _Corpus(docs.rules, game, lang, variant, glossary, load_check_data())
        for name, check in CHECKS:
            if name == "variants":  # by the first link of their source rule
                keyed: list[tuple[Any, Check]] = [
                    (index[k], c) for k, c in _variant_findings(corpus, local)
                ]
            elif name == "terms":  # by variant and term
                keyed = [((c.target_document, c.term), c) for c in check(corpus, local)]
            else:  # by link
                keyed = [(index[c.link or 0], c) for c in check(corpus, local)]
            found[name] += [
                (key, replace(c, link=None if c.link is None else index[c.link]))
                for key, c in keyed
            ]
    return [c for name, _check in CHECKS for _key, c in sorted(found[name], key=_first)]


def _first(item: tuple[Any, Check]) -> Any:
    return item[0]


def _by_source_document(links: Sequence[Link]) -> Iterator[list[int]]:
    """The indices of each source document's links, in order (a document aligned with each of
    its translations gives one run of links per translation)."""
    runs: dict[str, list[range]] = {}
    start, current = 0, ""
    for k, link in enumerate(links):
        if k and link.source_document != current:
            runs.setdefault(current, []).append(range(start, k))
            start = k
        current = link.source_document
    if links:
        runs.setdefault(current, []).append(range(start, len(links)))
    for ranges in runs.values():
        yield [k for run in ranges for k in run]
