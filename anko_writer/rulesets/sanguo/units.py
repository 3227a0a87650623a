"""三国's characters and units: caps on 兵力, 行动力 and 资源, a unit's 智力, the 军师's AP saving, legion
caps and the day-end meal (design sanguo.md §1.5 R1, R2, R8–R10, R18–R20, R24).

Field names are English; the JSON contract's Chinese names are :data:`FIELDS`. Every function is pure and
returns a typed record; dice come from the caller's :class:`~anko_writer.dice.Dice` under the caller's key.

>>> cao = General("曹操", command=8, might=5, intellect=9)
>>> u = Unit("魏1", cao, kind="cavalry", troops=7, ap=6, supplies=14)
>>> u.ap_cap, u.supply_cap, u.intellect
(6, 14, 9)
>>> hit = u.with_troops(4)
>>> (hit.unit.troops, hit.unit.ap, hit.unit.supplies, hit.supplies_lost)
(4, 4, 8, 6)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from anko_writer.dice import Dice, Roll

Kind = Literal["infantry", "archer", "cavalry"]
"""A unit's type: 步兵, 弓兵, 骑兵 (001 二 兵种)."""
KIND_NAMES: dict[str, str] = {"infantry": "步兵", "archer": "弓兵", "cavalry": "骑兵"}
"""Each :data:`Kind` as the JSON contract writes it (``UNIT.type``)."""
FIELDS: dict[str, str] = {"command": "统率", "might": "武力", "intellect": "智力", "leader": "主将",
                          "deputies": "副将", "adviser": "军师", "troops": "兵力", "ap": "行动力",
                          "supplies": "资源"}
"""The English field names of this module and the Chinese names of the seed and the JSON contract."""
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 15
"""R1: attributes are 'usually 1–10'; the schema allows 1–15."""
ADVISER_MIN_INTELLECT = 4
"""R19 (001 二 '任命军师时，被任命人物的智力至少为4')."""
SAVING_ORDERS = frozenset({"reassign", "ambush", "scout", "build"})
"""R18: the orders whose cost a 军师 may cut by 1 (调配, 埋伏, 侦查, 建造); 移动—攻击, 合击, 突进 never save."""
LEGION_MIN_UNITS = 3
"""R24: a legion has at least 3 units."""
LEGION_MIN_COMMAND = 5
"""R24: a legion's leader has 统率 ≥ 5."""


@dataclass(frozen=True)
class General:
    """A character (人物, R1): 统率 ``command``, 武力 ``might``, 智力 ``intellect`` and skill names."""

    name: str
    command: int
    might: int
    intellect: int
    skills: tuple[str, ...] = ()


def ap_cap(troops: int) -> int:
    """R9: the 行动力 cap of a unit of ``troops`` 兵力 (001 二 '兵力7的部队行动力上限是6').

    >>> [ap_cap(t) for t in (0, 1, 5, 6, 7, 8, 9, 10)]
    [0, 1, 5, 5, 6, 6, 7, 7]
    """
    return troops if troops <= 5 else 5 + (troops - 5) // 2


def supply_cap(troops: int) -> int:
    """R10: the 资源 a unit of ``troops`` 兵力 may carry, ``2·兵力``."""
    return 2 * troops


@dataclass(frozen=True)
class Breach:
    """A rule a unit or legion breaks: the rule number, the field, its value and the limit it passes."""

    rule: str
    field: str
    value: int
    limit: int


@dataclass(frozen=True)
class Unit:
    """A unit (部队, 001 二): 主将 ``leader``, 副将 ``deputies``, 军师 ``adviser``, type, 兵力, 行动力, 资源."""

    id: str
    leader: General
    deputies: tuple[General, ...] = ()
    adviser: General | None = None
    kind: Kind = "infantry"
    troops: int = 0
    ap: int = 0
    supplies: int = 0

    @property
    def troop_cap(self) -> int:
        """R8: 兵力 ≤ the 主将's 统率."""
        return self.leader.command

    @property
    def ap_cap(self) -> int:
        """R9: the 行动力 cap for the current 兵力."""
        return ap_cap(self.troops)

    @property
    def supply_cap(self) -> int:
        """R10: the 资源 cap for the current 兵力."""
        return supply_cap(self.troops)

    @property
    def intellect(self) -> int:
        """R19: the 军师's 智力 if one is appointed, else the highest of the 主将 and 副将."""
        if self.adviser is not None:
            return self.adviser.intellect
        return max(g.intellect for g in (self.leader, *self.deputies))

    @property
    def generals(self) -> tuple[General, ...]:
        """主将, then 副将, then the 军师 (if any)."""
        return (self.leader, *self.deputies, *((self.adviser,) if self.adviser else ()))

    def breaches(self) -> tuple[Breach, ...]:
        """Every rule the unit breaks (R1, R8, R9, R10, R19); empty when it is legal."""
        out: list[Breach] = []
        for g in self.generals:
            for name in ("command", "might", "intellect"):
                v = getattr(g, name)
                if v < ATTRIBUTE_MIN:
                    out.append(Breach("R1", f"{g.name}.{name}", v, ATTRIBUTE_MIN))
                elif v > ATTRIBUTE_MAX:
                    out.append(Breach("R1", f"{g.name}.{name}", v, ATTRIBUTE_MAX))
        for name, v in (("troops", self.troops), ("ap", self.ap), ("supplies", self.supplies)):
            if v < 0:
                out.append(Breach("R8" if name == "troops" else "R9" if name == "ap" else "R10", name, v, 0))
        if self.troops > self.troop_cap:
            out.append(Breach("R8", "troops", self.troops, self.troop_cap))
        if self.ap > self.ap_cap:
            out.append(Breach("R9", "ap", self.ap, self.ap_cap))
        if self.supplies > self.supply_cap:
            out.append(Breach("R10", "supplies", self.supplies, self.supply_cap))
        if self.adviser is not None and self.adviser.intellect < ADVISER_MIN_INTELLECT:
            out.append(Breach("R19", "adviser.intellect", self.adviser.intellect, ADVISER_MIN_INTELLECT))
        return tuple(out)

    def with_troops(self, troops: int) -> TroopChange:
        """The unit at ``troops`` 兵力 (never below 0), its 行动力 and 资源 clamped at once (R9, R10)."""
        t = max(0, troops)
        ap = min(self.ap, ap_cap(t))
        supplies = min(self.supplies, supply_cap(t))
        after = replace(self, troops=t, ap=ap, supplies=supplies)
        return TroopChange(after, self.troops - t, self.ap - ap, self.supplies - supplies)

    def gain_supplies(self, amount: int) -> Unit:
        """The unit with ``amount`` more 资源, any excess over the cap lost (R10)."""
        return replace(self, supplies=min(self.supply_cap, self.supplies + amount))


@dataclass(frozen=True)
class TroopChange:
    """A change of 兵力 and its clamps: the unit after, and the 兵力, 行动力 and 资源 lost (R9, R10)."""

    unit: Unit
    troops_lost: int
    ap_lost: int
    supplies_lost: int


@dataclass(frozen=True)
class Saving:
    """R18: an order's cost, the 军师's 1D10 (None when no die is thrown), the 智力 it is read against, and
    what is paid."""

    order: str
    cost: int
    intellect: int
    roll: Roll | None
    saved: bool
    paid: int

    @property
    def die(self) -> int | None:
        """The 1D10's face, or None."""
        return self.roll.total if self.roll is not None else None


def save_ap(order: str, cost: int, intellect: int, dice: Dice, key: str, *, hidden: bool = False) -> Saving:
    """R18: pay ``cost`` for ``order``, saving 1 AP when 1D10 ≤ 智力; only for :data:`SAVING_ORDERS`, and
    no die is thrown when the cost is 1 or less (a cost is never cut below 1, 001 二 '至少消耗1行动力').

    >>> d = Dice(1)
    >>> d.fix(7)
    >>> s = save_ap("scout", 4, 7, d, "k")
    >>> (s.die, s.saved, s.paid)
    (7, True, 3)
    >>> save_ap("scout", 1, 10, d, "k").die is None
    True
    """
    if cost <= 1 or order not in SAVING_ORDERS:
        return Saving(order, cost, intellect, None, False, cost)
    r = dice.roll(key, "1D10", "军师节省", hidden)
    saved = r.total <= intellect
    return Saving(order, cost, intellect, r, saved, cost - 1 if saved else cost)


def legion_cap(command: int) -> int:
    """R24: the most units a leader of ``command`` 统率 may lead (0 if the leader may lead none, 统率 < 5).

    >>> [legion_cap(c) for c in (4, 5, 6, 7, 8, 9, 10, 12)]
    [0, 3, 3, 3, 4, 4, 5, 6]
    """
    if command < LEGION_MIN_COMMAND:
        return 0
    return 3 if command <= 6 else 3 + (command - 6) // 2


def legion_breaches(command: int, units: int) -> tuple[Breach, ...]:
    """R24: what a legion of ``units`` units (the leader's own included) under a leader of ``command``
    统率 breaks; empty when it may be formed."""
    out: list[Breach] = []
    if command < LEGION_MIN_COMMAND:
        out.append(Breach("R24", "command", command, LEGION_MIN_COMMAND))
    if units < LEGION_MIN_UNITS:
        out.append(Breach("R24", "units", units, LEGION_MIN_UNITS))
    elif command >= LEGION_MIN_COMMAND and units > legion_cap(command):
        out.append(Breach("R24", "units", units, legion_cap(command)))
    return tuple(out)


@dataclass(frozen=True)
class Meal:
    """R20: one unit's day-end meal: what it had, the line food ``supplied``, the ``need`` (its 兵力), the
    ``hungry`` part, the results, and whether its 行动力 came back to the cap (``reason``: why not)."""

    unit: Unit
    troops_before: int
    supplies_before: int
    supplied: int
    need: int
    hungry: int
    troops_after: int
    supplies_after: int
    ap_before: int
    ap_after: int
    restored: bool
    reason: Literal["starved", "night"] | None = field(default=None)


def meal(unit: Unit, *, supplied: int = 0, night: bool = False) -> Meal:
    """R20 with R31, R36: the unit eats its 兵力, line food ``supplied`` first (it cannot be carried), then its
    own 资源. Short of food, the hungry part halves (⌊·⌋): 兵力' = food + ⌊(兵力 − food)/2⌋, and 行动力 is
    not restored. Fed, 行动力 returns to the cap unless ``night`` (it acted, was attacked or took damage at
    night, R36). Then the clamps (R9, R10).

    >>> m = meal(Unit("u", General("g", 9, 5, 5), troops=7, ap=2, supplies=3))
    >>> (m.troops_after, m.supplies_after, m.ap_after, m.reason)
    (5, 0, 2, 'starved')
    >>> meal(Unit("u", General("g", 9, 5, 5), troops=7, ap=2, supplies=0)).troops_after
    3
    """
    need = unit.troops
    food = supplied + unit.supplies
    from_carry = max(0, need - supplied)
    reason: Literal["starved", "night"] | None
    if food >= need:
        hungry = 0
        fed = replace(unit, supplies=unit.supplies - from_carry)
        reason = "night" if night else None
        ap = fed.ap if night else fed.ap_cap
        after = replace(fed, ap=ap)
    else:
        hungry = need - food
        # 001 二: '余下的"挨饿"的兵力减半，小数点舍去，且行动力不会恢复'
        after = replace(unit, supplies=0).with_troops(food + hungry // 2).unit
        reason = "starved"
    return Meal(after, unit.troops, unit.supplies, supplied, need, hungry, after.troops, after.supplies,
                unit.ap, after.ap, reason is None, reason)
