"""A table's row shape is declared once: a record table's columns come from its dataclass, and
a mistake in the mapping or in a hand-written row fails loudly at build time."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import sqlite_utils

from kb.store.rows import create_tables, insert_records, insert_rows
from kb.store.shapes import ROUNDED, ROW_ID, SPACE_JOINED, Added, record_table, row_number


@dataclass(frozen=True)
class Sample:
    name: str
    ids: tuple[str, ...]
    score: float
    official: bool
    note: str | None = None


def test_columns_follow_the_fields_with_renamed_added_and_converted_ones() -> None:
    table = record_table(
        Sample,
        pk="name",
        added=[ROW_ID, Added("first", str, lambda s, _n: s.ids[0], after="ids")],
        rename={"note": "comment"},
        stored={"ids": SPACE_JOINED, "score": ROUNDED},
    )
    assert list(table.columns.items()) == [
        ("id", int),
        ("name", str),
        ("ids", str),
        ("first", str),
        ("score", float),
        ("official", int),
        ("comment", str),
    ]
    assert table.row is not None
    assert table.row(Sample("a", ("x", "y"), 0.123456, True), 7) == {
        "id": 7,
        "name": "a",
        "ids": "x y",
        "first": "x",
        "score": 0.1235,
        "official": True,
        "comment": None,
    }


def test_a_field_with_no_column_type_or_a_mistaken_mapping_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Sample\.ids"):
        record_table(Sample, pk="name")
    with pytest.raises(TypeError, match="no field nmae"):
        record_table(Sample, pk="name", rename={"nmae": "x"}, stored={"ids": SPACE_JOINED})
    late = Added("seq", int, row_number, after="nmae")
    with pytest.raises(TypeError, match="no column nmae"):
        record_table(Sample, pk="name", added=[late], stored={"ids": SPACE_JOINED})
    with pytest.raises(TypeError, match="two columns named alike"):
        record_table(Sample, pk="name", rename={"note": "name"}, stored={"ids": SPACE_JOINED})


def test_hand_written_rows_must_have_exactly_the_declared_columns() -> None:
    db = sqlite_utils.Database(memory=True)
    create_tables(db)
    with pytest.raises(ValueError, match="search_vocab row has columns"):
        insert_rows(db, "search_vocab", [{"term": "life", "rules": 3}])
    with pytest.raises(ValueError, match="stores no record"):
        insert_records(db, "search_vocab", ["life"])
    insert_rows(db, "search_vocab", [{"term": "life", "rules": 3, "games": "{}", "langs": "[]"}])
    assert db.execute("SELECT term, rules FROM search_vocab").fetchall() == [("life", 3)]
