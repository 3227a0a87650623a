"""Reading the DATC-style case files of tests/sanguo: a board, its strongholds and units from one case."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anko_writer.rulesets.sanguo.board import Board, Gate, Piece, Stronghold
from anko_writer.rulesets.sanguo.vision import Field, Scout
from tests.shared import case_data

HERE = Path(__file__).parent


def load(name: str) -> list[dict[str, Any]]:
    """The cases of ``tests/sanguo/<name>``, checked for unique ids."""
    cases: list[dict[str, Any]] = case_data(HERE / name)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def stronghold(board_sq: Any, row: dict[str, Any]) -> Stronghold:
    """A stronghold from a case row (squares by name)."""
    gates = tuple(Gate(g["id"], board_sq(g["square"]), g.get("defence", 8), g.get("destroyed", False))
                  for g in row.get("gates", ()))
    return Stronghold(row["id"], row["kind"], row["level"], row.get("side"), board_sq(row["corner"]),
                      row.get("store", 0), gates, row.get("size", 0))


def board(case: dict[str, Any]) -> Board:
    """The case's board: ``map`` (cols, rows, terrain lines; default 9 × 9 plain) and its strongholds."""
    m = case.get("map", {})
    cols, rows = m.get("cols", 9), m.get("rows", 9)
    text = "\n".join(m.get("terrain", ["." * cols] * rows))
    plain = Board.parse(cols, rows, text)
    return Board.parse(cols, rows, text, [stronghold(plain.sq, r) for r in case.get("strongholds", ())])


def pieces(b: Board, case: dict[str, Any]) -> tuple[Piece, ...]:
    """The case's units."""
    return tuple(Piece(u["id"], u["side"], u.get("type", "步兵"), b.sq(u["at"]), u.get("hidden", False),
                       u.get("sight", 0)) for u in case.get("units", ()))


def field(case: dict[str, Any]) -> Field:
    """The case's field: board, units, 侦查 areas, and ``night``."""
    b = board(case)
    units = pieces(b, case)
    at = {p.id: p.square for p in units}
    scouts = tuple(Scout(next(p.side for p in units if p.id == s["unit"]), at[s["unit"]], b.sq(s["centre"]))
                   for s in case.get("scouts", ()))
    return Field(b, units, scouts, case.get("night", False))
