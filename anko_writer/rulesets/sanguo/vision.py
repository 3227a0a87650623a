"""What a side sees (R35, R36, R37, R37b): a unit's 梅花形 (Manhattan ≤ 2 by day, ≤ 1 at night), a stronghold's
two square rings around its footprint (one at night), 侦查 areas (a diamond of radius 2, 1 at night, which
alone see hidden units), their union per side, and the enemy units in it.

>>> board = Board.parse(5, 5, ".....\\n.....\\n.....\\n.....\\n.....")
>>> len(unit_vision(board, (2, 3), night=False)), len(unit_vision(board, (2, 3), night=True))
(13, 5)
>>> field = Field(board, (Piece("汉1", "汉军", "步兵", (0, 1)), Piece("黄1", "黄巾", "步兵", (2, 1)),
...                      Piece("黄2", "黄巾", "弓兵", (0, 2), hidden=True)), night=False)
>>> [p.id for p in field.visible_enemies("汉军")]
['黄1']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ...kit.grid import Grid, Square, around, diamond, manhattan
from .board import Board, Piece, Stronghold

DAY_RADIUS = 2
"""A unit's and a stronghold's vision radius by day (R35: "3格半径的梅花形，一共12格"; "据点外围两圈")."""
SCOUT_RADIUS = 2
"""The radius of a 侦查 area by day (R37b: "三格半径梅花形")."""


def radius(base: int, night: bool, bonus: int = 0) -> int:
    """A vision radius: ``base`` plus a skill's rings, one ring less at night (R36 "视野减一圈"), never below 0.

    >>> radius(2, False), radius(2, True), radius(2, True, 1)
    (2, 1, 2)
    """
    return max(0, base + bonus - (1 if night else 0))


def unit_vision(board: Board, at: Square, *, night: bool, bonus: int = 0) -> frozenset[Square]:
    """The squares a unit on ``at`` sees: Manhattan ≤ 2 by day, ≤ 1 at night (R35, R36), its own square
    included, clipped to the map."""
    return _diamond(board.grid, at, radius(DAY_RADIUS, night, bonus))


def stronghold_vision(board: Board, sh: Stronghold, *, night: bool) -> frozenset[Square]:
    """The squares a stronghold sees: within Chebyshev 2 of its footprint by day, 1 at night (R35, R36)."""
    return _around(board.grid, tuple(sh.squares), radius(DAY_RADIUS, night))


@lru_cache(maxsize=4096)
def _diamond(grid: Grid, at: Square, r: int) -> frozenset[Square]:
    """The map's squares within Manhattan ``r`` of ``at`` (kept: a scene asks a few hundred squares thousands of
    times, issue 29)."""
    return frozenset(grid.clip(diamond(at, r)))


@lru_cache(maxsize=1024)
def _around(grid: Grid, footprint: tuple[Square, ...], r: int) -> frozenset[Square]:
    """The map's squares within Chebyshev ``r`` of a footprint (kept, as :func:`_diamond`)."""
    return frozenset(grid.clip(around(footprint, r)))


_SIGHTS: dict[tuple[object, ...], tuple[Field, Sight]] = {}
"""Sights worked out before, by the ids of the field's board and pieces (held by the entry's field), the time of
day, the side and the number of scouts (compared by value)."""
_SIGHTS_KEPT = 4096


def scout_cost(board_distance: int) -> int:
    """The AP of 侦查 centred ``X`` squares (Manhattan) from the unit: 2 + 2X (R37b).

    >>> scout_cost(0), scout_cost(2)
    (2, 6)
    """
    return 2 + 2 * board_distance


@dataclass(frozen=True)
class Scout:
    """An active 侦查 area: the side that ordered it, the scouting unit's square and the area's centre
    (R37b; it lasts this turn and the side's next one — the turn loop drops it after that)."""

    side: str
    unit_square: Square
    centre: Square

    @property
    def distance(self) -> int:
        """X: the Manhattan distance from the unit to the centre."""
        return manhattan(self.unit_square, self.centre)

    @property
    def cost(self) -> int:
        """The AP this 侦查 costs before any saving (R37b, R18)."""
        return scout_cost(self.distance)

    def area(self, board: Board, *, night: bool) -> frozenset[Square]:
        """The squares it sees: Manhattan ≤ 2 of the centre, ≤ 1 at night (R37b, R36 "所有单位")."""
        return frozenset(board.grid.clip(diamond(self.centre, radius(SCOUT_RADIUS, night))))


@dataclass(frozen=True)
class Sight:
    """A side's vision: every square it sees, and the squares its 侦查 areas see (the only ones that show
    hidden units, R37)."""

    squares: frozenset[Square]
    scouted: frozenset[Square]

    def sees(self, piece: Piece) -> bool:
        """Whether a unit (of another side) is seen: in vision, and if hidden, inside a 侦查 area."""
        return piece.square in (self.scouted if piece.hidden else self.squares)


@dataclass(frozen=True)
class Field:
    """The board with every unit on it (full information), the active 侦查 areas and the time of day: the
    one place each side's view is computed from."""

    board: Board
    pieces: tuple[Piece, ...]
    scouts: tuple[Scout, ...] = ()
    night: bool = False

    def sight(self, side: str) -> Sight:
        """``side``'s vision: the union of its units', its strongholds' and its 侦查 areas' squares (R35).

        A field asked before (the same board, the same shared pieces, equal scouts, the same time of day) answers
        from :data:`_SIGHTS` (issue 29: a scene asks 988 times for 73 different sights)."""
        key = (id(self.board), self.night, side, tuple(map(id, self.pieces)), len(self.scouts))
        known = _SIGHTS.get(key)
        # the entry holds its field, so the ids in its key are of live objects: equal ids are the same objects
        if known is not None and known[0].board is self.board and known[0].scouts == self.scouts:
            return known[1]
        sight = self.plain_sight(side)
        if len(_SIGHTS) >= _SIGHTS_KEPT:
            _SIGHTS.clear()
        _SIGHTS[key] = (self, sight)
        return sight

    def plain_sight(self, side: str) -> Sight:
        """:meth:`sight` worked out from the pieces, the strongholds and the scouts."""
        seen: set[Square] = set()
        for p in self.pieces:
            if p.side == side:
                seen |= unit_vision(self.board, p.square, night=self.night, bonus=p.sight)
        for sh in self.board.strongholds:
            if sh.side == side:
                seen |= stronghold_vision(self.board, sh, night=self.night)
        scouted: set[Square] = set()
        for sc in self.scouts:
            if sc.side == side:
                scouted |= sc.area(self.board, night=self.night)
        return Sight(frozenset(seen | scouted), frozenset(scouted))

    def visible_enemies(self, side: str) -> list[Piece]:
        """The units of other sides that ``side`` sees, in the order of :attr:`pieces` (R35, R37)."""
        sight = self.sight(side)
        return [p for p in self.pieces if p.side != side and sight.sees(p)]

    def sees(self, side: str, unit_id: str) -> bool:
        """Whether ``side`` sees the unit ``unit_id`` (its own units always)."""
        p = next(q for q in self.pieces if q.id == unit_id)
        return p.side == side or self.sight(side).sees(p)


def visible_enemies(field: Field, side: str) -> list[Piece]:
    """The enemy units ``side`` sees on ``field`` (a function form of :meth:`Field.visible_enemies`)."""
    return field.visible_enemies(side)


def seen_ids(field: Field, side: str) -> Iterable[str]:
    """The ids of the enemy units ``side`` sees: the ``seen`` of :meth:`Board.step`."""
    return [p.id for p in field.visible_enemies(side)]


__all__ = ["DAY_RADIUS", "SCOUT_RADIUS", "Field", "Scout", "Sight", "radius", "scout_cost", "seen_ids",
           "stronghold_vision", "unit_vision", "visible_enemies"]
