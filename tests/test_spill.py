"""The build's processed documents wait on disk (ingest/spill.py): every stage must read them
exactly as it read the same documents held in a list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest import spill
from ingest.align import align_corpus
from ingest.errors import IngestError
from ingest.extract import extract_knowledge
from ingest.extract.terms import by_document
from ingest.glossary import load_glossary
from ingest.pipeline import run_pipeline
from ingest.records import Reading
from ingest.spill import Documents


@pytest.fixture
def spilled(small_corpus: Path) -> Iterator[Documents]:
    documents = run_pipeline(small_corpus).documents
    assert isinstance(documents, Documents)
    yield documents
    documents.close()


def test_spilled_documents_read_back_whole_and_in_order(spilled: Documents) -> None:
    listed = list(spilled)
    assert len(listed) == len(spilled) >= 6  # two originals, each with two translations
    assert [d.doc.doc_id for d in listed] == [h.doc.doc_id for h in spilled.heads]
    assert all(d.rules and d.sections for d in listed)
    # A head says what a document is, not what it holds.
    assert all(not h.rules and not h.sections for h in spilled.heads)
    assert [h.numbering for h in spilled.heads] == [d.numbering for d in listed]
    assert spilled[-1] == listed[-1] and spilled[1:3] == listed[1:3]
    with pytest.raises(IndexError):
        spilled[len(spilled)]


def test_documents_pushed_out_of_memory_load_again_unchanged(
    spilled: Documents, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = [spilled[i] for i in range(len(spilled))]
    monkeypatch.setattr(spill, "CACHE_BYTES", 1)  # keep one document loaded at a time
    for i in reversed(range(len(spilled))):
        assert spilled[i] == first[i]
    rule = first[0].rules[3]
    assert spilled.rules[rule.id] == rule
    assert spilled.by_id(first[-1].doc.doc_id) == first[-1]


def test_rules_are_found_by_id_across_documents(spilled: Documents) -> None:
    every = [r for d in spilled for r in d.rules]
    assert len(spilled.rules) == len(every)
    assert all(spilled.rules[r.id] == r for r in every[::7])
    assert None not in spilled.rules  # a question, as with a dict
    assert "no-such-document:1.1" not in spilled.rules
    with pytest.raises(KeyError):
        spilled.rules[f"{every[0].document}:no-such-rule"]


def test_stages_give_the_same_result_from_disk_as_from_a_list(spilled: Documents) -> None:
    listed = list(spilled)
    glossary = load_glossary()
    links, checks = align_corpus(spilled, glossary)
    again, checks_again = align_corpus(listed, glossary)
    assert links and (list(links), checks) == (list(again), checks_again)
    games = {h.doc.spec.game for h in spilled.heads}
    on_disk = extract_knowledge(spilled, glossary, games)
    in_memory = extract_knowledge(listed, glossary, games)
    facts = list(on_disk.facts_)
    assert facts and facts == list(in_memory.facts_)
    assert on_disk.timing.rules and on_disk.timing == in_memory.timing
    assert on_disk.cards == in_memory.cards
    counts = list(on_disk.term_counts)
    assert counts and counts == list(in_memory.term_counts)
    assert list(on_disk.rulings) == list(in_memory.rulings)
    assert list(on_disk.steps) == list(in_memory.steps)


def test_a_file_changed_between_the_two_reads_is_refused_by_name(small_corpus: Path) -> None:
    first, last = sorted(p for p in small_corpus.iterdir() if p.suffix == ".txt")

    def edit_the_first_when_the_last_is_read(message: str) -> None:
        if message == f"read {last.name}":  # the first file was read once, not yet twice
            first.write_text(first.read_text(encoding="utf-8") + "\nOne more line.\n")

    with pytest.raises(IngestError) as caught:
        run_pipeline(small_corpus, edit_the_first_when_the_last_is_read)
    assert caught.value.file == first.name and "changed while the build read it" in str(
        caught.value
    )


def test_a_stored_list_reads_back_every_item_across_its_chunks() -> None:
    stored: spill.Stored[tuple[int, str]] = spill.Stored(chunk=3)
    items = [(i, f"item {i}") for i in range(11)]  # three full chunks on disk, two in memory
    stored.extend(items[:7])
    assert list(stored) == items[:7]  # read while it grows
    stored.extend(items[7:])
    assert len(stored) == 11 and list(stored) == items
    assert stored[0] == items[0] and stored[-1] == items[-1] and stored[4] == items[4]
    assert stored[2:9] == items[2:9]
    # Reading one item while iterating loads another chunk: the iteration goes on unharmed.
    assert [(item, stored[10 - n]) for n, item in enumerate(stored)] == list(
        zip(items, reversed(items), strict=True)
    )
    with pytest.raises(IndexError):
        stored[11]
    stored.close()


def test_readings_are_handed_out_a_document_at_a_time() -> None:
    found = [Reading(f"{d}:{n}", f"text {d} {n}", ()) for d in ("a", "c") for n in (1, 2)]
    # Documents with no reading get none; each gets its own, in order.
    assert list(by_document(["a", "b", "c"], found)) == [found[:2], [], found[2:]]
    # A reading whose document is not where the walk expects it is an error, not lost.
    with pytest.raises(ValueError, match="c:1"):
        list(by_document(["c", "a"], found))


def test_lists_that_wait_for_the_writer_are_kept_on_disk_unchanged(small_corpus: Path) -> None:
    result = run_pipeline(small_corpus)
    k = result.knowledge
    try:
        listed = list(result.documents)
        _links, checks = align_corpus(listed, load_glossary())
        assert checks and isinstance(result.checks, spill.Stored)
        assert list(result.checks) == checks
        assert isinstance(result.infractions, spill.Stored)
        assert isinstance(k.restrictions, spill.Stored) and isinstance(k.readings, spill.Stored)
    finally:
        spill.close_all(result.documents, result.links, result.checks, result.infractions)
        spill.close_all(k.rulings, k.steps, k.restrictions, k.readings)
