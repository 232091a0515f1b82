"""The statements lexicon reads bounds, modality and conditions of rule sentences in any
language the lexicon lists."""

from ingest.statements import load_lexicon


def test_the_bound_nearest_a_number_governs_it() -> None:
    found = load_lexicon().quantities(
        "A main deck must contain at least forty cards and no more than a maximum of sixty cards."
    )
    assert [(bound, value) for bound, value, _ in found] == [("at_least", 40), ("at_most", 60)]


def test_modal_marks_keep_the_longest_cue() -> None:
    marks = load_lexicon().modal_marks("A rested J/resonator cannot block.")
    assert [kind for _, _, kind in marks] == ["cannot"]


def test_a_condition_after_what_it_governs() -> None:
    lexicon = load_lexicon()
    assert lexicon.split_condition("You also win if the opponent can't draw a card.") == (
        "the opponent can't draw a card",
        "You also win",
    )
    assert lexicon.split_condition("If a player has no cards, he loses.") == (
        "a player has no cards",
        "he loses.",
    )
    # Comparison and concession are no conditions.
    assert lexicon.split_condition("Treat the cards as if they had no trigger icon.") is None
    assert lexicon.split_condition("The attack continues even if the monster leaves.") is None
