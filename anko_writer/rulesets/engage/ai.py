"""接战's AI (design engage.md §1.4): each candidate order scored by the exact expected casualties it inflicts
minus those it takes (R-E6, in percent of its own start men), a 紧密 unit holding against a charge, a unit
disengaging when its expected losses exceed 30 %, and near-equal candidates (within 2 points) chosen by the
round's sealed intent die.

>>> pick([("a", 3.0), ("b", 2.5), ("c", -1.0)], None)
('a', 2, 0)
>>> pick([("a", 3.0), ("b", 2.5), ("c", -1.0)], 4)
('b', 2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .battle import FALLBACK_LOSS, Battle, Plan, Troop
from .movement import close
from .orders import Order, Response, parse_order
from .phases import Phase

NEAR = 2.0
"""§1.4: candidates scoring within 2 points of the best are drawn among by the intent die."""
POSTURE_BONUS = {"attack": 5.0, "hold": 0.0, "defend": -5.0}
"""DESIGNED: a posture's weight on attacking orders (points added to 攻击/冲锋/射击/接近)."""


def pick(scored: Sequence[tuple[str, float]], die: int | None) -> tuple[str, int, int]:
    """The chosen order among ``scored`` (best first after a stable sort): the near-best ones, and the one the
    die picks (``(die − 1) mod n``; without a die the first). Returns (order, how many were near, index)."""
    ranked = sorted(scored, key=lambda x: -x[1])
    best = ranked[0][1]
    near = [o for o, s in ranked if s >= best - NEAR]
    i = 0 if die is None else (die - 1) % len(near)
    return near[i], len(near), i


def _taken(b: Battle, t: Troop, by: Sequence[Troop], phase: Phase = "久战") -> float:
    """Expected losses of ``t`` (percent of its start men) from the enemies ``by`` striking it in melee."""
    return float(sum(b.expect(e, t, e.melee_weapon, "白刃", phase, b.round)["percent"] for e in by
                     if e.melee_weapon is not None))


def score(b: Battle, t: Troop, text: str) -> tuple[float, str]:
    """One candidate's score and the reason the chapter prints: the expected casualty percentage inflicted on
    the target minus the one taken (DESIGNED: percentages, the dice's own currency — 002 §3.3's losses do not
    scale with the enemy's numbers), plus the posture's weight; the unit moving as the order asks."""
    o = parse_order(text)
    saved = t.formation
    if o.move is not None:
        t.formation = replace(saved, move=o.move)  # type: ignore[arg-type]
    try:
        return _score(b, t, o)
    finally:
        t.formation = saved


def _score(b: Battle, t: Troop, o: Order) -> tuple[float, str]:
    posture = str(b.ai.get(t.side, {}).get("posture", "attack"))
    engaged = [b.troops[i] for i in sorted(t.engaged_with)]
    if o.target is not None and o.target in b.troops and (o.attack or o.kind == "射击"):
        e = b.troops[o.target]
        if o.kind == "射击":
            w = t.weapon(o.weapon)
            x = b.expect(t, e, w, o.mode or "抛射", b.shot_phase(t, e), b.round)
            back = b.expect(e, t, next((v for v in e.weapons if v.reach >= b.distance(t, e)[0] and not v.melee),
                                       None), o.mode or "抛射", "接战", b.round)["percent"] if b.reaches(e, t) else 0.0
        else:
            if e.id not in t.engaged_with:
                lv, ob = b.distance(t, e)
                reach = close(closer=b.speed(t, o.move).value, retreat=0, distance=lv, obstacles=ob, holds=True)
                if not reach.closed:
                    return POSTURE_BONUS[posture] / 2 - 1.0, "够不着，先压上去"
            ph: Phase = "久战" if e.id in t.engaged_with else ("突袭" if e.melee_weapon is None else "接战")
            x = b.expect(t, e, t.weapon(o.weapon) or t.melee_weapon, "白刃", ph, b.round)
            back = 0.0 if e.melee_weapon is None else b.expect(e, t, e.melee_weapon, "白刃", ph, b.round)["percent"]
            back += _taken(b, t, [x for x in engaged if x.id != e.id])
        s = x["percent"] - back + POSTURE_BONUS[posture]
        return s, f"预计杀伤约{round(x['percent'])}%，预计自损约{round(back)}%"
    taken = _taken(b, t, engaged)
    if o.kind == "脱离":
        return -taken / 2, f"交战中预计自损约{round(taken)}%，设法脱离"
    if o.kind == "接近":
        return POSTURE_BONUS[posture] / 2, "逼近敌军"
    if o.kind == "固守":
        return -taken + 1.0, "结阵固守"
    return -taken, "按兵不动" if o.kind == "待命" else o.kind


def plan(b: Battle, t: Troop, die: int | None) -> Plan:
    """The AI's order for ``t`` this round (§1.4)."""
    legal = [x for x in b.legal(t) if not x.startswith(("行动", "撤退", "变阵", "移动", "举盾"))]
    if not legal:
        legal = [x for x in b.legal(t) if x.startswith("撤退")] or ["待命"]
    engaged = [b.troops[i] for i in sorted(t.engaged_with)]
    if engaged and "脱离" in legal:
        worst = _taken(b, t, engaged)
        if worst > FALLBACK_LOSS:
            return Plan(parse_order("脱离"), "ai", ai_reason=f"预计自损约{round(worst)}%，超过三成，脱离")
    scored = [(x, score(b, t, x)) for x in legal]
    chosen, near, i = pick([(x, s[0]) for x, s in scored], die)
    reason = dict(scored)[chosen][1]
    if near > 1:
        reason += f"；{near}项相近，" + ("按意图骰取第" + str(i + 1) + "项" if die is not None else "取第一项")
    return Plan(parse_order(chosen), "ai", ai_reason=reason)


def responses(b: Battle, t: Troop) -> list[Response]:
    """§1.4: a 紧密 AI unit holds when charged."""
    if t.formation.density == "紧密" and "固守" in b.legal(t):
        return [Response("被冲锋", t.id, Order("固守"))]
    return []


__all__ = ["NEAR", "pick", "plan", "responses", "score"]
