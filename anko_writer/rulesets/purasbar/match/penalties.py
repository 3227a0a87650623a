"""000 §5.4.2 penalty shoot-out: five takers, 1D20 + ATK/10 against 1D20 + GK/10, then sudden death."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ....dice import Dice
from ....hidden import Fact
from ..models import Player
from .records import KickRecord, SealedRest, ShootoutRecord

KICKS = 5
"""000 §5.4.2: five takers each, best of five."""
PEN_DIE = "1D20"
"""000 §5.4.2: both taker and keeper roll 1D20."""
HIDDEN_FROM_PAIR = 5
"""000 §5.8.4 via the issue: in a knockout shoot-out of ours, the fifth pair on and every sudden-death
pair are decisive and sealed."""
REST = "后续"
"""The id of a shoot-out's sealed rest is the shoot-out's key and ``#后续`` (:func:`sealed_rest`)."""
REST_PURPOSE = "点球大战封存的后续各脚"
"""What the sealed rest is, as its record names it."""


def takers(on_pitch: list[Player], order: list[str] | None) -> tuple[list[Player], str]:
    """Kick order: the readers' order (names on the pitch, in order), completed by ATK high → low.

    Every player on the pitch kicks once before anyone kicks again (sudden death goes round the XI).
    Returns the order and its source (``vote`` or ``ai``).
    """
    by_name = {p.name: p for p in on_pitch}
    chosen = [by_name[n] for n in (order or []) if n in by_name]
    rest = sorted((p for p in on_pitch if p not in chosen), key=lambda p: (-p.attrs["ATK"], p.name))
    return chosen + rest, "vote" if order else "ai"


def shootout(dice: Dice, key: str, sides: tuple[str, str], kickers: tuple[list[Player], list[Player]],
             keepers: tuple[Player, Player], gk_value: Callable[[int, Player], int],
             hide: bool) -> ShootoutRecord:
    """Alternate kicks, first kicker by 1D2 (designed: the text does not say who starts).

    Scoring: taker 1D20 + floor(ATK / 10) > keeper 1D20 + floor(GK / 10) (strictly). No stamina
    penalty or formation bonus applies (§5.4.2); an outfield player in goal uses his temporary GK
    value (§3.4.2) through ``gk_value(side_index, keeper)``. The best of five stops as soon as one
    side cannot be caught (designed, as in football); then sudden death in pairs.
    """
    first = dice.roll(key, "1D2", "点球先罚")
    order = (0, 1) if first.total == 1 else (1, 0)
    goals = [0, 0]
    kicks: list[KickRecord] = []
    pair = 0
    while not _over(goals, kicks, pair):
        pair += 1
        for s in order:
            if pair <= KICKS and _decided(goals, kicks):
                break
            taker = kickers[s][sum(1 for k in kicks if k["side"] == s) % len(kickers[s])]
            keeper = keepers[1 - s]
            kick = _kick(dice, key, pair, s, sides, taker, keeper, gk_value(1 - s, keeper),
                         hide and pair >= HIDDEN_FROM_PAIR)
            kicks.append(kick)
            goals[s] += kick["scored"]
    rec: ShootoutRecord = {"first": sides[order[0]], "first_roll": first.to_json(), "kicks": kicks,
                           "score": goals, "winner": sides[0] if goals[0] > goals[1] else sides[1]}
    rest = sealed_rest(key, kicks)
    if rest is not None:
        rec["sealed_rest"] = rest
    return rec


def sealed_rest(key: str, kicks: list[KickRecord]) -> SealedRest | None:
    """Every kick after the first sealed one, as one secret fact (None when no kick is sealed).

    DESIGNED (000 §5.8.4): whether a kick after a sealed one is taken at all depends on the sealed dice,
    so those kicks are not sealed one by one (the number of seal lines would tell the result). The first
    sealed kick is always taken (the four public pairs did not decide the shoot-out), so its two dice keep
    their own seals; the rest is one commitment to the list of ``[taker die, keeper die]`` in kicking
    order, empty when the first sealed kick ended the shoot-out.
    """
    hidden = [k for k in kicks if k["hidden"]]
    if not hidden:
        return None
    fact = Fact(f"{key}#{REST}", [[k["taker_roll"]["total"], k["keeper_roll"]["total"]] for k in hidden[1:]],
                REST_PURPOSE)
    return {"id": fact.id, "purpose": fact.purpose, "fact": fact.payload, "hidden": True}


def sealed(match: Mapping[str, Any]) -> bool:
    """Whether a match's shoot-out has sealed kicks (000 §5.8.4): then its result is told only at the reveal.

    >>> sealed({"shootout": {"sealed_rest": {}}}), sealed({"shootout": {}}), sealed({"shootout": None})
    (True, False, False)
    """
    return "sealed_rest" in (match.get("shootout") or {})


def _over(goals: list[int], kicks: list[KickRecord], pair: int) -> bool:
    """Decided inside the five pairs, or level no more after a complete pair from the fifth on."""
    if pair == 0:
        return False
    if pair < KICKS:
        return _decided(goals, kicks)
    return goals[0] != goals[1]


def _decided(goals: list[int], kicks: list[KickRecord]) -> bool:
    """Within the first five pairs: can one side no longer be caught?"""
    left = [KICKS - sum(1 for k in kicks if k["side"] == s) for s in (0, 1)]
    return goals[0] + left[0] < goals[1] or goals[1] + left[1] < goals[0]


def _kick(dice: Dice, key: str, pair: int, side: int, sides: tuple[str, str], taker: Player,
          keeper: Player, gk: int, secret: bool) -> KickRecord:
    t = dice.roll(key, PEN_DIE, f"点球 {taker.name}", hidden=secret)
    k = dice.roll(key, PEN_DIE, f"扑救 {keeper.name}", hidden=secret)
    atk_bonus, gk_bonus = taker.attrs["ATK"] // 10, gk // 10
    return {"pair": pair, "side": side, "team": sides[side], "taker": taker.name, "taker_atk": taker.attrs["ATK"],
            "taker_bonus": atk_bonus, "taker_roll": t.to_json(), "keeper": keeper.name, "keeper_gk": gk,
            "keeper_bonus": gk_bonus, "keeper_roll": k.to_json(), "hidden": secret,
            "taker_value": t.total + atk_bonus, "keeper_value": k.total + gk_bonus,
            "scored": int(t.total + atk_bonus > k.total + gk_bonus)}
