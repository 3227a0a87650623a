"""三国's combat: strength sums with named modifiers, the damage bands, 奇袭, applying damage and the
cavalry's 突进 landing square (design sanguo.md §1.5 R15–R17, R22, R23; 001 二 '部队的实力').

Board facts (terrain, the stronghold a unit stands in, which squares are blocked) are plain arguments: this
module does not read a board. Squares are :mod:`anko_writer.kit.grid` tuples ``(column, row)``.

>>> a = strength(troops=6, ap=4, modifiers=(("技能", 1),))
>>> d = strength(troops=5, ap=1)
>>> (a.total, d.total, band(a.total, d.total))
(11, 6, 'high')
>>> landing((5, 5), (6, 6), (7, 6))   # M=E5, A=F6, T=G6 → G7
(7, 7)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from anko_writer.dice import Dice, Roll
from anko_writer.kit.grid import Square, chebyshev, manhattan

from .units import Kind, Unit

Band = Literal["none", "low", "high", "crush"]
"""R16's damage bands, as the JSON contract names them."""
Modifier = tuple[str, int]
"""A named strength modifier: ``("据点", 3)``."""
TERRAIN_DEFENCE: dict[str, tuple[int, Literal["any", "cavalry", "lower"]]] = {
    "high": (1, "lower"),
    "forest": (1, "cavalry"),
}
"""R15 (DESIGNED): a defender's terrain bonus and whom it counts against: ``lower`` an attacker not on the
same terrain (high ground), ``cavalry`` a cavalry attacker, ``any`` every attacker."""


@dataclass(frozen=True)
class Strength:
    """R15: one side's strength: 兵力, 行动力 (after paying the order's AP, S4), named modifiers, total."""

    troops: int
    ap: int
    modifiers: tuple[Modifier, ...]
    total: int


def strength(troops: int, ap: int, modifiers: Sequence[Modifier] = ()) -> Strength:
    """R15: 实力 = 兵力 + 行动力 + 其它因素 (the modifiers, kept by name; zero ones are dropped)."""
    mods = tuple((n, v) for n, v in modifiers if v)
    return Strength(troops, ap, mods, troops + ap + sum(v for _, v in mods))


def gate_strength(defence: int, level: int) -> Strength:
    """R33: a gate's strength: its 防御 as its 兵力, no 行动力, plus the stronghold's level as 据点."""
    return strength(defence, 0, (("据点", level),))


def defence_modifiers(*, attacker_kind: Kind, attacker_terrain: str, defender_terrain: str,
                      defender_stronghold: str | None = None, defender_level: int = 0,
                      attacker_stronghold: str | None = None,
                      terrain: Mapping[str, tuple[int, str]] = TERRAIN_DEFENCE) -> tuple[Modifier, ...]:
    """R15, R32: the defender's 据点 (+level when inside a stronghold the attacker is not inside) and 地形
    modifiers.

    >>> defence_modifiers(attacker_kind="cavalry", attacker_terrain="plain", defender_terrain="forest",
    ...                   defender_stronghold="长社", defender_level=4)
    (('据点', 4), ('地形', 1))
    """
    out: list[Modifier] = []
    if defender_stronghold is not None and defender_stronghold != attacker_stronghold:
        out.append(("据点", defender_level))
    bonus, against = terrain.get(defender_terrain, (0, "any"))
    if bonus and (against == "any" or (against == "cavalry" and attacker_kind == "cavalry")
                  or (against == "lower" and attacker_terrain != defender_terrain)):
        out.append(("地形", bonus))
    return tuple(out)


def unit_strength(unit: Unit, *, cost: int = 0, modifiers: Sequence[Modifier] = ()) -> Strength:
    """R15 with S4: a unit's strength after it pays ``cost`` AP for the order (1 for 移动—攻击 and 合击)."""
    return strength(unit.troops, max(0, unit.ap - cost), modifiers)


def attack_total(attacker: Strength, joiners: Sequence[Strength] = ()) -> int:
    """R23: the attack's strength: the main attacker's total plus every 合击 joiner's total."""
    return attacker.total + sum(j.total for j in joiners)


def band(a: int, d: int) -> Band:
    """R16: the damage band for attack strength ``a`` against defence strength ``d`` (``d`` ≥ 1).

    >>> [band(a, 10) for a in (5, 6, 10, 11, 19, 20)]
    ['none', 'low', 'low', 'high', 'high', 'crush']
    """
    if d < 1:
        raise ValueError(f"a defence strength must be at least 1, got {d}")
    if 2 * a <= d:
        return "none"
    if a <= d:
        return "low"
    if a < 2 * d:
        return "high"
    return "crush"


@dataclass(frozen=True)
class Hit:
    """R16, R17: the band, the 1D3 (None when the band throws none), the band's damage, whether it was a
    奇袭, the 奇袭 bonus and the damage dealt."""

    attack: int
    defence: int
    band: Band
    roll: Roll | None
    damage: int
    surprise: bool
    surprise_bonus: int
    dealt: int

    @property
    def die(self) -> int | None:
        """The 1D3's face, or None."""
        return self.roll.total if self.roll is not None else None


def judge(a: int, d: int, dice: Dice, key: str, *, surprise: bool = False, hidden: bool = False) -> Hit:
    """R16, R17 (S2): the damage of an attack of strength ``a`` on ``d``. The 1D3 is thrown only in the low
    band (1 → 1, else 0) and the high band (1 → 1, 2–3 → 2); crush deals ⌊a/d⌋. 奇袭 adds 1 only when the
    damage is above 0.

    >>> dc = Dice(1)
    >>> dc.fix(3)
    >>> h = judge(15, 10, dc, "k", surprise=True)
    >>> (h.band, h.die, h.damage, h.surprise_bonus, h.dealt)
    ('high', 3, 2, 1, 3)
    """
    b = band(a, d)
    roll: Roll | None = None
    if b == "none":
        damage = 0
    elif b == "crush":
        damage = a // d
    else:
        roll = dice.roll(key, "1D3", "伤害", hidden)
        damage = 1 if roll.total == 1 else (2 if b == "high" else 0)
    bonus = 1 if surprise and damage > 0 else 0  # R17: '+1 if damage > 0'
    return Hit(a, d, b, roll, damage, surprise, bonus, damage + bonus)


@dataclass(frozen=True)
class Damage:
    """R10, R16: a unit after taking damage: the 兵力, 行动力 and 资源 it lost, the 资源 the attacker gains
    (⌊lost/2⌋) and whether it is destroyed (兵力 0)."""

    unit: Unit
    troops_lost: int
    ap_lost: int
    supplies_lost: int
    supplies_gained: int
    destroyed: bool


def take_damage(unit: Unit, dealt: int) -> Damage:
    """R16 with the clamps R9, R10: ``unit`` loses ``dealt`` 兵力 (not below 0).

    >>> from anko_writer.rulesets.sanguo.units import General
    >>> t = take_damage(Unit("u", General("g", 9, 5, 5), troops=9, ap=7, supplies=18), 5)
    >>> (t.unit.troops, t.unit.ap, t.unit.supplies, t.supplies_gained)
    (4, 4, 8, 5)
    """
    ch = unit.with_troops(unit.troops - dealt)
    # 001 二 '若部队因被攻击而导致资源减少，则攻击方部队将获得减少的资源的一半，小数点舍去'
    return Damage(ch.unit, ch.troops_lost, ch.ap_lost, ch.supplies_lost, ch.supplies_lost // 2,
                  ch.unit.troops == 0)


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def landing(move_from: Square, attack_square: Square, target: Square) -> Square:
    """R22 (S6): the square a charging cavalry lands on. With d = T − A: collinear M–A–T → T + d; else
    T + σ·d⊥ with d⊥ = (−d_y, d_x) and σ = −sign((M − A)·d⊥), the side of T away from where it came.

    >>> landing((4, 6), (5, 6), (6, 6)), landing((5, 7), (6, 6), (7, 6))
    ((7, 6), (7, 5))
    """
    if manhattan(attack_square, target) != 1:
        raise ValueError(f"a charge target must be orthogonally next to the attacker: {attack_square}→{target}")
    if chebyshev(move_from, attack_square) != 1:
        raise ValueError(f"a charge follows a one-square move: {move_from}→{attack_square}")
    dx, dy = target[0] - attack_square[0], target[1] - attack_square[1]
    px, py = -dy, dx
    side = (move_from[0] - attack_square[0]) * px + (move_from[1] - attack_square[1]) * py
    if side == 0:
        return (target[0] + dx, target[1] + dy)
    s = -_sign(side)
    return (target[0] + s * px, target[1] + s * py)


@dataclass(frozen=True)
class Charge:
    """R22: a 突进: the three squares, whether M–A–T are collinear, the landing square, where the cavalry
    ends (``to``), whether the landing was blocked, and why no charge happened (``none``)."""

    move_from: Square
    attack_square: Square
    target_square: Square
    collinear: bool
    landing: Square | None
    to: Square
    blocked: bool
    none: Literal["no_move", "no_damage", "blocked"] | None

    @property
    def displaced(self) -> bool:
        """The cavalry moved to the landing square (and the target may not attack it next turn)."""
        return self.none is None


def charge(move_from: Square, attack_square: Square, target: Square, *, dealt: int,
           blocked: Callable[[Square], bool]) -> Charge:
    """R22: a cavalry 突进 after moving ``move_from`` → ``attack_square`` and dealing ``dealt`` to the unit on
    ``target``. Only after a real move and only if damage was dealt; a ``blocked`` landing square (occupied,
    impassable, wall, off the map) → no displacement and no restriction (DESIGNED).

    >>> c = charge((5, 5), (6, 6), (7, 6), dealt=2, blocked=lambda s: s == (7, 7))
    >>> (c.landing, c.to, c.blocked, c.displaced)
    ((7, 7), (6, 6), True, False)
    """
    if move_from == attack_square:
        return Charge(move_from, attack_square, target, False, None, attack_square, False, "no_move")
    land = landing(move_from, attack_square, target)
    collinear = land == (2 * target[0] - attack_square[0], 2 * target[1] - attack_square[1])
    if dealt <= 0:
        return Charge(move_from, attack_square, target, collinear, land, attack_square, False, "no_damage")
    if blocked(land):
        return Charge(move_from, attack_square, target, collinear, land, attack_square, True, "blocked")
    return Charge(move_from, attack_square, target, collinear, land, land, False, None)


def settle(attacker: Unit, defender: Unit, hit: Hit) -> tuple[Unit, Damage]:
    """R16, R10: the attacker with the 资源 it captures (capped, R10) and the defender's damage."""
    dmg = take_damage(defender, hit.dealt)
    return attacker.gain_supplies(dmg.supplies_gained), dmg

