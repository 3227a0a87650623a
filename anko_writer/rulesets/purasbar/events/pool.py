"""000 §6.1 the shape every event pool shares: three tables, the ±3 pick, the draw, the ladder, row contracts.

Business (§6.2), match (§6.3) and external (§6.4) events each read a base table and two exclusive tables
(黄金 at +3, 至暗 at −3). This module holds what they do alike; each event module keeps what is its own
(business: dynamic ranges and staff branches; environment: season modifiers; match: check points, the
coach's response, ``spent``).

>>> EventTables.side_name(1), EventTables.side_name(-1), EventTables.side_name(0)
('golden', 'dark', 'base')
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from ....dice import Dice, Roll
from ....errors import Location, TableError
from ....resources import Resources
from ....schema import At, Node
from ....tables import DiceTable, Row, load_table
from .depth import Depth
from .records import DepthReset, DepthStep

SIDES = ("base", "golden", "dark")
"""The three tables of a pool: the base table, +3 黄金 and −3 至暗 (000 §6.1.2)."""


@dataclass(frozen=True)
class EventTables:
    """One pool's base table and its two exclusive tables, validated."""

    base: DiceTable
    golden: DiceTable
    dark: DiceTable

    def table_for(self, side: int) -> DiceTable:
        """The table for ``side`` (``Depth.exclusive()``: +1 golden, −1 dark, 0 base)."""
        return self.golden if side > 0 else self.dark if side < 0 else self.base

    @staticmethod
    def side_name(side: int) -> str:
        """``golden``, ``dark`` or ``base`` for ``side``."""
        return "golden" if side > 0 else "dark" if side < 0 else "base"


def load_event_tables(resources: Resources, files: Mapping[str, str], validate: Callable[[str, DiceTable], Any],
                      effects: Collection[str], exclusive_effects: Collection[str] | None = None) -> EventTables:
    """The three tables named by ``files`` (side → file name), from the search path (campaign folder first).

    Each is loaded with full coverage and its effect kinds checked (``effects`` for the base table,
    ``exclusive_effects`` for the ±3 ones, the same by default), then ``validate(side, table)`` checks
    the module's row contract (it raises a located :class:`TableError`).
    """
    tables = {}
    for side in SIDES:
        kinds = effects if side == "base" or exclusive_effects is None else exclusive_effects
        tables[side] = load_table(resources.table_path(files[side]), kinds)
        validate(side, tables[side])
    return EventTables(**tables)


# ------------------------------------------------------------------ row contracts


@dataclass(frozen=True)
class RowAt:
    """One row of a table being checked: :meth:`fail` raises the located error for one of its fields."""

    table: DiceTable
    index: int
    row: Row

    def fail(self, field: str, message: str) -> NoReturn:
        """``file:line: rows[i].field: message``."""
        raise TableError(Location(self.table.path, self.row.line), f"rows[{self.index}].{field}", message)


def row_at(table: DiceTable, row: Row) -> RowAt:
    """The place of ``row`` in ``table``."""
    return RowAt(table, table.rows.index(row), row)


def table_fail(table: DiceTable, message: str) -> NoReturn:
    """A located error about the table as a whole (its ``rows``)."""
    raise TableError(Location(table.path), "rows", message)


def as_data(row: Row) -> dict[str, Any]:
    """The row as its file wrote it (``range``, ``effect``, ``text`` and its parameters)."""
    data: dict[str, Any] = {"range": [row.lo, row.hi], "effect": row.effect, **row.params}
    if row.text is not None:
        data["text"] = row.text
    return data


def check_rows(table: DiceTable, contract: Callable[[RowAt], None] | None = None, *,
               schema: Node | None = None, unique_keys: bool = True) -> DiceTable:
    """Check every row of ``table``: against ``schema`` (a declarative row shape), a unique ``key``, then
    ``contract`` (the module's own rules, failing through :meth:`RowAt.fail`). Returns the table."""
    keys: set[Any] = set()
    for i, row in enumerate(table.rows):
        at = RowAt(table, i, row)
        if schema is not None:
            try:
                schema.check(as_data(row), At(table.path, f"rows[{i}]", None, TableError))
            except TableError as err:  # placed at the row's line, like every other row error
                raise TableError(Location(table.path, row.line), err.key, err.message) from None
        if unique_keys and isinstance(row.params.get("key"), str):
            if row.params["key"] in keys:
                at.fail("key", f"键 {row.params['key']!r} 重复")
            keys.add(row.params["key"])
        if contract is not None:
            contract(at)
    return table


# ------------------------------------------------------------------ the draw


@dataclass(frozen=True)
class EventDraw:
    """One event drawn from a pool: which table, the roll, the row."""

    side: str
    """``base``, ``golden`` or ``dark``."""
    exclusive: int
    """+1 / −1 when the event came from an exclusive table (000 §6.1.2), else 0."""
    table: DiceTable
    roll: Roll
    row: Row

    def settle(self, depth: Depth, reset: bool = True) -> tuple[DepthStep | None, DepthReset | None]:
        """Move the pool after the event: ``(step, reset)`` records.

        The ladder steps on the event's own roll (000 §6.1.3; nothing moves at ±3); after an exclusive
        event the pool goes back to 0 when ``reset`` (§6.1.2), else it stays (the match pool, §6.3.2).
        """
        if self.exclusive:
            return None, depth.reset() if reset else None
        return depth.step(self.roll.total), None


def draw(dice: Dice, key: str, tables: EventTables, depth: Depth, *, exclusive: bool = True,
         lookup: Callable[[int], Row] | None = None) -> EventDraw:
    """Pick the table by ``depth`` (the ±3 tables only when ``exclusive``), roll it, look the row up.

    ``lookup`` replaces the base table's own lookup (business: this month's dynamic ranges, §6.2.2–3).
    """
    side = depth.exclusive() if exclusive else 0
    table = tables.table_for(side)
    roll = dice.roll(key, table.dice, table.name)
    row = lookup(roll.total) if lookup is not None and not side else table.lookup(roll.total)
    return EventDraw(EventTables.side_name(side), side, table, roll, row)


__all__ = ["SIDES", "EventTables", "EventDraw", "RowAt", "load_event_tables", "check_rows", "row_at",
           "table_fail", "as_data", "draw"]
