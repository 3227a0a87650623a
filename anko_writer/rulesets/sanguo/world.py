"""三国's running scene: every unit on the map with its standing (hidden, legion, building, scouting, limits),
the clock, and each side's view of it (design sanguo.md §1.1, §1.5 R35–R37, §1.7 UNIT).

The world is the only full-information object; everything a side may know is computed from it by
:meth:`World.sight`, and every record a chapter publishes about another side's units goes through
:meth:`World.visible_to` (one vision function, DESIGN §1.6 "visibility honesty").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...kit.grid import Square
from .board import Board, Piece, UnitType
from .legion import Legion
from .units import KIND_NAMES, Unit
from .vision import Field, Scout, Sight

NIGHT_TURNS = 5
"""001 二 夜晚: '夜晚有五个回合' — the last five slots of every day."""

Record = dict[str, Any]


@dataclass
class Troop:
    """A unit on the map: the unit's numbers (:class:`~.units.Unit`), its side and square, and its standing."""

    unit: Unit
    side: str
    square: Square
    hidden: bool = False
    legion: str | None = None
    building: Record | None = None
    """R39: ``{facility, site, turns_left, level}`` while a 建造 runs."""
    scouting: tuple[Square, int] | None = None
    """R37b: the area's centre and how many of the side's turns it still lasts (this one and the next)."""
    no_attack: set[str] = field(default_factory=set)
    """R17, R21, R22: units this one may not attack on its side's next turn."""
    pending_no_attack: set[str] = field(default_factory=set)
    night: dict[str, bool] = field(default_factory=lambda: {"acted": False, "attacked": False, "damaged": False})
    acted: bool = False
    march: list[Square] = field(default_factory=list)
    """The rest of a voted path (``移 E5>E6>E7``), one square a turn."""

    @property
    def id(self) -> str:
        """The unit's id."""
        return self.unit.id

    @property
    def type(self) -> UnitType:
        """步兵, 弓兵 or 骑兵."""
        return _type(self.unit.kind)

    def piece(self) -> Piece:
        """What the map knows of this unit."""
        return _piece(self.unit.id, self.side, self.unit.kind, self.square, self.hidden)


def _type(kind: str) -> UnitType:
    """A unit kind's type: 步兵, 弓兵 or 骑兵."""
    name = KIND_NAMES[kind]
    assert name in ("步兵", "弓兵", "骑兵")
    return name  # type: ignore[return-value]


@lru_cache(maxsize=8192)
def _piece(uid: str, side: str, kind: str, square: Square, hidden: bool) -> Piece:
    """A unit as the map knows it (a frozen value, so one is shared: a scene asks for the same few hundred some
    30,000 times, issue 29)."""
    return Piece(uid, side, _type(kind), square, hidden)


FIXED_SIGHTS: dict[tuple[int, str], tuple[World, Sight]] | None = None
"""While :func:`~anko_writer.rulesets.sanguo.act.world_fixed` is open: each world's sight of a side (the entry
holds its world, so an id is not read for another's); None otherwise."""


@dataclass
class World:
    """The scene being played: the board, the units (id order), the clock, the legions and the tallies."""

    board: Board
    troops: dict[str, Troop]
    sides: tuple[str, ...]
    readers: str
    day_turns: int
    days: int
    day: int = 1
    slot: int = 1
    legions: dict[str, Legion] = field(default_factory=dict)
    merit: dict[str, int] = field(default_factory=dict)
    """R41 战功 by side: enemy 兵力 destroyed, strongholds taken, the victory."""
    taken: list[Record] = field(default_factory=list)
    """R34 captures: ``{stronghold, side, from, day, slot}``."""
    losses: dict[str, int] = field(default_factory=dict)
    facilities: dict[str, Record] = field(default_factory=dict)
    """R39: what 建造 may build in this scene, by kind: ``{kind, level, turns, cost}``."""

    @property
    def slots(self) -> int:
        """Slots in a day: the day turns and the five night turns."""
        return self.day_turns + NIGHT_TURNS

    @property
    def night(self) -> bool:
        """R36: the last five slots of the day are night."""
        return self.slot > self.day_turns

    def alive(self, side: str | None = None) -> list[Troop]:
        """The units on the map (of ``side``), in id order."""
        return [t for t in self.troops.values() if side is None or t.side == side]

    def pieces(self) -> tuple[Piece, ...]:
        """Every unit as the map knows it."""
        return tuple(t.piece() for t in self.troops.values())

    def field(self) -> Field:
        """The full-information field the views are computed from."""
        scouts = tuple(Scout(t.side, t.square, t.scouting[0]) for t in self.troops.values() if t.scouting)
        return Field(self.board, self.pieces(), scouts, self.night)

    def sight(self, side: str) -> Sight:
        """``side``'s vision now (R35, R36, R37b); while the world is fixed (:data:`FIXED_SIGHTS`), worked
        out once a side."""
        if FIXED_SIGHTS is None:
            return self.field().sight(side)
        known = FIXED_SIGHTS.get((id(self), side))
        if known is None or known[0] is not self:
            known = FIXED_SIGHTS[(id(self), side)] = (self, self.field().sight(side))
        return known[1]

    def sees(self, side: str, troop: Troop, sight: Sight | None = None) -> bool:
        """Whether ``side`` sees ``troop`` now (its own units always)."""
        if troop.side == side:
            return True
        return (sight or self.sight(side)).sees(troop.piece())

    def visible_to(self, side: str, sight: Sight | None = None) -> list[Troop]:
        """The units of other sides ``side`` sees, in id order."""
        s = sight or self.sight(side)
        seen, scouted = s.squares, s.scouted  # Sight.sees of each troop's piece, without making the pieces
        return [t for t in self.troops.values() if t.side != side and t.square in (scouted if t.hidden else seen)]

    def at(self, sq: Square) -> Troop | None:
        """The unit on ``sq``, if any."""
        return next((t for t in self.troops.values() if t.square == sq), None)

    def name(self, sq: Square) -> str:
        """A square's name (``E5``)."""
        return self.board.grid.name(sq)

    def by_leader(self, side: str, name: str) -> Troop | None:
        """``side``'s unit whose 主将 is ``name`` (or whose id is ``name``)."""
        return next((t for t in self.troops.values() if t.side == side and name in (t.unit.leader.name, t.id)), None)


def unit_record(world: World, t: Troop) -> Record:
    """The JSON contract's UNIT (design §1.7), full information."""
    u = t.unit
    return {"id": u.id, "side": t.side, "type": t.type, "square": world.name(t.square), "主将": u.leader.name,
            "副将": [g.name for g in u.deputies], "军师": u.adviser.name if u.adviser else None,
            "统率": u.leader.command, "智力": u.intellect, "兵力": u.troops, "行动力": u.ap, "资源": u.supplies,
            "hidden": t.hidden, "legion": t.legion,
            "building": None if t.building is None else {
                "facility": t.building["facility"], "site": world.name(t.building["site"]),
                "turns_left": t.building["turns_left"]},
            "scouting": None if t.scouting is None else {"center": world.name(t.scouting[0]),
                                                         "turns": t.scouting[1], "until": _until(world, t.scouting[1])},
            "no_attack": sorted(t.no_attack | t.pending_no_attack), "night": dict(t.night),
            "march": [world.name(s) for s in t.march]}


def _until(world: World, turns: int) -> list[int]:
    """The [day, slot] of the last slot a 侦查 area lasting ``turns`` more of its side's turns still sees."""
    day, slot = world.day, world.slot + turns - 1
    while slot > world.slots:
        day, slot = day + 1, slot - world.slots
    return [day, slot]


def seen_record(world: World, t: Troop) -> Record:
    """What another side sees of a unit (R35, DESIGNED banner): square, type, 兵力 and the 主将's name."""
    return {"id": t.id, "side": t.side, "type": t.type, "square": world.name(t.square), "兵力": t.unit.troops,
            "主将": t.unit.leader.name}


__all__ = ["NIGHT_TURNS", "Troop", "World", "seen_record", "unit_record"]
