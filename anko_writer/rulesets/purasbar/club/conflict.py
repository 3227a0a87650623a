"""000 §4.5: the owner–coach conflict — the forced combinations, the contest and its three outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ....dice import Dice
from .coach_decisions import COACH_FIXED
from .owner_actions import INTERVENE
from .records import Contest, Effect, Outcome

FORCED_COACH = frozenset(COACH_FIXED)
"""000 §4.5.1: 调整战术体系, 一对一球员指导, 全队心理建设, 处理内部矛盾 force a conflict with 干预主教练."""
CONTEST_DIE = "1D50"
"""000 §4.5.2: each side adds 1D50."""
OWNER_DIVISOR, COACH_DIVISOR = 20, 10
"""000 §4.5.2: + 老板→教练好感度 / 20 for the owner, − 教练→老板好感度 / 10 for the coach (floored)."""
NON_FORCED_PER_MONTH = 1
"""000 §4.5.3: at most one non-forced conflict a month."""
HALF = (1, 2)
"""000 §4.5.2 平局: both actions at half effect."""
OUTCOMES: dict[str, Outcome] = {
    "owner": {"owner_action": "full", "coach_decision": "void", "morale_temp": 0,
              "affinity": {"owner_to": 0, "to_owner": -5},
              "followup": {"win": {"owner_to": 0, "to_owner": 7}, "loss": {"owner_to": -10, "to_owner": 0}}},
    "coach": {"owner_action": "withdrawn", "coach_decision": "full", "morale_temp": 2,
              "affinity": {"owner_to": -2, "to_owner": 1}, "followup": None},
    "tie": {"owner_action": "half", "coach_decision": "half", "morale_temp": 0,
            "affinity": {"owner_to": 0, "to_owner": 0}, "followup": None},
}
"""000 §4.5.2 outcomes. Fixed: owner wins → the coach's decision is void; coach wins → morale +2 temporary
(this month's matches); tie → both at half effect. Designed: the affinity moves (owner wins: coach→owner −5;
the next match decides the follow-up, a win lifts coach→owner by 7 so it "不降反升" to +2 net, a loss drops
owner→coach by 10, "大幅下滑"; coach wins: "小幅波动" owner→coach −2, coach→owner +1; tie: none)."""
SCALED = ("amount", "levels", "percent")
"""Effect parameters a half effect scales."""


def forced(owner_key: str | None, coach_key: str | None) -> bool:
    """000 §4.5.1: 干预主教练 against one of the four fixed coach decisions."""
    return owner_key == INTERVENE and coach_key in FORCED_COACH


def non_forced_allowed(non_forced_this_month: int) -> bool:
    """000 §4.5.3: a non-forced conflict may still be ruled this month."""
    return non_forced_this_month < NON_FORCED_PER_MONTH


def contest(dice: Dice, key: str, control: int, stubbornness: int, owner_to_coach: int,
            coach_to_owner: int) -> Contest:
    """000 §4.5.2: owner = 控制欲 + 1D50 + ⌊好感/20⌋ against coach = 固执 + 1D50 − ⌊好感/10⌋; equal totals tie."""
    o = dice.roll(key, CONTEST_DIE, "老板方对抗骰")
    c = dice.roll(key, CONTEST_DIE, "教练方对抗骰")
    bonus = owner_to_coach // OWNER_DIVISOR  # 000 §4.5.2; affinity 0–100, so floor is truncation
    penalty = coach_to_owner // COACH_DIVISOR
    owner = control + o.total + bonus
    coach = stubbornness + c.total - penalty
    winner = "owner" if owner > coach else "coach" if coach > owner else "tie"
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    return cast(Contest, {"owner": {"control": control, "roll": o.to_json(), "affinity": owner_to_coach, "bonus": bonus,
                      "total": owner},
            "coach": {"stubbornness": stubbornness, "roll": c.to_json(), "affinity": coach_to_owner,
                      "penalty": penalty, "total": coach},
            "winner": winner, **_copy(OUTCOMES[winner])})


def _copy(outcome: Outcome) -> Outcome:
    """A deep-enough copy of an outcome so records never share dicts."""
    return cast(Outcome, {k: ({kk: (dict(vv) if isinstance(vv, dict) else vv) for kk, vv in v.items()}
                              if isinstance(v, dict) else v) for k, v in outcome.items()})


def halve(effect: Mapping[str, Any]) -> Effect:
    """000 §4.5.2 平局: an effect at half size — magnitudes halved rounding up (as §7.3.2 halves), plus ``factor``."""
    out = dict(effect)
    for p in SCALED:
        v = out.get(p)
        if isinstance(v, int) and not isinstance(v, bool):
            out[p] = (1 if v > 0 else -1) * -(-abs(v) // 2) if v else 0
    out["factor"] = list(HALF)
    return out


__all__ = ["FORCED_COACH", "OUTCOMES", "forced", "non_forced_allowed", "contest", "halve"]
