"""The DATC-style cases of tests/sanguo/board_cases.yaml (R11, R14, R32, R33), and invariants of the map."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.rulesets.sanguo.board import Board, Piece, Stronghold, footprint_size
from tests.sanguo.cases import board, load, pieces

CASES = load("board_cases.yaml")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_board_case(case: dict[str, Any]) -> None:
    """One case: build the board, run the check, compare with the expected judgement."""
    expect = case["expect"]
    if case["check"] == "build":  # the setup itself must be refused
        with pytest.raises(ValueError, match=expect["error"]):
            b = board(case)
            b.check_pieces(pieces(b, case))
        return
    b = board(case)
    units = pieces(b, case)
    b.check_pieces(units)
    if case["check"] == "step":
        mover = next(p for p in units if p.id == case["unit"])
        to = b.sq(case["to"]) if "to" in case else (mover.square[0] + case["by"][0], mover.square[1] + case["by"][1])
        got = b.step(mover, to, units, seen=case.get("seen"))
        assert (got.ok, got.reason, got.blocked, got.occupant) == \
            (expect["ok"], expect.get("reason"), expect.get("blocked"), expect.get("occupant"))
    elif case["check"] == "attack_line":
        for name in case.get("destroy", ()):
            sh = next(s for s in b.strongholds if any(g.id == name for g in s.gates))
            b = b.with_stronghold(sh.with_gate(name))
        got_line = b.attack_line(b.sq(case["from"]), b.sq(case["target"]))
        assert (got_line.ok, got_line.reason) == (expect["ok"], expect.get("reason"))
    elif case["check"] == "stronghold":
        sh = b.stronghold(case["stronghold"])
        assert [b.grid.name(s) for s in sh.squares] == expect["squares"]
        assert sh.cap == expect["cap"]
        if "walls" in expect:
            assert [b.grid.name(s) for s in sh.squares if sh.is_wall(s)] == expect["walls"]
    else:
        raise AssertionError(case["check"])


@given(st.sampled_from(["camp", "city"]), st.integers(1, 9), st.integers(0, 5), st.integers(0, 5))
def test_footprint_is_a_square_block(kind: str, level: int, x: int, y: int) -> None:
    """R32: a footprint is size² squares from its corner, its edge all of it but the inside, cap 20·level."""
    sh = Stronghold("s", kind, level, None, (x, y))  # type: ignore[arg-type]
    n = footprint_size(kind, level)  # type: ignore[arg-type]
    assert len(sh.squares) == n * n and len(sh.edge) == n * n - max(0, n - 2) ** 2
    assert sh.cap == 20 * level


@given(st.sampled_from(["步兵", "弓兵", "骑兵"]), st.integers(-2, 2), st.integers(-2, 2))
def test_step_legal_only_one_square(kind: str, dx: int, dy: int) -> None:
    """R11: on an open board a step succeeds exactly for the type's one-square offsets."""
    b = Board.parse(5, 5, "\n".join(["....."] * 5))
    p = Piece("u", "a", kind, (2, 3))  # type: ignore[arg-type]
    ok = b.step(p, (2 + dx, 3 + dy), [p]).ok
    one = abs(dx) + abs(dy) == 1 or (kind == "骑兵" and abs(dx) == abs(dy) == 1)
    assert ok == one
