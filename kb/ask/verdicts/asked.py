"""What a question asks for: its kind (yes/no, when, which first, what happens, how many), the
action it is about, the Chain, and the rulesets and versions it names.

Cues come from kb/data/query.toml [kinds] and [quantity]; actions and Chains from the lexicon
the build reads rules with (ingest/data/statements.toml), so a question and a rule are read
in the same terms.

On the ``kb ask`` path: standard library and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache, cached_property
from typing import Any

from ingest.statements import Lexicon
from ingest.text import CJK_RUN, fold, folded_words, stem

from ...lexicon.phrases import find_phrase
from ...lexicon.words import has_cue, query_data
from ...store import datafiles
from ...store.db import column, run
from ...store.vocabulary import load_vocabulary
from ..question import Understood
from .named import Forms

KINDS = ("how_many", "when", "which_first", "what_happens", "yesno")


@cache
def lexicon() -> Lexicon:
    return Lexicon(datafiles.load("statements"))


def _has(folded: str, cues: list[str]) -> bool:
    return has_cue(folded, cues)


def _around(folded: str, first: str, then: str) -> bool:
    """``first`` and, later, ``then`` as whole words."""
    pattern = rf"{_word(first)}.+{_word(then)}"
    return re.search(pattern, folded) is not None


def _word(phrase: str) -> str:
    """A phrase as whole words; a CJK phrase anywhere."""
    escaped = re.escape(phrase)
    return escaped if CJK_RUN.search(phrase) else rf"(?<!\w){escaped}(?!\w)"


def _ends_with(text: str, ending: str) -> bool:
    """The text ends with the ending as a whole word ("atk" does not end with "k")."""
    if CJK_RUN.search(ending):
        return text.endswith(ending)
    return re.search(rf"(?<!\w){re.escape(ending)}$", text) is not None


@cache
def _naming(names: tuple[str, ...]) -> re.Pattern[str]:
    """Words that only say which game or rules a clause is of, opening it ("vanguard can
    ...", "in FoW can ...", "ygo tcg does ...")."""
    body = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    before = "|".join(re.escape(fold(w)) for w in query_data()["kinds"]["naming_before"])
    return re.compile(rf"^(?:(?:{before})\s+)?(?:(?:{body})(?!\w)\s*)+")


def kind(text: str, names: tuple[str, ...] = (), lang: str = "") -> str:
    """The kind of verdict a question asks for, or "" when it asks for none. A clause opened
    by a verb that asks ("is there a limit on how many ...", "does it activate when ...")
    asks yes or no, whatever other cue words it holds; ``names`` (folded game names and
    rulesets) opening a clause are read past; ``lang``: the question's language."""
    folded = fold(text).strip()
    cues = query_data()["kinds"]
    stripped = re.sub(r"\s*\([^)]*\)\s*$", "", folded).rstrip(" ?？!.。")
    openers = {fold(w) for w in cues["yesno_openers"]}
    # Any clause may ask: "TCG: during damage calculation, ...; can I chain Honest to it?",
    # "My ruler doesn't have [Grimoire]. Can I still bring an extra deck?"
    clauses = [
        c.strip(" -") for c in re.split(r"[,;:.?!。？！，；：]|\s-\s", stripped) if c.strip(" -")
    ]
    opening = {c.split()[0] for c in clauses}
    before = {fold(w) for w in cues["naming_before"]}
    if opening & ({n.split()[0] for n in names} | before):  # a pattern only when one may open
        clauses = [_naming(names).sub("", c) or c for c in clauses]
    # English verbs that ask, not in Vietnamese: unaccented "can" is "cần" (need) there.
    asking = {fold(w) for w in cues["asking_openers"]} if lang != "vi" else set()
    # "What happens - is it still flipped?": the outcome is asked, the yes/no spells it out.
    if any(c.split()[0] in asking for c in clauses) and not _has(folded, cues["what_happens"]):
        return "yesno"
    wh = clauses[-1].split()[0] in cues["question_words"] if clauses else False
    if not wh and any(_ends_with(stripped, fold(e)) for e in cues["yesno_asking_endings"]):
        return "yesno"  # "more than 4 copies of a basic magic stone ok?"
    # The clause that asks says what is asked ("when both players want to change cards, who
    # has to choose first?": who first; the "when" sets out the situation).
    last = clauses[-1] if len(clauses) > 1 and folded.endswith(("?", "？")) else ""
    cued = (last and _cued_kind(last)) or _cued_kind(folded)
    if cued:
        return cued
    if (
        any(c.split()[0] in openers for c in clauses)
        or any(_ends_with(stripped, fold(e)) for e in cues["yesno_endings"])
        or _has(folded, cues["yesno_anywhere"])
        or any(
            re.search(
                rf"(?<!\w){re.escape(fold(a))}(?!\w).+(?<!\w){re.escape(fold(b))}(?!\w)", folded
            )
            for a, b in cues["yesno_around"]
        )
    ):
        return "yesno"
    # A measure named with no action asks for its value ("starting life points in yugioh").
    if _has(folded, query_data()["quantity"]["measures"]) and not lexicon().actions(text):
        return "how_many"
    return ""


def _cued_kind(folded: str) -> str:
    """The kind a cue of the folded text asks for: how many, when, which first, what happens."""
    cues = query_data()["kinds"]
    if _has(folded, query_data()["quantity"]["cues"]) and not _opens_with(
        folded, cues["what_happens"]
    ):
        return "how_many"  # but "what happens if the number of monsters ... changes"
    for name in ("when", "which_first", "what_happens"):
        if name == "when" and _asks_when(folded, cues):
            return name
        if name != "when" and _has(folded, cues[name]):
            return name
    if any(_around(folded, fold(a), fold(b)) for a, b in cues["which_first_around"]):
        return "which_first"  # "which one resolves first", "who can respond first"
    if any(_around(folded, fold(a), fold(b)) for a, b in cues["what_happens_around"]):
        return "what_happens"  # "where in the drop zone pile does it go"
    return ""


def _opens_with(folded: str, cues: list[str]) -> bool:
    return any(re.match(rf"\W*{_word(fold(c))}", folded) for c in cues)


# "when in the Damage Step can ...": a place in time between the cue and its verb.
_PLACE = r"(?:\s+(?:in|during|at|on|within)(?:\s+[\w'-]+){1,5}?)?"


def _asks_when(folded: str, cues: dict[str, Any]) -> bool:
    """A cue of "when" that asks when: a cue that only asks ("at what point", "khi nào"), or
    one that also joins a situation followed by a verb that asks, or ending the question
    (kb/data/query.toml [kinds] when_joining)."""
    joining = {fold(w) for w in cues["when_joining"]}
    if _has(folded, [c for c in cues["when"] if fold(c) not in joining]):
        return True
    joining &= set(re.findall(r"\w+", folded))
    if not joining:
        return False  # (kb ask is a process per question: no pattern to compile)
    verbs = "|".join(re.escape(fold(w)) for w in [*cues["yesno_openers"], *cues["asking_openers"]])
    return any(
        re.search(rf"(?<!\w){re.escape(j)}(?:\s+\w+ly)?{_PLACE}\s+(?:{verbs})(?!\w)", folded)
        or re.search(rf"(?<!\w){re.escape(j)}\W*$", folded)
        for j in joining
    )


def asks_twice(text: str) -> bool:
    """Two yes/no questions in one ("Do I still inflict battle damage, and does its effect
    trigger?"): one yes or no cannot answer both."""
    folded = fold(text).strip()
    asking = {fold(w) for w in query_data()["kinds"]["asking_openers"]}
    clauses = re.split(r"[,;:.?!。？！，；：]|\s-\s|\s(?:and|or)\s", folded)
    return sum(1 for c in clauses if c.split() and c.split()[0] in asking) >= 2


def stated_numbers(u: Understood) -> list[tuple[str, int, int]]:
    """(bound, number, position after it) of the numbers a question states, but the years it
    names ("2005 OCG": the rules of a year, no count) and the numbers a word labels ("turn 1",
    kb/data/query.toml [quantity] labels)."""
    years = {int(y) for y in re.findall(r"\d+", " ".join(map(str, u.years)))}
    folded = fold(u.text)
    labels = {fold(w) for w in query_data()["quantity"]["labels"]}

    def labelled(end: int) -> bool:  # "turn 1": the word before the number labels it
        token = re.search(r"[\w.]+$", folded[:end])
        before = re.search(r"([^\W\d]+)\W*$", folded[: end - len(token.group())] if token else "")
        return before is not None and before.group(1) in labels

    return [n for n in lexicon().quantities(u.text) if n[1] not in years and not labelled(n[2])]


def classes_named(conn: sqlite3.Connection, u: Understood) -> list[dict[str, Any]]:
    """The card classes a question names ("a counter trap", "Bẫy Phản đòn"), longest first,
    each once."""
    folded = fold(u.text)
    found: list[dict[str, Any]] = []
    taken: list[tuple[int, int]] = []
    rows = run(conn, "class_names_of_game", game=u.game or "")
    for row in sorted(rows, key=lambda r: -len(r["text"])):
        key = folded_words(row["text"])
        for start, end in find_phrase(folded, key) if key else []:
            if all(end <= s or start >= e for s, e in taken):
                taken.append((start, end))
                if row["class"] not in {f["class"] for f in found}:
                    found.append({**row, "start": start, "end": end})
    return sorted(found, key=lambda f: f["start"])


def _unread_cjk(u: Understood, folded: str, games: dict[str, list[str]]) -> list[str]:
    """Chinese the question holds beyond the names, moments, terms and cue words it was read
    by ("同名" in "同名卡最多放几张"): words the knowledge base did not read."""
    aliases = tuple(a for names in games.values() for a in names if CJK_RUN.search(a))
    # Cue words read in the question as typed, before the names take their characters (the
    # field "攻击力" holds the term "攻击", attack).
    chars = list(unread_chinese(folded, aliases)) if CJK_RUN.search(folded) else list(folded)
    for found in [*u.cards, *u.timing, *u.terms]:
        if "start" in found:
            chars[found["start"] : found["end"]] = [" "] * (found["end"] - found["start"])
    return CJK_RUN.findall("".join(chars))


def unread_chinese(text: str, more: tuple[str, ...] = ()) -> str:
    """The text with the Chinese cue and function words kb ask reads blanked out (and the
    phrases ``more``), character for character: what is left is Chinese nothing was read in,
    where it stands."""
    for cue in sorted({*_chinese_cues(), *(fold(m) for m in more)}, key=len, reverse=True):
        text = text.replace(cue, " " * len(cue))
    return text


@cache
def _chinese_cues() -> tuple[str, ...]:
    data = query_data()
    cues = [*data["quantity"]["cues"], *data["quantity"]["counts"], *data["quantity"]["measures"]]
    cues += sum(data["stopwords"].values(), [])
    cues += [c for v in data["kinds"].values() for c in v if isinstance(c, str)]
    cues += [c for pair in data["kinds"]["which_first_around"] for c in pair]
    cues += [*data["expand"]]
    # card data fields ("攻击力", ATK) and the words asking for printed values ("原本")
    cues += [n for names in data["facts"].values() for n in names] + data["printed"]["words"]
    lexicon_data = datafiles.load("statements")
    cues += [w for entry in [*lexicon_data["modality"], *lexicon_data["actions"]]
             for w in entry.get("zh", [])]  # fmt: skip
    return tuple(fold(c) for c in cues if CJK_RUN.search(c))


@cache
def _everyday_verbs() -> frozenset[str]:
    return frozenset(query_data()["everyday"]["verbs"])


def is_everyday_verb(word: str) -> bool:
    """An everyday verb of kb/data/query.toml [everyday] as a verb is written, not as it
    names or describes something ("brings", "tells"; not "opening hand", "combined")."""
    verbs = _everyday_verbs()
    return word in verbs or (word.endswith("s") and (word[:-1] in verbs or word[:-2] in verbs))


@cache
def cue_phrases() -> frozenset[str]:
    """The cues that say what a question asks ("how many", "max", "ai trước"), folded."""
    data = query_data()
    quantity = data["quantity"]
    cues = [*quantity["cues"], *quantity["limits"], *sum(quantity["asks"].values(), [])]
    cues += [c for v in data["kinds"].values() for c in v if isinstance(c, str)]
    return frozenset(folded_words(cue) for cue in cues)


@cache
def cue_words() -> frozenset[str]:
    """The words of the cues that say what a question asks ("max", "size"): words of the
    question's form, not of its subject, whether or not the index holds them."""
    return frozenset(w for cue in cue_phrases() for w in cue.split())


ADVERB_MIN_LETTERS = 6


class Asked:
    """What a question asks for, beyond what understanding found in it."""

    def __init__(self, conn: sqlite3.Connection, u: Understood) -> None:
        folded = fold(u.text)
        self.text = u.text
        games = load_vocabulary(conn).games
        names = {a for aliases in games.values() for a in aliases if not CJK_RUN.search(a)}
        named = tuple(sorted(names | set(column(conn, "ask_rulesets"))))
        self.kind = kind(u.text, named, u.lang)
        self.conn, self.u, self.folded = conn, u, folded
        # A qualifier of a moment that names no moment of the knowledge base ("in the third
        # phase"): no verdict may rest on the moment it qualifies.
        self.unresolved = u.unresolved
        # Facts that contradict each other about the question (filled by a resolver): shown
        # with both sources instead of a verdict.
        self.conflicts: list[list[dict[str, Any]]] = []
        self.passages: list[dict[str, Any]] = []  # the ranked passages (kb.ask.rank rows)
        # The question's words a verdict found neither read nor quoted (verdicts.account).
        self.unaccounted: list[str] = []

    # The rest is read when a resolver asks: a question asking for no verdict needs none of it.
    @cached_property
    def forms(self) -> Forms:
        return Forms(self.conn)

    @cached_property
    def rulesets(self) -> list[str]:
        return [
            r
            for r in column(self.conn, "ask_rulesets")
            if re.search(rf"(?<!\w){re.escape(r)}(?!\w)", self.folded)
        ]

    @cached_property
    def classes(self) -> list[dict[str, Any]]:
        return classes_named(self.conn, self.u)

    @cached_property
    def unknown(self) -> list[str]:
        """Content words the index has never seen ("digimon"): facts of passages cannot be
        said to cover a question about something the knowledge base does not know. The index
        splits letters from digits ("dm5" is "dm" and "5"): a word is known when its every
        part of letters is."""
        u = self.u
        expanded = {w for key in u.expansions for w in key.split()}  # "rearrange": its forms
        parts = {w: re.findall(r"[^\W\d_]+", w) for w in u.words}
        stems = {w: stem(w) for w in u.words}
        part_stems = {p: stem(p) for ps in parts.values() for p in ps}
        looked_up = set(part_stems) | set(part_stems.values()) | set(u.words) | set(stems.values())
        known = {r["term"] for r in run(self.conn, "ask_word_counts", words=sorted(looked_up))}
        data = query_data()["unknown"]
        # Everyday English the rules happen not to use ("since", "friend"), not a subject.
        everyday = set(
            column(self.conn, "ask_everyday_words", words=sorted(set(u.words) - known),
                   min=data["everyday_count"])
        )  # fmt: skip
        unknown = [
            w
            for w in u.words
            if w not in known
            and stems[w] not in known  # "going": the index has "go"
            and w not in expanded
            # "damage-inflicting": each part is known, as written or as its stem
            and not (parts[w] and all(p in known or part_stems[p] in known for p in parts[w]))
            # an adverb ("actually", "immediately") says how, not what the question is about
            and not (w.endswith("ly") and len(w) >= ADVERB_MIN_LETTERS)
            # an everyday verb ("wants", "brings"): what is asked of the subject, not it
            and not is_everyday_verb(w)
            and not CJK_RUN.search(w)
            and not re.fullmatch(r"[-+]?[\d.,]+", w)  # numbers, versions ("8.01"), "-100"
            and w not in cue_words()
            and w not in everyday
            # shorter words the index lacks are function words the stopwords miss ("got")
            and len(w) >= data["min_letters"]
        ]
        unknown = [w for w in unknown if not self._inflected(stems[w])]
        return unknown + _unread_cjk(u, self.folded, load_vocabulary(self.conn).games)

    def _inflected(self, word_stem: str) -> bool:
        """The index holds the word in another inflection ("initiated": "initiate")."""
        if word_stem == "" or not word_stem.isascii():
            return False
        found = column(self.conn, "ask_words_of_stem", stem=word_stem)
        return any(stem(w) == word_stem for w in found)

    def of_rulesets(self, conn: sqlite3.Connection, nodes: list[str]) -> list[str]:
        """The timing nodes of the rulesets the question names (all of them when it names
        none); a node of every ruleset ('*') is always kept."""
        if not self.rulesets:
            return nodes
        ruleset = {r["id"]: r["ruleset"] for r in run(conn, "ask_node_rulesets", ids=nodes)}
        return [n for n in nodes if ruleset.get(n, "*") in ("*", *self.rulesets)]

    # What is done, in which Chain, with which modality: read when a resolver asks (the
    # statement lexicon's patterns cost more to compile than most answers).
    @cached_property
    def action(self) -> str:
        """What the question asks is done, read past the names of several words it holds
        ("flip summon" names a summon; "the draw phase" draws nothing)."""
        text = list(self.folded)
        for found in [*self.u.terms, *self.u.timing]:
            span = self.folded[found.get("start", 0) : found.get("end", 0)]
            # A name of several English words ("draw-phase"), not an action's own term
            # ("activate", written "kích hoạt").
            if "start" in found and "-" in found.get("term", found.get("node", "")):
                text[found["start"] : found["end"]] = [" "] * len(span)
        actions = lexicon().actions("".join(text))
        return actions[0] if actions else ""

    @cached_property
    def chain(self) -> str:
        """The Chain the question asks about: of several named, the last ("the first Chain
        has resolved. Can I ... in a second Chain?": a later one)."""
        named = [(m.start(), k) for k, cues in lexicon().chains for m in cues.finditer(self.text)]
        return max(named)[1] if named else ""

    @cached_property
    def modality(self) -> str:
        return lexicon().modality(self.text)
