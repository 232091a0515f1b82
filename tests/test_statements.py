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
