"""接战's d4 checks: the ordinary action, cohesion (a 紧密 unit loosening), 久战's drift to 展开, and morale
(002 一 'd4，表现0%、25%、50%、75%、100%'; design engage.md E5 in §0.2, E19–E21, F5; all gaps DESIGNED).

A chance of ``k`` quarters succeeds iff ``1D4 ≥ 5 − k``; ``k`` = 0 or 4 throws nothing.

>>> d = Dice(1)
>>> d.fix(2)
>>> c = check(2, d, "b1/r3/游侠/行动")
>>> (c.quarters, c.roll.total, c.success)
(2, 2, False)
>>> check(4, d, "x").roll is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from anko_writer.dice import Dice, Roll

from .units import TRAINING, Training

QUARTERS = 4
"""A d4 check's chance is 0–4 quarters (0 %, 25 %, 50 %, 75 %, 100 %)."""
TRAINING_STEP: dict[str, int] = {"未受训": 0, "受训": 1, "老兵": 2, "精锐": 3}
"""E19's T by training."""
COHESION_BASE = 2
"""E19: k = T + 2 − P."""
DRIFT_BASE = 1
"""F5: k = T + 1 for a unit in 久战 keeping its shape."""
MORALE_BASE: dict[str, int] = {"未受训": 1, "受训": 2, "老兵": 3, "精锐": 4}
"""E20: the morale check's quarters by training (残忍天性 counts as 受训, 002 §2.4)."""
MORALE_ROUND_PERCENT = 30
"""E20: a round's casualties of 30 % of the start men trigger a morale check (002 §3.3 '接战时承受了30%的减员')."""
MORALE_TOTAL_PERCENT = 50
"""E20: cumulative losses first reaching 50 % trigger one, and cost a quarter from then on."""
ACTION_BASE: dict[str, int] = {"未受训": 1, "受训": 2, "老兵": 3, "精锐": 4}
"""E21: an ordinary action's quarters by training, unless the host's ``dm:`` gives them."""
Morale = Literal["steady", "wavering", "routed"]
"""E20: a unit's morale as the JSON contract writes it (动摇 = wavering, 溃散 = routed)."""


def clamp(k: int) -> int:
    """A chance held to 0–4 quarters."""
    return max(0, min(QUARTERS, k))


@dataclass(frozen=True)
class Check:
    """A d4 check: its quarters, the roll (None when 0 or 4 quarters) and whether it succeeded."""

    quarters: int
    roll: Roll | None
    success: bool


def check(quarters: int, dice: Dice, key: str, purpose: str = "检定") -> Check:
    """E5: succeed iff 1D4 ≥ 5 − k, for ``quarters`` k clamped to 0–4; 0 and 4 throw nothing."""
    k = clamp(quarters)
    if k in (0, QUARTERS):
        return Check(k, None, k == QUARTERS)
    roll = dice.roll(key, "1D4", purpose)
    return Check(k, roll, roll.total >= QUARTERS + 1 - k)


@dataclass(frozen=True)
class Parts:
    """A check's quarters and the named parts they came from (``{"受训": 3, "减员": -2}``)."""

    parts: tuple[tuple[str, int], ...]
    quarters: int


def _parts(items: Mapping[str, int]) -> Parts:
    kept = tuple((n, v) for n, v in items.items() if v)
    return Parts(kept, clamp(sum(v for _, v in kept)))


def cohesion_due(*, density: str, took_casualties: bool, full_speed: bool, marching: bool) -> bool:
    """E19: a 紧密 unit checks cohesion at the round's end if it took casualties, moved 全速 or is 行军."""
    return density == "紧密" and (took_casualties or full_speed or marching)


def cohesion(training: Training, *, steps: int, fire_arrows: bool = False, full_speed: bool = False,
             marching: bool = False, breakers: int = 0, vs_wedge: bool = False, wedge: bool = False) -> Parts:
    """E19: k = T + 2 − P, P = this round's casualty steps (×2 against 焰爆箭) + 1 全速 + 1 行军 + 1 per enemy
    破阵 weapon that hurt it + 1 against a 稳固 enemy − 2 if it is 稳固 itself.

    >>> cohesion("受训", steps=2)
    Parts(parts=(('受训', 3), ('减员', -2)), quarters=1)
    """
    return _parts({"受训": TRAINING_STEP[training] + COHESION_BASE,
                   "减员": -steps * (2 if fire_arrows else 1), "全速": -int(full_speed), "行军": -int(marching),
                   "破阵": -breakers, "对手稳固": -int(vs_wedge), "稳固": 2 * int(wedge)})


def drift(training: Training) -> Parts:
    """F5 (DESIGNED): a unit in 久战 not yet 展开 checks at each 久战 round's end, k = T + 1; failing, it
    drifts to 展开 (002 §3.6.2 '部队在久战中往往容易变得展开')."""
    return _parts({"受训": TRAINING_STEP[training] + DRIFT_BASE})


@dataclass(frozen=True)
class MoraleDue:
    """E20: whether a morale check is due and why (``round`` 30 % this round, ``total`` first 50 %)."""

    due: bool
    reasons: tuple[str, ...]


def morale_due(*, start_men: int, round_losses: int, lost_before: int, lost_after: int) -> MoraleDue:
    """E20: due when this round's casualties are ≥ 30 % of the start men, or cumulative losses first reach 50 %.

    >>> morale_due(start_men=20, round_losses=6, lost_before=0, lost_after=6)
    MoraleDue(due=True, reasons=('round',))
    """
    reasons = []
    if round_losses * 100 >= MORALE_ROUND_PERCENT * start_men:
        reasons.append("round")
    if lost_before * 100 < MORALE_TOTAL_PERCENT * start_men <= lost_after * 100:
        reasons.append("total")
    return MoraleDue(bool(reasons), tuple(reasons))


def morale(training: Training, *, start_men: int, lost: int, commander: bool = True,
           traits: tuple[str, ...] = ()) -> Parts:
    """E20: k = base (未受训 1, 受训 2, 老兵 3, 精锐 4; 残忍天性 as 受训), −1 once cumulative losses are ≥ 50 %,
    −1 for a 受训 unit without a commander (DESIGNED: not for a 残忍天性 one, which only borrows the base).

    >>> morale("未受训", start_men=60, lost=30, traits=("残忍天性",))
    Parts(parts=(('残忍天性', 2), ('减员过半', -1)), quarters=1)
    """
    fierce = "残忍天性" in traits and TRAINING.index(training) < TRAINING.index("受训")
    level: Training = "受训" if fierce else training
    return _parts({"残忍天性" if fierce else "受训": MORALE_BASE[level],
                   "减员过半": -int(lost * 100 >= MORALE_TOTAL_PERCENT * start_men),
                   "无指挥官": -int(training == "受训" and not commander)})


def morale_after(state: Morale, success: bool) -> Morale:
    """E20: a failed check makes a steady unit 动摇 (next round only 固守/脱离/撤退); a second failure while
    动摇 makes it 溃散 (it 撤退s, E11). A success leaves the state as it is (DESIGNED: a wavering unit does not
    steady itself by passing a later check; the rule gives no recovery)."""
    if success or state == "routed":
        return state
    return "wavering" if state == "steady" else "routed"


WAVERING_ORDERS = frozenset({"固守", "脱离", "撤退"})
"""E20: the orders a 动摇 unit may take."""


def morale_orders(state: Morale) -> frozenset[str] | None:
    """E20: the orders a unit may take in this state: any (None) when steady; 固守/脱离/撤退 when 动摇; only 撤退
    when 溃散 (it leaves the battle, E11)."""
    if state == "steady":
        return None
    return WAVERING_ORDERS if state == "wavering" else frozenset({"撤退"})


def action(training: Training, *, dm_quarters: int | None = None, forest_craft: bool = False,
           traits: tuple[str, ...] = ()) -> Parts:
    """E21: an ordinary action's quarters: the host's ``dm:`` ones if given, else by training (未受训 1, 受训 2,
    老兵 3, 精锐 4), +1 for 穿林 in a forest search, track, hide or ambush (002 §2.4).

    >>> action("受训", forest_craft=True, traits=("穿林",)).quarters
    3
    """
    if dm_quarters is not None:
        return _parts({"主持": dm_quarters}) if dm_quarters else Parts((("主持", 0),), 0)
    return _parts({"受训": ACTION_BASE[training], "穿林": int(forest_craft and "穿林" in traits)})
