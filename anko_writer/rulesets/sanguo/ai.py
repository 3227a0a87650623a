"""三国's AI (design sanguo.md §1.4): a deterministic, explainable scorer that uses only its own side's vision.

For each unit in id order: (1) attack the visible enemy (or standing enemy gate) with the best expected damage
— +0.5 for 奇袭, +0.5 inside the objective — if that is at least 1 or a 奇袭; (2) else, short of food and out
of direct supply, step toward the nearest own stronghold; (3) else by posture: ``attack`` steps along the
shortest path to the objective, ``hold``/``defend`` keeps within 3 of it and lays 埋伏 in forest. Outside an
attack it rests at night (R36: a unit that acts at night does not recover) and marches only with 3 行动力 or
more (DESIGNED, so it arrives able to fight).
Ties go to a stable hash of (unit, square), never to a die. An enemy's hidden 行动力 is taken at its cap
(DESIGNED: the AI sees 兵力 only, R35).
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...kit.grid import KING, ORTHOGONAL, Square, manhattan
from . import combat
from .act import RANGE, steps
from .board import Stronghold
from .dayend import direct_source
from .legion import default_offsets, formation
from .orders import Ambush, MoveAttack, Order, Standby
from .units import ap_cap
from .vision import unit_vision
from .world import Troop, World

MARCH_RESERVE = 3
"""The AI marches only with at least this much 行动力, so it arrives with strength to fight (R15)."""
NEAR_OBJECTIVE = 3
"""A ``hold``/``defend`` unit keeps within this many squares (Manhattan) of its objective."""
SURPRISE_BONUS = 0.5
OBJECTIVE_BONUS = 0.5
EXPECTED = {"none": 0.0, "low": 1 / 3, "high": 5 / 3}
"""R16 (S2): the expected damage of a band thrown with 1D3 (crush deals ⌊a/d⌋ with no die)."""


@dataclass(frozen=True)
class Plan:
    """One unit's order from the AI, with the sentence that explains it."""

    unit: str
    order: Order
    reason: str


def _tie(unit: str, sq: Square) -> str:
    """The stable tie-break of (unit, square)."""
    return hashlib.sha256(f"{unit}|{sq}".encode()).hexdigest()


def expected(a: int, d: int) -> float:
    """The expected damage of strength ``a`` on ``d`` (R16 with S2's 1D3).

    >>> expected(10, 20), round(expected(10, 10), 3), round(expected(15, 10), 3), expected(30, 10)
    (0.0, 0.333, 1.667, 3.0)
    """
    b = combat.band(a, max(1, d))
    return float(a // max(1, d)) if b == "crush" else EXPECTED[b]


def _distances(w: World, goal: Iterable[Square], king: bool) -> Mapping[Square, int]:
    """Steps from every passable square to the nearest of ``goal`` (terrain only), worked out once a board
    for each goal (a breadth-first search's distances do not depend on the order its starts are met in)."""
    key = ("distances", frozenset(goal), king)
    found: Mapping[Square, int] | None = w.board.paths.get(key)
    if found is None:
        found = w.board.paths[key] = _search(w, key[1], king)
    return found


def _search(w: World, goal: Iterable[Square], king: bool) -> dict[Square, int]:
    """:func:`_distances` worked out: a breadth-first search from every square of ``goal``."""
    dist: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for g in goal:
        dist[g] = 0
        queue.append(g)
    moves = KING if king else ORTHOGONAL
    while queue:
        sq = queue.popleft()
        for dx, dy in moves:
            nxt = (sq[0] + dx, sq[1] + dy)
            if nxt not in dist and w.board.passable(nxt):
                dist[nxt] = dist[sq] + 1
                queue.append(nxt)
    return dist


def _defence(w: World, t: Troop, from_sq: Square, target: Troop) -> int:
    """The target's strength as ``t`` would meet it from ``from_sq``, its 行动力 taken at the cap."""
    d_sh = w.board.stronghold_at(target.square)
    a_sh = w.board.stronghold_at(from_sq)
    mods = combat.defence_modifiers(attacker_kind=t.unit.kind, attacker_terrain=w.board.terrain_at(from_sq),
                                    defender_terrain=w.board.terrain_at(target.square),
                                    defender_stronghold=d_sh.id if d_sh else None,
                                    defender_level=d_sh.level if d_sh else 0,
                                    attacker_stronghold=a_sh.id if a_sh else None)
    return combat.strength(target.unit.troops, ap_cap(target.unit.troops), mods).total


def _surprise(w: World, t: Troop, target: Troop) -> bool:
    """Whether ``t`` is outside the target's own vision now (R17), as the AI can work it out."""
    return t.hidden or t.square not in unit_vision(w.board, target.square, night=w.night)


def keep(w: World, t: Troop) -> frozenset[Square] | None:
    """§1.4 step 4 (R25): the squares a legion member may end its turn on — its leader's formation (the
    leader itself stays put, so the formation does not move from under its members); None outside a legion."""
    if t.legion is None or t.legion not in w.legions:
        return None
    lg = w.legions[t.legion]
    if lg.leader == t.id or lg.leader not in w.troops:
        return frozenset({t.square})
    return formation(w.troops[lg.leader].square, default_offsets(len(lg.members)))


def _moves(w: World, t: Troop) -> list[Square]:
    """The squares ``t`` may end its move on: one step as its side sees the board, kept in formation."""
    allowed = keep(w, t)
    return [s for s in steps(w, t) if allowed is None or s in allowed]


def _attacks(w: World, t: Troop, objective: Stronghold | None) -> list[tuple[float, str, Order, str]]:
    """Every attack ``t`` could make this turn (from here or after one step) with its score."""
    out: list[tuple[float, str, Order, str]] = []
    sight = w.sight(t.side)
    enemies = w.visible_to(t.side, sight)
    a = t.unit.troops + max(0, t.unit.ap - 1)
    for pos in [t.square, *_moves(w, t)]:
        moved = pos != t.square
        for e in enemies:
            if e.id in t.no_attack or e.square == pos:
                continue
            dist = manhattan(pos, e.square)
            if dist == 0 or dist > RANGE[t.unit.kind] or not w.board.attack_line(pos, e.square).ok:
                continue
            exp = expected(a, _defence(w, t, pos, e))
            surprise = _surprise(w, t, e) and exp > 0
            score = exp + (SURPRISE_BONUS if surprise else 0.0)
            if objective is not None and e.square in objective.squares:
                score += OBJECTIVE_BONUS
            if exp < 1 and not surprise:
                continue
            body = MoveAttack(path=(w.name(pos),) if moved else (), attack=w.name(e.square),
                              charge=moved and t.unit.kind == "cavalry")
            why = f"攻击视野内的{e.unit.leader.name}部，预计伤害{exp:.1f}" + ("，且是奇袭" if surprise else "")
            out.append((score, _tie(t.id, pos), Order(None, body), why))
        if objective is not None and objective.side != t.side:
            for g in objective.gates:
                if g.destroyed or manhattan(pos, g.square) > RANGE[t.unit.kind] or pos in objective.squares:
                    continue
                exp = expected(a, g.defence + objective.level)
                if exp <= 0:
                    continue  # DESIGNED: a gate is the only way into the objective, so any chance is taken
                body = MoveAttack(path=(w.name(pos),) if moved else (), attack=w.name(g.square))
                out.append((exp, _tie(t.id, pos), Order(None, body), f"攻打{g.id}，预计伤害{exp:.1f}"))
    return out


def _step_toward(w: World, t: Troop, goal: Iterable[Square], why: str) -> Plan | None:
    """One step that brings ``t`` nearer to ``goal``, if any."""
    dist = _distances(w, goal, t.unit.kind == "cavalry")
    here = dist.get(t.square)
    best: tuple[int, str, Square] | None = None
    for sq in _moves(w, t):
        d = dist.get(sq)
        if d is None or (here is not None and d >= here):
            continue
        key = (d, _tie(t.id, sq), sq)
        if best is None or key[:2] < best[:2]:
            best = key
    if best is None:
        return None
    return Plan(t.id, Order(None, MoveAttack(path=(w.name(best[2]),))), why)


def plan_unit(w: World, t: Troop, posture: str, objective: Stronghold | None) -> Plan:
    """The AI's order for ``t`` (§1.4)."""
    if t.unit.ap < 1:
        return Plan(t.id, Order(None, Standby()), "行动力耗尽，原地待命")
    attacks = _attacks(w, t, objective)
    if attacks:
        score, _, order, why = max(attacks, key=lambda x: (x[0], x[1]))
        del score
        return Plan(t.id, order, why)
    if w.night:
        return Plan(t.id, Order(None, Standby()), "夜里不动，留待日终恢复行动力")  # R36: acting at night costs the recovery
    if t.unit.ap < MARCH_RESERVE:
        return Plan(t.id, Order(None, Standby()), "保留行动力，原地待命")
    own = [sh for sh in w.board.strongholds if sh.side == t.side]
    if t.unit.supplies < t.unit.troops and own and direct_source(w.board, t.side, t.square) is None:
        plan = _step_toward(w, t, [s for sh in own for s in sh.squares], "粮草不足，退向己方据点")
        if plan is not None:
            return plan
    if objective is not None:
        goal = list(objective.squares)
        near = min(manhattan(t.square, s) for s in goal)
        if posture == "attack" and objective.side != t.side:
            plan = _step_toward(w, t, goal, f"向{objective.id}进军")
            if plan is not None:
                return plan
        elif near > NEAR_OBJECTIVE:
            plan = _step_toward(w, t, goal, f"回防{objective.id}")
            if plan is not None:
                return plan
    if posture != "attack" and not t.hidden and w.board.ambush_square(t.square) and t.unit.ap >= 2 + t.unit.troops // 3:
        return Plan(t.id, Order(None, Ambush()), "在树林中埋伏")
    return Plan(t.id, Order(None, Standby()), "没有好的行动，原地待命")


__all__ = ["EXPECTED", "NEAR_OBJECTIVE", "Plan", "expected", "plan_unit"]
