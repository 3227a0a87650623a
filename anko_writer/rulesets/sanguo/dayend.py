"""三国's day end (design sanguo.md §1.5 R38): supply lines and direct supply → legion pooling → meals (R20) →
AP restore (R20, R36) → clamps (R9, R10) → stronghold stores capped at 20·level (R32).

Pure: :func:`day_end` takes the board, one side's units and the day's facts and returns a typed
:class:`DayEnd` record with each step's results per unit or stronghold, and the board and units after.

>>> from anko_writer.rulesets.sanguo.board import Board, Stronghold
>>> from anko_writer.rulesets.sanguo.units import General
>>> b = Board.parse(9, 1, ".........", [Stronghold("营", "camp", 1, "汉军", (0, 1), store=10)])
>>> u = Unit("u", General("g", 9, 5, 5), troops=4, ap=0, supplies=2)
>>> d = day_end(1, b, "汉军", [u], {"u": (2, 1)})
>>> (d.supply[0].food, d.supply[0].refill, d.units[0].supplies, d.units[0].ap, d.stores[0].after)
(4, 6, 8, 4, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ...kit.grid import Square
from .board import Board, Piece
from .legion import Legion, PoolMeal, pool_meal
from .supply import Line, Refusal, Request, direct, lay_from
from .units import Meal, Unit, meal

STEPS = ("supply", "pooling", "meals", "ap", "clamps", "stores")
"""R38 (DESIGNED order): the day end's steps, in the order they are applied and recorded."""
STORE_PER_LEVEL = 20
"""R32: a stronghold's store ≤ 20·level."""


@dataclass(frozen=True)
class Supplied:
    """Step 1 (R29–R32b): one unit's supply: its source stronghold (``None``: none), whether it was direct,
    the line (``None`` if refused or none asked; a direct unit keeps its failed line), a line refusal, the line's cost to the store, the
    ``food`` it eats (R31: line food is never carried) and, direct only, the ``refill`` added to its carry
    (R29 DESIGNED: it eats from the store, then refills up to its cap)."""

    unit: str
    source: str | None
    direct: bool
    line: Line | None
    refused: Refusal | None
    cost: int
    food: int
    refill: int


@dataclass(frozen=True)
class Pooling:
    """Step 2 (R27): a legion's pool: the members (feeding order), the pool carried, the supply food and the
    need; the pooled meal itself is in :attr:`DayEnd.meals`."""

    legion: str
    members: tuple[str, ...]
    pool: int
    supplied: int
    need: int


@dataclass(frozen=True)
class Restore:
    """Step 4 (R20, R36): one unit's 行动力: before, the cap, whether restored, why not, after."""

    unit: str
    before: int
    cap: int
    restored: bool
    reason: Literal["starved", "night"] | None
    after: int


@dataclass(frozen=True)
class Clamp:
    """Step 5 (R9, R10): one unit's 行动力 and 资源 lost to the caps of its 兵力 after the meal."""

    unit: str
    ap_lost: int
    supplies_lost: int


@dataclass(frozen=True)
class Store:
    """Step 6 (R32): one stronghold's store: at the day end's start (with the ``pending`` gains), after
    supply, the cap 20·level and the store kept."""

    stronghold: str
    before: int
    supplied: int
    cap: int
    after: int


@dataclass(frozen=True)
class DayEnd:
    """R38: the day end of one side: each step's results in :data:`STEPS` order, then the board and the units
    after (input order)."""

    day: int
    side: str
    supply: tuple[Supplied, ...]
    pooling: tuple[Pooling, ...]
    meals: tuple[Meal, ...]
    ap: tuple[Restore, ...]
    clamps: tuple[Clamp, ...]
    stores: tuple[Store, ...]
    board: Board
    units: tuple[Unit, ...]
    steps: tuple[str, ...] = STEPS


def direct_source(board: Board, side: str, at: Square) -> str | None:
    """R29 (DESIGNED): the stronghold feeding a unit at ``at`` directly: the first of ``side``'s strongholds in
    board order that reaches it, else ``None``."""
    for sh in board.strongholds:
        if sh.side == side and direct(replace(board, strongholds=(sh,)), side, at):
            return sh.id
    return None


def day_end(day: int, board: Board, side: str, units: Sequence[Unit], at: Mapping[str, Square], *,
            pieces: Iterable[Piece] = (), requests: Sequence[Request] = (), legions: Sequence[Legion] = (),
            night: frozenset[str] = frozenset(), pending: Mapping[str, int] | None = None) -> DayEnd:
    """R38: the day end of ``side``. ``at``: each unit's square; ``pieces``: every unit on the map (lines are
    judged against the enemies among them, R30); ``requests``: the lines asked for, laid in order (R30–R32b);
    ``night``: the ids that acted, were attacked or took damage at night (R36); ``pending``: 资源 that entered a
    store since the last day end (a capture, a delivery), which may pass 20·level until step 6.

    Step 1: lines are laid, paying their cost from the store and feeding min(兵力, store) (R30, R31); a unit
    with no ok line that stands within direct reach (R29) eats min(兵力, store) from its :func:`direct_source`
    and then refills its carry up to its cap from what is left (DESIGNED), units in id order. Step 2: each
    legion pools (R27) with its members' food summed. Steps 3–4: the meals and the AP (R20, R36). Step 5: the
    clamps (R9, R10). Step 6: each store is cut to 20·level (R32)."""
    extra = dict(pending or {})
    stores = {sh.id: sh.store + extra.get(sh.id, 0) for sh in board.strongholds}
    start = dict(stores)
    by_id = {u.id: u for u in units}
    enemies = tuple(pieces)
    # step 1: lines in request order (R30–R32b) on the raw stores, each unit asking for its 兵力
    supplied: dict[str, Supplied] = {}
    asked = [replace(req, need=by_id[req.unit].troops) for req in requests]
    for done in lay_from(board, enemies, side, asked, stores):
        sh_id, ln = done.request.source, done.line
        supplied[done.request.unit] = Supplied(done.request.unit, sh_id, False, ln, done.refused,
                                               ln.cost if ln else 0, done.food, 0)
    # step 1: direct supply (R29 DESIGNED), units in id order
    for uid in sorted(by_id):
        if uid in supplied and supplied[uid].food:
            continue
        src = direct_source(board, side, at[uid])
        if src is None:
            continue
        u = by_id[uid]
        food = min(u.troops, stores[src])
        stores[src] -= food
        refill = min(u.supply_cap - u.supplies, stores[src]) if food == u.troops else 0
        stores[src] -= refill
        by_id[uid] = replace(u, supplies=u.supplies + refill)
        tried = supplied.get(uid)  # a failed or refused line stays on record, its cost paid (R30)
        supplied[uid] = Supplied(uid, src, True, tried.line if tried else None, tried.refused if tried else None,
                                 tried.cost if tried else 0, food, refill)
    food_of = {uid: s.food for uid, s in supplied.items()}
    # steps 2–4: legion pools, then every other unit's meal (R20, R27, R36)
    meals: dict[str, Meal] = {}
    pools: list[Pooling] = []
    for lg in legions:
        members = [by_id[m] for m in lg.members]
        p: PoolMeal = pool_meal(lg, members, supplied=sum(food_of.get(m, 0) for m in lg.members), night=night)
        pools.append(Pooling(lg.id, tuple(m.unit.id for m in p.meals), p.pool_before, p.supplied, p.need))
        meals.update((m.unit.id, m) for m in p.meals)
    for u in units:
        if u.id not in meals:
            meals[u.id] = meal(by_id[u.id], supplied=food_of.get(u.id, 0), night=u.id in night)
    ordered = tuple(meals[u.id] for u in units)
    ap = tuple(Restore(m.unit.id, m.ap_before, m.unit.ap_cap, m.restored, m.reason, m.ap_after) for m in ordered)
    # step 5: clamps (R9, R10)
    clamped = [m.unit.with_troops(m.unit.troops) for m in ordered]
    clamps = tuple(Clamp(c.unit.id, c.ap_lost, c.supplies_lost) for c in clamped)
    # step 6: stores capped at 20·level (R32)
    out: list[Store] = []
    for sh in board.strongholds:
        cap = STORE_PER_LEVEL * sh.level
        kept = min(stores[sh.id], cap)
        out.append(Store(sh.id, start[sh.id], stores[sh.id], cap, kept))
        board = board.with_stronghold(replace(sh, store=kept))
    return DayEnd(day, side, tuple(supplied[k] for k in sorted(supplied)), tuple(pools), ordered, ap, clamps,
                  tuple(out), board, tuple(c.unit for c in clamped))


__all__ = ["STEPS", "STORE_PER_LEVEL", "Clamp", "DayEnd", "Pooling", "Restore", "Store", "Supplied", "day_end",
           "direct_source"]
