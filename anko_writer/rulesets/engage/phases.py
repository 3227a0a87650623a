"""接战's rounds, turns and phases: 突袭/接战/久战, how many casualty dice each throws, the order of the
response turns and when a battle ends (002 §3.1–3.5; design engage.md E8, E9, E12–E14).

>>> phase(engaged_at_start=True, one_sided=False)
'久战'
>>> dice_count("久战", pool_size=2, attack=0), dice_count("接战", pool_size=0, attack=2)
(1, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .units import TRAINING, Training

Phase = Literal["突袭", "接战", "久战"]
"""E13, E14: the three phases (002 §3.5)."""
PHASES: tuple[Phase, ...] = ("突袭", "接战", "久战")
"""The phases in the seed's order."""
NEW_POOL_DICE = 2
"""E8: a new pool throws two dice (002 §3.3 '至少两个d6'), plus the attack advantages."""
LONG_FIGHT_DICE = 1
"""E8: a 久战 round adds one die to the 接战 pool (002 §3.3 '每轮只投掷一个减员骰 … 补充掷骰')."""
RESPONSE_PASSES = 3
"""E12 (DESIGNED): at most three passes of response turns (``options.response_turns``)."""
MAX_ROUNDS = 12
"""§1.1 (DESIGNED): a battle lasts at most twelve rounds (``options.max_rounds``)."""


def phase(*, engaged_at_start: bool, one_sided: bool, ranged: bool = False) -> Phase:
    """E13, E14: 突袭 when the target cannot hurt the attacker this round; else 久战 when the two were engaged
    at the turn's start; else 接战. A ranged exchange stays 接战 (DESIGNED: 对射 never becomes 久战, 002 §3.5
    '两军持续处于对射状态' is the seed's own 接战 example).

    >>> phase(engaged_at_start=True, one_sided=False, ranged=True), phase(engaged_at_start=True, one_sided=True)
    ('接战', '突袭')
    """
    if one_sided:
        return "突袭"
    if engaged_at_start and not ranged:
        return "久战"
    return "接战"


def one_sided(*, target_reaches: bool, ambushed: bool = False, kited: bool = False) -> bool:
    """E13 (DESIGNED test): the attack is an 突袭 when the target has no weapon reaching the attacker at this
    distance, or was ambushed (its side did not know the attacker was there), or is out-paced by a kiting
    shooter (E17's extra shots)."""
    return not target_reaches or ambushed or kited


def new_pool(the_phase: Phase, *, ranged: bool = False) -> bool:
    """E8: 突袭 has its own pool each time (002 §3.3 '每次突袭都单独计算'); 接战 begins one (a ranged exchange
    each round, DESIGNED); 久战 adds to the 接战 pool."""
    return the_phase != "久战" or ranged


def dice_count(the_phase: Phase, *, pool_size: int, attack: int, extra: int = 0, ranged: bool = False) -> int:
    """E8, E9: this round's casualty dice: two for a new pool (or a 久战 pool with fewer than two dice
    counted, DESIGNED) else one, plus the attack advantages that apply in this phase, plus ``extra`` (E18's
    脱离久战 dice, a host's ``dm:`` dice for 「明显劣势」)."""
    fresh = new_pool(the_phase, ranged=ranged) or pool_size == 0
    return (NEW_POOL_DICE if fresh else LONG_FIGHT_DICE) + max(0, attack) + max(0, extra)


@dataclass(frozen=True)
class Responder:
    """A unit whose response order fired in a pass: id, training and current speed level."""

    id: str
    training: Training
    speed: int


def response_order(fired: Sequence[Responder]) -> tuple[str, ...]:
    """E12 (DESIGNED): triggered responses fire higher training first, then higher speed, then by unit id.

    >>> response_order([Responder("b", "受训", 3), Responder("a", "受训", 3), Responder("c", "老兵", 1)])
    ('c', 'a', 'b')
    """
    ranked = sorted(fired, key=lambda r: (-TRAINING.index(r.training), -r.speed, r.id))
    return tuple(r.id for r in ranked)


def responses_end(pass_no: int, fired: int, passes: int = RESPONSE_PASSES) -> bool:
    """E12 (DESIGNED): the response turns end after a pass in which nothing fired, or after ``passes`` passes
    (``pass_no`` counts from 1)."""
    return fired == 0 or pass_no >= passes


def battle_over(*, engaged: int, in_range: int, attack_ordered: bool, sides_left: int, round_no: int,
                max_rounds: int = MAX_ROUNDS) -> bool:
    """§1.1 (DESIGNED): a battle ends when no two hostile units are engaged or within a weapon's range and
    none was ordered to attack, when fewer than two sides have a unit left, or after ``max_rounds`` rounds."""
    if sides_left < 2 or round_no >= max_rounds:
        return True
    return engaged == 0 and in_range == 0 and not attack_ordered


def engaged_at_start(pairs: Mapping[str, Sequence[str]], unit: str, other: str) -> bool:
    """E14: whether ``unit`` was engaged with ``other`` at the round's start (``engaged_with`` of the JSON)."""
    return other in pairs.get(unit, ()) or unit in pairs.get(other, ())
