"""000 §8.1 monthly squad training and §8.2 (designed) one-on-one coaching, with the §5.7.2 training injury."""

from __future__ import annotations

from collections.abc import Sequence

from ....dice import Dice, Weighted
from ..match.injuries import MIN_WEEKS
from ..models import Player
from .records import OneOnOne, Training, TrainingDraw

PER_FACILITY, PER_ASSISTANT = 8, 2
"""000 §8.1.1: success % = training facility level × 8 + head assistant level × 2."""
YOUNG_AGE, YOUNG_WEIGHT = 23, 2
"""000 §8.1.2: players aged ≤ 23 draw with double weight."""
SOFT_CAPS = (90, 95)
"""000 §8.1.3: at main attribute ≥ 90 the growth chance is halved and rolled again, ≥ 95 halved again.
§8.1.2 says 超过 (>) and §8.1.3 says ≥; the dedicated 软上限说明 (≥) is followed, so 90 and 95 are capped."""
ATTR_MAX = 99
"""Design doc: player attributes are kept in 1…99 (a 99 still gets the boost, not the +1)."""
GROWTH = 1
"""000 §8.1.2: the drawn player's main attribute +1 for good."""
BOOST = 2
"""000 §8.1.2: +2 to that main attribute in the first match of the next month (before formation bonuses)."""
ONE_BASE, ONE_PER_ASSISTANT = 40, 5
"""Designed §8.2: one-on-one success % = 40 + 5 × head assistant level (+ rapport): 45–65% at levels 1–5."""
ONE_GAIN, ONE_GAIN_CAPPED = 2, 1
"""Designed §8.2: +2 to the main attribute, +1 from the first soft cap (≥ 90) on, never above 99."""
FUMBLE = 2
"""000 §5.7.2: a one-on-one 1D100 of 1–2 is a 大失败 and injures the player."""
INJURY_DIE = "1D3"
"""000 §5.7.2: out 1D3 weeks; the team doctor shortens it (000 §5.7.1: one week a level, at least 1)."""


def success_chance(facility_level: int, assistant_level: int, rapport_bonus: int = 0) -> int:
    """000 §8.1.1 success % (``rapport_bonus``: the designed assistant–coach rapport, 0 by default)."""
    return facility_level * PER_FACILITY + assistant_level * PER_ASSISTANT + rapport_bonus


def draw_weight(player: Player) -> int:
    """000 §8.1.2: 2 for a player aged ≤ 23, else 1 (an unrolled age counts as not young)."""
    return YOUNG_WEIGHT if player.age is not None and player.age <= YOUNG_AGE else 1


def draw_player(dice: Dice, key: str, players: Sequence[Player], purpose: str = "训练对象") -> tuple[Player, TrainingDraw]:
    """The weighted draw as one visible die: 1D(sum of weights) over the squad's cumulative weights, in squad order."""
    w = Weighted(tuple((str(i), draw_weight(p)) for i, p in enumerate(players)))
    r = dice.roll(key, f"1D{w.total}", purpose)
    p = players[int(w.pick(r.total))]
    return p, {"weights": [[q.name, draw_weight(q)] for q in players], "roll": r.to_json(), "player": p.name}


def cap_chances(value: int, chance: int) -> list[tuple[int, int]]:
    """000 §8.1.3: the extra rolls a main attribute of ``value`` needs, as (threshold, chance %) — each halving floors."""
    out: list[tuple[int, int]] = []
    for cap in SOFT_CAPS:
        if value >= cap:
            chance //= 2
            out.append((cap, chance))
    return out


def monthly_training(dice: Dice, key: str, players: Sequence[Player], facility_level: int,
                     assistant_level: int, rapport_bonus: int = 0) -> Training:
    """000 §8.1: 1D100 ≤ success %, a weighted draw, the soft-capped +1 (applied to the player) and the +2 boost."""
    chance = success_chance(facility_level, assistant_level, rapport_bonus)
    r = dice.roll(key, "1D100", "集体训练判定")
    rec: Training = {"facility": facility_level, "assistant": assistant_level, "rapport": rapport_bonus,
                     "chance": chance, "roll": r.to_json(), "success": r.total <= chance, "draw": None,
                     "cap_rolls": [], "growth": None, "boost": None}
    if not rec["success"] or not players:
        return rec
    p, rec["draw"] = draw_player(dice, key, players)
    attr = p.main
    before = p.attrs[attr]
    grows = before < ATTR_MAX
    for cap, c in cap_chances(before, chance) if grows else []:  # 000 §8.1.2: re-rolled at half, then at a quarter
        cr = dice.roll(key, "1D100", f"{p.name} 软上限判定")
        ok = cr.total <= c
        rec["cap_rolls"].append({"cap": cap, "chance": c, "roll": cr.to_json(), "success": ok})
        if not ok:
            grows = False
            break
    after = min(ATTR_MAX, before + GROWTH) if grows else before
    p.attrs[attr] = after
    rec["growth"] = {"player": p.name, "attr": attr, "before": before, "after": after, "grew": after > before}
    rec["boost"] = {"player": p.name, "attr": attr, "amount": BOOST, "when": "next_month_first_match"}
    return rec


def one_on_one_chance(assistant_level: int, rapport_bonus: int = 0, factor: tuple[int, int] = (1, 1)) -> int:
    """Designed §8.2 success %: (40 + 5 × assistant + rapport) × ``factor`` (floor; a §4.5.2 tie passes 1/2)."""
    return (ONE_BASE + ONE_PER_ASSISTANT * assistant_level + rapport_bonus) * factor[0] // factor[1]


def one_on_one(dice: Dice, key: str, player: Player, assistant_level: int, doctor_level: int = 0,
               rapport_bonus: int = 0, factor: tuple[int, int] = (1, 1)) -> OneOnOne:
    """§8.2 (designed): 1D100 = 1–2 injures (1D3 weeks − doctor, §5.7.2), else ≤ chance gives +2 (+1 at ≥ 90), applied."""
    chance = one_on_one_chance(assistant_level, rapport_bonus, factor)
    r = dice.roll(key, "1D100", f"{player.name} 一对一指导")
    attr = player.main
    before = player.attrs[attr]
    rec: OneOnOne = {"player": player.name, "assistant": assistant_level, "chance": chance,
                     "roll": r.to_json(), "success": False, "injury": None,
                     "growth": {"attr": attr, "before": before, "after": before}}
    if r.total <= FUMBLE:  # 000 §5.7.2 大失败: injured at once, no growth
        w = dice.roll(key, INJURY_DIE, f"{player.name} 训练伤病周数")
        weeks = max(MIN_WEEKS, w.total - doctor_level)
        rec["injury"] = {"roll": w.to_json(), "doctor": doctor_level, "weeks": weeks}
        return rec
    if r.total <= chance:
        gain = ONE_GAIN if before < SOFT_CAPS[0] else ONE_GAIN_CAPPED
        after = min(ATTR_MAX, before + gain)
        player.attrs[attr] = after
        rec["success"] = True
        rec["growth"]["after"] = after
    return rec


__all__ = [
    "success_chance", "draw_weight", "draw_player", "cap_chances", "monthly_training", "one_on_one_chance",
    "one_on_one", "SOFT_CAPS", "BOOST",
]
