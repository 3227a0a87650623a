"""A declared table handed to :func:`anko_writer.compact.compact` as its rows (:class:`~anko_writer.compact.Rows`,
issue 29 round 5) is written as the records it stands for would be: ``dict(zip(columns, row))`` for each row.

The records are the round-3 chapters of ``test_json_phase`` (every cell type, roll references in and out of the
chapter, strings that would read as references), under columns that let the rows skip the records' checks and
under columns that do not (a ``sealed_by``, a ``rows``, a key to drop, a possible roll reference, a repeated field).
:func:`~anko_writer.compact.expand`, which copies scalars where they stand since round 5, reads what the value by
value expansion of 979b28a read.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.compact import ROWS, Rows, compact, expand, rows_of, unpack_rolls
from tests.core.test_json_phase import FIELDS, chapters

COLUMN_CHOICES: tuple[tuple[str, ...], ...] = (
    FIELDS[:-1], FIELDS, ("die_roll", "slice", "team"), ("id", "expr", "total", "slice"), ("slice", "sealed_by"),
    ("rows", "slice", "team"), ("slice", "team", "slice"), ("id", "name", "age"))
"""The attacks' columns a case declares: plain ones, one with the dropped ``text``, ones whose records need their
own checks."""


def _as_rows(rec: dict[str, Any], fields: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``rec`` with each match's attacks and players as :class:`Rows`, and as the records they stand for."""
    rows, records = copy.deepcopy(rec), copy.deepcopy(rec)
    for key, declared in (("attacks", fields), ("players", ("id", "name", "age"))):
        for m, plain in zip(rows["matches"], records["matches"], strict=True):
            if all(type(r) is dict for r in m[key]):
                m[key] = Rows([[r.get(f) for f in declared] for r in m[key]])
                plain[key] = [dict(zip(declared, row, strict=True)) for row in m[key].rows]
    return rows, records


def _run(rec: dict[str, Any], fields: tuple[str, ...], drop: bool) -> Any:
    """``compact(rec)`` under the case's columns, or the error it raises."""
    try:
        return compact(rec, {"attacks": fields, "players": ("id", "name", "age")},
                       {"modifiers": ("formation", "venue", "event")}, drop=("text",) if drop else ())
    except ValueError as e:
        return ValueError, str(e)


@settings(max_examples=80, deadline=None)
@given(chapters(), st.sampled_from(COLUMN_CHOICES), st.booleans())
def test_rows_write_what_their_records_write(rec: dict[str, Any], fields: tuple[str, ...], drop: bool) -> None:
    """Every table, reference, record row, used column and refusal as for the records, the rows left as given."""
    rows, records = _as_rows(rec, fields)
    kept = [copy.deepcopy(m[k].rows) for m in rows["matches"] for k in ("attacks", "players") if type(m[k]) is Rows]
    given_out, plain_out = _run(rows, fields, drop), _run(records, fields, drop)
    if isinstance(given_out, tuple) and isinstance(plain_out, tuple):
        assert given_out[0] is plain_out[0] is ValueError
    else:
        assert given_out == plain_out
        assert expand(given_out) == expand(plain_out)
    assert kept == [m[k].rows for m in rows["matches"] for k in ("attacks", "players") if type(m[k]) is Rows]


def test_rows_under_a_key_without_columns_are_refused() -> None:
    """Rows say nothing of their fields: under a key the chapter does not declare they are an error."""
    with pytest.raises(ValueError, match="do not declare"):
        compact({"rolls": [], "matches": [{"id": "m", "attacks": Rows([[1]])}]}, {})


def test_rows_of_the_wrong_width_are_refused() -> None:
    """A row shorter or longer than the columns is an error, not a table with shifted cells."""
    with pytest.raises(ValueError, match="cells"):
        compact({"rolls": [], "matches": [{"id": "m", "attacks": Rows([[1, 2], [1]])}]}, {"attacks": ("a", "b")})


def test_no_rows_is_an_empty_list() -> None:
    """An empty table is written ``[]`` as an empty list of records is, and names no columns."""
    out = compact({"rolls": [], "matches": [{"id": "m", "attacks": Rows([])}]}, {"attacks": ("a", "b")})
    assert out == {"rolls": {"kinds": [], "runs": []}, "matches": [{"id": "m", "attacks": []}]}


def _reference_expand(obj: Any, base: str | None, key: str | None, columns: Any, records: Any) -> Any:
    """Rules 1 and 3 undone value by value, as compact.py at 979b28a did (the oracle of :func:`expand`)."""
    if isinstance(obj, dict) and ROWS in obj and set(obj) <= {"fields", ROWS}:
        fields = columns.get(key) if key is not None else None
        return [_reference_expand(r, base, None, columns, records) for r in rows_of(obj, fields)]
    if isinstance(obj, dict):
        inner = obj["id"] if isinstance(obj.get("id"), str) and obj["id"][:1] not in "#/" else base
        return {k: _reference_expand(v, inner, k, columns, records) for k, v in obj.items()}
    if isinstance(obj, list):
        fields = records.get(key) if key is not None else None
        if fields is not None:
            return {k: _reference_expand(v, base, k, columns, records) for k, v in zip(fields, obj, strict=False)}
        return [_reference_expand(v, base, None, columns, records) for v in obj]
    if isinstance(obj, str) and base is not None and obj[:1] in ("#", "/"):
        return base + obj
    return obj


def _reference(record: dict[str, Any]) -> dict[str, Any]:
    """:func:`expand` by the oracle."""
    columns, records = record.get("columns") or {}, record.get("records") or {}
    return {key: unpack_rolls(value) if key == "rolls" and isinstance(value, dict)
            else [_reference_expand(v, None, None, columns, records) for v in value] if isinstance(value, list)
            else _reference_expand(value, None, key, columns, records)
            for key, value in record.items() if key not in ("columns", "records")}


TEXT = st.sampled_from(["甲", "#3", "/gate#1", "s1/m03/甲-乙", "", "rows", "fields"])
TREES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-2, 9), TEXT),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.sampled_from(["id", "rows", "fields", "attacks", "modifiers", "rolls_of", "x"]), inner,
                         max_size=4), max_leaves=24)


@settings(max_examples=80, deadline=None)
@given(chapters(), TREES, st.sampled_from([(), ("rows",), ("id", "x")]))
def test_expand_reads_what_the_value_by_value_expansion_read(rec: dict[str, Any], tree: Any,
                                                            declared: tuple[str, ...]) -> None:
    """Every table (one whose rows read as tables too), record row, relative id and scalar as before."""
    out = _run(rec, FIELDS[:-1], False)
    if isinstance(out, tuple):
        return
    out = {**out, "columns": {**out.get("columns", {}), "x": list(declared)},
           "records": {**out.get("records", {}), "modifiers": ["id", "x"]}, "tree": tree, "more": [tree, {"id": "m", "t": tree}]}
    assert _read(expand, out) == _read(_reference, out)


def _read(read: Any, record: dict[str, Any]) -> Any:
    """``read(record)``, or the kind of error it raises (a table of rows alone without its columns …)."""
    try:
        return read(record)
    except (ValueError, TypeError, LookupError) as e:
        return type(e)


def test_an_empty_id_keeps_the_references_below_it_relative_to_the_record_above() -> None:
    """An empty ``id`` names no record: a reference below it reads against the id above, as the oracle reads it
    (Hypothesis found the case: ``{"id": ""}`` had been taken as a base of its own)."""
    record = {"more": [{"id": "m", "t": {"id": "", "rows": "#3"}}]}
    assert expand(record) == _reference(record) == {"more": [{"id": "m", "t": {"id": "", "rows": "m#3"}}]}
