"""The statements lexicon reads bounds, modality and conditions of rule sentences in any
language the lexicon lists."""

from ingest.statements import load_lexicon


def test_the_bound_nearest_a_number_governs_it() -> None:
    found = load_lexicon().quantities(
        "A main deck must contain at least forty cards and no more than a maximum of sixty cards."
    )
    assert [(bound, value) for bound, value, _ in found] == [("at_least", 40), ("at_most", 60)]


def test_a_negated_fewer_than_is_a_minimum() -> None:
    found = load_lexicon().quantities("A hand can’t have fewer than 0 cards in it.")
    assert [(bound, value) for bound, value, _ in found] == [("at_least", 0)]


def test_modal_marks_keep_the_longest_cue() -> None:
    marks = load_lexicon().modal_marks("A rested J/resonator cannot block.")
    assert [kind for _, _, kind in marks] == ["cannot"]


def test_an_apostrophe_typeset_negates_as_one_typed() -> None:
    """Lorcana's rules (and phones) write "can’t": read as "can", a rule forbidding something
    became a fact allowing it, and "can I quest the turn I played it?" was answered yes."""
    lexicon = load_lexicon()
    for text in ("A character can’t quest the same turn it’s played.", "You don’t need to pay."):
        typed = text.replace("’", "'")
        assert [k for *_, k in lexicon.modal_marks(text)] == [
            k for *_, k in lexicon.modal_marks(typed)
        ]
    assert [k for *_, k in lexicon.modal_marks("A character can’t quest.")] == ["cannot"]


def test_a_typeset_negation_says_what_does_not_happen() -> None:
    """ "This isn’t a triggered ability and doesn’t use the bag": read as "does", Lorcana's
    rules said the opposite of what they say."""
    from ingest.extract.clauses import reading

    lexicon = load_lexicon()
    for text in ("Reminder text isn’t rules text.", "This ability doesn’t use the bag."):
        typed = reading(lexicon, text.replace("’", "'"))
        typeset = reading(lexicon, text)
        assert typed is not None and typeset is not None
        assert typeset["modality"] == typed["modality"] == "does-not"


def test_a_word_typed_with_marks_is_not_the_cue_its_folded_form_spells() -> None:
    """Folded, "nó" (it) is "no", "dụng" (use) is "dùng"'s and "đừng"'s (don't) "dung", "cần"
    (need) is "can" and "Số" (number) "so": read as cues, 55 of the 76 Vietnamese clauses the
    build read as saying what does not happen said what does ("nó sẽ lật lên mặt-ngửa": it is
    flipped face-up). A cue still reads in a question typed without marks."""
    from ingest.extract.clauses import reading

    lexicon = load_lexicon()
    for text in (
        "Nếu quái thú bị tấn công ở mặt-úp, nó sẽ lật lên mặt-ngửa tại thời điểm này.",
        "Các lá bài được sử dụng trước đó được hồi phục.",
    ):
        read = reading(lexicon, text)
        assert read is not None and read["modality"] == "does"
    assert lexicon.modality("bạn cần rút một lá") == ""
    read = reading(lexicon, "Số lá bài trên tay không giới hạn.")
    assert read is not None and read["outcome"].startswith("Số lá bài")
    # Typed without marks, the words are the cues they spell.
    typed = reading(lexicon, "no khong rut bai")
    assert typed is not None and typed["modality"] == "does-not"
    assert lexicon.modality("ban co the rut mot la") == lexicon.modality("can I draw") == "can"


def test_a_chinese_negation_or_exception_is_read_between_other_characters() -> None:
    """Chinese writes no spaces: a polarity or exception word stands between letters, and
    read as a whole word none was ever found ("他便不再是主动玩家", he is no longer the active
    player, read as saying what happens). Words that hold one and negate nothing ("不过",
    however; "而不是", rather than) do not negate their clause."""
    from ingest.extract.clauses import reading

    lexicon = load_lexicon()
    for text, modality in (
        ("他便不再是主动玩家。", "does-not"),
        ("场上没有角色。", "does-not"),
        ("不过，选择角色是发生在效果结算的时候。", "does"),
        ("该玩家抽一张卡，而不是两张。", "does"),
    ):
        read = reading(lexicon, text)
        assert read is not None and read["modality"] == modality, text
    read = reading(lexicon, "除非卡牌另有说明，该玩家抽一张卡。")
    assert read is not None and read["limits"] == "除非"


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


def test_a_condition_cut_at_then_stays_with_what_it_governs() -> None:
    """ "If X or Y, then Z" is one clause: Z holds under the condition, not everywhere."""
    clauses = load_lexicon().clauses(
        "If a monster leaves the field or has its ATK/DEF altered, then do not recalculate it."
    )
    assert clauses == [
        "If a monster leaves the field or has its ATK/DEF altered, then do not recalculate it."
    ]
    # A clause with its own outcome is still cut from the next.
    assert len(load_lexicon().clauses("If it is set, flip it, and both players may look.")) == 2


def test_a_term_written_plural_is_found_singular() -> None:
    from ingest.glossary import Finder, Rendering

    finder = Finder([Rendering("life-points", "en", "en", "Life Points", preferred=True)])
    found = [(r.term, s, e) for r, s, e in finder.find("Life point starts from 8000.")]
    assert found == [("life-points", 0, 10)]
    assert [r.term for r, _, _ in finder.find("Both players have 8000 life points")] == [
        "life-points"
    ]


def test_a_list_of_items_is_no_clause_boundary() -> None:
    """ "When a card, ability, or object ... is canceled, remove it": the list's commas and
    its ", or" cut nothing; the condition ends at the comma after it. "At the same time, he
    or she loses" is no list."""
    lexicon = load_lexicon()
    sentence = "When a card, ability, or object in the chase area is canceled, remove it."
    assert lexicon.clauses(sentence) == [sentence]
    assert lexicon.split_condition(sentence) == (
        "a card, ability, or object in the chase area is canceled",
        "remove it.",
    )
    assert lexicon.split_condition(
        "If that player has no cards in the soul at the same time, he or she loses."
    ) == ("that player has no cards in the soul at the same time", "he or she loses.")


def test_a_vietnamese_number_word_typed_without_its_accents_is_no_number() -> None:
    """Typed without accents, "sau" is "after" (sáu: six) and "bay" the Trap of "Bài Bẫy"
    (bảy: seven); written with them, they are numbers."""
    lexicon = load_lexicon()
    assert lexicon.quantities("bai bay co kich hoat ngay sau khi tinh toan khong") == []
    assert [v for _, v, _ in lexicon.quantities("có sáu lá bài và bảy lá bài")] == [6, 7]


def test_a_number_word_without_marks_typed_with_them_is_another_word() -> None:
    """Folded, "tên" (name) is "ten", "hại" of "thiệt hại" (damage) is "hai" (two) and "bà"
    is "ba" (three): a number word without marks counts only as typed so."""
    lexicon = load_lexicon()
    assert lexicon.quantities("Gây 6 thiệt hại cho tiên phong; tên thẻ, ông/bà") == [("", 6, 5)]
    assert [v for _, v, _ in lexicon.quantities("thứ hai, ba lá, two cards")] == [2, 3, 2]
    # Where folding changes the text's length, a number word still counts.
    assert [v for _, v, _ in lexicon.quantities("İ rút bốn lá")] == [4]


def test_a_purpose_opening_a_sentence_is_its_condition() -> None:
    """What a rule says to do for a purpose is done when it is: "To destroy J-ruler cards,
    put it into its owner's ruler area" holds under "destroy J-ruler cards"; a noun phrase
    after "to" opens no purpose."""
    lexicon = load_lexicon()
    assert lexicon.split_condition("To destroy J-ruler cards, put it into the ruler area.") == (
        "destroy J-ruler cards",
        "put it into the ruler area.",
    )
    assert lexicon.split_condition("To the extent possible, players play quickly.") is None


def test_an_aside_inside_a_condition_does_not_end_it() -> None:
    """A comma after a word the condition cannot end on opens an aside ("If a player has, by
    any legal means, gained ..."); a comma with no space after it still ends the condition
    (PDF text: "one,that"); a comma inside a number does not."""
    lexicon = load_lexicon()
    sentence = (
        "If a player has, by any legal means, gained an additional turn after their current "
        "one,that turn begins as soon as the end phase of their current turn finishes."
    )
    assert lexicon.split_condition(sentence) == (
        "a player has, by any legal means, gained an additional turn after their current one",
        "that turn begins as soon as the end phase of their current turn finishes.",
    )
    assert lexicon.split_condition("If you have 1,000 life, you win.") == (
        "you have 1,000 life",
        "you win.",
    )
