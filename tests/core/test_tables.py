"""Dice tables: schema errors, full coverage of every possible total, located errors, no code from YAML."""

from __future__ import annotations

import doctest
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import tables
from anko_writer.dice import Dice, DiceExpr, declare_notation
from anko_writer.errors import InputError, TableError
from anko_writer.schema import Field, Int, List, Map, Str
from anko_writer.tables import DiceTable, Row, load_data, load_table, possible_totals

EFFECTS = {"colour", "reroll"}

GOOD = """\
# 球衣颜色 — free comment
name: 球衣颜色
source: designed
dice: 1D20
rows:
  - range: 1-3
    effect: colour
    value: 红白
    text: 红白相间的条纹衫
  - range: 4
    effect: colour
    value: 蓝
  - range: [5, 12]
    effect: colour
    value: 黑
    shades: [深, 浅]
  - range: 13~20
    effect: reroll
"""

declare_notation("D68", (6, 8), "tens_units")  # as Blood Bowl declares it: D68 is not the core grammar's


def write(tmp_path: Path, text: str, name: str = "colours.yaml") -> Path:
    """Write a table file and return its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str, effects: set[str] | None = EFFECTS) -> str:
    """``line:col: key: message`` of the TableError loading ``text`` (the file part dropped)."""
    path = write(tmp_path, text)
    with pytest.raises(TableError) as info:
        load_table(path, effects)
    prefix = f"{path}:"
    assert str(info.value).startswith(prefix)
    return str(info.value)[len(prefix) :]


def edit(old: str, new: str, text: str = GOOD) -> str:
    """``text`` with one exact substring replaced."""
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_good_table_loads(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, GOOD), EFFECTS)
    assert isinstance(table, DiceTable)
    assert (table.name, table.source, table.dice, len(table)) == ("球衣颜色", "designed", DiceExpr(1, 20), 4)
    assert table.path == tmp_path / "colours.yaml"
    assert table.rows[0] == Row(1, 3, "colour", {"value": "红白"}, "红白相间的条纹衫", 6)
    assert table.rows[1] == Row(4, 4, "colour", {"value": "蓝"}, None, 10)
    assert table.rows[2].params == {"value": "黑", "shades": ["深", "浅"]}
    assert type(table.rows[2].params["shades"]) is list
    assert (table.rows[3].lo, table.rows[3].hi, table.rows[3].effect) == (13, 20, "reroll")


def test_name_defaults_to_file_stem_and_effects_are_optional(tmp_path: Path) -> None:
    text = edit("name: 球衣颜色\n", "").replace("effect: reroll", "effect: anything")
    table = load_table(write(tmp_path, text))
    assert table.name == "colours"


@pytest.fixture(scope="module")
def good_table(tmp_path_factory: pytest.TempPathFactory) -> DiceTable:
    """The GOOD table, loaded once."""
    return load_table(write(tmp_path_factory.mktemp("good"), GOOD), EFFECTS)


@given(total=st.integers(min_value=1, max_value=20))
def test_every_total_maps_to_exactly_one_row(good_table: DiceTable, total: int) -> None:
    row = good_table.lookup(total)
    assert [r for r in good_table.rows if r.lo <= total <= r.hi] == [row]


def test_lookup_outside_the_dice_raises(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, GOOD), EFFECTS)
    for total in (0, 21, -3):
        with pytest.raises(ValueError, match=f"^{total} is outside 1D20's 1-20"):
            table.lookup(total)


def test_roll_throws_the_table_dice(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, GOOD), EFFECTS)
    dice = Dice(seed=1)
    dice.fix(4)
    roll, row = table.roll(dice, "s1/kit", hidden=True)
    assert (roll.expr, roll.total, roll.purpose, roll.hidden, row.params) == ("1D20", 4, "球衣颜色", True, {"value": "蓝"})


def test_gap(tmp_path: Path) -> None:
    text = edit("range: [5, 12]", "range: [5, 11]").replace("13~20", "14~20")
    assert error_of(tmp_path, text) == "5:1: rows: 没有一行包含 12..13"


def test_several_gaps_in_one_message(tmp_path: Path) -> None:
    text = edit("range: [5, 12]", "range: [6, 12]").replace("13~20", "14~19")
    assert error_of(tmp_path, text) == "5:1: rows: 没有一行包含 5、13、20"


def test_overlap(tmp_path: Path) -> None:
    text = edit("range: 13~20", "range: 12-20")
    assert error_of(tmp_path, text) == "17:12: rows[3].range: 12-20 与 rows[2]（5-12）重叠"


def test_overlap_with_a_single_total(tmp_path: Path) -> None:
    text = edit("range: [5, 12]", "range: [4, 12]")
    assert error_of(tmp_path, text) == "13:12: rows[2].range: 4-12 与 rows[1]（4）重叠"


def test_out_of_range(tmp_path: Path) -> None:
    assert error_of(tmp_path, edit("range: 1-3", "range: 0-3")) == "6:12: rows[0].range: 0-3 超出了骰子的 1-20"
    assert error_of(tmp_path, edit("13~20", "13~21")) == "17:12: rows[3].range: 13-21 超出了骰子的 1-20"


def test_reversed(tmp_path: Path) -> None:
    assert error_of(tmp_path, edit("range: [5, 12]", "range: [12, 5]")) == "13:12: rows[2].range: 12-5 首尾颠倒了（小的在前）"
    assert error_of(tmp_path, edit("range: 1-3", "range: 3-1")) == "6:12: rows[0].range: 3-1 首尾颠倒了（小的在前）"


def test_unknown_effect(tmp_path: Path) -> None:
    text = edit("    effect: colour\n    value: 蓝", "    effect: explode\n    value: 蓝")
    assert error_of(tmp_path, text) == "11:13: rows[1].effect: 未知的效果类型 'explode'（可用的类型：colour、reroll）"
    text = edit("effect: reroll", "effect: rerol")
    assert error_of(tmp_path, text) == "18:13: rows[3].effect: 未知的效果类型 'rerol'；是不是想写 'reroll'？"


def test_schema_errors(tmp_path: Path) -> None:
    assert error_of(tmp_path, edit("dice: 1D20\n", "")) == "2:1: 缺少必填的键 'dice'"
    assert error_of(tmp_path, edit("dice: 1D20", "dice: 1X20")) == "4:7: dice: 看不懂骰子表达式 '1X20'"
    assert error_of(tmp_path, edit("source: designed", "source: made up")) == (
        "3:9: source: 'made up' 不符合格式 \"designed\" or a citation like \"000 §2.4\""
    )
    assert error_of(tmp_path, edit("range: 4", "range: four")) == (
        "10:12: rows[1].range: 应为 1-3 这样的范围、一个数或 [1, 3]，实际是 'four'"
    )
    assert error_of(tmp_path, edit("range: [5, 12]", "range: [5, 6, 12]")) == (
        "13:12: rows[2].range: 应为 1-3 这样的范围、一个数或 [1, 3]，实际是 列表"
    )
    assert error_of(tmp_path, edit("  - range: 4\n", "  - rnage: 4\n")) == "10:5: rows[1]: 缺少必填的键 'range'"
    assert error_of(tmp_path, "name: x\nsource: designed\ndice: 1D6\nrows: []\n") == "4:7: rows: 至少应有 1 项，实际是 0 项"
    assert error_of(tmp_path, "- 1\n") == "1:1: 应为映射，实际是 列表"


def test_citations_are_accepted_as_source(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, edit("source: designed", "source: 000 §6.2.2")), EFFECTS)
    assert table.source == "000 §6.2.2"


def test_python_tags_are_rejected(tmp_path: Path) -> None:
    text = edit("    value: 蓝", "    value: !!python/object/apply:os.system [echo pwned]")
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_table(path, EFFECTS)
    assert isinstance(info.value, TableError)
    assert str(info.value) == (
        f"{path}:12:12: 不支持的标签 '!!python/object/apply:os.system'"
        "（这里的 YAML 只是纯数据，会构造对象的标签一律拒绝）"
    )


def test_duplicate_keys_are_rejected(tmp_path: Path) -> None:
    text = edit("    value: 蓝\n", "    value: 蓝\n    value: 黑\n")
    assert error_of(tmp_path, text) == "13:5: 重复的键 'value'（第 12 行已经定义过）"


D68_ROWS = "".join(f"  - range: {t}1-{t}8\n    effect: colour\n    value: c{t}\n" for t in range(1, 7))
D68 = f"source: 000 §2.4\ndice: D68\nrows:\n{D68_ROWS}"


def test_d68_needs_only_possible_totals(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, D68), EFFECTS)
    assert len(table) == 6
    for tens, units in itertools.product(range(1, 7), range(1, 9)):
        assert table.lookup(10 * tens + units).params == {"value": f"c{tens}"}
    for impossible in (19, 20, 39, 60):
        with pytest.raises(ValueError, match=f"^{impossible} is not a possible total of D68"):
            table.lookup(impossible)


def test_d68_rows_may_span_impossible_totals(tmp_path: Path) -> None:
    text = D68.replace("range: 11-18", "range: 11-20").replace("range: 21-28", "range: 21-30")
    assert load_table(write(tmp_path, text), EFFECTS).lookup(28).params == {"value": "c2"}


def test_d68_gap_and_impossible_row(tmp_path: Path) -> None:
    gap = D68.replace("  - range: 21-28\n    effect: colour\n    value: c2\n", "")
    assert error_of(tmp_path, gap) == "3:1: rows: 没有一行包含 21..28"
    nothing = D68.replace("range: 11-18", "range: 11-18\n    effect: colour\n  - range: 19-20")
    assert error_of(tmp_path, nothing) == "6:12: rows[1].range: 19-20 不含 D68 能掷出的任何点数"


@given(st.integers(1, 6), st.integers(1, 8))
def test_d68_possible_totals_are_tens_and_units(tens: int, units: int) -> None:
    possible = possible_totals(DiceExpr.parse("D68"))
    assert len(possible) == 48
    assert 10 * tens + units in possible
    assert 10 * tens + 9 not in possible and 10 * tens not in possible


@st.composite
def partitions(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A dice notation and a random split of its totals into consecutive ranges."""
    count, sides, mod = draw(st.integers(1, 3)), draw(st.integers(2, 20)), draw(st.integers(-5, 5))
    expr = f"{count}D{sides}{mod:+d}" if mod else f"{count}D{sides}"
    lo, hi = count + mod, count * sides + mod
    cuts = sorted(draw(st.sets(st.integers(lo + 1, hi), max_size=6))) if hi > lo else []
    bounds = [lo, *cuts, hi + 1]
    return expr, [(a, b - 1) for a, b in itertools.pairwise(bounds)]


def _table_text(expr: str, spans: list[tuple[int, int]]) -> str:
    """A table file with one row per span, in shuffled-but-fixed order (reversed)."""
    rows = "".join(f"  - range: [{a}, {b}]\n    effect: reroll\n" for a, b in reversed(spans))
    return f"source: designed\ndice: {expr}\nrows:\n{rows}"


@settings(max_examples=60, deadline=None)
@given(partitions())
def test_any_partition_loads_and_every_total_has_one_row(tmp_path_factory: pytest.TempPathFactory,
                                                         case: tuple[str, list[tuple[int, int]]]) -> None:
    expr, spans = case
    table = load_table(write(tmp_path_factory.mktemp("t"), _table_text(expr, spans)), EFFECTS)
    lo, hi = table.dice.bounds()
    for total in range(lo, hi + 1):
        row = table.lookup(total)
        assert sum(r.lo <= total <= r.hi for r in table.rows) == 1 and row.lo <= total <= row.hi


@settings(max_examples=40, deadline=None)
@given(partitions(), st.data())
def test_dropping_a_row_is_reported_as_its_gap(tmp_path_factory: pytest.TempPathFactory, case: tuple[str, list[tuple[int, int]]],
                                               data: st.DataObject) -> None:
    expr, spans = case
    if len(spans) < 2:
        return
    dropped = data.draw(st.sampled_from(spans))
    path = write(tmp_path_factory.mktemp("t"), _table_text(expr, [s for s in spans if s != dropped]))
    with pytest.raises(TableError) as info:
        load_table(path, EFFECTS)
    a, b = dropped
    assert info.value.key == "rows"
    assert info.value.message == f"没有一行包含 {a if a == b else f'{a}..{b}'}"


def test_load_data_validates_against_a_schema(tmp_path: Path) -> None:
    cities = List(Map({"name": Field(Str()), "size": Field(Int(min=1, max=5), default=3)}), min_len=1)
    path = write(tmp_path, "- name: 雷希特\n- name: 玛吉克\n  size: 5\n", "cities.yaml")
    assert load_data(path, cities) == [{"name": "雷希特", "size": 3}, {"name": "玛吉克", "size": 5}]
    bad = write(tmp_path, "- name: 雷希特\n- name: 玛吉克\n  size: 9\n", "bad.yaml")
    with pytest.raises(TableError) as info:
        load_data(bad, cities)
    assert str(info.value) == f"{bad}:3:9: [1].size: 应在 1 到 5 之间，实际是 9"
    with pytest.raises(TableError, match="找不到文件"):
        load_data(tmp_path / "none.yaml", cities)


def test_doctests() -> None:
    assert doctest.testmod(tables).failed == 0
