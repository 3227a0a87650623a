"""The DATC-style cases of tests/sanguo/vision_cases.yaml (R35, R36, R37, R37b), and invariants of vision."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.rulesets.sanguo.board import Board, Piece
from anko_writer.rulesets.sanguo.vision import Field, Scout, unit_vision
from tests.sanguo.cases import field, load

CASES = load("vision_cases.yaml")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vision_case(case: dict[str, Any]) -> None:
    """One case: the side's visible enemies, and the squares it does or does not see."""
    f = field(case)
    expect = case["expect"]
    sight = f.sight(case["side"])
    if "visible" in expect:
        assert [p.id for p in f.visible_enemies(case["side"])] == expect["visible"]
    for name in expect.get("sees", ()):
        assert f.board.sq(name) in sight.squares, name
    for name in expect.get("not", ()):
        assert f.board.sq(name) not in sight.squares, name
    if "count" in expect:
        assert len(sight.squares) == expect["count"]
    if "cost" in expect:
        assert [s.cost for s in f.scouts] == expect["cost"]


OPEN = Board.parse(9, 9, "\n".join(["." * 9] * 9))
SQUARES = st.tuples(st.integers(0, 8), st.integers(1, 9))


@given(SQUARES, SQUARES, st.booleans())
def test_night_vision_is_one_ring_less(at: tuple[int, int], other: tuple[int, int], night: bool) -> None:
    """R35/R36: a unit sees exactly Manhattan ≤ 2 by day and ≤ 1 at night; night ⊆ day."""
    seen = unit_vision(OPEN, at, night=night)
    assert (other in seen) == (abs(at[0] - other[0]) + abs(at[1] - other[1]) <= (1 if night else 2))
    assert unit_vision(OPEN, at, night=True) <= unit_vision(OPEN, at, night=False)


@given(SQUARES, SQUARES, st.lists(SQUARES, max_size=3), st.booleans())
def test_hidden_unit_seen_only_inside_scouting(me: tuple[int, int], foe: tuple[int, int],
                                               centres: list[tuple[int, int]], night: bool) -> None:
    """R37: a hidden unit is seen iff it stands in one of the side's 侦查 areas, wherever its units are."""
    if me == foe:
        return
    pieces = (Piece("汉1", "汉军", "步兵", me), Piece("黄1", "黄巾", "步兵", foe, hidden=True))
    scouts = tuple(Scout("汉军", me, c) for c in centres)
    f = Field(OPEN, pieces, scouts, night)
    inside = any(abs(c[0] - foe[0]) + abs(c[1] - foe[1]) <= (1 if night else 2) for c in centres)
    assert f.sees("汉军", "黄1") == inside


PIECES = st.lists(st.tuples(st.sampled_from(["汉军", "黄巾"]), SQUARES, st.booleans(), st.integers(0, 1)), max_size=4)


@given(st.lists(st.tuples(PIECES, st.lists(SQUARES, max_size=2), st.booleans(), st.sampled_from(["汉军", "黄巾"])),
                min_size=1, max_size=6))
def test_a_remembered_sight_is_the_sight_worked_out(fields: list[Any]) -> None:
    """Field.sight's memo (issue 29) answers what the plain union gives, for fields met again (rebuilt from
    equal pieces and scouts, or the same ones) and for new ones, in any order."""
    built = []
    for pieces, centres, night, side in fields:
        ps = tuple(Piece(f"{s}{k}", s, "步兵", sq, hidden=h, sight=b) for k, (s, sq, h, b) in enumerate(pieces))
        scouts = tuple(Scout("汉军", (0, 1), c) for c in centres)
        built.append((Field(OPEN, ps, scouts, night), side))
    for f, side in [*built, *reversed(built), *built]:
        assert f.sight(side) == f.plain_sight(side)
        again = Field(f.board, f.pieces, tuple(Scout(s.side, s.unit_square, s.centre) for s in f.scouts), f.night)
        assert again.sight(side) == f.plain_sight(side)
