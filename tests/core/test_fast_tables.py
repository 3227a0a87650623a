"""Issue 29: tables are read by libyaml first; the locating parser reads a file again only to name a problem.

The fast path must give exactly what the locating parser gives (every shipped table, the rows' lines too),
and a broken table must still be one located error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from anko_writer import cache, render, tables, yamlio
from anko_writer.errors import TableError
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar.setup import tables as purasbar_tables
from anko_writer.schema import Field, Int, Map

ROOT = Path(__file__).resolve().parents[2]


def _declined(text: str, key: str | None = None) -> Any:
    """A fast parse that declines, as for a text libyaml cannot read."""
    raise yamlio.FastPathError("declined by the test")


def _located_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decline every fast parse of the table loaders."""
    monkeypatch.setattr(tables, "load_plain_fast_lines", _declined)
    monkeypatch.setattr("anko_writer.schema.load_plain_fast", _declined)


def _bundle() -> purasbar_tables.PurasbarTables:
    """The 群英杯's tables read now (no cache on disk or in the process)."""
    purasbar_tables.forget()
    return purasbar_tables.load_purasbar_tables(Resources("purasbar", None))


def test_the_shipped_tables_read_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every 群英杯 table, rows, parameters and row lines: libyaml's reading equals the locating parser's."""
    monkeypatch.setenv(cache.ENV, "off")
    fast = _bundle()
    _located_only(monkeypatch)
    located = _bundle()
    assert fast == located
    rows = [row for value in vars(fast).values() if isinstance(value, tables.DiceTable) for row in value.rows]
    assert rows and all(row.line > 0 for row in rows)


@pytest.mark.parametrize("path", sorted((ROOT / "tables").rglob("*.yaml")), ids=lambda p: p.name)
def test_each_dice_table_file_has_the_same_rows_on_both_paths(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each shipped dice table file (any ruleset's): the same table, row lines included, either way."""
    monkeypatch.setenv(cache.ENV, "off")
    if "rows:" not in path.read_text(encoding="utf-8") or "dice:" not in path.read_text(encoding="utf-8"):
        pytest.skip("not a dice table")
    try:
        fast = tables.load_table(path)
    except TableError:
        pytest.skip("a table of another shape")
    _located_only(monkeypatch)
    assert tables.load_table(path) == fast
    assert [r.line for r in tables.load_table(path).rows] == [r.line for r in fast.rows]


def test_a_broken_table_is_still_a_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row that does not cover its totals, or a bad value, names its file and line as before."""
    monkeypatch.setenv(cache.ENV, "off")
    bad = tmp_path / "t.yaml"
    bad.write_text("name: t\nsource: designed\ndice: 1D6\nrows:\n  - range: 1-3\n    effect: a\n"
                   "  - range: 5-6\n    effect: b\n", encoding="utf-8")
    with pytest.raises(TableError) as err:
        tables.load_table(bad)
    assert str(err.value).startswith(f"{bad}:4:") and "没有一行包含 4" in str(err.value)
    data = tmp_path / "d.yaml"
    data.write_text("a: 1\nb: x\n", encoding="utf-8")
    with pytest.raises(TableError) as err2:
        tables.load_data(data, Map({"a": Field(Int()), "b": Field(Int())}))
    assert str(err2.value).startswith(f"{data}:2:4")


@pytest.mark.parametrize("path", sorted((ROOT / "templates").rglob("phrases.yaml")), ids=lambda p: p.parent.name)
def test_each_phrase_bank_reads_the_same_on_both_paths(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each shipped phrase bank: libyaml's reading equals the locating parser's, phrasing for phrasing."""
    monkeypatch.setenv(cache.ENV, "off")
    fast = render.load_phrases(path)
    monkeypatch.setattr(yamlio, "load_plain_fast", _declined)
    assert render.load_phrases(path) == fast and len(fast) > 10


def test_a_broken_phrase_bank_is_still_a_located_error(tmp_path: Path) -> None:
    """A phrasing that is not text names its line, as the locating parser reads it."""
    bank = tmp_path / "phrases.yaml"
    bank.write_text("goal: 进了\nsave: [1, 2]\n", encoding="utf-8")
    with pytest.raises(TableError) as err:
        render.load_phrases(bank)
    assert str(err.value).startswith(f"{bank}:2:7")


def test_the_blood_bowl_tables_read_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blood Bowl's rosters, skills and dice tables: the same whichever parser reads them."""
    from anko_writer.rulesets.bloodbowl.match import data

    monkeypatch.setenv(cache.ENV, "off")
    data.load_tables.cache_clear()
    fast = data.load_tables()
    data.load_tables.cache_clear()
    _located_only(monkeypatch)
    try:
        assert data.load_tables() == fast and fast.rosters and fast.skills
    finally:
        data.load_tables.cache_clear()
