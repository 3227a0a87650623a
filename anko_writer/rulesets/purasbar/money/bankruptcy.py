"""Bankruptcy (000 §11.3, designed): a stated trigger chain with a countdown, never a vague threat.

Checked at every month end (months 1–12) and after the §4.4 settlement (month 13, step 9 "若资金不足，
触发相应破产流程"); each check is one step of the countdown:

* stage 0 正常 — funds < 0 at a check → stage 1 警告 with ``warning_months`` checks to get back to ≥ 0;
* stage 1 — funds ≥ 0 at a check → back to 0; still < 0 when the countdown reaches 0 → stage 2;
* stage 2 紧急处置 — an ``action`` the integrator carries out at once (:func:`emergency`: the owner's
  emergency injection roll, else the forced sale of the most valuable player), then ``emergency_months``
  checks of probation; funds < 0 at that deadline → stage 3 破产 (the story ends, §4.4 step 12),
  funds ≥ 0 → back to 0.

>>> from ....resources import Resources
>>> from .finance import load_finance
>>> rules = load_finance(Resources("purasbar", None))
>>> s = Bankruptcy()
>>> [bankruptcy_step(s, b, 1, m, rules)["event"] for m, b in enumerate([5, -1, -1, -1, -1, 9, -1, -1], 1)]
['none', 'warning', 'countdown', 'countdown', 'emergency', 'probation', 'probation', 'bankrupt']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from ....dice import Dice
from ..competition.calendar import SETTLEMENT_MONTH
from ..models import Player
from .finance import FinanceRules
from .ledger import Ledger
from .records import BankruptcyState, BankruptcyStep, Deadline, Emergency, EmergencyDue, EmergencyRoll, LedgerLine

NORMAL, WARNING, EMERGENCY, BANKRUPT = 0, 1, 2, 3
"""The four stages of the chain."""
STAGES = ("normal", "warning", "emergency", "bankrupt")
"""Stage names by number (templates translate them)."""


@dataclass
class Bankruptcy:
    """A club's place on the chain: the stage and the checks left before its deadline."""

    stage: int = NORMAL
    months_left: int = 0
    """Month-end checks left in stage 1 or 2 (0 otherwise)."""

    @property
    def ended(self) -> bool:
        """The club went bankrupt: the story ends."""
        return self.stage == BANKRUPT

    def to_json(self) -> BankruptcyState:
        """``{stage, months_left}`` for the campaign state."""
        return {"stage": self.stage, "months_left": self.months_left}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Bankruptcy:
        """The inverse of :meth:`to_json` (an absent record is stage 0)."""
        data = data or {}
        stage, left = int(data.get("stage", NORMAL)), int(data.get("months_left", 0))
        if stage not in range(len(STAGES)) or left < 0:
            raise ValueError(f"bad bankruptcy state {data!r}")
        return cls(stage, left)


def after(season: int, month: int, checks: int) -> Deadline:
    """The check ``checks`` steps after (season, month): months 1–12, then the settlement 13.

    >>> after(1, 11, 3), after(1, 13, 1)
    ({'season': 2, 'month': 1}, {'season': 2, 'month': 1})
    """
    index = (month - 1) + checks
    return {"season": season + index // SETTLEMENT_MONTH, "month": index % SETTLEMENT_MONTH + 1}


def _move(state: Bankruptcy, balance: int, b: dict[str, Any]) -> tuple[str, bool]:
    """Advance ``state`` one check; return the event and whether an emergency action is due."""
    negative = balance < 0
    if state.stage == NORMAL:
        if negative:
            state.stage, state.months_left = WARNING, b["warning_months"]
            return "warning", False
        return "none", False
    if state.stage == WARNING:
        if not negative:
            state.stage, state.months_left = NORMAL, 0
            return "recovered", False
        state.months_left -= 1
        if state.months_left:
            return "countdown", False
        state.stage, state.months_left = EMERGENCY, b["emergency_months"]
        return "emergency", True
    if state.stage == EMERGENCY:
        state.months_left -= 1
        if state.months_left:
            return "probation", False  # only the deadline's balance counts
        state.stage = BANKRUPT if negative else NORMAL
        return ("bankrupt" if negative else "cleared"), False
    return "ended", False


def bankruptcy_step(state: Bankruptcy, balance: int, season: int, month: int,
                    rules: FinanceRules) -> BankruptcyStep:
    """One month-end check of the chain (month 13: after §4.4 step 10); ``state`` is updated in place."""
    b = rules.bankruptcy
    before = state.to_json()
    event, act = _move(state, balance, b)
    deadline = after(season, month, state.months_left) if state.stage in (WARNING, EMERGENCY) else None
    action: EmergencyDue | None = {"kind": "emergency", "deficit": max(0, -balance)} if act else None
    return {"season": season, "month": month, "balance": balance, "stage_before": before["stage"],
            "months_left_before": before["months_left"], "stage": state.stage, "stage_name": STAGES[state.stage],
            "months_left": state.months_left, "event": event, "deadline": deadline, "action": action,
            "ended": state.ended}


def _most_valuable(players: Iterable[Player]) -> Player | None:
    """The rolled player with the highest total ability (the first listed on a tie)."""
    best: Player | None = None
    for p in players:
        if p.rolled and (best is None or p.total > best.total):
            best = p
    return best


def emergency(dice: Dice, key: str, balance: int, owner_wealth: int, players: Iterable[Player],
              rules: FinanceRules) -> Emergency:
    """Stage 2's action: the owner's emergency injection 1D100 ≤ base + wealth ÷ divisor (deficit + cushion),
    else the forced sale of the most valuable player at the designed fire-sale price."""
    b = rules.bankruptcy
    deficit = max(0, -balance)
    bonus = owner_wealth // b["owner_wealth_divisor"]
    threshold = b["owner_base"] + bonus
    roll = dice.roll(f"{key}/emergency", b["owner_die"], "老板紧急注资")
    rec: EmergencyRoll = {"balance": balance, "deficit": deficit, "owner_wealth": owner_wealth,
                          "owner_base": b["owner_base"],
                          "wealth_divisor": b["owner_wealth_divisor"], "wealth_bonus": bonus, "threshold": threshold,
                          "roll": roll.ref(), "success": roll.total <= threshold}
    if rec["success"]:
        # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
        return cast(Emergency, {**rec, "outcome": "injection", "cushion": b["cushion"],
                                "amount": deficit + b["cushion"]})
    p = _most_valuable(players)
    fee = p.total * b["fire_sale_per_point"] if p else 0
    return cast(Emergency, {**rec, "outcome": "forced_sale", "player": p.name if p else None,
                            "player_total": p.total if p else 0, "per_point": b["fire_sale_per_point"], "amount": fee})


def book_emergency(ledger: Ledger, rec: Emergency, season: int, month: int,
                   rules: FinanceRules) -> list[LedgerLine]:
    """Post an :func:`emergency` record's money (the integrator removes a sold player from the squad)."""
    if not rec["amount"]:
        return []
    kind = "emergency_injection" if rec["outcome"] == "injection" else "forced_sale"
    return [ledger.post(season, month, kind, rec["amount"], rules.labels[kind]).to_json()]


__all__ = [
    "NORMAL", "WARNING", "EMERGENCY", "BANKRUPT", "STAGES", "Bankruptcy", "after", "bankruptcy_step",
    "emergency", "book_emergency",
]
