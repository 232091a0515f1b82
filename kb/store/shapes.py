"""A table's row shape, declared once: its columns, and how a row is made.

A table that stores a pipeline record as it is takes its columns (names, order, types) from
the record's dataclass fields, and its rows from the record's attributes: a field added to
``ingest/records.py`` becomes a column and is written without a second declaration. Only a
column that differs from its field is spelled out: renamed, stored in another form
(``Stored``), left out (another table holds it) or added (``Added``: the row's number, or a
value computed from the record). A table with no single record lists its columns and is
written from plain dicts.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ForeignKeys = list[tuple[str, str, str]]  # (column, other table, other column)
RowMaker = Callable[[Any, int], dict[str, Any]]  # (record, row number) -> row
_Getter = Callable[[Any, int], Any]

# The Python types a field may have to be stored as it is, and the column type of each.
_COLUMN_TYPES: dict[type, type] = {str: str, int: int, float: float, bool: int}


@dataclass(frozen=True)
class Table:
    """One table: columns in the order Datasette shows, primary key, foreign keys; ``row``
    turns one record into a row when the table stores a record (None: rows are dicts)."""

    columns: dict[str, type]
    pk: str
    foreign_keys: ForeignKeys
    row: RowMaker | None = None


@dataclass(frozen=True)
class Stored:
    """A field stored in another form than its own: the column's type and the conversion."""

    type: type
    convert: Callable[[Any], Any]


@dataclass(frozen=True)
class Added:
    """A column that is no field of the record: ``value(record, row number)``, placed right
    after the column ``after`` (first when None)."""

    name: str
    type: type
    value: _Getter
    after: str | None = None


def _to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def row_number(_record: Any, number: int) -> int:
    """A numbered column's value: the row's place in write order, stable because the write
    order is (``kb.store`` writes records in the order the pipeline yields them)."""
    return number


AS_JSON = Stored(str, _to_json)  # tuples become JSON arrays
SPACE_JOINED = Stored(str, " ".join)  # ids that never contain a space
ROUNDED = Stored(float, lambda x: round(x, 4))  # similarity scores, to 4 decimals
ROW_ID = Added("id", int, row_number)  # 1, 2, 3... in the order the rows are written


def table(columns: dict[str, type], pk: str, foreign_keys: ForeignKeys | None = None) -> Table:
    """A table with no single record behind it: its columns as declared."""
    return Table(columns, pk, foreign_keys or [])


def record_table(
    record: type,
    pk: str = "id",
    foreign_keys: ForeignKeys | None = None,
    *,
    added: Iterable[Added] = (),
    rename: Mapping[str, str] | None = None,
    stored: Mapping[str, Stored] | None = None,
    omit: Iterable[str] = (),
) -> Table:
    """A table holding one ``record`` (a dataclass) per row, its shape derived from the fields.

    Raises TypeError for a field whose type has no column type and no ``stored`` form, for a
    name in the mapping that is no field and for two columns of one name (a typo would
    otherwise drop or overwrite a column silently).
    """
    rename, stored, omit = dict(rename or {}), dict(stored or {}), set(omit)
    fields = [f.name for f in dataclasses.fields(record)]
    unknown = (set(rename) | set(stored) | omit) - set(fields)
    if unknown:
        raise TypeError(f"{record.__name__} has no field {', '.join(sorted(unknown))}")
    hints = typing.get_type_hints(record)
    columns: list[tuple[str, type, _Getter]] = []
    for name in fields:
        if name in omit:
            continue
        form = stored.get(name) or Stored(_column_type(record, name, hints[name]), _as_is)
        columns.append((rename.get(name, name), form.type, _field_getter(name, form.convert)))
    for extra in added:
        names = [c[0] for c in columns]
        if extra.after is not None and extra.after not in names:
            raise TypeError(f"{record.__name__}: no column {extra.after} to put {extra.name} after")
        at = 0 if extra.after is None else names.index(extra.after) + 1
        columns.insert(at, (extra.name, extra.type, extra.value))
    names = [c[0] for c in columns]
    if len(set(names)) < len(names):
        raise TypeError(f"{record.__name__}: two columns named alike in {names}")
    getters = [(name, getter) for name, _, getter in columns]

    def row(item: Any, number: int) -> dict[str, Any]:
        return {name: getter(item, number) for name, getter in getters}

    return Table({name: type_ for name, type_, _ in columns}, pk, foreign_keys or [], row)


def _as_is(value: Any) -> Any:
    return value


def _field_getter(name: str, convert: Callable[[Any], Any]) -> _Getter:
    if convert is _as_is:
        return lambda item, _number: getattr(item, name)
    return lambda item, _number: convert(getattr(item, name))


def _column_type(record: type, name: str, hint: Any) -> type:
    """The column type of a field stored as it is; ``X | None`` is stored as ``X`` (NULL)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        hint = options[0] if len(options) == 1 else hint
    if hint not in _COLUMN_TYPES:
        raise TypeError(f"{record.__name__}.{name}: {hint} has no column type; give it a Stored")
    return _COLUMN_TYPES[hint]
