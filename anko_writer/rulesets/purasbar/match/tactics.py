"""000 §7.2–7.4: coach tendencies, formation changes and adaptation, time-outs, the AI's half-time change."""

from __future__ import annotations

from dataclasses import dataclass

from ....dice import Dice, Weighted
from .records import Adaptation, AiHalftime, Tendency

TENDENCIES: dict[str, Tendency] = {
    "attacking": {"cn": "进攻", "default": "4 3 3", "aligned": "4 3 3", "opposed": "5 4 1"},
    "counter": {"cn": "防反", "default": "5 4 1", "aligned": "5 4 1", "opposed": "4 3 3"},
    "possession": {"cn": "控球", "default": "3 5 2", "aligned": "3 5 2", "opposed": "5 4 1"},
    "pragmatic": {"cn": "实用", "default": "4 4 2", "aligned": None, "opposed": None},
}
"""Tactical tendencies. 000 §7.2.2 fixes 进攻 → 4 3 3 (aligned) / 5 4 1 (opposed), 防反 → 4 3 3 opposed,
实用 neutral; the rest (控球, and each tendency's default formation of §7.4.2) is designed."""
STYLE_TENDENCY = {"ATK": "attacking", "DEF": "counter", "MID": "possession", "GK": "pragmatic"}
"""Designed: an AI coach's tendency follows his club's §2.2 first priority (so its default formation is
the club's habitual one)."""

ADAPT_DIE = "1D3"
"""000 §7.2.2: base adaptation length in matches."""
ADAPT_PENALTY = 2
"""000 §7.2.2: −2 to every ability of every player in an adapting match."""
FLEXIBLE, STUBBORN = 35, 65
"""000 §7.2.2: stubbornness ≤ 35 shortens adaptation by one match, ≥ 65 lengthens it by one."""
AI_ADAPT = 2
"""000 §7.4.4: an AI change adapts for a fixed two matches."""
TIMEOUTS_NORMAL, TIMEOUTS_EXTRA = 2, 1
"""000 §7.3.1: two time-outs in normal time, one more in extra time."""
MORALE_BOOST = 5
"""000 §7.3.2 ②: +5 team morale, halved (rounded up) for each later use in the same match."""
PLAYER_BOOST = 3
"""000 §7.3.2 ③: one player +3 to every ability for the next slice."""
MORALE_MAX = 100
"""000 §7.3.2: morale cannot exceed 100."""
AI_TRAIL = 2
"""000 §7.4.2: the AI considers a change when trailing by 2 or more at half-time."""


@dataclass(frozen=True)
class Coach:
    """A head coach as far as tactics need him (the full coach arrives with the coach system)."""

    name: str
    tendency: str
    """One of :data:`TENDENCIES`."""
    stubbornness: int
    """固执 1–100."""

    @property
    def default_formation(self) -> str:
        """The formation his tendency prefers (000 §7.4.2 "战术倾向的默认阵型")."""
        return TENDENCIES[self.tendency]["default"]


def adaptation(dice: Dice, key: str, coach: Coach | None, formation: str) -> Adaptation:
    """000 §7.2.2: 1D3, −1 aligned / +1 opposed to the tendency, −1 flexible / +1 stubborn; at least 1.

    ``coach=None`` is a passive change (§7.2.3): the 1D3 alone.
    """
    r = dice.roll(key, ADAPT_DIE, "适应期")
    mods: dict[str, int] = {}
    if coach is not None:
        t = TENDENCIES[coach.tendency]
        if formation == t["aligned"]:
            mods["tendency"] = -1
        elif formation == t["opposed"]:
            mods["tendency"] = +1
        if coach.stubbornness <= FLEXIBLE:
            mods["stubbornness"] = -1
        elif coach.stubbornness >= STUBBORN:
            mods["stubbornness"] = +1
    raw = r.total + sum(mods.values())
    matches = max(1, raw)
    return {"roll": r.to_json(), "modifiers": mods, "raw": raw, "matches": matches, "clamped": matches != raw}


def morale_boost(uses_before: int) -> int:
    """000 §7.3.2 ②: +5, then halved (rounded up) on each reuse in the same match: 5, 3, 2, 1, 1 …

    >>> [morale_boost(n) for n in range(5)]
    [5, 3, 2, 1, 1]
    """
    value = MORALE_BOOST
    for _ in range(uses_before):
        value = max(1, -(-value // 2))
    return value


def ai_change_probability(stubbornness: int, in_default: bool) -> tuple[int, int]:
    """000 §7.4.3 as a fraction (numerator, denominator) of 100: (50 − S/2)%, halved in the default.

    Returned as ``(100 − S, 2)`` or ``(100 − S, 4)`` so that ``1D100 × den ≤ num × …`` stays exact:
    the change happens when ``roll × den ≤ 100 − S`` (e.g. S = 40 → 30%, or 15% in the default).

    >>> ai_change_probability(40, False), ai_change_probability(40, True)
    ((60, 2), (60, 4))
    """
    return (max(0, 100 - stubbornness), 4 if in_default else 2)


def ai_direction_weights(deficit: int, tendency: str, current: str) -> Weighted:
    """000 §7.4.4: trailing by 2 → 4 3 3 50 / 4 4 2 25 / 3 5 2 25; by 3+ → 65 / 15 / 20.

    A counter-attacking coach moves 15 from 4 3 3 to 3 5 2. "From the remaining three formations":
    the current formation's weight is dropped and the die is the sum of the rest.
    """
    w = {"4 3 3": 50, "4 4 2": 25, "3 5 2": 25} if deficit == AI_TRAIL else {"4 3 3": 65, "4 4 2": 15, "3 5 2": 20}
    if tendency == "counter":
        w["4 3 3"] -= 15
        w["3 5 2"] += 15
    return Weighted(tuple((f, n) for f, n in w.items() if f != current and n > 0))


def ai_halftime(dice: Dice, key: str, coach: Coach, formation: str, deficit: int) -> AiHalftime | None:
    """000 §7.4: at the start of the second half, an AI side trailing by ≥ 2 may change formation.

    The text lists "not already in the default formation" as a condition and then halves the chance
    for a side that is in it; read together: trailing by 2+ is the trigger, the default halves it.
    """
    if deficit < AI_TRAIL:
        return None
    in_default = formation == coach.default_formation
    num, den = ai_change_probability(coach.stubbornness, in_default)
    r = dice.roll(key, "1D100", "变阵判定")
    rec: AiHalftime = {"deficit": deficit, "stubbornness": coach.stubbornness, "in_default": in_default,
                           "threshold_num": num, "threshold_den": den, "roll": r.to_json(),
                           "change": r.total * den <= num, "from": formation, "to": None}
    if rec["change"]:
        weights = ai_direction_weights(deficit, coach.tendency, formation)
        d = dice.roll(key, f"1D{weights.total}", "变阵方向")
        rec.update({"weights": [list(o) for o in weights.options], "direction_roll": d.to_json(),
                    "to": weights.pick(d.total)})
    return rec
