"""Dice notation, records, seeded streams and fixed values (DESIGN §3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice, DiceExpr, Stream, Weighted, shuffle
from anko_writer.errors import DiceError


@pytest.mark.parametrize(
    "text,count,sides,mod,bounds",
    [
        ("D100", 1, 100, 0, (1, 100)),
        ("1D30", 1, 30, 0, (1, 30)),
        ("3D100", 3, 100, 0, (3, 300)),
        ("1D18+17", 1, 18, 17, (18, 35)),
        ("1D3+2", 1, 3, 2, (3, 5)),
        ("2D6", 2, 6, 0, (2, 12)),
        ("D68", 1, 68, 0, (11, 68)),
        ("1d40+40", 1, 40, 40, (41, 80)),
    ],
)
def test_notation(text: str, count: int, sides: int, mod: int, bounds: tuple[int, int]) -> None:
    e = DiceExpr.parse(text)
    assert (e.count, e.sides, e.modifier) == (count, sides, mod)
    assert e.bounds() == bounds


@pytest.mark.parametrize("bad", ["", "D", "x3", "0D6", "1D0", "2D68", "1D6*2"])
def test_bad_notation(bad: str) -> None:
    with pytest.raises(DiceError):
        DiceExpr.parse(bad)


def test_record_fields_and_ids() -> None:
    d = Dice(seed=1)
    d.fix(4, 2)
    r = d.roll("k", "2D6", "测试")
    assert r.to_json() == {"id": "k#1", "purpose": "测试", "expr": "2D6", "dice": [4, 2], "total": 6,
                           "hidden": False}
    assert d.roll("k", "1D18+17", "年龄").id == "k#2"
    assert d.roll("other", "1D4", "x").id == "other#1"
    assert [x.id for x in d.log] == ["k#1", "k#2", "other#1"]


def test_d68_is_tens_and_units() -> None:
    d = Dice(seed=1)
    d.fix(3, 7)
    r = d.roll("k", "D68", "伤亡")
    assert r.dice == (3, 7) and r.total == 37


def test_fixed_value_out_of_range_is_an_error() -> None:
    d = Dice(seed=1)
    d.fix(31)
    with pytest.raises(DiceError, match="not a face of a D30"):
        d.roll("k", "1D30", "攻势骰")


def test_fix_by_prefix_leaves_other_keys_alone() -> None:
    a, b = Dice(seed=9), Dice(seed=9)
    a.fix(1, 1, prefix="match/")
    assert a.roll("other", "1D100", "x").total == b.roll("other", "1D100", "x").total
    assert a.roll("match/1", "1D100", "x").total == 1


def test_same_seed_same_values_different_seed_differs() -> None:
    xs = [Stream(5, "k").randint(100) for _ in range(1)]
    s1, s2, s3 = Stream(5, "k"), Stream(5, "k"), Stream(6, "k")
    a = [s1.randint(100) for _ in range(50)]
    assert a == [s2.randint(100) for _ in range(50)]
    assert a != [s3.randint(100) for _ in range(50)]
    assert xs[0] == a[0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), extra=st.integers(0, 40), n=st.integers(1, 30),
       key_a=st.text(min_size=1, max_size=8), key_b=st.text(min_size=1, max_size=8))
def test_streams_are_independent(seed: int, extra: int, n: int, key_a: str, key_b: str) -> None:
    """Adding rolls under one key never changes the values of another key."""
    if key_a == key_b:
        key_b = key_b + "·"
    plain = Dice(seed)
    base = [plain.value(key_b, "1D100", "b") for _ in range(n)]
    busy = Dice(seed)
    got = []
    for i in range(n):
        for _ in range(extra if i == 0 else 1):
            busy.value(key_a, "1D30", "a")
        got.append(busy.value(key_b, "1D100", "b"))
    assert got == base


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**40), sides=st.integers(1, 1000))
def test_faces_in_range(seed: int, sides: int) -> None:
    s = Stream(seed, "k")
    assert all(1 <= s.randint(sides) <= sides for _ in range(20))


def test_weighted_pick_and_shuffle_is_a_permutation() -> None:
    w = Weighted((("FW", 50), ("MF", 30), ("OTHER", 20)))
    assert (w.total, w.pick(1), w.pick(50), w.pick(51), w.pick(80), w.pick(81), w.pick(100)) == (
        100, "FW", "FW", "MF", "MF", "OTHER", "OTHER")
    d = Dice(3)
    d.fix(2, 1)
    order, rolls = shuffle(d, "k", ["ATK", "DEF", "MID"], "排序")
    assert order == ["DEF", "ATK", "MID"] and [r.expr for r in rolls] == ["1D3", "1D2"]
