"""000 §5.5 substitutions and §3.4 replacements: who comes on, with what stamina and ability."""

from __future__ import annotations

from typing import cast

from ....dice import Dice, RollJson
from ..models import MAIN, Player
from .records import ReplacementPick, SubstitutionRecord, TempAbility
from .side import SUBS_EXTRA, SUBS_NORMAL, Side

ROLE_SUB_STAMINA = "1D40+40"
"""000 §5.5: a role player comes on with 1D40 + 40 temporary stamina."""
CORE_SUB_STAMINA = 100
"""000 §5.5: a core player comes on with 「未出场的满体力值（100）」, whatever he had left from earlier
matches (a player taken off never comes back in the same match, so the other case does not arise)."""
TEMP_DIE = "1D50"
"""000 §3.4.2: temporary ability = team ability × (0.5 + 1D50/100)."""
TEMP_FLOOR = 1
"""Designed: a temporary ability is at least 1, the floor §2.2 and §3.2.1 put on every ability (§3.4.2
states no minimum; a team ability of 1 would otherwise always give 0)."""


def sub_limit(extra_time: bool) -> int:
    """000 §5.5: 3 in normal time, 4 in all once extra time starts."""
    return SUBS_NORMAL + (SUBS_EXTRA if extra_time else 0)


def temp_ability(dice: Dice, key: str, side: Side, player: Player, slot: str) -> TempAbility:
    """000 §3.4.2: a player out of position plays ``slot`` at floor(team ability × (50 + 1D50) / 100),
    at least :data:`TEMP_FLOOR`."""
    attr = MAIN[slot]
    team = side.team_abilities()[attr]
    r = dice.roll(key, TEMP_DIE, f"{player.name} 临时{attr}")
    value = max(TEMP_FLOOR, team * (50 + r.total) // 100)
    side.temp[player.name] = (attr, value)
    return {"player": player.name, "slot": slot, "attr": attr, "team": team, "roll": r.to_json(),
            "value": value}


def _pick(dice: Dice, key: str, side: Side, pool: list[Player], attr: str) -> tuple[Player, RollJson | None]:
    """§3.4.1: the coach chooses (readers' policy: the best at the slot's attribute); AI: at random."""
    if len(pool) == 1:
        return pool[0], None
    if side.plan is not None and side.plan.subs_voted:
        return max(pool, key=lambda p: (p.attrs[attr], -side.club.players.index(p))), None
    r = dice.roll(key, f"1D{len(pool)}", "替补人选")
    return pool[r.total - 1], r.to_json()


def replacement(dice: Dice, key: str, side: Side, slot: str,
                allow_other: bool = True) -> tuple[Player | None, ReplacementPick]:
    """Who replaces a player in ``slot`` (000 §3.4.1–3.4.2).

    Order: a same-position role player on the bench; then (designed) a same-position core player; then
    any bench player, who plays out of position with a temporary ability roll (only when the change is
    forced: a coach resting a tired player keeps to the position, a designed reading of §3.4.1).
    """
    attr = MAIN[slot]
    bench: list[Player] = []
    role: list[Player] = []
    core: list[Player] = []
    here = {p.name for group in side.lineup.values() for p in group}
    gone = side.gone
    for p in side.club.players:  # Side.bench's healthy players off the pitch, the rolled ones, in one pass
        if p.injured_weeks == 0 and p.attrs and p.name not in here and p.name not in gone:
            bench.append(p)
            if p.position == slot:
                (core if p.core else role).append(p)
    for tier, pool in (("role", role), ("core", core), ("other", bench if allow_other else [])):
        if pool:
            p, roll = _pick(dice, key, side, pool, attr)
            return p, {"tier": tier, "candidates": [x.name for x in pool], "pick_roll": roll}
    return None, {"tier": "none", "candidates": [], "pick_roll": None}


def substitute(dice: Dice, key: str, side: Side, slot: str, out: Player | None, reason: str,
               slice_no: int, extra_time: bool) -> SubstitutionRecord | None:
    """Bring a replacement on for ``out`` (or into an empty ``slot``); ``None`` if no one or no sub left."""
    if side.subs_used >= sub_limit(extra_time):
        return None
    on, how = replacement(dice, key, side, slot, allow_other=reason != "stamina")
    if on is None:
        return None
    if out is not None:
        side.lineup[slot].remove(out)
        side.gone.add(out.name)
    side.lineup[slot].append(on)
    side.subs_used += 1
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    rec = cast(SubstitutionRecord, {"team": side.club.name, "before_slice": slice_no, "reason": reason,
                               "out": out.name if out else None, "out_stamina": out.stamina if out else None,
                               "in": on.name, "slot": slot, "position": on.position, "core": on.core, **how,
                               "stamina_roll": None, "temp": None, "count": side.subs_used})
    if on.core:
        on.stamina = CORE_SUB_STAMINA
    else:
        r = dice.roll(key, ROLE_SUB_STAMINA, f"{on.name} 临时体力")
        on.stamina = r.total
        rec["stamina_roll"] = r.to_json()
    rec["stamina"] = on.stamina
    if on.position != slot:
        rec["temp"] = temp_ability(dice, key, side, on, slot)
    return rec


def policy_subs(dice: Dice, key: str, side: Side, slice_no: int, extra_time: bool) -> list[SubstitutionRecord]:
    """Stamina management at a break: the most tired below the policy line go off first, while subs last."""
    out: list[SubstitutionRecord] = []
    if side.subs_used >= sub_limit(extra_time):
        return out  # none left: substitute would refuse each
    limit = side.plan.sub_below if side.plan else 0
    line = side.lineup
    tired = [(slot, p) for slot in ("GK", "DF", "MF", "FW") for p in line[slot] if p.stamina < limit]  # on_pitch order
    if len(tired) > 1:
        tired.sort(key=lambda x: (x[1].stamina, x[1].name))
    for slot, p in tired:
        rec = substitute(dice, key, side, slot, p, "stamina", slice_no, extra_time)
        if rec is not None:
            out.append(rec)
    return out
