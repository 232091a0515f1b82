"""Understanding pass ``asks``: what kind of verdict a question asks for (yes/no, when, which
first, what happens, how many, or none), from the cues of kb/data/query.toml [kinds] and
[quantity]; and the cue words every later reader of the question shares (the words of its
form, not of its subject), the numbers it states, the lexicon the build reads rules with
(ingest/data/statements.toml), so that a question and a rule are read in the same terms.

On the ``kb ask`` path: standard library and ``ingest`` text modules only.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ingest.statements import Lexicon
from ingest.text import CJK_RUN, fold, folded_words

from ..lexicon.words import has_cue, query_data
from ..store import datafiles
from ..store.db import column
from .context import Context
from .question import Understood


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
    # A particle closing a Vietnamese question ("... duoc khong vay?") follows what asks.
    if lang != "en":
        particles = "|".join(re.escape(fold(p)) for p in cues["final_particles"])
        stripped = re.sub(rf"(?<=\w)(?:\s+(?:{particles}))+$", "", stripped)
    openers = {fold(w) for w in cues["yesno_openers"]}
    # Any clause may ask: "TCG: during damage calculation, ...; can I chain Honest to it?",
    # "My ruler doesn't have [Grimoire]. Can I still bring an extra deck?"
    clauses = [
        c.strip(" -") for c in re.split(r"[,;:.?!。？！，；：—–]|\s-\s", stripped) if c.strip(" -")
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
    # A clause opening with a cue that asks when asks it, whatever count it names ("fow: when
    # do I have to discard down to hand size").
    if any(_opens_with(c, cues["when"]) and _asks_when(c, cues) for c in clauses):
        return "when"
    cued = (last and _cued_kind(last, lang)) or _cued_kind(folded, lang)
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


def _cued_kind(folded: str, lang: str = "") -> str:
    """The kind a cue of the folded text asks for: how many, when, which first, what happens."""
    cues = _typed_cues(lang)
    if _has(folded, cues["quantity"]) and not _opens_with(folded, cues["what_happens"]):
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


@cache
def _typed_cues(lang: str) -> dict[str, list[Any]]:
    """The kind cues (and the quantity cues, as "quantity") a question in ``lang`` may hold."""
    listed = {**query_data()["kinds"], "quantity": query_data()["quantity"]["cues"]}
    return {name: _typed(cues, lang) for name, cues in listed.items()}


def _typed(cues: list[Any], lang: str) -> list[Any]:
    """The cues (phrases, or pairs of them) a question in ``lang`` may hold: in an English
    one, no single word written with Vietnamese marks (folded, "mấy", how many, is "may"; a
    phrase such as "lúc nào" stays, as short Vietnamese typed without marks may read as
    English)."""
    if lang != "en":
        return cues
    english = lambda w: fold(w) == w.lower() or " " in w  # noqa: E731
    return [c for c in cues if all(english(w) for w in ([c] if isinstance(c, str) else c))]


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


def asks_twice(text: str, kind: str = "yesno", lang: str = "") -> bool:
    """Two questions in one that one answer cannot answer: two yes/no questions ("Do I still
    inflict battle damage, and does its effect trigger?"), or two counts ("how many cards in
    the rune deck, how many master runes?"); ``lang``: the question's language."""
    folded = fold(text).strip()
    clauses = re.split(r"[,;:.?!。？！，；：—–]|\s-\s|\s(?:and|or)\s", folded)
    if kind == "how_many":
        counts = _typed(query_data()["kinds"]["how_many_asking"], lang)
        # "at least how many, at most how many?": one count's two bounds, one range answers
        asks = query_data()["quantity"]["asks"]
        bounds = all(_has(folded, _typed(asks[b], lang)) for b in ("at_least", "at_most"))
        return not bounds and sum(1 for c in clauses if _has(c, counts)) >= 2
    asking = {fold(w) for w in query_data()["kinds"]["asking_openers"]}
    return kind == "yesno" and sum(1 for c in clauses if c.split() and c.split()[0] in asking) >= 2


def stated_numbers(u: Understood) -> list[tuple[str, int, int]]:
    """(bound, number, position after it) of the numbers a question states, but the years it
    names ("2005 OCG": the rules of a year, no count) and the numbers a word labels ("turn 1",
    kb/data/query.toml [quantity] labels)."""
    years, folded = years_named(u), fold(u.text)
    return [
        n for n in lexicon().quantities(u.text) if n[1] not in years and not labelled(folded, n[2])
    ]


def years_named(u: Understood) -> set[int]:
    """The years a question names ("2005 OCG"): the rules of a year, no count."""
    return {int(y) for y in re.findall(r"\d+", " ".join(map(str, u.years)))}


def labelled(folded: str, end: int) -> bool:
    """The number ending at ``end`` is labelled by the word before it ("turn 1", "Level 7":
    kb/data/query.toml [quantity] labels), not a count."""
    labels = {fold(w) for w in query_data()["quantity"]["labels"]}
    token = re.search(r"[\w.]+$", folded[:end])
    before = re.search(r"([^\W\d]+)\W*$", folded[: end - len(token.group())] if token else "")
    return before is not None and before.group(1) in labels


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


def asks(ctx: Context) -> None:
    """The kind of verdict the question asks for; the games' names and the rulesets opening a
    clause are read past ("vanguard can ...", "in FoW can ...")."""
    games = ctx.vocab.games
    names = {a for aliases in games.values() for a in aliases if not CJK_RUN.search(a)}
    named = tuple(sorted(names | set(column(ctx.conn, "ask_rulesets"))))
    u = ctx.result
    u.kind = kind(u.text, named, u.lang)
    if not u.kind and u.cards and set(u.facts) & set(query_data()["facts_numeric"]["fields"]):
        u.kind = "how_many"  # "Breaker the Magical Warrior ATK?" asks for a number
