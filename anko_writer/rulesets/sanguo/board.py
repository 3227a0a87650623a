"""The 三国 map: terrain per square, strongholds (camps and walled cities with gates), pieces on squares, the
one-step legality check of 移动—攻击 (R11, R14, R33) and the city attack-line rule (R33, DESIGNED S7).

Row 1 is drawn at the top and a terrain text's first line is row 1 (design §1.8)::

>>> board = Board.parse(4, 3, "..M.\\n.~f.\\n....")
>>> board.terrain_at(board.sq("C1")), board.terrain_at(board.sq("C2")), board.passable(board.sq("B2"))
('mountain', 'forest', False)
>>> infantry = Piece("汉1", "汉军", "步兵", board.sq("A1"))
>>> board.step(infantry, board.sq("B2"), [infantry]).reason, board.step(infantry, board.sq("A2"), [infantry]).ok
('not_a_step', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from ...kit.grid import KING, ORTHOGONAL, Grid, Square, manhattan, supercover

TerrainName = Literal["plain", "forest", "high", "mountain", "water", "road"]
"""The terrain kinds of a scene's legend."""
UnitType = Literal["步兵", "弓兵", "骑兵"]
"""Infantry, archers, cavalry (001 二 兵种)."""
StrongholdKind = Literal["camp", "city"]
"""营寨 or 城市 (001 二 据点)."""
StepFailure = Literal["not_a_step", "off_map", "impassable", "wall", "own", "enemy", "hidden"]
"""Why a one-square move fails (R11, R33)."""
Blocked = Literal["impassable", "occupied", "hidden", "wall"]
"""The JSON contract's ``blocked`` word for a failed move (design §1.7)."""
LineFailure = Literal["wall", "standing_gate"]
"""Why an attack from outside on a square inside a city is refused (R33, S7)."""


@dataclass(frozen=True)
class TerrainRule:
    """What a terrain kind does: whether a unit may enter it, whether 埋伏 may be laid on it by day (R37), and
    the defender's strength bonus with the attackers it applies against (R15)."""

    passable: bool
    ambush: bool
    defence: int = 0
    vs: Literal["any", "cavalry", "lower"] = "any"


TERRAIN: Mapping[TerrainName, TerrainRule] = {
    "plain": TerrainRule(passable=True, ambush=False),
    "road": TerrainRule(passable=True, ambush=False),
    "forest": TerrainRule(passable=True, ambush=True, defence=1, vs="cavalry"),  # R15: +1 against cavalry
    "high": TerrainRule(passable=True, ambush=False, defence=1, vs="lower"),  # R15: +1 against a lower attacker
    "mountain": TerrainRule(passable=False, ambush=False),  # R11: a move onto it fails
    "water": TerrainRule(passable=False, ambush=False),
}
"""The terrain table (design §1.7 ``terrain_rules``)."""
LEGEND: Mapping[str, TerrainName] = {".": "plain", "f": "forest", "^": "high", "M": "mountain", "~": "water",
                                     "=": "road"}
"""The default legend of a terrain text (design §1.2)."""


def store_cap(level: int) -> int:
    """A stronghold's store cap, 20 · level (R32).

    >>> store_cap(3)
    60
    """
    return 20 * level


def footprint_size(kind: StrongholdKind, level: int) -> int:
    """The side of a stronghold's square footprint: a camp of level 1–2 takes 1 square, of level ≥ 3 a 2×2
    block; a city 3×3 (R32, "城市通常占据3*3").

    >>> footprint_size("camp", 2), footprint_size("camp", 3), footprint_size("city", 1)
    (1, 2, 3)
    """
    if level < 1:
        raise ValueError(f"据点的等级至少为 1，实际是 {level}")
    if kind == "city":
        return 3
    return 1 if level <= 2 else 2


@dataclass(frozen=True)
class Gate:
    """A city gate: a square on the city's edge, its 防御 (its 兵力 when attacked, R33) and whether it is
    destroyed (防御 0)."""

    id: str
    square: Square
    defence: int
    destroyed: bool = False


@dataclass(frozen=True)
class Stronghold:
    """A camp or a city: its owner (``None``: nobody's), level, top-left corner, store and (cities) gates."""

    id: str
    kind: StrongholdKind
    level: int
    side: str | None
    corner: Square
    store: int = 0
    gates: tuple[Gate, ...] = ()
    size: int = 0
    """The footprint's side; 0 takes the size the kind and level give (R32)."""

    def __post_init__(self) -> None:
        if self.size == 0:
            object.__setattr__(self, "size", footprint_size(self.kind, self.level))
        elif self.size < 1 or (self.kind == "city" and self.size < 3):
            raise ValueError(f"{self.id}: 边长 {self.size} 的占地太小")
        if not 0 <= self.store <= self.cap:
            raise ValueError(f"{self.id}: 存粮 {self.store} 超出 0–{self.cap}（20 · 等级，R32）")
        if self.gates and self.kind != "city":
            raise ValueError(f"{self.id}: 只有城池才有城门")
        edge = set(self.edge)
        for gate in self.gates:
            if gate.square not in edge:
                raise ValueError(f"{self.id}: 城门 {gate.id} 所在的 {gate.square} 不在城池的边上")

    @property
    def cap(self) -> int:
        """The store cap (R32)."""
        return store_cap(self.level)

    @cached_property  # a frozen value's: worked out once (a scene asks some 4,000 times, issue 29)
    def squares(self) -> tuple[Square, ...]:
        """The footprint, in reading order."""
        x, y = self.corner
        return tuple((x + i, y + j) for j in range(self.size) for i in range(self.size))

    @cached_property
    def edge(self) -> tuple[Square, ...]:
        """The footprint's outer squares (where walls and gates stand on a city)."""
        x, y = self.corner
        last = self.size - 1
        return tuple(s for s in self.squares if s[0] - x in (0, last) or s[1] - y in (0, last))

    def gate_at(self, sq: Square) -> Gate | None:
        """The gate on ``sq``, if any."""
        return next((g for g in self.gates if g.square == sq), None)

    def is_wall(self, sq: Square) -> bool:
        """Whether ``sq`` is a city wall: an edge square that is not a gate (R33)."""
        return self.kind == "city" and sq in self.edge and self.gate_at(sq) is None

    def with_gate(self, gate_id: str, *, destroyed: bool = True) -> Stronghold:
        """This stronghold with one gate destroyed (or rebuilt)."""
        if all(g.id != gate_id for g in self.gates):
            raise KeyError(gate_id)
        gates = tuple(replace(g, destroyed=destroyed) if g.id == gate_id else g for g in self.gates)
        return replace(self, gates=gates)


@dataclass(frozen=True)
class Piece:
    """What the map knows of a unit: id, side, type, square and whether it is hidden (埋伏, R37); plus a
    vision bonus in rings (a ``vision`` skill, R5)."""

    id: str
    side: str
    type: UnitType
    square: Square
    hidden: bool = False
    sight: int = 0


@dataclass(frozen=True)
class Step:
    """The judgement of a one-square move (R11): ``ok``, else the reason; ``occupant`` names the unit in the
    way (an ``own``/``enemy``/``hidden`` failure), ``terrain`` the impassable kind."""

    ok: bool
    reason: StepFailure | None = None
    occupant: str | None = None
    terrain: TerrainName | None = None

    @property
    def blocked(self) -> Blocked | None:
        """The JSON contract's word for the failure (design §1.7)."""
        if self.reason is None:
            return None
        return _BLOCKED[self.reason]


_BLOCKED: Mapping[StepFailure, Blocked] = {
    "not_a_step": "impassable", "off_map": "impassable", "impassable": "impassable", "wall": "wall",
    "own": "occupied", "enemy": "occupied", "hidden": "hidden"}


@dataclass(frozen=True)
class AttackLine:
    """The judgement of an attack's line (R33, S7): ``ok``, else the reason; ``line`` the squares the shot
    passes between the two squares."""

    ok: bool
    reason: LineFailure | None = None
    line: tuple[Square, ...] = ()


def step_offsets(unit_type: UnitType) -> tuple[Square, ...]:
    """The one-square moves of a type: orthogonal for infantry and archers, also diagonal for cavalry (R11)."""
    return KING if unit_type == "骑兵" else ORTHOGONAL


@dataclass(frozen=True)
class Board:
    """A scene's map: the grid, the terrain of every square and the strongholds."""

    grid: Grid
    terrain: Mapping[Square, TerrainName]
    strongholds: tuple[Stronghold, ...] = ()
    _owner: Mapping[Square, str] = field(default_factory=dict, repr=False, compare=False)
    paths: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Searches over the terrain alone, remembered by what they were asked (the AI's distances: issue 29); not an
    argument, so a board made from another by ``replace`` starts with none."""

    def __post_init__(self) -> None:
        missing = [s for s in self.grid.squares() if s not in self.terrain]
        if missing:
            raise ValueError(f"{self.grid.name(missing[0])} 没有地形")
        owner: dict[Square, str] = {}
        for sh in self.strongholds:
            for s in sh.squares:
                if not self.grid.on(s):
                    raise ValueError(f"{sh.id}: 占地超出了地图")
                if s in owner:
                    raise ValueError(f"{sh.id} 与 {owner[s]} 在 {self.grid.name(s)} 重叠")
                owner[s] = sh.id
        object.__setattr__(self, "_owner", owner)

    @classmethod
    def parse(cls, cols: int, rows: int, text: str, strongholds: Iterable[Stronghold] = (),
              legend: Mapping[str, TerrainName] = LEGEND) -> Board:
        """A board from a terrain text: one line a row, row 1 first, one legend character a square."""
        grid = Grid(cols, rows, x0=0, y0=1, top_row_first=True)
        lines = [ln.strip() for ln in text.strip().splitlines()]
        if len(lines) != rows or any(len(ln) != cols for ln in lines):
            raise ValueError(f"地形应为 {rows} 行，每行 {cols} 个字符")
        terrain: dict[Square, TerrainName] = {}
        for j, ln in enumerate(lines):
            for i, ch in enumerate(ln):
                if ch not in legend:
                    raise ValueError(f"{grid.name((i, j + 1))}: 图例里没有 {ch!r}")
                terrain[(i, j + 1)] = legend[ch]
        return cls(grid, terrain, tuple(strongholds))

    def sq(self, name: str) -> Square:
        """The square named ``E5``."""
        return self.grid.coords(name)

    def terrain_at(self, sq: Square) -> TerrainName:
        """The terrain of a square on the map."""
        return self.terrain[sq]

    def passable(self, sq: Square) -> bool:
        """Whether a unit may stand on ``sq`` by its terrain (on the map, not mountain or water)."""
        return self.grid.on(sq) and TERRAIN[self.terrain[sq]].passable

    def ambush_square(self, sq: Square) -> bool:
        """Whether 埋伏 may be laid on ``sq`` by day (R37: forest)."""
        return TERRAIN[self.terrain[sq]].ambush

    def stronghold(self, sid: str) -> Stronghold:
        """The stronghold with id ``sid``."""
        return next(sh for sh in self.strongholds if sh.id == sid)

    def stronghold_at(self, sq: Square) -> Stronghold | None:
        """The stronghold whose footprint holds ``sq``, if any."""
        sid = self._owner.get(sq)
        return None if sid is None else self.stronghold(sid)

    def city_at(self, sq: Square) -> Stronghold | None:
        """The city whose footprint holds ``sq``, if any."""
        sh = self.stronghold_at(sq)
        return sh if sh is not None and sh.kind == "city" else None

    def with_stronghold(self, sh: Stronghold) -> Board:
        """This board with one stronghold replaced (same id): a gate destroyed, a store changed, a capture."""
        return replace(self, strongholds=tuple(sh if s.id == sh.id else s for s in self.strongholds))

    def check_pieces(self, pieces: Sequence[Piece]) -> None:
        """ValueError unless every piece stands on a passable square of the map, one per square (R14)."""
        seen: dict[Square, str] = {}
        for p in pieces:
            if not self.passable(p.square):
                raise ValueError(f"{p.id} 站在不可通行或地图外的格子 {p.square} 上")
            if p.square in seen:
                raise ValueError(f"{p.id} 与 {seen[p.square]} 同在 {self.grid.name(p.square)}（R14）")
            seen[p.square] = p.id

    def _crossing(self, side: str, frm: Square, to: Square) -> bool:
        """Whether a step from ``frm`` to ``to`` may cross a city's walls: a unit enters or leaves a city only
        through a gate, an enemy only through a destroyed one; the owner passes its standing gates (R33)."""
        for city in {c.id: c for c in (self.city_at(frm), self.city_at(to)) if c is not None}.values():
            inside_from, inside_to = frm in city.squares, to in city.squares
            if inside_from == inside_to:
                continue  # moving within the city, or not touching it
            gate = city.gate_at(to if inside_to else frm)
            if gate is None:
                return False  # a wall: not entered from outside, not left to the outside
            if not gate.destroyed and city.side != side:
                return False  # a standing gate holds the enemy out (it is a target instead)
        return True

    def step(self, piece: Piece, to: Square, pieces: Iterable[Piece], *,
             seen: Iterable[str] | None = None) -> Step:
        """Judge ``piece``'s one-square move to ``to`` (R11) with ``pieces`` on the board. An enemy that is
        hidden (or, given ``seen``, not among the ids the mover's side sees) fails the move as ``hidden``
        (R11 DESIGNED: the bump reveals it)."""
        if not self.grid.on(to):
            return Step(False, "off_map")
        if (to[0] - piece.square[0], to[1] - piece.square[1]) not in step_offsets(piece.type):
            return Step(False, "not_a_step")
        if not TERRAIN[self.terrain[to]].passable:
            return Step(False, "impassable", terrain=self.terrain[to])
        if not self._crossing(piece.side, piece.square, to):
            return Step(False, "wall")
        known = None if seen is None else set(seen)
        for other in pieces:
            if other.square != to or other.id == piece.id:
                continue
            if other.side == piece.side:
                return Step(False, "own", occupant=other.id)
            if other.hidden or (known is not None and other.id not in known):
                return Step(False, "hidden", occupant=other.id)
            return Step(False, "enemy", occupant=other.id)
        return Step(True)

    def attack_line(self, frm: Square, target: Square) -> AttackLine:
        """Judge the line of an attack from ``frm`` on a unit at ``target`` (R33, DESIGNED S7): walls block
        attacks from outside, not from inside; from outside a square inside a city can be hit only if it,
        or the middle square of a straight distance-2 shot, is a destroyed gate. Attacks on a gate itself
        and attacks in the open are never blocked by this rule (range and vision are other rules)."""
        between = tuple(s for s in supercover(frm, target) if s not in (frm, target))
        city = self.city_at(target)
        if city is None or frm in city.squares:
            return AttackLine(True, line=between)
        gate = city.gate_at(target)
        if gate is not None and gate.destroyed:
            return AttackLine(True, line=between)
        straight = manhattan(frm, target) == 2 and (frm[0] == target[0] or frm[1] == target[1])
        if straight:
            middle = ((frm[0] + target[0]) // 2, (frm[1] + target[1]) // 2)
            mid_gate = city.gate_at(middle)
            if mid_gate is not None and mid_gate.destroyed:
                return AttackLine(True, line=between)
            if mid_gate is not None:
                return AttackLine(False, "standing_gate", line=between)
        if gate is not None:
            return AttackLine(False, "standing_gate", line=between)
        return AttackLine(False, "wall", line=between)


__all__ = ["LEGEND", "TERRAIN", "AttackLine", "Blocked", "Board", "Gate", "LineFailure", "Piece", "Step",
           "StepFailure", "Stronghold", "StrongholdKind", "TerrainName", "TerrainRule", "UnitType",
           "footprint_size", "step_offsets", "store_cap"]
