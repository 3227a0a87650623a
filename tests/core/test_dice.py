"""Dice notation, records, seeded streams and fixed values (DESIGN §3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer import dice as dice_module
from anko_writer.dice import PRINTER, SUM, Dice, DiceExpr, Reading, Roll, Stream, Weighted, declare_notation, shuffle
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
        ("1d40+40", 1, 40, 40, (41, 80)),
    ],
)
def test_notation(text: str, count: int, sides: int, mod: int, bounds: tuple[int, int]) -> None:
    e = DiceExpr.parse(text)
    assert (e.count, e.sides, e.modifier) == (count, sides, mod)
    assert e.bounds() == bounds


@pytest.mark.parametrize("bad", ["", "D", "x3", "0D6", "1D0", "1D6*2", "3D6 spread"])
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


def test_d68_is_blood_bowls_tens_and_units() -> None:
    """Blood Bowl declares D68 (a D6 tens, a D8 units); its rolls and records are what they always were."""
    from anko_writer.rulesets.bloodbowl.match.data import D68

    d = Dice(seed=1)
    d.fix(3, 7)
    r = d.roll("k", "D68", "伤亡")
    assert r.dice == (3, 7) and r.total == 37 and r.reading == "tens_units"
    assert DiceExpr.parse("D68") is D68 and D68.bounds() == (11, 68) and D68.die_sides() == [6, 8]
    assert r.to_json() == {"id": "k#1", "purpose": "伤亡", "expr": "D68", "dice": [3, 7], "total": 37, "hidden": False}
    assert PRINTER.dice(r) == "「D68＝37」"


def test_the_core_grammar_does_not_know_d68(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Blood Bowl's declaration, D68 is just one die of 68 faces: the core reads only NdS±m."""
    monkeypatch.setattr(dice_module, "_DECLARED", {})
    dice_module._parse.cache_clear()
    try:
        e = DiceExpr.parse("D68")
        assert (e.count, e.sides, e.reading, e.die_sides()) == (1, 68, SUM, [68])
    finally:
        monkeypatch.undo()
        dice_module._parse.cache_clear()
    assert not hasattr(DiceExpr, "is_d68")


def test_a_notation_is_declared_once_with_one_meaning() -> None:
    d66 = declare_notation("D66", (6, 6), "tens_units")
    assert declare_notation("D66", (6, 6), "tens_units") is d66
    with pytest.raises(DiceError, match="已声明为"):
        declare_notation("D66", (6, 6), "sum")
    with pytest.raises(DiceError, match="至多 9 面"):
        declare_notation("D1010", (10, 10), "tens_units")
    with pytest.raises(DiceError, match="不能把骰子记法"):
        declare_notation("D 6", (6,), "sum")


# ---------------------------------------------------------------------------------------------
# Readings: pinned outcomes of each, and their invariants


@pytest.mark.parametrize("reading, faces, value", [
    ("spread", (2, 3, 5), 4),      # 002 §3.3: 5 − 2 = 3, and the 3 inside it: 4
    ("spread", (4, 6, 6), 3),      # 002 §3.4: 4,6,6 bring 30 %: a die equal to the largest counts as inside
    ("spread", (4, 6, 1), 6),      # the same example's other count: 60 %
    ("spread", (4, 6), 2),
    ("spread", (3, 3), 0),
    ("spread", (6, 6, 6), 1),
    ("spread", (5,), 0),
    ("highest", (2, 6, 3), 6),
    ("highest", (1,), 1),
    ("count_at_least:5", (5, 2, 6, 4), 2),
    ("count_at_least:7", (6, 6), 0),
    ("tens_units", (6, 3), 63),
    ("sum", (2, 3, 5), 10),
])
def test_each_reading_reads_pinned_faces(reading: str, faces: tuple[int, ...], value: int) -> None:
    e = DiceExpr.parse(f"{len(faces)}D6").read_as(reading)
    d = Dice(seed=3)
    d.fix(*faces)
    r = d.roll("b1/r1", e, "减员骰")
    assert (r.dice, r.total, r.reading) == (faces, value, reading)


def test_the_seeds_examples_print_as_the_rulebook_reads_them() -> None:
    """「3D6＝2,3,5→4」 (002 §3.3) and 4,6,6 → 30 %; a sum prints exactly as before."""
    d = Dice(seed=3)
    d.fix(2, 3, 5, 4, 6, 6, 2, 3, 5)
    spread = DiceExpr.parse("3D6").read_as("spread")
    a, b, c = d.roll("k", spread, "减员骰"), d.roll("k", spread, "减员骰"), d.roll("k", "3D6", "和")
    assert (PRINTER.dice(a), PRINTER.dice(b), PRINTER.dice(c)) == ("「3D6＝2,3,5→4」", "「3D6＝4,6,6→3」", "「3D6＝10」")
    assert b.total * 10 == 30
    assert a.to_json() == {"id": "k#1", "purpose": "减员骰", "expr": "3D6", "dice": [2, 3, 5], "total": 4,
                           "hidden": False, "reading": "spread"}
    assert "reading" not in c.to_json() and c.ref() == {"id": "k#3", "expr": "3D6", "total": 10}
    assert Roll.from_json(a.to_json()) == a and Roll.from_json(c.to_json()) == c
    assert PRINTER.dice(a._replace(hidden=True)) == "「3D6＝？？？」"


def test_render_filter_prints_readings_and_sums_as_before() -> None:
    from anko_writer.render import dice as dice_filter

    rec = Roll("k#1", "减员骰", "3D6", (2, 3, 5), 4, reading="spread").to_json()
    assert dice_filter(rec) == "「3D6＝2,3,5→4」"
    assert dice_filter({"expr": "2D6", "total": 7, "dice": [3, 4], "hidden": False}) == "「2D6＝7」"
    assert dice_filter(dict(rec, hidden=True)) == "「3D6＝？？？」"


def test_a_reading_that_is_not_one_is_refused() -> None:
    with pytest.raises(DiceError, match="未知的读法"):
        DiceExpr.parse("3D6").read_as("median")
    with pytest.raises(DiceError, match="未知的读法"):
        Reading.parse("count_at_least:0")


_READINGS = st.sampled_from(["sum", "spread", "highest", "count_at_least:1", "count_at_least:4", "count_at_least:30"])


@given(reading=_READINGS, sides=st.integers(1, 20), data=st.data())
@settings(max_examples=300, deadline=None)
def test_reading_invariants(reading: str, sides: int, data: st.DataObject) -> None:
    """Every reading's value lies within its expression's bounds; a spread of n dice lies in max(0, n−2) ..
    sides − 1 + n − 2; the highest face is at most the sides; a count is at most the dice."""
    faces = tuple(data.draw(st.lists(st.integers(1, sides), min_size=1, max_size=12)))
    e = DiceExpr.parse(f"{len(faces)}D{sides}").read_as(reading)
    value = e.total(faces)
    lo, hi = e.bounds()
    assert lo <= value <= hi
    n = len(faces)
    if reading == "spread":
        assert max(0, n - 2) <= value <= (sides - 1 + n - 2 if n >= 2 else 0)
    elif reading == "highest":
        assert 1 <= value <= sides and value == max(faces)
    elif reading.startswith("count_at_least"):
        assert 0 <= value <= n


@given(reading=_READINGS, sides=st.integers(1, 6), n=st.integers(1, 4))
@settings(max_examples=100, deadline=None)
def test_reading_bounds_are_reached(reading: str, sides: int, n: int) -> None:
    """The bounds are exact: some faces read to each end."""
    import itertools

    e = DiceExpr.parse(f"{n}D{sides}").read_as(reading)
    values = {e.total(f) for f in itertools.product(range(1, sides + 1), repeat=n)}
    assert (min(values), max(values)) == e.bounds()


def test_fixed_value_out_of_range_is_an_error() -> None:
    d = Dice(seed=1)
    d.fix(31)
    with pytest.raises(DiceError, match="不是 D30 的一面"):
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


def _formula(seed: int, key: str, sides: list[int]) -> list[int]:
    """The stream as Stream's docstring defines it, written apart from it: block n is SHA-256 of
    ``{seed}\\x1f{key}\\x1f{n}``, four big-endian 64-bit words each, a word in the last incomplete run skipped."""
    import hashlib

    words: list[int] = []
    block, out = 0, []
    for s in sides:
        while True:
            if not words:
                block += 1
                d = hashlib.sha256(f"{seed}\x1f{key}\x1f{block}".encode()).digest()
                words = [int.from_bytes(d[i:i + 8], "big") for i in range(0, 32, 8)][::-1]
            w = words.pop()
            if w < 2**64 - 2**64 % s:
                out.append(w % s + 1)
                break
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**18), key=st.text(min_size=1, max_size=12),
       exprs=st.lists(st.sampled_from(["1D30", "1D100", "D100", "1D6+2", "2D6", "3D100", "1D1", "1D3-1"]),
                      min_size=1, max_size=25))
def test_rolls_draw_the_documented_stream(seed: int, key: str, exprs: list[str]) -> None:
    """Issue 29: a roll's fast path (one die, nothing fixed) and the general one both draw exactly the
    documented stream, and the ids count the rolls of the key."""
    d = Dice(seed)
    rolls = [d.roll(key, e, "x") for e in exprs]
    sides = [s for e in exprs for s in DiceExpr.parse(e).die_sides()]
    assert [f for r in rolls for f in r.dice] == _formula(seed, key, sides)
    assert [r.id for r in rolls] == [f"{key}#{i}" for i in range(1, len(exprs) + 1)]
    assert all(r.total == DiceExpr.parse(e).total(r.dice) for r, e in zip(rolls, exprs, strict=True))


def test_a_fixed_face_takes_no_value_from_the_stream() -> None:
    """A fixed face leaves the stream where it was; the key's stream and roll count exist all the same."""
    fixed, plain = Dice(3), Dice(3)
    fixed.fix(4, prefix="a")
    assert fixed.roll("a", "1D6", "x").dice == (4,) and "a" in fixed._streams
    assert [fixed.roll("a", "1D6", "x").dice for _ in range(3)] == [plain.roll("a", "1D6", "x").dice for _ in range(3)]
    assert fixed.log[-1].id == "a#4"
