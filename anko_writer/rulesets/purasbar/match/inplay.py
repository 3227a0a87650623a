"""What happens in a break between slices: replacements, time-outs (000 §7.3), the AI's change (§7.4)."""

from __future__ import annotations

from typing import cast

from ....dice import Dice
from ..models import MAIN, Player
from .formations import FORMATIONS
from .records import Adaptation, BreakRecord, FormationChange, TimeoutPlan, TimeoutRecord
from .side import Side
from .substitutions import policy_subs, substitute, temp_ability
from .tactics import (
    AI_ADAPT,
    MORALE_MAX,
    PLAYER_BOOST,
    TIMEOUTS_EXTRA,
    TIMEOUTS_NORMAL,
    adaptation,
    ai_halftime,
    morale_boost,
)

HALF_TIME = 4
"""The break before slice 4 is half-time: the AI's one formation check (000 §7.4.1)."""


def timeout_limit(extra_time: bool) -> int:
    """000 §7.3.1: two in normal time, three in all once extra time starts."""
    return TIMEOUTS_NORMAL + (TIMEOUTS_EXTRA if extra_time else 0)


def change_formation(dice: Dice, key: str, side: Side, to: str, how: str, slice_no: int) -> FormationChange:
    """A formation change in play (000 §7.2): the line-up keeps its players, re-slotted by the new
    numbers (designed: best fits by each slot's main attribute), and adaptation starts now."""
    before = side.formation
    side.formation = to
    _reslot(side, to)
    adapt: Adaptation
    if how == "ai":
        adapt = {"roll": None, "modifiers": {}, "raw": AI_ADAPT, "matches": AI_ADAPT, "clamped": False}
    else:
        adapt = adaptation(dice, key, side.club.coach if how == "active" else None, to)
    side.adapting = True
    side.club.adapt_left = adapt["matches"]
    for _, p in side.on_pitch():
        side.temp.pop(p.name, None)
    temps = [temp_ability(dice, key, side, p, slot) for slot, p in side.on_pitch() if p.position != slot]
    return {"team": side.club.name, "before_slice": slice_no, "from": before, "to": to, "how": how,
            "adaptation": adapt, "temps": temps}


def _reslot(side: Side, formation: str) -> None:
    """Fit the players on the pitch to the new numbers: own position first, then best at the attribute."""
    players = [p for _, p in side.on_pitch()]
    counts = FORMATIONS[formation].counts()
    new: dict[str, list[Player]] = {s: [] for s in counts}
    for slot in counts:
        for p in [p for p in players if p.position == slot][: counts[slot]]:
            new[slot].append(p)
            players.remove(p)
    for slot, n in counts.items():
        while len(new[slot]) < n and players:
            best = max(players, key=lambda p: (p.attrs[MAIN[slot]], -players.index(p)))
            new[slot].append(best)
            players.remove(best)
    side.lineup = new


def _when(cond: str, lead: int) -> bool:
    """A voted time-out's condition: always, leading, level or trailing (our score minus theirs)."""
    return {"always": True, "leading": lead > 0, "level": lead == 0, "trailing": lead < 0}[cond]


def voted_timeouts(dice: Dice, key: str, side: Side, slice_no: int, lead: int,
                   extra_time: bool) -> list[TimeoutRecord]:
    """The readers' time-outs planned for the break before ``slice_no`` (000 §7.3.2)."""
    out: list[TimeoutRecord] = []
    for plan in (side.plan.timeouts or []) if side.plan else []:
        if plan["before"] != slice_no or not _when(plan.get("when", "always"), lead):
            continue
        if side.timeouts_used >= timeout_limit(extra_time):
            out.append({"team": side.club.name, "before_slice": slice_no, "use": plan["use"], "refused": "limit"})
            continue
        out.append(_use_timeout(dice, key, side, plan, slice_no))
    return out


def _use_timeout(dice: Dice, key: str, side: Side, plan: TimeoutPlan, slice_no: int) -> TimeoutRecord:
    rec: TimeoutRecord = {"team": side.club.name, "before_slice": slice_no, "use": plan["use"], "refused": None}
    use = plan["use"]
    if use == "formation":
        if plan["formation"] == side.formation:
            return {**rec, "refused": "same"}
        rec["change"] = change_formation(dice, key, side, plan["formation"], "active", slice_no)
    elif use == "morale":
        gain = morale_boost(side.morale_boosts)
        before = side.club.morale
        side.club.morale = min(MORALE_MAX, before + gain)
        side.morale_gained += side.club.morale - before
        side.morale_boosts += 1
        rec.update({"gain": gain, "morale_before": before, "morale": side.club.morale})
    else:
        target = next((p for _, p in side.on_pitch() if p.name == plan["player"]), None)
        if target is None or target.name in side.boosted:
            return {**rec, "player": plan["player"], "refused": "absent" if target is None else "repeat"}
        side.boost[target.name] = PLAYER_BOOST
        side.boosted.add(target.name)
        rec.update({"player": target.name, "gain": PLAYER_BOOST})
    side.timeouts_used += 1
    rec["count"] = side.timeouts_used
    return rec


def ai_timeout(dice: Dice, key: str, side: Side, slice_no: int, lead: int, extra_time: bool) -> list[TimeoutRecord]:
    """000 §7.4: at half-time a side without voted time-outs may change formation when 2+ down."""
    if slice_no != HALF_TIME or side.plan is None or side.plan.timeouts is not None:
        return []
    if side.club.coach is None or side.timeouts_used >= timeout_limit(extra_time):
        return []
    rec = ai_halftime(dice, key, side.club.coach, side.formation, -lead)
    if rec is None:
        return []
    out: TimeoutRecord = {"team": side.club.name, "before_slice": slice_no, "use": "ai_check", "refused": None,
                          "check": rec}
    if rec["change"]:
        side.timeouts_used += 1
        to = cast(str, rec["to"])  # the direction roll sets it whenever ``change`` is true
        out.update({"use": "formation", "count": side.timeouts_used,
                    "change": change_formation(dice, key, side, to, "ai", slice_no)})
    return [out]


def passive_goalkeeper(dice: Dice, key: str, side: Side, slice_no: int) -> FormationChange | None:
    """000 §7.2.3: no goalkeeper left and no substitute: an outfield player goes in goal (temporary
    GK, §3.4.2) and the side adapts by 1D3 alone. Other empty slots just leave their group short (§5.1.1)."""
    if side.lineup["GK"]:
        return None
    outfield = [(s, p) for s, p in side.on_pitch()]
    if not outfield:
        return None
    slot, p = max(outfield, key=lambda x: (x[1].attrs["GK"], x[1].name))
    side.lineup[slot].remove(p)
    side.lineup["GK"].append(p)
    adapt = adaptation(dice, key, None, side.formation)
    side.adapting = True
    side.club.adapt_left = adapt["matches"]
    return {"team": side.club.name, "before_slice": slice_no, "from": side.formation, "to": side.formation,
            "how": "passive", "adaptation": adapt, "player": p.name, "from_slot": slot,
            "temps": [temp_ability(dice, key, side, p, "GK")] if p.position != "GK" else []}


def break_before(dice: Dice, key: str, side: Side, slice_no: int, lead: int, extra_time: bool) -> BreakRecord:
    """Everything one side does in the break before ``slice_no``, in order: replace the injured,
    time-outs (voted, or the AI's half-time check), then rest the tired."""
    out: BreakRecord = {"substitutions": [], "timeouts": [], "changes": []}
    if side.retired:
        for slot, p in side.retired:
            rec = substitute(dice, key, side, slot, None, "injury", slice_no, extra_time)
            if rec is not None:
                rec["out"] = p.name
                out["substitutions"].append(rec)
        side.retired = []
    if not side.lineup["GK"]:
        gk = passive_goalkeeper(dice, key, side, slice_no)
        if gk:
            out["changes"].append(gk)
    plan = side.plan
    if plan is not None and (plan.timeouts or slice_no == HALF_TIME):  # else both give none (§7.3, §7.4)
        tos = voted_timeouts(dice, key, side, slice_no, lead, extra_time) + ai_timeout(dice, key, side, slice_no, lead,
                                                                                       extra_time)
        out["timeouts"] += tos
        out["changes"] += [t["change"] for t in tos if t.get("change")]
    out["substitutions"] += policy_subs(dice, key, side, slice_no, extra_time)
    return out
