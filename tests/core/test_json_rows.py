"""A declared table handed to :func:`anko_writer.compact.compact` as its rows (:class:`~anko_writer.compact.Rows`,
issue 29 round 5) is written as the records it stands for would be: ``dict(zip(columns, row))`` for each row.

The records are the round-3 chapters of ``test_json_phase`` (every cell type, roll references in and out of the
chapter, strings that would read as references), under columns that let the rows skip the records' checks and
under columns that do not (a ``sealed_by``, a ``rows``, a key to drop, a possible roll reference, a repeated field).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.compact import Rows, compact, expand
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
