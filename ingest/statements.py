"""Reading a sentence (of a rule, or a judge's question) as a statement, with the multilingual
lexicon of data/statements.toml: its modality (can, cannot, must, only), its actions, which
Chain it is about, the condition it opens with, and the quantities it sets.

Words are whole words, case-insensitive, found in the folded text (so an unaccented
Vietnamese question reads like an accented rule). Standard library and ingest.text only: kb
ask reads questions with the same Lexicon.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache, cached_property
from typing import Any

from .text import CJK_RUN, fold, has_diacritics, stem

# The end of a list of one-word items, written with its last comma ("a card, ability, or
# object"): not "at the same time, he or she loses".
_LIST_END = re.compile(r"(?:^|[\s,])\w+, \w+, (?:or|and|hoặc|và) ")


def _in_list(folded: str, join: re.Match[str]) -> bool:
    """A ", or" / ", and" closing a list of one-word items ("a card, ability, or object"),
    not one opening another clause ("flip it, and both players may look")."""
    before = folded[: join.start()]
    last = before.rfind(",")
    return last >= 0 and len(before[last + 1 :].split()) == 1


LANGS = ("en", "vi", "zh")
_DIGITS = r"\d{1,3}(?:[,.]\d{3})+|\d+"


class _Found:
    """Where a cue phrase was found: what ``re.Match`` tells of it, for ``_Cues``."""

    __slots__ = ("_start", "_end", "_text")

    def __init__(self, start: int, end: int, text: str) -> None:
        self._start, self._end, self._text = start, end, text

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def group(self) -> str:
        return self._text


def _is_word_char(text: str, at: int) -> bool:
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_")


def as_written(phrases: Iterable[str]) -> set[str]:
    """The phrases (but blank ones), each also with its apostrophes typeset ("can't",
    "can’t": Lorcana's rules write the second)."""
    found = {p for p in phrases if p.strip()}
    return found | {p.replace("'", "’") for p in found}


class _Phrases:
    """Phrases found in a text as a regex alternation of them, longest first and between
    word boundaries (CJK phrases anywhere), would find them: leftmost first, the longest at
    a place, none overlapping. Plain substring search, no pattern to compile: kb ask builds
    these on every run, and compiling the alternations cost more than most answers."""

    def __init__(self, phrases: list[str]) -> None:
        self.phrases = sorted(as_written(phrases), key=lambda p: (-len(p), p))
        self.cjk = {p for p in self.phrases if CJK_RUN.search(p)}

    def finditer(self, text: str) -> list[_Found]:
        hits = []
        for phrase in self.phrases:
            at = text.find(phrase)
            while at >= 0:
                end = at + len(phrase)
                if phrase in self.cjk or not (
                    _is_word_char(text, at - 1) or _is_word_char(text, end)
                ):
                    hits.append((at, -len(phrase), end))
                at = text.find(phrase, at + 1)
        kept: list[_Found] = []
        for start, _, end in sorted(hits):
            if not kept or start >= kept[-1].end():
                kept.append(_Found(start, end, text[start:end]))
        return kept

    def search(self, text: str) -> bool:
        return bool(self.finditer(text))


class _Cues:
    """Cue phrases found in a text: folded (an unaccented Vietnamese question reads like an
    accented rule), each word as written or typed without marks (``typed_as``), except the
    accented phrases whose folded form is an English cue word ("cản", block, folds to "can"):
    those only as written."""

    def __init__(self, phrases: list[str], english: frozenset[str]) -> None:
        exact = [p for p in phrases if has_diacritics(p) and fold(p) in english]
        folded = [p for p in phrases if p not in exact]
        self.folded = _Phrases([fold(p) for p in folded])
        self.written = written_forms(folded)
        self.exact = _Phrases([_lower(p) for p in exact]) if exact else None

    def finditer(self, text: str) -> list[_Found]:
        folded = fold(text)
        found = typed_hits(text, self.folded.finditer(folded), self.written, folded)
        if self.exact is not None:
            found += self.exact.finditer(_lower(text))
        return sorted(found, key=lambda m: m.start())

    def search(self, text: str) -> bool:
        return bool(self.finditer(text))


def _lower(text: str) -> str:
    return unicodedata.normalize("NFC", text).lower()


def written_forms(phrases: Iterable[str]) -> dict[str, set[str]]:
    """Each phrase's folded form (as the folded text holds it), with the ways it is written."""
    out: dict[str, set[str]] = {}
    for written in as_written(_lower(p) for p in phrases):
        out.setdefault(fold(written), set()).add(written)
    return out


def typed_as(span: str, forms: Iterable[str]) -> bool:
    """``span`` (lower-cased, as typed) is one of ``forms`` (as written), each of its words
    as written or typed without marks: a word typed with marks is the word its marks spell
    ("nó", it, is not "no"; "cần", need, not "can"; "dụng", use, not "đừng", don't)."""
    typed = span.split()
    return any(
        len(words) == len(typed)
        and all(t == w or not has_diacritics(t) for t, w in zip(typed, words, strict=True))
        for words in (form.split() for form in forms)
    )


def typed_hits(
    text: str,
    found: Iterable[_Found | re.Match[str]],
    written: dict[str, set[str]],
    folded: str | None = None,
) -> list[Any]:
    """The cue phrases ``found`` in the folded ``text`` (``folded``, when computed already)
    that the text types as written (``typed_as``)."""
    found = list(found)
    if not found:  # most cue lists find nothing in most texts: no copy of the text to make
        return found
    low = _lower(text)
    folded = fold(text) if folded is None else folded
    if low == folded or len(low) != len(folded):  # no marks; or folding moved the positions
        return found
    return [
        m for m in found if typed_as(low[m.start() : m.end()], written.get(m.group(), {m.group()}))
    ]


def alternation(phrases: list[str], form: Callable[[str], str] = fold) -> re.Pattern[str]:
    """Whole-word alternation of folded phrases (or of another ``form``) as written
    (``as_written``), longest first; CJK phrases anywhere. (One pair of word-boundary checks
    around the whole alternation: one per phrase compiles several times slower, and kb ask
    compiles these on every run.)"""
    ordered = sorted(as_written(form(p) for p in phrases), key=lambda p: (-len(p), p))
    cjk = [re.escape(p) for p in ordered if CJK_RUN.search(p)]
    plain = [re.escape(p) for p in ordered if not CJK_RUN.search(p)]
    parts = [f"(?:{'|'.join(cjk)})"] if cjk else []
    parts += [rf"(?<!\w)(?:{'|'.join(plain)})(?!\w)"] if plain else []
    return re.compile("|".join(parts) or "(?!)")


def _words(entry: dict[str, Any]) -> list[str]:
    return [w for lang in LANGS for w in entry.get(lang, [])]


class Lexicon:
    """data/statements.toml, compiled: the build reads it from the file (``load_lexicon``),
    kb ask from the database's parsed copy (kb.store.datafiles)."""

    def __init__(self, data: dict[str, Any]) -> None:
        # Patterns are compiled when first used: kb ask compiles them on every run, and most
        # questions need a few of them.
        self.data = data
        cond = data["conditions"]
        self.not_conditions = frozenset(fold(w) for w in cond.get("not_after", []))
        self.number_words = {
            fold(w): n for lang in LANGS for w, n in data["numbers"].get(lang, {}).items()
        }
        # A number word written with accents is that word only with them: typed without,
        # "sau" is "after" (sáu, six) and "bay" the Trap of "Bài Bẫy" (bảy, seven).
        self.accented_numbers = {
            fold(w): w.lower()
            for lang in LANGS
            for w in data["numbers"].get(lang, {})
            if fold(w) != w.lower()
        }
        self.english = self._english_words(data)

    @staticmethod
    def _english_words(data: dict[str, Any]) -> frozenset[str]:
        """Every English cue word of the lexicon, folded: what an accented phrase of another
        language must not be taken for once its accents are gone."""
        phrases: list[str] = [
            w for entry in data["modality"] + data["actions"] for w in entry["en"]
        ]
        phrases += [w for key in ("conditions", "limits", "negations") for w in data[key]["en"]]
        phrases += [w for ws in [*data["chains"].values(), *data["bounds"].values()] for w in ws]
        phrases += list(data["numbers"].get("en", {}))
        plain = [p for p in phrases if not has_diacritics(p) and not CJK_RUN.search(p)]
        return frozenset(w for p in plain for w in [fold(p), *fold(p).split()])

    @cached_property
    def modalities(self) -> list[tuple[str, _Cues]]:
        return [(m["id"], _Cues(_words(m), self.english)) for m in self.data["modality"]]

    @cached_property
    def actions_(self) -> list[tuple[str, _Cues]]:
        return [(a["id"], _Cues(_words(a), self.english)) for a in self.data["actions"]]

    @cached_property
    def chains(self) -> list[tuple[str, _Cues]]:
        return [(k, _Cues(v, self.english)) for k, v in self.data["chains"].items()]

    @cached_property
    def condition(self) -> re.Pattern[str]:
        cond = self.data["conditions"]
        return alternation([w for lang in LANGS for w in cond.get(lang, [])])

    @cached_property
    def trailing(self) -> re.Pattern[str]:
        """A condition after its outcome: only the words that cannot open anything else
        there; matched with its accents (folded, Vietnamese "nếu", if, is "nêu", state)."""
        return alternation(self.data["conditions"].get("trailing", []), str.lower)

    @cached_property
    def number(self) -> re.Pattern[str]:
        """A number: not a rule number or a decimal ("709.1", "(see 1.3.2a)"), nor a list
        item's number opening the text ("3 Note that..."), nor an ordinal ("2nd"); digits
        may run into a unit ("8000LP")."""
        words = "|".join(re.escape(w) for w in sorted(self.number_words, key=len, reverse=True))
        digits = rf"(?:{_DIGITS})(?!\d)(?!(?:st|nd|rd|th)\b)"
        return re.compile(rf"(?<![\w.,])(?<!^)(?:{digits}|(?:{words})(?!\w))(?![.,:]\d)")

    @cached_property
    def bounds(self) -> list[tuple[str, re.Pattern[str]]]:
        return [
            (bound, re.compile(rf"(?:{alternation(ws).pattern})\W*(?:\w+\W+){{0,2}}$"))
            for bound, ws in self.data["bounds"].items()
        ]

    def modality(self, text: str) -> str:
        """The modality of a clause: the first of only, cannot, must, can it holds, else ""."""
        return next((m for m, cues in self.modalities if cues.search(text)), "")

    def modal_marks(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, modality) of every modality cue of a text (folded positions); of
        overlapping cues ("cannot" holds "can") the longest."""
        marks = sorted(
            (m.start(), m.end(), kind)
            for kind, cues in self.modalities
            for m in cues.finditer(text)
        )
        kept: list[tuple[int, int, str]] = []
        for start, end, kind in sorted(marks, key=lambda m: (m[0], -(m[1] - m[0]))):
            if not kept or start >= kept[-1][1]:
                kept.append((start, end, kind))
        return kept

    def modality_at(self, text: str, position: int) -> str:
        """The modality that governs a word at ``position`` (in the folded text): the first
        marker after it ("Shrink ... cannot be activated"), else the last one before it
        ("chỉ có thể kích hoạt Magic Cylinder")."""
        start, end = self.clause_at(text, position)
        kept = [m for m in self.modal_marks(text) if start <= m[0] < end]
        after = [k for s, _, k in kept if s >= position]
        if after:
            return after[0]
        before = [k for s, _, k in kept if s < position]
        return before[-1] if before else ""

    @cached_property
    def clause_breaks(self) -> re.Pattern[str]:
        words = [w for lang in LANGS for w in self.data["clauses"].get(lang, [])]
        return re.compile(rf"[;；]|{alternation(words).pattern}")

    def clause_at(self, text: str, position: int) -> tuple[int, int]:
        """(start, end) in the folded text of the clause holding ``position``: clauses end at
        a semicolon or a word that opens another clause ("because", "while"; data/
        statements.toml [clauses]), so a card named in a reason is not governed by the
        modality of what it explains."""
        start, end = 0, len(text)
        for m in self.clause_breaks.finditer(fold(text)):
            if m.start() <= position:
                start = m.end()
            else:
                end = m.start()
                break
        return start, end

    @cached_property
    def clause_joins(self) -> re.Pattern[str]:
        words = [w for lang in LANGS for w in self.data["clauses"].get(f"after_comma_{lang}", [])]
        return re.compile(rf",\s*(?:{alternation(words).pattern})")

    def clauses(self, sentence: str) -> list[str]:
        """The clauses of a sentence, as written: split at a semicolon, a word that opens
        another clause, or a comma followed by a joining word (", and", ", also")."""
        folded = fold(sentence)
        cuts = sorted(
            {m.start() for m in self.clause_breaks.finditer(folded) if m.start() > 0}
            | {m.start() for m in self.clause_joins.finditer(folded) if not _in_list(folded, m)}
        )
        bounds = [0, *cuts, len(sentence)]
        pieces = [sentence[a:b].strip(" ,;；") for a, b in zip(bounds, bounds[1:], strict=False)]
        merged: list[str] = []
        for piece in (p for p in pieces if p):
            # "If X, then Y": a condition cut from what it governs is joined back to it.
            if merged and self._bare_condition(merged[-1]):
                merged[-1] = f"{merged[-1]}, {piece}"
            else:
                merged.append(piece)
        return merged

    def _bare_condition(self, clause: str) -> bool:
        """The clause opens with a condition word and says nothing after the condition."""
        return bool(self.condition.match(fold(clause).lstrip())) and not self.split_condition(
            clause
        )

    @cached_property
    def negated_subjects(self) -> _Cues:
        return _Cues(_words(self.data["negated_subjects"]), self.english)

    def clause_modality(self, clause: str) -> str:
        """The one modality a clause states, or "" when it states none or several; "can" said
        of a negated subject ("no player can", "không ai được") is "cannot"."""
        kinds = {k for _, _, k in self.modal_marks(clause)}
        if len(kinds) != 1:
            return ""
        kind = kinds.pop()
        marks = self.modal_marks(clause)
        if kind == "can" and any(
            m.start() < marks[0][0] for m in self.negated_subjects.finditer(clause)
        ):
            return "cannot"
        return kind

    @cached_property
    def times(self) -> _Cues:
        return _Cues(_words(self.data["times"]), self.english)

    def time_phrase(self, clause: str) -> str:
        """The phrase of a clause saying when ("at the beginning of the game"), as written,
        up to the next comma or the clause's end; "" when it has none."""
        found = self.times.finditer(clause)
        if not found:
            return ""
        start = found[0].start()
        rest = clause[start:]
        end = re.search(r"[,;.()]", rest)
        return rest[: end.start() if end else len(rest)].strip()

    def actions(self, text: str) -> list[str]:
        """The actions a clause names, in lexicon order."""
        return [a for a, cues in self.actions_ if cues.search(text)]

    def chain(self, text: str) -> str:
        """ "first" or "later" when the clause names which Chain it is about, else ""."""
        return next((k for k, cues in self.chains if cues.search(text)), "")

    def split_condition(self, sentence: str) -> tuple[str, str] | None:
        """(condition, what follows) of a sentence with a condition: opening it ("If X, Y";
        "Nếu X thì Y") or after what follows ("Y if X": "You also win if the opponent
        can't draw"), else None."""
        folded = fold(sentence)
        m = self.condition.match(folded.lstrip()) or self._purpose(folded.lstrip())
        if not m:
            return self._trailing_condition(sentence, folded)
        offset = len(folded) - len(folded.lstrip())
        body = sentence[offset + m.end() :]
        # A comma inside parentheses ("(\"Divine Wrath\", etc.)") ends nothing.
        plain = re.sub(r"\([^()]*\)", lambda m: "_" * len(m.group()), fold(body))
        # A list ends its items with ", or" / ", and" ("When a card, ability, or object ...
        # is canceled, remove it"): the condition's comma comes after it.
        listed = _LIST_END.search(plain)
        after = listed.end() if listed else 0
        for marker in (", then ", " then ", " thì "):
            at = plain.find(marker, after)
            if at > 0:
                return body[:at].strip(" ,"), body[at + len(marker) :].strip(" ,")
        comma = self._condition_comma(plain, after)
        if comma is None:
            return None
        return body[:comma].strip(" ,"), body[comma + 1 :].strip(" ,")

    def _condition_comma(self, plain: str, after: int) -> int | None:
        """Where the comma ending a condition stands (written with or without a space after
        it, never inside a number: "1,000"): not one that leaves the condition unfinished
        ("If a player has, by any legal means, gained ...": the aside's two commas)."""
        unfinished = {fold(w) for w in self.data["conditions"].get("unfinished", [])}
        aside = False
        for m in re.finditer(r",(?!\d)", plain[after:]):
            at = after + m.start()
            if aside:
                aside = False  # the comma closing the aside
                continue
            last = re.search(r"(\w+)\W*$", plain[:at])
            if last and last.group(1) in unfinished:
                aside = True
                continue
            return at if at > 0 else None
        return None

    def _purpose(self, folded: str) -> re.Match[str] | None:
        """ "To destroy a J-ruler, put it into its owner's ruler area": what is done for a
        purpose is done when it is (data/statements.toml [conditions] purpose): the word and a
        verb after it, not a noun phrase ("To the extent ...")."""
        for word in self.data["conditions"].get("purpose", []):
            m = re.match(rf"{re.escape(fold(word))}\s+(?=([^\W\d]+))", folded)
            if m and m.group(1) not in self.data["conditions"].get("purpose_not", []):
                return m
        return None

    def _trailing_condition(self, sentence: str, folded: str) -> tuple[str, str] | None:
        """ "Y if X": the condition word after the clause it governs, the clause a full
        statement of its own (three words at least), the condition running to the end."""
        m = self.trailing.search(sentence.lower())
        before = fold(sentence[: m.start()]).split() if m else []
        # "as if" compares, "even if" concedes: neither makes a condition.
        if not m or len(before) < 3 or before[-1] in self.not_conditions:
            return None
        outcome = sentence[: m.start()].strip(" ,")
        condition = sentence[m.end() :].strip(" ,.")
        return (condition, outcome) if condition else None

    def unit(self, text: str, after: int) -> str:
        """The word a number counts: the first word after it (position ``after`` in the folded
        text), as its stem."""
        m = re.compile(r"\W*(\w+)").match(fold(text), after)
        return stem(m.group(1)) if m else ""

    def quantities(self, text: str) -> list[tuple[str, int, int]]:
        """(bound, number, position after it) of every number in a clause; ``bound`` is
        exactly, at_least, at_most, or "" when no bound word stands just before it."""
        folded = fold(text)
        typed = unicodedata.normalize("NFC", text).lower()
        aligned = len(typed) == len(folded)
        out = []
        for m in self.number.finditer(folded):
            token = m.group()
            value = (
                int(re.sub(r"[,.]", "", token))
                if token[0].isdigit()
                else self.number_words.get(token)
            )
            if value is None:
                continue
            # A number word counts only as it is spelt: "sáu" (six) with its marks, "ten"
            # and "ba" (three) without ("tên", name, and "bà" are other words). Where folding
            # changed the text's length ("ß"), positions do not match: no check.
            spelt = self.accented_numbers.get(token) or token
            if aligned and typed[m.start() : m.end()] != spelt:
                continue
            before = folded[max(0, m.start() - 40) : m.start()]
            # The bound word nearest the number governs it ("must contain at least forty").
            hits = [(h.start(), b) for b, pattern in self.bounds if (h := pattern.search(before))]
            bound = max(hits)[1] if hits else ""
            out.append((bound, value, m.end()))
        return out


@cache
def load_lexicon() -> Lexicon:
    """The lexicon from data/statements.toml (the build's way; kb ask uses kb.store.datafiles)."""
    import tomllib
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "statements.toml").read_text(encoding="utf-8")
    return Lexicon(tomllib.loads(text))
