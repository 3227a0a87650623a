"""The DATC-style cases of tests/sanguo/supply_cases.yaml (R29–R32b), and invariants of supply lines."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.rulesets.sanguo import supply
from anko_writer.rulesets.sanguo.board import Board, Stronghold
from tests.sanguo.cases import board, load, pieces

CASES = load("supply_cases.yaml")
SIDE = "汉军"
"""The supplying side of every case."""


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_supply_case(case: dict[str, Any]) -> None:
    """One case: build the board, judge the supply, compare with the expected judgement."""
    b = board(case)
    units = pieces(b, case)
    b.check_pieces(units)
    expect = case["expect"]
    name = b.grid.name
    if case["check"] == "direct":
        assert supply.direct(b, SIDE, b.sq(case["at"])) is expect
    elif case["check"] == "line":
        source = next(s.id for s in b.strongholds if s.side == SIDE)
        path = [b.sq(n) for n in case["path"]] if "path" in case else None
        if "error" in expect:
            with pytest.raises(ValueError, match=expect["error"]):
                supply.line(b, units, SIDE, source, b.sq(case["to"]), path)
            return
        ln = supply.line(b, units, SIDE, source, b.sq(case["to"]), path)
        got = {"path": [name(s) for s in ln.path], "length": ln.length, "cost": ln.cost, "ok": ln.ok,
               "reason": ln.reason, "blocker_at": None if ln.blocker_at is None else name(ln.blocker_at),
               "blocker": ln.blocker}
        assert {k: got[k] for k in expect} == expect
    elif case["check"] == "lay":
        reqs = [supply.Request(r["unit"], b.sq(r["at"]), r["need"], r["source"],
                               tuple(b.sq(n) for n in r["path"]) if "path" in r else None)
                for r in case["requests"]]
        after, laid = supply.lay(b, units, SIDE, reqs)
        assert {k: after.stronghold(k).store for k in expect["stores"]} == expect["stores"]
        assert len(laid) == len(expect["laid"])
        for got_laid, want in zip(laid, expect["laid"], strict=True):
            ln = got_laid.line
            got = {"refused": got_laid.refused, "food": got_laid.food, "ok": None if ln is None else ln.ok,
                   "reason": None if ln is None else ln.reason, "cost": None if ln is None else ln.cost}
            assert {k: got[k] for k in want} == want
        if "carried" in expect:  # R31: a Laid record has no carry field; food goes to units.meal(supplied=…)
            assert not hasattr(laid[0], "carry")
    else:
        raise AssertionError(f"unknown check {case['check']}")


@given(st.integers(0, 40))
def test_cost_never_falls_and_is_free_up_to_four(length: int) -> None:
    """R30: the cost grows by at most 1 per 2 squares, and lines of up to 4 squares are free."""
    assert supply.line_cost(length) <= supply.line_cost(length + 1) <= supply.line_cost(length) + 1
    assert (supply.line_cost(length) == 0) == (length <= 4)


@given(st.integers(1, 8), st.integers(1, 9))
def test_shortest_path_on_open_ground_is_manhattan(col: int, row: int) -> None:
    """R30: on an open board the found path is orthogonal, starts next to the camp and is as long as the
    Manhattan distance from the camp (the camp's own square excluded)."""
    b = Board.parse(9, 9, "\n".join(["." * 9] * 9), [Stronghold("营", "camp", 2, SIDE, (0, 5), store=20)])
    to = (col, row)
    path = supply.shortest_path(b, b.stronghold("营"), to)
    assert path is not None and path[-1] == to and path[0] in supply.exits(b, b.stronghold("营"))
    assert len(path) == abs(col) + abs(row - 5)
    assert supply.direct(b, SIDE, to) == (len(path) <= supply.DIRECT_REACH)
