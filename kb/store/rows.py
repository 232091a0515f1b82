"""Creating the tables and inserting rows, the same way for every table.

A table that stores a record is written from the records themselves: its schema
(``kb.store.schema``) says how one becomes a row. A table with no single record is written from
dicts, which must have exactly the declared columns: a key missing or misspelt here would
otherwise become a NULL or an error far from its cause.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import sqlite_utils

from . import schema


def create_tables(db: sqlite_utils.Database) -> None:
    """Every table, index and the full-text table, empty, in the schema's order."""
    for name, table in schema.TABLES.items():
        db.table(name).create(table.columns, pk=table.pk, foreign_keys=table.foreign_keys)
    for name, columns in schema.INDEXES:
        db.table(name).create_index(columns)
    for name, columns in schema.UNIQUE_INDEXES:
        db.table(name).create_index(columns, unique=True)
    db.execute(schema.FTS_SQL)


def insert_records(
    db: sqlite_utils.Database, name: str, records: Iterable[Any], start: int = 1
) -> int:
    """Insert ``records`` as rows of table ``name``, numbered from ``start`` (for the tables
    whose id or seq is the row's number); return the next number."""
    make_row = schema.TABLES[name].row
    if make_row is None:
        raise ValueError(f"table {name} stores no record: use insert_rows")
    following = start

    def rows() -> Iterator[dict[str, Any]]:  # one batch at a time: records may be a generator
        nonlocal following
        for n, record in enumerate(records, start):
            following = n + 1
            yield make_row(record, n)

    db.table(name).insert_all(rows())
    return following


def insert_rows(db: sqlite_utils.Database, name: str, rows: Iterable[dict[str, Any]]) -> None:
    """Insert dict rows into table ``name``; each must have exactly the declared columns."""
    columns = schema.TABLES[name].columns.keys()

    def checked() -> Iterator[dict[str, Any]]:  # as they come: a table may have millions
        for row in rows:
            if row.keys() != columns:
                raise ValueError(f"{name} row has columns {sorted(row)}, not {sorted(columns)}")
            yield row

    db.table(name).insert_all(checked())


def numbered(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give rows an ``id`` 1, 2, 3... in the (deterministic) order they come."""
    return [{"id": i, **row} for i, row in enumerate(rows, start=1)]
