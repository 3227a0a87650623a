"""三国's legions (军团): the formation and its end-of-turn check, 调配 within a legion, 合击 joiners, and the day-end pooled meal
(design sanguo.md §1.5 R23, R25–R27, S5). Caps on a legion's size are :func:`.units.legion_cap` (R24).

Every function is pure and returns a typed record. Squares are :mod:`anko_writer.kit.grid` tuples.

>>> lg = Legion("L", "a", ("a", "b", "c"))
>>> at = {"a": (5, 5), "b": (5, 6), "c": (7, 5)}
>>> (check(lg, at, turn_end=False).dissolved, check(lg, at, turn_end=True).dissolved)
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from anko_writer.kit.grid import Square, diamond, manhattan

from .combat import Strength, attack_total, unit_strength
from .units import Kind, Meal, Unit, supply_cap

Offset = tuple[int, int]
"""A formation square relative to the leader: ``(dx, dy)``."""
DIAMOND: tuple[Offset, ...] = tuple(diamond((0, 0), 1))
"""S5: the default 菱形阵, the squares within Manhattan 1 of the leader (the leader's own included)."""
DIAMOND_2: tuple[Offset, ...] = tuple(diamond((0, 0), 2))
"""S5 (DESIGNED): the 菱形阵 of a legion of more than 5 units, Manhattan ≤ 2."""
JOIN_RANGE: dict[str, int] = {"infantry": 1, "cavalry": 1, "archer": 2}
"""R23 (DESIGNED): the Manhattan distance at which a unit of each kind may join an attack on a target."""
JOIN_COST = 1
"""R23: 合击 costs the joiner 1 行动力 (S4: its strength counts after paying it)."""


@dataclass(frozen=True)
class Legion:
    """A legion: its id, the leader unit's id and every member's id (the leader's included)."""

    id: str
    leader: str
    members: tuple[str, ...]


def default_offsets(size: int) -> tuple[Offset, ...]:
    """S5: the default formation for a legion of ``size`` units: radius 1, or radius 2 above 5 units.

    >>> (len(default_offsets(5)), len(default_offsets(6)))
    (5, 13)
    """
    return DIAMOND if size <= 5 else DIAMOND_2


def formation(leader: Square, offsets: Sequence[Offset]) -> frozenset[Square]:
    """R25: the formation's squares: the leader's square plus each offset.

    >>> sorted(formation((5, 5), ((0, 0), (1, 0))))
    [(5, 5), (6, 5)]
    """
    return frozenset((leader[0] + dx, leader[1] + dy) for dx, dy in offsets)


@dataclass(frozen=True)
class FormationCheck:
    """R25: the members outside the formation (id order), whether it is the turn's end, and whether the
    legion dissolves (only at the turn's end, and only if a member is outside)."""

    legion: str
    outside: tuple[str, ...]
    turn_end: bool
    dissolved: bool


def check(legion: Legion, at: Mapping[str, Square], *, turn_end: bool,
          offsets: Sequence[Offset] | None = None) -> FormationCheck:
    """R25: check the formation around the leader's square; a member may stray mid-turn, but at the end of
    the side's turn any member outside (or off the board, absent from ``at``) dissolves the legion.
    ``offsets`` default to :func:`default_offsets` for the legion's size."""
    offs = default_offsets(len(legion.members)) if offsets is None else offsets
    squares = formation(at[legion.leader], offs)
    outside = tuple(sorted(m for m in legion.members if m not in at or at[m] not in squares))
    return FormationCheck(legion.id, outside, turn_end, turn_end and bool(outside))


def needs_adjacency(legion: Legion, giver: str, taker: str) -> bool:
    """R26: whether 调配 from ``giver`` to ``taker`` needs the two to be adjacent — not when both are members
    of ``legion``.

    >>> needs_adjacency(Legion("L", "a", ("a", "b", "c")), "b", "c")
    False
    """
    return not (giver in legion.members and taker in legion.members)


JoinReason = Literal["not_member", "attacker", "acted", "range", "line", "no_ap"]
"""Why a 合击 joiner is refused."""


@dataclass(frozen=True)
class Joiner:
    """R23: a would-be joiner: its unit, square, and whether it already acted this turn."""

    unit: Unit
    square: Square
    acted: bool = False


@dataclass(frozen=True)
class Join:
    """R23: one joiner's judgement: its distance and range, whether it joins, why not, and its strength."""

    unit: str
    distance: int
    range: int
    joined: bool
    reason: JoinReason | None
    strength: Strength | None


@dataclass(frozen=True)
class JointAttack:
    """R23: the main attacker's strength, every joiner's judgement, and the attack's total."""

    attacker: Strength
    joins: tuple[Join, ...]
    total: int


def join_range(kind: Kind) -> int:
    """R23 (DESIGNED): the 合击 range of ``kind``: infantry and cavalry 1, archers 2."""
    return JOIN_RANGE[kind]


def joint_attack(legion: Legion, attacker: str, attack: Strength, target: Square,
                 joiners: Sequence[Joiner], *,
                 clear: Callable[[Square, Square], bool] = lambda a, b: True) -> JointAttack:
    """R23: the members who may join ``attacker``'s attack on ``target`` and the summed strength. A joiner
    must be another member of the legion, must not have acted this turn, must have the target within its
    range and a ``clear`` line to it (R33), and must have the 1 AP to pay; joining is its action.

    >>> from anko_writer.rulesets.sanguo.units import General
    >>> g = General("g", 9, 5, 5)
    >>> lg = Legion("L", "a", ("a", "b"))
    >>> b = Joiner(Unit("b", g, kind="archer", troops=5, ap=3), (5, 7))
    >>> j = joint_attack(lg, "a", unit_strength(Unit("a", g, troops=6, ap=4), cost=1), (5, 5), [b])
    >>> (j.joins[0].joined, j.joins[0].distance, j.total)
    (True, 2, 16)
    """
    out: list[Join] = []
    for j in joiners:
        u = j.unit
        dist, rng = manhattan(j.square, target), join_range(u.kind)
        reason: JoinReason | None = None
        if u.id not in legion.members:
            reason = "not_member"
        elif u.id == attacker:
            reason = "attacker"
        elif j.acted:
            reason = "acted"
        elif dist > rng:
            reason = "range"
        elif not clear(j.square, target):
            reason = "line"
        elif u.ap < JOIN_COST:
            reason = "no_ap"
        s = unit_strength(u, cost=JOIN_COST) if reason is None else None
        out.append(Join(u.id, dist, rng, reason is None, reason, s))
    joined = [x.strength for x in out if x.strength is not None]
    return JointAttack(attack, tuple(out), attack_total(attack, joined))


@dataclass(frozen=True)
class PoolMeal:
    """R27: the legion's day-end meal as one pool: the pool before (资源 carried), the line food, the need
    (Σ 兵力), the pool after eating, each unit's :class:`~.units.Meal` (id order, leader last) and each
    unit's share of the pool afterwards."""

    legion: str
    pool_before: int
    supplied: int
    need: int
    hungry: int
    pool_after: int
    meals: tuple[Meal, ...]
    shares: tuple[tuple[str, int], ...]

    @property
    def units(self) -> tuple[Unit, ...]:
        """The members after the meal and the split."""
        return tuple(m.unit for m in self.meals)


def feeding_order(legion: Legion) -> tuple[str, ...]:
    """R27 (DESIGNED): the members in id order, the leader last — the order shortfalls fall in."""
    return (*sorted(m for m in legion.members if m != legion.leader), legion.leader)


def split(pool: int, caps: Sequence[tuple[str, int]], leader: str) -> tuple[tuple[str, int], ...]:
    """R27 (DESIGNED): ``pool`` shared in proportion to each unit's cap (⌊·⌋), the remainder to the leader;
    any remainder beyond the leader's cap goes to the others in order, up to their caps, and what fits
    nowhere is lost (R10).

    >>> split(10, [("b", 6), ("c", 6), ("a", 8)], "a")
    (('b', 3), ('c', 3), ('a', 4))
    """
    total = sum(c for _, c in caps)
    if total == 0:
        return tuple((u, 0) for u, _ in caps)
    pool = min(pool, total)
    share = {u: pool * c // total for u, c in caps}
    cap = dict(caps)
    rest = pool - sum(share.values())
    for u in (leader, *(u for u, _ in caps if u != leader)):
        more = min(rest, cap[u] - share[u])
        share[u] += more
        rest -= more
    return tuple((u, share[u]) for u, _ in caps)


def pool_meal(legion: Legion, members: Sequence[Unit], *, supplied: int = 0,
              night: frozenset[str] = frozenset()) -> PoolMeal:
    """R27 with R20, R36: the legion eats Σ 兵力 from one pool — line food ``supplied`` first, then every
    member's 资源. A shortfall is laid on the members in :func:`feeding_order`, each taking up to its 兵力;
    a unit so made hungry loses half its hungry part (⌊·⌋, R20) and its 行动力 is not restored. A fed unit
    gets its 行动力 back unless its id is in ``night`` (R36). What is left of the pool is :func:`split`
    by each unit's 资源 cap after the meal.

    >>> from anko_writer.rulesets.sanguo.units import General
    >>> g = General("g", 9, 5, 5)
    >>> lg = Legion("L", "a", ("a", "b", "c"))
    >>> us = [Unit("a", g, troops=4, supplies=8), Unit("b", g, troops=3), Unit("c", g, troops=3)]
    >>> p = pool_meal(lg, us)
    >>> (p.hungry, p.pool_after, [(m.unit.id, m.troops_after, m.reason) for m in p.meals])
    (2, 0, [('b', 2, 'starved'), ('c', 3, None), ('a', 4, None)])
    """
    by_id = {u.id: u for u in members}
    order = feeding_order(legion)
    pool = sum(by_id[m].supplies for m in order)
    need = sum(by_id[m].troops for m in order)
    short = max(0, need - supplied - pool)
    left = max(0, pool - max(0, need - supplied))
    meals: list[Meal] = []
    rest = short
    for m in order:
        u = by_id[m]
        hungry = min(rest, u.troops)
        rest -= hungry
        if hungry:
            # 001 二 '余下的"挨饿"的兵力减半，小数点舍去，且行动力不会恢复'
            after = replace(u, supplies=0).with_troops(u.troops - hungry + hungry // 2).unit
            reason: Literal["starved", "night"] | None = "starved"
        else:
            reason = "night" if m in night else None
            after = replace(u, supplies=0, ap=u.ap if reason else u.ap_cap)
        meals.append(Meal(after, u.troops, u.supplies, 0, u.troops, hungry, after.troops, 0, u.ap, after.ap,
                          reason is None, reason))
    shares = split(left, [(x.unit.id, supply_cap(x.unit.troops)) for x in meals], legion.leader)
    got = dict(shares)
    meals = [replace(x, unit=replace(x.unit, supplies=got[x.unit.id]), supplies_after=got[x.unit.id])
             for x in meals]
    return PoolMeal(legion.id, pool, supplied, need, short, left, tuple(meals), shares)
