"""三国's orders carried out on the world, one at a time, each as the JSON contract's ORDER record (design
sanguo.md §1.5 R11–R23, R33, R37, R37b, R39; §1.7 ORDER, ATTACK, CHARGE).

An order is paid when it is given (S4) and takes effect at once (001 二 '非持续性指令均为立刻生效'). Its dice
come from the open dice when the readers' side sees the order (their own, or an enemy unit in their vision,
or an attack on their unit: a fight is public), else from the sealed dice, whose rolls go only into the
acting side's sealed state (§1.6): what the readers' chapter publishes never depends on a hidden unit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from ...dice import Dice, Roll
from ...kit.grid import Square, manhattan
from . import combat
from . import world as world_module
from .board import Stronghold, step_offsets
from .legion import Joiner, joint_attack
from .orders import Ambush, Build, Cancel, Join, MoveAttack, Order, Reassign, Scout, Standby
from .units import Unit, save_ap
from .vision import Scout as ScoutArea
from .vision import scout_cost, unit_vision
from .world import Record, Troop, World

RANGE = {"infantry": 1, "cavalry": 1, "archer": 2}
"""R13: attack range by type (Manhattan): infantry and cavalry 1, archers 2 (the day 梅花形)."""
SCOUT_TURNS = 2
"""R37b: a 侦查 area lasts this turn and the side's next one."""


@dataclass
class TurnContext:
    """One side's turn being played: the world, the side, the open and sealed dice, the key prefix, and the
    合击 orders given this turn (leader name → joiner ids)."""

    world: World
    side: str
    dice: Dice
    fog: Dice
    key: str
    joins: dict[str, list[str]] = field(default_factory=dict)
    readers_sight_at_start: frozenset[str] = frozenset()

    def public(self, t: Troop, target: Troop | None = None) -> bool:
        """Whether the readers' side sees what ``t`` does now (their own unit, a unit they see, or an attack on
        theirs)."""
        w = self.world
        if t.side == w.readers or (target is not None and target.side == w.readers):
            return True
        return t.id in self.readers_sight_at_start or w.sees(w.readers, t)

    def dice_for(self, public: bool) -> Dice:
        """The open dice for a public roll, the sealed dice otherwise."""
        return self.dice if public else self.fog


def _roll_json(r: Roll | None) -> Record | None:
    return None if r is None else r.to_json()


def base(ctx: TurnContext, t: Troop, kind: str, by: str) -> Record:
    """An ORDER record's common fields before the order is carried out."""
    return {"unit": t.id, "主将": t.unit.leader.name, "side": t.side, "kind": kind, "by": by,
            "ap_before": t.unit.ap, "cost": 0, "save": None, "ap_after": t.unit.ap, "failed": None,
            "public": ctx.public(t), "ai_reason": None}


def _pay(ctx: TurnContext, t: Troop, rec: Record, order_kind: str, cost: int) -> bool:
    """Pay ``cost`` (R18's saving for the saving orders); False (and ``failed``) when the unit lacks the AP."""
    rec["cost"] = cost
    if t.unit.ap < cost:
        rec["failed"] = f"行动力不足（需{cost}，有{t.unit.ap}）"
        return False
    pub = ctx.public(t)
    s = save_ap(order_kind, cost, t.unit.intellect, ctx.dice_for(pub), f"{ctx.key}/{t.id}/节省", hidden=False)
    if s.roll is not None:
        rec["save"] = {"roll": s.roll.to_json(), "智力": s.intellect, "saved": s.saved}
    t.unit = replace(t.unit, ap=t.unit.ap - s.paid)
    rec["ap_after"] = t.unit.ap
    return True


def execute(ctx: TurnContext, t: Troop, order: Order, by: str, reason: str | None = None) -> Record:
    """Carry out ``order`` for ``t`` and return its ORDER record."""
    b = order.body
    kinds = {MoveAttack: "move_attack", Join: "join", Build: "build", Reassign: "reassign", Ambush: "ambush",
             Scout: "scout", Cancel: "cancel", Standby: "wait"}
    rec = base(ctx, t, kinds[type(b)], by)
    rec["ai_reason"] = reason
    if t.building is not None and not isinstance(b, Standby):
        rec["build_broken"] = t.building["facility"]  # R39 DESIGNED: another order ends the 建造 (AP kept spent)
        t.building = None
    if isinstance(b, MoveAttack):
        _move_attack(ctx, t, b, rec)
    elif isinstance(b, Join):
        rec.update(joins=b.leader, failed=rec["failed"] or f"{b.leader}没有发起攻击，合击落空")
    elif isinstance(b, Build):
        _build(ctx, t, b, rec)
    elif isinstance(b, Reassign):
        _reassign(ctx, t, b, rec)
    elif isinstance(b, Ambush):
        _ambush(ctx, t, rec)
    elif isinstance(b, Scout):
        _scout(ctx, t, b, rec)
    elif isinstance(b, Cancel):
        t.march = []
    if rec["kind"] != "wait":
        t.acted = True
        if ctx.world.night:
            t.night["acted"] = True
    rec["public"] = rec["public"] or ctx.public(t)
    return rec


def _sq(ctx: TurnContext, name: str) -> Square:
    return ctx.world.board.sq(name)


def _move_attack(ctx: TurnContext, t: Troop, b: MoveAttack, rec: Record) -> None:
    """R11: move one square (the rest of a path stays as the march), then attack if asked."""
    w = ctx.world
    rec.update({"from": w.name(t.square), "to": None, "moved": False, "blocked": None, "target": None,
                "attack": None, "charge": None})
    if not _pay(ctx, t, rec, "move_attack", 1):
        return
    move_from = t.square
    path = [_sq(ctx, s) for s in b.path]
    if path:
        dest = path[0]
        t.march = path[1:]
        rec["to"] = w.name(dest)
        seen = [x.id for x in w.visible_to(t.side)]
        step = w.board.step(t.piece(), dest, w.pieces(), seen=seen)
        if step.ok:
            t.square = dest
            rec["moved"] = True
            t.hidden = False  # R37: moving ends 隐蔽
        else:
            rec["blocked"] = step.blocked
            t.march = []
            if step.reason == "hidden" and step.occupant is not None:
                found = w.troops[step.occupant]
                found.hidden = False  # R11 DESIGNED: the bump reveals the hidden unit and ends its 隐蔽
                rec["bumped"] = found.id
    if b.attack is not None:
        _attack(ctx, t, _sq(ctx, b.attack), rec, move_from, b.charge)


def _enemy_city_gate(ctx: TurnContext, side: str, sq: Square) -> tuple[Stronghold, int] | None:
    """The enemy city and the index of its standing gate on ``sq``, if any."""
    sh = ctx.world.board.city_at(sq)
    if sh is None or sh.side == side:
        return None
    for i, g in enumerate(sh.gates):
        if g.square == sq and not g.destroyed:
            return sh, i
    return None


def attack_problem(w: World, t: Troop, target_sq: Square, sight_squares: frozenset[Square]) -> str | None:
    """Why ``t`` may not attack ``target_sq`` now (R12, R13, R33, R17/R21/R22), judged on its side's vision;
    None when it may."""
    if target_sq not in sight_squares:
        return f"{w.name(target_sq)}不在视野内"
    dist = manhattan(t.square, target_sq)
    if dist == 0 or dist > RANGE[t.unit.kind]:
        return f"{w.name(target_sq)}不在射程内（距离{dist}，射程{RANGE[t.unit.kind]}）"
    line = w.board.attack_line(t.square, target_sq)
    if not line.ok:
        return f"{w.name(target_sq)}在城内，城墙挡住了攻击" if line.reason == "wall" else \
            f"{w.name(target_sq)}在城内，城门未破，挡住了攻击"
    return None


def _attack(ctx: TurnContext, t: Troop, target_sq: Square, rec: Record, move_from: Square, charge: bool) -> None:
    """R12–R23, R33: the attack part of 移动—攻击, on a unit or a standing gate."""
    w = ctx.world
    sight = w.sight(t.side)
    gate = _enemy_city_gate(ctx, t.side, target_sq)
    target = w.at(target_sq)
    if target is not None and (target.side == t.side or not w.sees(t.side, target, sight)):
        target = None
    if target is None and gate is None:
        rec["failed"] = f"{w.name(target_sq)}没有看得见的敌军"
        return
    problem = attack_problem(w, t, target_sq, sight.squares)
    if problem is None and target is not None and target.id in t.no_attack:
        problem = f"{target.unit.leader.name}部上回合令我方不能攻击它"
    if problem is not None:
        rec["failed"] = problem
        return
    line = w.board.attack_line(t.square, target_sq)
    if target is not None:
        rec["target"] = {"id": target.id, "kind": "unit", "square": w.name(target_sq)}
        _hit_unit(ctx, t, target, rec, move_from, charge, list(line.line))
    elif gate is not None:
        sh, i = gate
        rec["target"] = {"id": sh.gates[i].id, "kind": "gate", "square": w.name(target_sq)}
        _hit_gate(ctx, t, sh, i, rec, list(line.line))
    t.hidden = False  # R37: attacking ends 隐蔽


def _strength_record(s: combat.Strength) -> Record:
    return {"兵力": s.troops, "行动力": s.ap, "bonus": dict(s.modifiers), "total": s.total}


def _joiners(ctx: TurnContext, t: Troop, target_sq: Square) -> tuple[list[Record], list[combat.Strength], list[Troop]]:
    """R23: the members who join ``t``'s attack by their 合击 orders this turn."""
    w = ctx.world
    ids = ctx.joins.get(t.unit.leader.name, [])
    if not ids or t.legion is None or t.legion not in w.legions:
        return [], [], []
    legion = w.legions[t.legion]
    cand = [w.troops[i] for i in ids if i in w.troops]
    ja = joint_attack(legion, t.id, combat.unit_strength(t.unit), target_sq,
                      [Joiner(c.unit, c.square, c.acted) for c in cand],
                      clear=lambda a, b: w.board.attack_line(a, b).ok)
    recs, strengths, joined = [], [], []
    for j, c in zip(ja.joins, cand, strict=True):
        if j.joined and j.strength is not None:
            c.unit = replace(c.unit, ap=c.unit.ap - 1)
            c.acted = True
            if w.night:
                c.night["acted"] = True
            strengths.append(j.strength)
            joined.append(c)
            recs.append({"unit": c.id, **_strength_record(j.strength)})
        else:
            recs.append({"unit": c.id, "refused": j.reason})
    return recs, strengths, joined


def _surprised(w: World, attacker: Troop, defender: Troop) -> bool:
    """R17: the attacker was not in the defender's own vision (its shape and its 侦查 area) before the order."""
    own = unit_vision(w.board, defender.square, night=w.night)
    scouted: frozenset[Square] = frozenset()
    if defender.scouting is not None:
        scouted = ScoutArea(defender.side, defender.square, defender.scouting[0]).area(w.board, night=w.night)
    if attacker.hidden:
        return attacker.square not in scouted
    return attacker.square not in own | scouted


def _hit_unit(ctx: TurnContext, t: Troop, d: Troop, rec: Record, move_from: Square, charge: bool,
              line: list[Square]) -> None:
    """R15–R17, R21–R23: a unit attacked."""
    w = ctx.world
    surprise = _surprised(w, t, d) if not rec.get("moved") else _surprised_from(w, t, d, move_from)
    att = combat.unit_strength(t.unit)
    jrecs, jstr, joined = _joiners(ctx, t, d.square)
    d_sh = w.board.stronghold_at(d.square)
    a_sh = w.board.stronghold_at(t.square)
    mods = combat.defence_modifiers(attacker_kind=t.unit.kind, attacker_terrain=w.board.terrain_at(t.square),
                                    defender_terrain=w.board.terrain_at(d.square),
                                    defender_stronghold=d_sh.id if d_sh else None,
                                    defender_level=d_sh.level if d_sh else 0,
                                    attacker_stronghold=a_sh.id if a_sh else None)
    dfn = combat.unit_strength(d.unit, modifiers=mods)
    total = combat.attack_total(att, jstr)
    pub = ctx.public(t, d)
    hit = combat.judge(total, max(1, dfn.total), ctx.dice_for(pub), f"{ctx.key}/{t.id}/伤害", surprise=surprise)
    attacker, dmg = combat.settle(t.unit, d.unit, hit)
    t.unit = attacker
    d.unit = dmg.unit
    if w.night:
        d.night["attacked"] = True
        if hit.dealt > 0:
            d.night["damaged"] = True
    if d.building is not None:
        d.building = None  # R39: being attacked breaks a 建造
        rec["broke_build_of"] = d.id
    if hit.dealt > 0:
        d.hidden = False
    if d.unit.kind == "archer" and manhattan(t.square, d.square) == 1:
        d.pending_no_attack.add(t.id)  # R21
    if surprise:
        d.pending_no_attack.add(t.id)  # R17
    w.merit[t.side] = w.merit.get(t.side, 0) + dmg.troops_lost
    w.losses[d.side] = w.losses.get(d.side, 0) + dmg.troops_lost
    rec["attack"] = {
        "attacker_seen": not surprise, "surprise": surprise, "inside": d_sh is not None and d_sh is not a_sh,
        "line": [w.name(s) for s in line], "att": _strength_record(att), "joiners": jrecs,
        "def": _strength_record(dfn), "total_att": total, "band": hit.band, "roll": _roll_json(hit.roll),
        "damage": hit.damage, "surprise_bonus": hit.surprise_bonus, "dealt": hit.dealt,
        "def_after": {"兵力": d.unit.troops, "行动力": d.unit.ap, "资源": d.unit.supplies},
        "resource_lost": dmg.supplies_lost, "resource_gained": dmg.supplies_gained, "destroyed": dmg.destroyed,
        "joined": [j.id for j in joined]}
    if charge and t.unit.kind == "cavalry":
        _charge(ctx, t, d, rec, move_from, hit.dealt)
    if dmg.destroyed:
        del w.troops[d.id]
        for lg in list(w.legions.values()):
            if d.id in lg.members:
                rec.setdefault("legion_lost", lg.id)


def _surprised_from(w: World, t: Troop, d: Troop, move_from: Square) -> bool:
    """R17 for an attack after a move: the attacker's square before the order counts."""
    here = t.square
    t.square = move_from
    try:
        return _surprised(w, t, d)
    finally:
        t.square = here


def _charge(ctx: TurnContext, t: Troop, d: Troop, rec: Record, move_from: Square, dealt: int) -> None:
    """R22 (S6): the cavalry's 突进 after a real move that dealt damage."""
    w = ctx.world
    if manhattan(t.square, d.square) != 1:
        rec["charge"] = None
        return
    def blocked(sq: Square) -> bool:
        if not w.board.passable(sq) or w.at(sq) is not None:
            return True
        return not w.board.step(replace(t.piece(), square=d.square), sq, ()).ok if manhattan(d.square, sq) == 1 \
            else False
    c = combat.charge(move_from, t.square, d.square, dealt=dealt, blocked=blocked)
    rec["charge"] = {"move_from": w.name(c.move_from), "attack_square": w.name(c.attack_square),
                     "target_square": w.name(c.target_square), "collinear": c.collinear,
                     "landing": None if c.landing is None else w.name(c.landing), "to": w.name(c.to),
                     "blocked": c.blocked, "none": c.none}
    if c.displaced:
        t.square = c.to
        d.pending_no_attack.add(t.id)  # R22: the target cannot attack the cavalry next turn


def _hit_gate(ctx: TurnContext, t: Troop, sh: Stronghold, i: int, rec: Record, line: list[Square]) -> None:
    """R33: a gate attacked: its 防御 (plus the level) as its strength, 0 destroys it."""
    w = ctx.world
    gate = sh.gates[i]
    att = combat.unit_strength(t.unit)
    dfn = combat.gate_strength(gate.defence, sh.level)
    hit = combat.judge(att.total, max(1, dfn.total), ctx.dice_for(True), f"{ctx.key}/{t.id}/破门")
    left = max(0, gate.defence - hit.dealt)
    gates = list(sh.gates)
    gates[i] = replace(gate, defence=left, destroyed=left == 0)
    w.board = w.board.with_stronghold(replace(sh, gates=tuple(gates)))
    rec["public"] = True
    rec["attack"] = {"attacker_seen": True, "surprise": False, "inside": False, "line": [w.name(s) for s in line],
                     "att": _strength_record(att), "joiners": [], "def": _strength_record(dfn),
                     "total_att": att.total, "band": hit.band, "roll": _roll_json(hit.roll), "damage": hit.damage,
                     "surprise_bonus": 0, "dealt": hit.dealt, "def_after": {"兵力": left, "行动力": 0, "资源": 0},
                     "resource_lost": 0, "resource_gained": 0, "destroyed": left == 0}


def _build(ctx: TurnContext, t: Troop, b: Build, rec: Record) -> None:
    """R39: start a continuing 建造 next to the builder."""
    w = ctx.world
    rec.update(facility=b.facility, site=b.site, turns=b.turns)
    facility = w.facilities.get(b.facility)
    site = _sq(ctx, b.site)
    problem = build_problem(w, t, b.facility, site, b.turns)
    if problem is not None:
        rec["failed"] = problem
        return
    assert facility is not None
    if not _pay(ctx, t, rec, "build", b.turns):
        return
    t.unit = replace(t.unit, supplies=t.unit.supplies - int(facility["cost"]))
    t.building = {"facility": b.facility, "site": site, "turns_left": b.turns, "level": int(facility.get("level", 1))}


def build_problem(w: World, t: Troop, facility: str, site: Square, turns: int) -> str | None:
    """Why ``t`` may not start building ``facility`` on ``site`` in ``turns`` turns (R39), else None."""
    rows = w.facilities
    row = rows.get(facility)
    if row is None:
        return f"本节不能建造「{facility}」（可建：{'、'.join(rows) or '无'}）"
    if turns < int(row["turns"]):
        return f"「{facility}」至少要{row['turns']}回合"
    if manhattan(t.square, site) != 1:
        return f"{w.name(site)}不在本部相邻格"
    if not w.board.passable(site) or w.board.stronghold_at(site) is not None or w.at(site) is not None:
        return f"{w.name(site)}不能建造（地形、据点或有部队）"
    if t.unit.supplies < int(row["cost"]):
        return f"资源不足（需{row['cost']}，有{t.unit.supplies}）"
    return None


def _reassign(ctx: TurnContext, t: Troop, b: Reassign, rec: Record) -> None:
    """调配: posts within the unit, or 兵力, 资源 and 副将 handed to another unit (R8, R19, R26)."""
    w = ctx.world
    partner = w.by_leader(t.side, b.other.removesuffix("部")) if b.other else None
    rec.update(partner=partner.id if partner else None, changes={"posts": dict(b.posts), "兵力": b.troops,
               "资源": b.supplies, "副将": list(b.deputies)}, deputies_only=bool(b.deputies) and not (
               b.posts or b.troops or b.supplies))
    problem = reassign_problem(w, t, b)
    if problem is not None:
        rec["failed"] = problem
        return
    cost = 0 if rec["deputies_only"] else 2
    if not _pay(ctx, t, rec, "reassign", cost):
        return
    t.unit = _posts(t.unit, b.posts)
    if partner is not None:
        moved = tuple(g for g in t.unit.deputies if g.name in b.deputies)
        t.unit = replace(t.unit, troops=t.unit.troops + b.troops, supplies=t.unit.supplies + b.supplies,
                         deputies=tuple(g for g in t.unit.deputies if g.name not in b.deputies))
        partner.unit = replace(partner.unit, troops=partner.unit.troops - b.troops,
                               supplies=partner.unit.supplies - b.supplies, deputies=partner.unit.deputies + moved)
        for u in (t, partner):
            u.unit = u.unit.with_troops(u.unit.troops).unit  # R9, R10 clamps


def _posts(u: Unit, posts: Sequence[tuple[str, str]]) -> Unit:
    """The unit with its 主将/军师 posts filled from its own generals."""
    for post, name in posts:
        g = {x.name: x for x in u.generals}[name]
        if post == "主将":
            old = u.leader
            deputies = tuple(x for x in u.deputies if x.name != name)
            if old.name != name:
                deputies = (old, *deputies)
            u = replace(u, leader=g, deputies=deputies, adviser=None if u.adviser and u.adviser.name == name
                        else u.adviser)
        elif post == "军师":
            u = replace(u, adviser=g, deputies=tuple(x for x in u.deputies if x.name != name))
    return u


def reassign_problem(w: World, t: Troop, b: Reassign) -> str | None:
    """Why 调配 ``b`` is refused for ``t`` (R8, R19, R26), else None."""
    names = {g.name: g for g in t.unit.generals}
    for post, name in b.posts:
        if name not in names:
            return f"{name}不在本部"
        if post == "军师" and names[name].intellect < 4:
            return f"{name}智力{names[name].intellect}，不足4，不能任军师"
    if b.other is None:
        return None if b.posts else "调配没有内容"
    partner = w.by_leader(t.side, b.other.removesuffix("部"))
    if partner is None or partner is t:
        return f"找不到我方的{b.other}"
    same = t.legion is not None and t.legion == partner.legion
    if not same and manhattan(t.square, partner.square) != 1:
        return f"{b.other}不在相邻格（同一军团内才不必相邻）"
    new_t = t.unit.troops + b.troops
    new_p = partner.unit.troops - b.troops
    leader = _posts(t.unit, b.posts).leader
    if new_t < 1 or new_p < 1:
        return "调配后每部至少要留1兵力"
    if new_t > leader.command or new_p > partner.unit.leader.command:
        return "调配后兵力超过主将统率（R8）"
    if t.unit.supplies + b.supplies < 0 or partner.unit.supplies - b.supplies < 0:
        return "资源不够调出"
    missing = [n for n in b.deputies if n not in {g.name for g in t.unit.deputies}]
    if missing:
        return f"{missing[0]}不是本部副将"
    return None


def _ambush(ctx: TurnContext, t: Troop, rec: Record) -> None:
    """R37: 埋伏 on an ambush square by day, anywhere at night; costs 1 + 兵力//3."""
    w = ctx.world
    rec.update(square=w.name(t.square), terrain=w.board.terrain_at(t.square))
    if not w.night and not w.board.ambush_square(t.square):
        rec["failed"] = f"白天只能在树林埋伏，{w.name(t.square)}不是"
        return
    if not _pay(ctx, t, rec, "ambush", 1 + t.unit.troops // 3):
        return
    t.hidden = True


def _scout(ctx: TurnContext, t: Troop, b: Scout, rec: Record) -> None:
    """R37b: 侦查 an area centred ``X`` squares away, for this turn and the side's next."""
    w = ctx.world
    centre = _sq(ctx, b.centre)
    dist = manhattan(t.square, centre)
    rec.update(center=b.centre, distance=dist)
    if not w.board.grid.on(centre):
        rec["failed"] = f"{b.centre}不在地图上"
        return
    if not _pay(ctx, t, rec, "scout", scout_cost(dist)):
        return
    t.scouting = (centre, SCOUT_TURNS)
    nxt = (w.day, w.slot + 1) if w.slot < w.slots else (w.day + 1, 1)
    rec["until"] = list(nxt)  # R37b: this turn and the side's next one (the next slot's)


_KEPT: dict[tuple[object, ...], tuple[World, list[Square]]] | None = None
"""While :func:`world_fixed` is open: :func:`steps` by world and unit (None: nothing kept)."""


@contextmanager
def world_fixed() -> Iterator[None]:
    """While open, no world changes (the vote's record: each unit's legal orders, odds and suggested order ask
    for its steps three times, issue 29), so :func:`steps` answers a unit asked before from what it worked out,
    and :meth:`World.sight` a side asked before."""
    global _KEPT
    outer, outer_sights = _KEPT, world_module.FIXED_SIGHTS
    _KEPT = {} if outer is None else outer
    world_module.FIXED_SIGHTS = {} if outer_sights is None else outer_sights  # and each side's sight
    try:
        yield
    finally:
        _KEPT, world_module.FIXED_SIGHTS = outer, outer_sights


def steps(w: World, t: Troop) -> list[Square]:
    """The squares ``t`` may step to as its side sees the board (an unseen enemy's square counts as free)."""
    if _KEPT is None:
        return plain_steps(w, t)
    key = (id(w), t.id, t.side, t.unit.kind, t.square, t.hidden)  # what plain_steps reads of t; the entry holds w
    known = _KEPT.get(key)
    if known is None or known[0] is not w:
        known = _KEPT[key] = (w, plain_steps(w, t))
    return list(known[1])


def plain_steps(w: World, t: Troop) -> list[Square]:
    """:func:`steps` worked out from the board."""
    seen = [x.id for x in w.visible_to(t.side)]
    pieces, mover = w.pieces(), t.piece()  # one board for every step asked (issue 29: 8 copies a unit before)
    out = []
    for dx, dy in step_offsets(t.type):
        to = (t.square[0] + dx, t.square[1] + dy)
        occupant = w.at(to)
        if occupant is not None and occupant.side != t.side and occupant.id not in seen:
            others = tuple(p for p in pieces if p.id != occupant.id)
            if w.board.step(mover, to, others).ok:
                out.append(to)
            continue
        if w.board.step(mover, to, pieces, seen=seen).ok:
            out.append(to)
    return out


__all__ = ["RANGE", "SCOUT_TURNS", "TurnContext", "attack_problem", "base", "build_problem", "execute",
           "plain_steps", "reassign_problem", "steps", "world_fixed"]
