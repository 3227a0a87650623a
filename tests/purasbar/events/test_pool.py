"""000 §6.1 the shared event pool: the ±3 pick, the draw, the ladder and the located row contract."""

from __future__ import annotations

from pathlib import Path

import pytest

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.rulesets.purasbar.events.business import load_business_tables
from anko_writer.rulesets.purasbar.events.depth import Depth
from anko_writer.rulesets.purasbar.events.environment import load_external
from anko_writer.rulesets.purasbar.events.match_events import load_match_event_tables
from anko_writer.rulesets.purasbar.events.pool import RowAt, check_rows, draw
from anko_writer.tables import load_table
from tests.util import RES

POOLS = {"business": load_business_tables(RES), "external": load_external(RES),
         "match": load_match_event_tables(RES)}


@pytest.mark.parametrize("pool", sorted(POOLS))
def test_table_for_picks_by_exclusive_side(pool: str) -> None:
    t = POOLS[pool]
    assert (t.table_for(1), t.table_for(-1), t.table_for(0)) == (t.golden, t.dark, t.base)


@pytest.mark.parametrize(("value", "side", "exclusive"), [(3, "golden", 1), (-3, "dark", -1), (2, "base", 0)])
def test_draw_uses_the_table_of_the_depth_and_settle_resets_after_an_exclusive_event(
        value: int, side: str, exclusive: int) -> None:
    tables, depth, dice = POOLS["external"], Depth("external", value), Dice(7)
    drawn = draw(dice, "k", tables, depth)
    assert (drawn.side, drawn.exclusive, drawn.table) == (side, exclusive, tables.table_for(exclusive))
    assert drawn.row is drawn.table.lookup(drawn.roll.total) and dice.log == [drawn.roll]
    step, reset = drawn.settle(depth)
    if exclusive:
        assert step is None and reset == {"pool": "external", "before": value, "after": 0, "reset": True}
    else:
        assert reset is None and depth.value == value + (step["after"] - step["before"] if step else 0)


def test_draw_without_exclusive_reads_the_base_table_and_the_ladder_stays_at_3() -> None:
    depth = Depth("external", 3)
    drawn = draw(Dice(1), "k", POOLS["external"], depth, exclusive=False)
    assert (drawn.side, drawn.exclusive) == ("base", 0)
    assert drawn.settle(depth) == (None, None) and depth.value == 3


def test_a_base_lookup_replaces_the_tables_own() -> None:
    tables = POOLS["business"]
    row = tables.base.rows[0]
    drawn = draw(Dice(3), "k", tables, Depth("business"), lookup=lambda face: row)
    assert drawn.row is row and drawn.table is tables.base


def test_rows_fail_at_their_line_and_field(tmp_path: Path) -> None:
    text = RES.table_path("match_golden.yaml").read_text(encoding="utf-8")
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    table = load_table(path)
    second = table.rows[1]

    def contract(at: RowAt) -> None:
        if at.index == 1:
            at.fail("name", "too plain")

    with pytest.raises(TableError) as err:
        check_rows(table, contract)
    assert str(err.value) == f"{path}:{second.line}: rows[1].name: too plain"
    first = table.rows[0].params["key"]
    path.write_text(text.replace(f"key: {second.params['key']}", f"key: {first}", 1), encoding="utf-8")
    with pytest.raises(TableError, match=rf":{second.line}: rows\[1\]\.key: 键 '{first}' 重复"):
        check_rows(load_table(path))
