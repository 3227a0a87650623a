"""The grid kit: names, distances, diamonds and rings, lines, text boards and the SVG frame; and the two
rulesets drawn on it (BALL's board and Blood Bowl's pitch) keep their conventions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.kit import grid
from anko_writer.kit.grid import Grid
from anko_writer.rulesets.ball import board
from anko_writer.rulesets.ball.game import rules as ball_rules
from anko_writer.rulesets.bloodbowl.match import model as bb

coord = st.integers(-30, 30)
squares = st.tuples(coord, coord)
grids = st.builds(Grid, st.integers(1, 26), st.integers(1, 30), st.integers(-2, 2), st.integers(-2, 2), st.booleans())


@given(squares, squares)
def test_distances_are_symmetric(a: grid.Square, b: grid.Square) -> None:
    """d(a, b) = d(b, a), zero exactly on the square itself, and Chebyshev ≤ Manhattan ≤ 2 · Chebyshev."""
    for d in (grid.manhattan, grid.chebyshev):
        assert d(a, b) == d(b, a) >= 0
        assert (d(a, b) == 0) == (a == b)
    assert grid.chebyshev(a, b) <= grid.manhattan(a, b) <= 2 * grid.chebyshev(a, b)


@given(squares, squares, squares)
def test_triangle_inequality(a: grid.Square, b: grid.Square, c: grid.Square) -> None:
    """Both distances obey the triangle inequality."""
    for d in (grid.manhattan, grid.chebyshev):
        assert d(a, c) <= d(a, b) + d(b, c)


@given(squares, st.integers(0, 8), st.booleans())
def test_diamond_size_and_members(c: grid.Square, r: int, centre: bool) -> None:
    """A diamond of radius r holds 2r(r + 1) + 1 squares (one fewer without its centre), all within r."""
    d = grid.diamond(c, r, centre=centre)
    assert len(d) == len(set(d)) == 2 * r * (r + 1) + 1 - (0 if centre else 1)
    assert all(grid.manhattan(c, s) <= r for s in d)
    assert (c in d) == centre


def test_sanguo_plum_blossom_is_twelve_squares() -> None:
    """三国's 梅花形 vision ("一共12格") is radius 2 without the centre, and the night's four squares are one
    ring less (design S1)."""
    assert len(grid.diamond((5, 5), 2, centre=False)) == 12
    assert sorted(grid.diamond((5, 5), 1, centre=False)) == [(4, 5), (5, 4), (5, 6), (6, 5)]
    assert len(grid.ring((5, 5), 2, metric=grid.manhattan)) == 8


@given(squares, st.integers(0, 6))
def test_square_rings(c: grid.Square, r: int) -> None:
    """A square ring of radius r ≥ 1 has 8r squares; the ring and the area inside it make the (2r+1)² block."""
    ring = grid.ring(c, r)
    assert len(ring) == (8 * r if r else 1)
    inside = grid.square_area(c, r - 1) if r else []
    assert sorted(ring + inside) == sorted(grid.square_area(c, r))


def test_around_a_footprint() -> None:
    """Two square rings around a 2 × 1 footprint: a 6 × 5 block."""
    assert len(grid.around([(0, 0), (1, 0)], 2)) == 30


@given(squares, squares)
def test_line_is_a_symmetric_king_walk(a: grid.Square, b: grid.Square) -> None:
    """Bresenham: chebyshev + 1 squares from a to b, each a king's step on, the reverse line reversed."""
    ln = grid.line(a, b)
    assert ln[0] == a and ln[-1] == b and len(ln) == grid.chebyshev(a, b) + 1
    assert all(grid.chebyshev(p, q) == 1 for p, q in zip(ln, ln[1:], strict=False))
    assert grid.line(b, a) == ln[::-1]


@given(squares, squares)
def test_supercover_is_an_orthogonal_walk_covering_the_line(a: grid.Square, b: grid.Square) -> None:
    """Supercover: from a to b, the same squares both ways, and it contains Bresenham's line."""
    sc = grid.supercover(a, b)
    assert sc[0] == a and sc[-1] == b
    assert set(sc) == set(grid.supercover(b, a))
    assert set(grid.line(a, b)) <= set(sc)
    assert len(sc) == len(set(sc))


def test_lines_pinned() -> None:
    """A straight shot of distance 2 passes its middle square; a knight's line touches one side square."""
    assert grid.line((0, 0), (0, 2)) == [(0, 0), (0, 1), (0, 2)]
    assert grid.supercover((0, 0), (2, 1)) == [(0, 0), (1, 0), (1, 1), (2, 1)]


@given(grids, st.data())
def test_names_round_trip(g: Grid, data: st.DataObject) -> None:
    """Every square's name reads back as the square; every square is on the board."""
    sq = data.draw(st.sampled_from(list(g.squares())))
    assert g.on(sq)
    assert g.coords(g.name(sq)) == sq
    assert g.coords(g.name(sq).lower()) == sq
    assert len(list(g.squares())) == g.cols * g.rows


@pytest.mark.parametrize("bad", ["", "N1", "A0", "A18", "A01", "A-1", "A１", "AA", "1A"])
def test_bad_names_refused(bad: str) -> None:
    """A name off BALL's board is a ValueError naming it."""
    with pytest.raises(ValueError, match="no such square"):
        Grid(13, 17).coords(bad)


def test_ball_convention() -> None:
    """BALL: columns from 0, rows from 1, row 17 drawn first; the game's coords agree with the kit's."""
    assert board.coords("A1") == (0, 1) == ball_rules.coords("A1")
    assert board.coords("M17") == (12, 17)
    assert ball_rules.GRID is board.BOARD
    assert board.BOARD.row_numbers()[0] == 17
    assert ball_rules.distance("A1", "E5") == grid.chebyshev((0, 1), (4, 5)) == 4


def test_bloodbowl_convention() -> None:
    """Blood Bowl: (x, y) from 1, y = 1 drawn first; the pitch's helpers are the kit's."""
    assert bb.PITCH.name((1, 1)) == "A1" and bb.PITCH.name((26, 15)) == "Z15"
    assert bb.on_pitch((26, 15)) and not bb.on_pitch((27, 1)) and not bb.on_pitch((0, 5))
    assert bb.distance((1, 1), (4, 3)) == 3
    assert bb.neighbours((1, 1)) == [(2, 1), (1, 2), (2, 2)]
    rows = bb.PITCH.cells(lambda sq: "A" if sq == (2, 1) else "·")
    assert len(rows) == 15 and rows[0] == "·A" + "·" * 24


def test_text_board_with_a_rule() -> None:
    """The diagram puts a dashed line between the rows ``rule`` names."""
    text = Grid(2, 3).diagram(lambda s: ".  ", rule=lambda r, below: r == 2)
    assert text.splitlines() == ["   A  B", " 3 .  .", " 2 .  .", "   ----", " 1 .  ."]
    assert grid.fence(text).startswith("```\n   A  B\n") and grid.fence(text).endswith("\n```")


def test_svg_frame_places_row_one() -> None:
    """Row 1 is at the bottom unless the grid draws it first."""
    up, down = Grid(1, 2), Grid(1, 2, top_row_first=True)
    assert up.pixel((0, 1), 10) == (10, 10) and down.pixel((0, 1), 10) == (10, 0)
    frame = up.svg_frame("t<1>", lambda s: "#fff", cell=10)
    assert frame[1] == "<title>t&lt;1&gt;</title>" and sum(x.startswith("<rect x=") for x in frame) == 2


def test_grid_size_checked() -> None:
    """A grid has 1–26 columns."""
    with pytest.raises(ValueError, match="1–26 columns"):
        Grid(27, 5)
