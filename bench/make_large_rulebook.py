#!/usr/bin/env python3
"""Write a large synthetic comprehensive rulebook of the fictional game "Grimhollow Duels".

Usage: python make_large_rulebook.py OUT.txt [--rules N]

The layout is the one of skyrealm-cr-1.0.txt: a title block, a "Contents" list of every
chapter ("1. Game Concepts") and section ("100. General"), chapters above their sections,
numbered rules "100.1. Text" and sub-rules "100.1a Text", some "Example:" lines, cross-references
("See rule 301.4.", "(see 502.2b)", "as described in section 400"), a "Glossary" (term line,
definition on the next line) and "Credits".

The words deliberately overlap those of real card games (magic, trigger, draw, attack, deck,
graveyard, chain, damage, block, life, phase, spell, monster), so that a knowledge base that
holds this game and real ones has to tell them apart by more than vocabulary.

Deterministic: the same N always gives the same bytes (fixed seed, standard library only).
N counts numbered rules plus sub-rules of the body (the contents and glossary are not counted)
and is met exactly. N must be between 200 and 20000; the default is 4000.
"""

from __future__ import annotations

import argparse
import random
import sys

SEED = 20250601
DEFAULT_RULES = 4000
MIN_RULES, MAX_RULES = 200, 20000
RULES_PER_SECTION = 20
MAX_SUBRULES = 6

GAME = "Grimhollow Duels"
TITLE = "Grimhollow Duels Comprehensive Rules"
VERSION = "Version 3.2"
EFFECTIVE = "Effective June 1, 2025"

CHAPTERS: list[tuple[str, list[str]]] = [
    (
        "Game Concepts",
        [
            "Players",
            "Winning and Losing",
            "Golden Rules",
            "Numbers and Symbols",
            "Life",
            "Magic",
            "Ownership and Control",
            "Hidden Information",
            "Deck Construction",
            "Starting the Game",
            "Game Actions",
        ],
    ),
    (
        "Parts of a Card",
        [
            "Name",
            "Magic Cost",
            "Card Type",
            "Fury and Guard",
            "Rules Text",
            "Flavor Text",
            "Rarity Mark",
            "Hollow Symbol",
            "Set Code",
            "Illustration",
            "Frame Color",
        ],
    ),
    (
        "Card Types",
        [
            "Monsters",
            "Spells",
            "Wards",
            "Relics",
            "Lairs",
            "Tokens",
            "Hybrid Cards",
            "Ritual Spells",
            "Swift Spells",
            "Elder Monsters",
        ],
    ),
    (
        "Zones",
        [
            "Deck",
            "Hand",
            "Field",
            "Graveyard",
            "Hollow Gate",
            "Well",
            "Exile",
            "The Chain",
            "Public and Hidden Zones",
            "Moving Between Zones",
        ],
    ),
    (
        "Turn Structure",
        [
            "Wake Phase",
            "Draw Phase",
            "Main Phase",
            "Battle Phase",
            "End Phase",
            "Extra Phases",
            "Skipping Phases",
            "Turn Order",
            "First Turn",
        ],
    ),
    (
        "Spells and Magic",
        [
            "Casting Spells",
            "Paying Magic",
            "Targets",
            "Modes",
            "Additional Costs",
            "Cost Reduction",
            "Countering Spells",
            "Copying Spells",
            "Spell Resolution",
        ],
    ),
    (
        "Attacks and Damage",
        [
            "Declaring Attacks",
            "Declaring Blocks",
            "Damage Assignment",
            "Damage Step",
            "Direct Attacks",
            "Life Loss",
            "Preventing Damage",
            "Destroying Monsters",
            "Combat Abilities",
        ],
    ),
    (
        "Triggers and Chains",
        [
            "Triggered Abilities",
            "Building a Chain",
            "Chain Links",
            "Resolving a Chain",
            "Responding",
            "Priority",
            "Delayed Triggers",
            "State Checks",
            "Replacement Effects",
            "Continuous Effects",
        ],
    ),
    (
        "Additional Rules",
        [
            "Multiplayer Duels",
            "Team Duels",
            "Draft Play",
            "Tokens and Copies",
            "Concessions",
            "Infinite Loops",
            "Tournament Shortcuts",
            "Judge Calls",
            "Casual Variants",
        ],
    ),
]
QUALIFIERS = [
    "Timing",
    "Special Cases",
    "Restrictions",
    "Multiplayer",
    "Clarifications",
    "Interactions",
    "Exceptions",
    "Older Cards",
    "Errata",
    "Procedure",
]

ACTORS = [
    "The active player",
    "Each player",
    "The defending player",
    "The controller of the spell",
    "A player who controls a monster",
    "The owner of the card",
    "The attacking player",
    "A player with no cards in hand",
    "The player who started the chain",
]
ACTIONS = [
    "draw one card",
    "cast a spell from their hand",
    "declare an attack",
    "activate a magic ability",
    "put a trigger on the chain",
    "move a monster to the graveyard",
    "pay life instead of magic",
    "shuffle their deck",
    "block with a ready monster",
    "summon a monster through the Hollow Gate",
    "look at the top card of their deck",
    "return a spell from the graveyard to their hand",
    "set a ward face down",
    "discard a card to the graveyard",
    "add one magic to the Well",
]
TIMINGS = [
    "the Main Phase",
    "the Battle Phase",
    "the Draw Phase",
    "the End Phase",
    "their own turn",
    "a chain they started",
    "the damage step of an attack",
    "the Wake Phase",
    "any phase in which the chain is empty",
    "an opponent's turn",
]
EVENTS = [
    "a monster is destroyed by damage",
    "a spell is cast while the chain is empty",
    "a player would draw from an empty deck",
    "an attack is blocked",
    "two triggers happen at the same time",
    "a monster leaves the field",
    "a player's life becomes 0 or less",
    "magic is spent from the Well",
    "a ward is revealed",
    "a chain link is negated",
    "a monster is summoned face down",
    "damage would be dealt to a player",
    "a card is put into a graveyard from the deck",
    "the Battle Phase ends",
    "a relic changes control",
]
RESULTS = [
    "that card is put into its owner's graveyard",
    "the chain resolves from the last link to the first",
    "the player loses 2 life instead",
    "no damage is dealt",
    "the attack ends",
    "each trigger is put on the chain in the order its controller chooses",
    "that player loses the game at the next state check",
    "the spell does nothing",
    "the monster stays on the field until the End Phase",
    "its controller draws one card",
    "the damage is dealt to the Well instead",
    "the next phase begins",
    "the card is shuffled into its owner's deck",
    "both players reveal their hands",
    "the monster cannot attack during the next turn",
]
THINGS = [
    "A monster",
    "A spell",
    "A ward",
    "A relic",
    "A token monster",
    "A chain link",
    "An attacking monster",
    "A blocking monster",
    "A Lair",
    "An Elder Monster",
    "A Swift Spell",
    "A trigger",
]
CONDITIONS = [
    "entered the field this turn",
    "was drawn during the Draw Phase",
    "was returned from the graveyard",
    "has damage equal to its Guard",
    "is the target of a spell",
    "was summoned through the Hollow Gate",
    "is part of a chain",
    "blocked during this Battle Phase",
    "has no magic cost",
    "is controlled by an opponent",
]
CONSEQUENCES = [
    "loses all abilities until the end of the phase",
    "cannot block during this turn",
    "deals no damage",
    "is put on the bottom of its owner's deck",
    "triggers once for each monster it affects",
    "remains on the chain until it resolves",
    "is destroyed at the next state check",
    "gains 1 Fury until the end of the turn",
    "cannot be targeted by spells",
    "is treated as a new object",
    "keeps any counters on it",
    "can attack only if its controller pays 1 life",
]
STATES = [
    "the chain is not empty",
    "its controller has 5 or less life",
    "it is face down",
    "another monster blocks it",
    "the Well holds no magic",
    "it is in the graveyard",
    "the Battle Phase is in progress",
]
EXTRAS = [
    "This does not use the chain.",
    "Players may not respond to this.",
    "This is not a trigger.",
    "This rule applies even if a card says otherwise.",
    "The opponent is told the number, not the cards.",
    "Magic spent this way is lost.",
    "This cannot cause a player to lose life.",
    "It happens only once per turn.",
    "Damage dealt this way is battle damage.",
    "The card keeps its counters.",
]
STATS = ["Fury", "Guard", "magic cost", "life total"]
STAT_RULES = [
    "the printed number unless an effect changes it",
    "never less than zero, even after several effects lower it",
    "checked again every time a chain link resolves",
    "fixed as the attack is declared and does not change during the damage step",
    "the sum of its printed value and all counters on it",
]

SYLLABLES_A = [
    "Mor",
    "Ash",
    "Vel",
    "Grim",
    "Thor",
    "Kael",
    "Sabl",
    "Wyr",
    "Ost",
    "Drev",
    "Luth",
    "Nim",
]
SYLLABLES_B = ["row", "en", "ath", "ick", "wen", "gar", "oss", "ith", "umb", "ara", "esk", "ol"]
EPITHETS = [
    "Fang",
    "Warden",
    "Lantern",
    "Hound",
    "Shade",
    "Colossus",
    "Witch",
    "Sentry",
    "Moth",
    "Knell",
]

GLOSSARY: list[tuple[str, str, int]] = [
    # (term, definition, chapter whose rule it cites: 0 = none)
    ("Active Player", "The player whose turn it is.", 1),
    (
        "Attack",
        "The act of sending a ready monster against an opponent during the Battle Phase.",
        7,
    ),
    ("Battle Phase", "The third phase of a turn, in which monsters attack and block.", 5),
    ("Block", "To stand a ready monster in the way of an attacking monster.", 7),
    ("Chain", "The list of spells and triggers waiting to resolve, last link first.", 8),
    ("Chain Link", "One spell or trigger on the chain.", 8),
    (
        "Damage",
        "What monsters and spells deal to monsters and players. "
        "Damage to a player lowers their life.",
        7,
    ),
    ("Deck", "A player's face-down pile of cards to draw from.", 4),
    ("Draw Phase", "The phase in which the active player draws a card.", 5),
    ("Elder Monster", "A monster that needs two monsters sent to the graveyard to be summoned.", 3),
    ("End Phase", "The last phase of a turn.", 5),
    ("Exile", "The zone for cards removed from the duel.", 4),
    ("Field", "The zone where monsters, wards, relics and Lairs are in play.", 4),
    ("Fury", "The first number of a monster: the damage it deals in battle.", 2),
    ("Graveyard", "A player's discard pile, face up.", 4),
    ("Guard", "The second number of a monster: the damage it can take before it is destroyed.", 2),
    ("Hollow Gate", "The zone a monster passes through as it is summoned.", 4),
    ("Lair", "A card type that stays on the field and changes the rules for both players.", 3),
    ("Life", "A player's score of survival. A player at 0 or less life loses the duel.", 1),
    ("Magic", "The resource spent to cast spells and summon monsters, kept in the Well.", 1),
    ("Main Phase", "The phase in which the active player casts spells and summons monsters.", 5),
    ("Monster", "A card type that can attack and block.", 3),
    ("Phase", "One of the five parts of a turn.", 5),
    ("Relic", "A card type that stays on the field and can be activated.", 3),
    (
        "Spell",
        "A card type with a one-time effect. A spell goes to the graveyard after it resolves.",
        3,
    ),
    (
        "State Check",
        "The automatic check that destroys monsters and ends the duel for players at 0 life.",
        8,
    ),
    ("Swift Spell", "A spell that can be cast during any phase, even as a response on a chain.", 3),
    ("Token Monster", "A monster created by an effect rather than drawn from a deck.", 3),
    ("Trigger", "An ability that waits for an event and then goes on the chain.", 8),
    ("Wake Phase", "The first phase of a turn, in which cards are readied.", 5),
    ("Ward", "A card type set face down on the field and revealed when its condition is met.", 3),
    ("Well", "The zone that holds a player's magic.", 4),
]
CREDITS = [
    "Rules Manager: Hester Vauclain",
    "Rules Team: Orrin Maddox, Sefa Lindqvist, Anouk Perrault",
    "Editing: Bastian Coyle",
    "Thanks to the judges of the Grimhollow Open and to every player who sent a rules question.",
]


def _section_titles(topics: list[str], count: int) -> list[str]:
    titles = ["General"] + list(topics)
    k = 0
    while len(titles) < count:
        titles.append(
            f"{topics[k % len(topics)]}: {QUALIFIERS[(k // len(topics)) % len(QUALIFIERS)]}"
        )
        k += 1
    return titles[:count]


def plan(n_rules: int, rng: random.Random) -> list[dict]:
    """Chapters, their sections and the rule numbers of each section, exactly n_rules in all."""
    n_chapters = len(CHAPTERS)
    n_sections = max(n_chapters, min(99 * n_chapters, round(n_rules / RULES_PER_SECTION)))
    per_chapter = [
        n_sections // n_chapters + (1 if i < n_sections % n_chapters else 0)
        for i in range(n_chapters)
    ]
    budgets = [
        n_rules // n_sections + (1 if i < n_rules % n_sections else 0) for i in range(n_sections)
    ]
    for _ in range(n_sections * 3):
        a, b = rng.randrange(n_sections), rng.randrange(n_sections)
        k = rng.randint(1, 6)
        if a != b and budgets[a] - k >= 4:
            budgets[a] -= k
            budgets[b] += k
    chapters, s = [], 0
    for ci, (ctitle, topics) in enumerate(CHAPTERS):
        sections = []
        for si, stitle in enumerate(_section_titles(topics, per_chapter[ci])):
            number = (ci + 1) * 100 + si
            budget, entries, r = budgets[s], [], 0
            s += 1
            while budget > 0:
                r += 1
                budget -= 1
                subs = 0
                if budget > 0 and rng.random() < 0.35:
                    subs = rng.randint(1, min(MAX_SUBRULES, budget))
                budget -= subs
                entries.append(f"{number}.{r}")
                entries.extend(f"{number}.{r}{chr(ord('a') + j)}" for j in range(subs))
            sections.append({"number": number, "title": stitle, "entries": entries})
        chapters.append({"number": ci + 1, "title": ctitle, "sections": sections})
    return chapters


def _name(rng: random.Random) -> str:
    return f"{rng.choice(SYLLABLES_A)}{rng.choice(SYLLABLES_B)} {rng.choice(EPITHETS)}"


def _sentence(rng: random.Random) -> str:
    t = rng.randrange(7)
    if t == 0:
        return f"{rng.choice(ACTORS)} may {rng.choice(ACTIONS)} only during {rng.choice(TIMINGS)}."
    if t == 1:
        return f"If {rng.choice(EVENTS)}, {rng.choice(RESULTS)}."
    if t == 2:
        return f"{rng.choice(THINGS)} that {rng.choice(CONDITIONS)} {rng.choice(CONSEQUENCES)}."
    if t == 3:
        verb = rng.choice(["must", "may"])
        return (
            f"When {rng.choice(EVENTS)}, {rng.choice(ACTORS).lower()} {verb} {rng.choice(ACTIONS)}."
        )
    if t == 4:
        thing = rng.choice(THINGS)
        action = rng.choice(
            ["attack", "block", "be targeted", "leave the field", "be put on the chain"]
        )
        return f"{thing} cannot {action} while {rng.choice(STATES)}."
    if t == 5:
        return (
            f"The {rng.choice(STATS)} of {rng.choice(THINGS).lower()} is {rng.choice(STAT_RULES)}."
        )
    return f"During {rng.choice(TIMINGS)}, {rng.choice(ACTORS).lower()} may {rng.choice(ACTIONS)}."


def _example(rng: random.Random) -> str:
    a, b = _name(rng), _name(rng)
    fa, gb = rng.randint(1, 6), rng.randint(1, 6)
    outcome = "is destroyed" if fa >= gb else "survives the damage step"
    return (
        f"Example: {a}, a monster with {fa} Fury, attacks. The defending player blocks with {b}, "
        f"which has {gb} Guard, so {b} {outcome}."
    )


def build(n_rules: int = DEFAULT_RULES) -> str:
    if not MIN_RULES <= n_rules <= MAX_RULES:
        raise ValueError(f"--rules must be between {MIN_RULES} and {MAX_RULES}, got {n_rules}")
    rng = random.Random(SEED)
    chapters = plan(n_rules, rng)
    all_rules = [e for c in chapters for s in c["sections"] for e in s["entries"]]
    all_sections = [s["number"] for c in chapters for s in c["sections"]]
    by_chapter = {c["number"]: [e for s in c["sections"] for e in s["entries"]] for c in chapters}

    out = [
        TITLE,
        VERSION,
        EFFECTIVE,
        "",
        f"This document is the complete reference for {GAME}. It is meant for judges and for "
        "players who want the exact answer to a rules question; the rulebook in every starter "
        "deck is enough to learn the game.",
        "",
        "Contents",
        "",
    ]
    for c in chapters:
        out.append(f"{c['number']}. {c['title']}")
        out.extend(f"{s['number']}. {s['title']}" for s in c["sections"])
    out += ["Glossary", "Credits", ""]

    for c in chapters:
        out += [f"{c['number']}. {c['title']}", ""]
        for s in c["sections"]:
            out += [f"{s['number']}. {s['title']}", ""]
            for e in s["entries"]:
                sub = e[-1].isalpha()
                if e.endswith(".1") and s["title"] == "General":
                    text = (
                        f"This section gives the general rules for {c['title'].lower()}. "
                        f"{_sentence(rng)}"
                    )
                else:
                    text = _sentence(rng)
                    if not sub and rng.random() < 0.3:
                        text += " " + rng.choice([_sentence(rng), rng.choice(EXTRAS)])
                roll = rng.random()
                target = rng.choice(all_rules)
                if target == e:
                    target = all_rules[all_rules.index(e) - 1]
                if roll < 0.06:
                    text += f" See rule {target}."
                elif roll < 0.09:
                    text = text[:-1] + f" (see {target})."
                elif roll < 0.11:
                    text += f" This works as described in section {rng.choice(all_sections)}."
                out.append(f"{e} {text}" if sub else f"{e}. {text}")
                if not sub and rng.random() < 0.04:
                    out.append(_example(rng))
                out.append("")

    out += ["Glossary", ""]
    for term, definition, chapter in GLOSSARY:
        out.append(term)
        if chapter:
            out.append(f"{definition} See rule {rng.choice(by_chapter[chapter])}.")
        else:
            out.append(definition)
        out.append("")
    out += ["Credits", ""] + CREDITS
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="file to write (UTF-8)")
    parser.add_argument(
        "--rules",
        type=int,
        default=DEFAULT_RULES,
        help=f"number of numbered rules and sub-rules (default {DEFAULT_RULES})",
    )
    args = parser.parse_args(argv)
    try:
        text = build(args.rules)
    except ValueError as exc:
        parser.error(str(exc))
    with open(args.out, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    print(
        f"wrote {args.out}: {args.rules} rules, {len(text.encode('utf-8'))} bytes", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
