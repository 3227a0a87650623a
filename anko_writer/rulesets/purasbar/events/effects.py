"""Applying the structured effects that event and action tables name (docs/design-club-life.md).

A table row says *what* happens (``effect: morale, amount: 5``); this module is the one place that
changes the world for it, and returns a record of exactly what changed, for the chapter and the JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from ....dice import Dice, RollJson
from ..models import Club, Player
from .depth import Depth
from .records import (
    AffinityChange,
    EffectChange,
    EffectRecord,
    EffectSpec,
    MatchModEffect,
    PendingInjury,
    PickedFrom,
    SealedInjury,
)

MORALE_MIN, MORALE_MAX = -100, 100
"""000 §5.1.3: team morale runs from −100 to 100."""
LEVEL_MIN, LEVEL_MAX = 1, 5
"""Facility and staff levels (designed, 000 §2.3 / ch.12)."""
ATTR_MIN, ATTR_MAX = 1, 99
"""Player attributes stay in 1–99 (000 §2.2)."""
AFFINITY_MIN, AFFINITY_MAX = 0, 100
"""Two-way affinity (designed, 000 §15.5)."""
FACILITIES = ("training", "youth", "medical")
"""000 §2.3: the three facilities."""
KINDS = ("funds", "investment", "morale", "facility", "staff_level", "affinity", "injury", "stamina",
         "ability", "match_mod", "depth", "environment", "nothing")
"""Every effect kind a table may name."""
T = TypeVar("T")


@dataclass
class Target:
    """What an effect may touch: a club and, for ours, its people and money."""

    club: Club
    dice: Dice
    key: str
    week: int = 0
    funds: Any = None
    """Our club's :class:`ledger.Ledger`; None where money is not booked."""
    staff: dict[str, Any] | None = None
    """role → object with ``level`` (our club)."""
    affinity: Any = None
    """Our :class:`people.Affinity` (bonds by person: coach and the five staff roles)."""
    depth: dict[str, Depth] = field(default_factory=dict)
    """pool → :class:`depth.Depth`."""
    match_mods: list[MatchModEffect] | None = None
    """Where a ``match_mod`` goes while a match is being played."""
    environment: Any = None
    """The season's :class:`environment.Environment`."""
    season: int = 0
    """Season and month the money lines are booked in."""
    month: int = 0


def _sign(polarity: str) -> int:
    return -1 if polarity == "negative" else 1


def pick(dice: Dice, key: str, pool: Sequence[T], purpose: str) -> tuple[T, RollJson | None]:
    """A random member of a non-empty ``pool`` by a visible 1Dn on stream ``key`` (no roll when there is one)."""
    if len(pool) == 1:
        return pool[0], None
    r = dice.roll(key, f"1D{len(pool)}", purpose)
    return pool[r.total - 1], r.to_json()


def _pick(t: Target, pool: list[Any], purpose: str) -> tuple[Any, RollJson | None]:
    """:func:`pick` on the target's stream; ``(None, None)`` for an empty pool."""
    if not pool:
        return None, None
    return pick(t.dice, t.key, pool, purpose)


def _picked_from(roll: RollJson | None, pool: list[str]) -> PickedFrom:
    """``pick_from``, the pool a random pick chose from, when a roll made the pick."""
    return {"pick_from": pool} if roll else {}


def _players(t: Target, target: str) -> list[Player]:
    ps = [p for p in t.club.players if p.rolled and p.healthy]
    if target == "random_core":
        ps = [p for p in ps if p.core] or ps
    elif target == "young":
        ps = [p for p in ps if (p.age or 99) <= 23] or ps
    elif target == "star":
        best = max((p.total for p in ps), default=0)
        ps = [p for p in ps if p.total == best]
    return ps


def _funds(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    if t.funds is None:
        return {"changed": False, "reason": "untracked"}
    before = t.funds.balance
    t.funds.post(t.season, t.month, eff.get("ledger", "event"), _sign(eff["polarity"]) * amount,
                 eff.get("label", ""))
    return {"changed": True, "before": before, "after": t.funds.balance}


def _morale(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    before = t.club.morale
    t.club.morale = max(MORALE_MIN, min(MORALE_MAX, before + _sign(eff["polarity"]) * amount))
    return {"changed": t.club.morale != before, "before": before, "after": t.club.morale}


def _facility(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    name = eff.get("facility", "random")
    roll = None
    if name == "random":
        name, roll = _pick(t, list(FACILITIES), "设施抽取")
    before = t.club.facilities.get(name, LEVEL_MIN)
    after = max(LEVEL_MIN, min(LEVEL_MAX, before + _sign(eff["polarity"]) * eff.get("levels", 1)))
    t.club.facilities[name] = after
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    return cast(EffectChange, {"changed": after != before, "facility": name, "before": before, "after": after,
                               "pick_roll": roll, **_picked_from(roll, list(FACILITIES))})


def _staff(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    if t.staff is None:
        return {"changed": False, "reason": "untracked"}
    role = eff.get("role", "random")
    roll = None
    if role == "random":
        role, roll = _pick(t, sorted(t.staff), "职员抽取")
    member = t.staff[role]
    before = member.level
    member.level = max(LEVEL_MIN, min(LEVEL_MAX, before + _sign(eff["polarity"]) * eff.get("levels", 1)))
    if role == "doctor":
        t.club.doctor = member.level
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    return cast(EffectChange, {"changed": member.level != before, "role": role, "before": before,
                               "after": member.level, "pick_roll": roll, **_picked_from(roll, sorted(t.staff))})


def _affinity(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    if t.affinity is None:
        return {"changed": False, "reason": "untracked"}
    who = eff.get("who", "random")
    roll = None
    people = sorted(t.affinity.bonds)
    if who == "random":
        who, roll = _pick(t, people, "好感对象")
    targets = people if who == "all" else [who]
    directions = ("owner_to", "to_owner") if eff.get("direction", "both") == "both" else (eff["direction"],)
    changes: list[AffinityChange] = []
    for person in targets:
        for d in directions:
            before = t.affinity.get(person, d)
            after = t.affinity.adjust(person, d, _sign(eff["polarity"]) * amount)
            changes.append({"who": person, "direction": d, "before": before, "after": after})
    # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
    return cast(EffectChange, {"changed": True, "changes": changes, "pick_roll": roll, **_picked_from(roll, people)})


def _injury(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    pool = _players(t, eff.get("target", "random"))
    p, roll = _pick(t, pool, "伤者抽取")
    if p is None:
        return {"changed": False, "reason": "no player"}
    if eff.get("pending"):
        # cast: every ** item is a record built above whose keys are known; mypy's extra checks cannot see that it carries no others
        return cast(EffectChange, {"changed": True, "player": p.name,
                                   **sealed_absence(t.club, p, eff["pending"], t.week), "pick_roll": roll})
    weeks = max(1, eff.get("weeks", 1) - t.club.doctor)  # 000 §5.7.1 item 4: the doctor shortens it
    until = t.week + weeks
    if t.club.infirmary is not None:
        t.club.infirmary.set_injury(p, until, t.week)
    return {"changed": True, "player": p.name, "weeks_base": eff.get("weeks", 1), "doctor": t.club.doctor,
            "weeks": weeks, "out_until_week": until, "pick_roll": roll}


def sealed_absence(club: Club, p: Player, pending: PendingInjury, week: int) -> SealedInjury:
    """000 §5.8.4: ``p`` is out until the reveal; the absence the sealed die decided waits, masked,
    under ``pending`` (``sealed_by`` the die), with the doctor applied as 000 §5.7.1 item 4 says."""
    weeks = max(1, pending["weeks"] - club.doctor)
    if club.infirmary is not None:
        club.infirmary.seal_injury(p)
    return {"weeks": None, "out_until_week": None,
            "pending": {**pending, "weeks_base": pending["weeks"], "doctor": club.doctor, "weeks": weeks,
                        "from_week": week, "out_until_week": week + weeks}}


def _stamina(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    pool = _players(t, "random") if eff.get("target") == "random" else [p for p in t.club.players if p.rolled]
    roll = None
    if eff.get("target") == "random":
        p, roll = _pick(t, pool, "体力对象")
        pool = [p] if p else []
    for p in pool:
        p.stamina = max(0, min(100, p.stamina + _sign(eff["polarity"]) * amount))
    return {"changed": bool(pool), "players": [p.name for p in pool], "amount": _sign(eff["polarity"]) * amount,
            "pick_roll": roll}


def _ability(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    p, roll = _pick(t, _players(t, eff.get("target", "random")), "球员抽取")
    if p is None:
        return {"changed": False, "reason": "no player"}
    attr = p.main if eff.get("attr", "main") == "main" else eff["attr"]
    before = p.attrs[attr]
    p.attrs[attr] = max(ATTR_MIN, min(ATTR_MAX, before + _sign(eff["polarity"]) * amount))
    return {"changed": p.attrs[attr] != before, "player": p.name, "attr": attr, "before": before,
            "after": p.attrs[attr], "pick_roll": roll}


def _match_mod(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    if t.match_mods is None:
        return {"changed": False, "reason": "no match"}
    mod: MatchModEffect = {"side": eff.get("side", "us"), "amount": _sign(eff["polarity"]) * amount, "slices": eff.get("slices", 6)}
    t.match_mods.append(mod)
    # cast: the ** item is a record built above whose keys are known; mypy cannot see that it carries no others
    return cast(EffectChange, {"changed": True, **mod})


def _depth(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    pool = t.depth.get(eff.get("pool", "business"))
    if pool is None:
        return {"changed": False, "reason": "no pool"}
    before = pool.value
    pool.value = max(-3, min(3, before + _sign(eff["polarity"]) * amount))
    return {"changed": pool.value != before, "pool": pool.pool, "before": before, "after": pool.value}


def _environment(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    if t.environment is None:
        return {"changed": False, "reason": "no environment"}
    target = eff["target"]
    before = t.environment.modifiers.get(target, 0)
    t.environment.modifiers[target] = before + _sign(eff["polarity"]) * amount
    return {"changed": True, "target": target, "before": before, "after": t.environment.modifiers[target]}


def _nothing(t: Target, eff: EffectSpec, amount: int) -> EffectChange:
    return {"changed": False}


_APPLY: dict[str, Callable[[Target, EffectSpec, int], EffectChange]] = {
    "funds": _funds, "investment": _funds, "morale": _morale, "facility": _facility, "staff_level": _staff,
    "affinity": _affinity, "injury": _injury, "stamina": _stamina, "ability": _ability,
    "match_mod": _match_mod, "depth": _depth, "environment": _environment, "nothing": _nothing,
}


def apply(t: Target, effect: EffectSpec) -> EffectRecord:
    """Apply one resolved effect (``{effect | kind, polarity, amount, **params}``); the record of the change.

    ``amount`` is the final magnitude (after depth scaling and any coach response); the polarity
    gives its direction.
    """
    kind = effect.get("effect") or effect["kind"]
    effect = {**effect, "effect": kind}
    if kind not in _APPLY:
        raise ValueError(f"unknown effect kind {kind!r}")
    amount = abs(int(effect.get("amount", effect.get("percent", 0)) or 0))
    return {"effect": kind, **_APPLY[kind](t, effect, amount)}
