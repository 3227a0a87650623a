"""接战's battle loop: one round (轮) played from the units' orders — main turns, response turns, moves and
closing, disengagement, every engagement's casualty dice, cohesion, drift and morale — and the battle's end
(wounded and dead by armour, retreats) (002 §3–§5; design engage.md §1.1, E6–E21, F1–F9).

The pure rules are the modules beside this one; this one keeps the battlefield between rounds and writes each
round as the JSON contract's record (§1.7). Orders that take effect together are resolved in unit-id order.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...ballot import VoteError
from ...dice import Dice, Roll
from . import between, checks, movement, phases, wounds
from .casualty import expected_percent, percent, result
from .engagement import Engagement, Setup, Side, judge, resolve
from .equipment import usable
from .formation import Formation, change, engaged_move, loosen, problems, settle
from .formation import drift as drift_to
from .orders import Order, Response, canonical
from .phases import Phase
from .scenario import merged, troop_card, with_card
from .units import (
    Armour,
    Mount,
    Shield,
    Training,
    Weapon,
    band_after_losses,
    band_index,
    command,
    parse_tactic,
)

Record = dict[str, Any]
SAME_ZONE = (1, 0)
"""DESIGNED: two units in one zone stand at 短距 until one closes (002 §4.2 '短距 … 25–150 尺')."""
FAR = (3, 0)
"""DESIGNED: zones the campaign gives no distance for are 长距 apart."""
FALLBACK_LOSS = 30
"""§1.4: the AI disengages when its expected losses exceed 30 %."""


@dataclass
class Troop:
    """One unit on the battlefield: its card, men and losses, formation, zone and state."""

    id: str
    side: str
    name: str
    training: Training
    commander: bool
    traits: tuple[str, ...]
    tactics: tuple[str, ...]
    weapons: tuple[Weapon, ...]
    armour: Armour
    shield: Shield | None
    mount: Mount | None
    start_men: int
    men: int
    wounded: int
    dead: int
    ammo: int
    formation: Formation
    zone: str
    raised: bool = False
    engaged_with: set[str] = field(default_factory=set)
    morale: checks.Morale = "steady"
    lost: str | None = None
    held: bool = False
    shot_last: bool = False
    thrown_used: int = 0
    pools: dict[str, tuple[int, ...]] = field(default_factory=dict)
    hurt_by: dict[str, Record] = field(default_factory=dict)
    """This battle's casualties by hitter, with what E10 reads of it (劣质, 破甲, magic, cruelty)."""

    @property
    def alive(self) -> bool:
        """Still in the battle."""
        return self.lost is None and self.men > 0

    @property
    def band(self) -> str:
        """E11b: its band now."""
        return band_after_losses(self.start_men, self.men)

    @property
    def melee_weapon(self) -> Weapon | None:
        """Its first 白刃 weapon."""
        return next((w for w in self.weapons if w.melee), None)

    def weapon(self, name: str | None) -> Weapon | None:
        """The weapon called ``name`` (None: none)."""
        return next((w for w in self.weapons if w.name == name), None)

    def card(self) -> Record:
        """The unit's card as the campaign and the state file write it."""
        f = self.formation
        return {"id": self.id, "side": self.side, "name": self.name, "men": self.men, "wounded": self.wounded,
                "dead": self.dead, "training": self.training, "commander": self.commander,
                "tactics": list(self.tactics), "traits": list(self.traits),
                "weapons": [{"name": w.name, "traits": list(w.traits), "range": w.range, "modes": list(w.modes)}
                            for w in self.weapons],
                "armour": {"kind": self.armour.kind, "traits": list(self.armour.traits)},
                **({"shield": {"name": self.shield.name, "traits": list(self.shield.traits)}} if self.shield else {}),
                **({"mount": {"kind": self.mount.kind, "armour": self.mount.armour}} if self.mount else {}),
                "ammo": self.ammo, "formation": {"density": f.density, "shape": f.shape, "move": f.move},
                "zone": self.zone}


def troop(u: Mapping[str, Any]) -> Troop:
    """A troop from a validated (and merged) unit entry."""
    c = troop_card(u)
    return Troop(u["id"], u["side"], u["name"], u["training"], u.get("commander", False), tuple(u.get("traits", ())),
                 tuple(u.get("tactics", ())), c["weapons"], c["armour"], c["shield"], c["mount"], u["men"], u["men"],
                 u.get("wounded", 0), u.get("dead", 0), u.get("ammo", 2), settle(c["formation"]), u["zone"])


@dataclass
class Plan:
    """What a unit does this round: its order, who gave it, the formation change and what it decided."""

    order: Order
    by: str
    turn: str = "main"
    pass_no: int = 0
    ai_reason: str | None = None
    trigger: str | None = None
    costs_turn: bool = False
    new_formation: Formation | None = None
    effective: str = "now"
    change: Order | None = None
    """A 变阵 given beside the order (a change that does not use the turn, 快速/急速)."""


@dataclass
class Battle:
    """One battle being played: its zones and units, distances between units, the round reached."""

    arc: int
    name: str
    readers: str
    zones: dict[str, Record]
    zone_distances: dict[frozenset[str], tuple[int, int]]
    troops: dict[str, Troop]
    dm: Mapping[str, Sequence[Mapping[str, Any]]]
    ai: Mapping[str, Mapping[str, Any]]
    options: Mapping[str, Any]
    prisoners: bool = False
    distances: dict[frozenset[str], tuple[int, int]] = field(default_factory=dict)
    round: int = 0
    over: bool = False
    attack_ordered: bool = False
    log: list[Record] = field(default_factory=list)
    reserves: dict[str, Troop] = field(default_factory=dict)
    """Hidden deployments (design §1.6): AI units on the field the readers do not know of, out of play until
    they spring or are seen (:mod:`.fog`)."""
    unknown: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Unit id → the card fields the readers do not know yet (``card_hidden``), until the card is revealed."""
    ambushing: set[str] = field(default_factory=set)
    between: list[Record] = field(default_factory=list)
    """What the host did to the roster before this battle (:mod:`.between`): printed in its first chapter."""
    """Units that sprang from hiding this round: their attacks are 突袭 (E13, the target's side did not know)."""

    # -- the field ------------------------------------------------------------------------------------

    @property
    def sides(self) -> list[str]:
        """Every side, the readers' first."""
        return list(dict.fromkeys([self.readers, *(t.side for t in self.troops.values())]))

    def alive(self, side: str | None = None) -> list[Troop]:
        """The units still in the battle (of ``side``), by id."""
        return [t for t in self.troops.values() if t.alive and (side is None or t.side == side)]

    def enemies(self, t: Troop) -> list[Troop]:
        """The hostile units still in the battle."""
        return [e for e in self.alive() if e.side != t.side]

    def zone_distance(self, a: str, b: str) -> tuple[int, int]:
        """E17: two zones' distance level and obstacles."""
        if a == b:
            return SAME_ZONE
        return self.zone_distances.get(frozenset((a, b)), FAR)

    def distance(self, a: Troop, b: Troop) -> tuple[int, int]:
        """Two units' distance now (0 when engaged)."""
        if b.id in a.engaged_with:
            return (0, 0)
        return self.distances.get(frozenset((a.id, b.id)), self.zone_distance(a.zone, b.zone))

    def reset_distances(self, t: Troop) -> None:
        """After a move: every distance of ``t`` follows the zones again."""
        for k in [k for k in self.distances if t.id in k]:
            del self.distances[k]

    def full(self, t: Troop) -> movement.Speed:
        """E16: its full speed in its zone."""
        return movement.full_speed(training=t.training, armour=t.armour, mount=t.mount, traits=t.traits,
                                   complex_zone=bool(self.zones[t.zone]["complex"]), shape=t.formation.shape)

    def speed(self, t: Troop, move: str | None = None) -> movement.Speed:
        """E16: its speed moving ``move`` (default: its formation's)."""
        return movement.mode_speed(self.full(t), move or t.formation.move)  # type: ignore[arg-type]

    def reaches(self, t: Troop, other: Troop, distance: int | None = None) -> bool:
        """E13: whether ``t`` has a weapon reaching ``other`` at ``distance`` (default: where they stand)."""
        d = self.distance(t, other)[0] if distance is None else distance
        return any(w.reach >= d and (d == 0 and w.melee or any(m != "白刃" for m in w.modes)) for w in t.weapons)

    # -- legal orders ---------------------------------------------------------------------------------

    def legal(self, t: Troop) -> list[str]:
        """Every order ``t`` may be given now, canonical, E5 and E20 applied."""
        out: list[str] = []
        engaged = [self.troops[i] for i in sorted(t.engaged_with) if self.troops[i].alive]
        for e in self.enemies(t):
            d, obstacles = self.distance(t, e)
            if e in engaged or not engaged:
                if t.melee_weapon is not None and (e in engaged or self.speed(t, "全速").value >= 1):
                    for w in [w for w in t.weapons if w.melee]:
                        suffix = "" if w is t.melee_weapon else f" 用 {w.name}"
                        out.append(f"攻击 {e.id}{suffix}")
                        if e not in engaged and self._may_charge(t):
                            out += [f"冲锋 {e.id}{suffix}", f"冲锋 {e.id}{suffix} 后脱离"]
                if not engaged and d > 1:
                    out.append(f"接近 {e.id}")
            if not engaged and d > 0:
                for w in t.weapons:
                    for m in w.modes:
                        if m != "白刃" and w.reach >= d and usable(w, m, formation=replace(t.formation, move="静止"),
                                                                  distance=d, band_at=band_index(t.men)).ok:
                            out.append(f"射击 {e.id} 用 {w.name} {m}")
        if not engaged:
            for z in self.zones:
                if z != t.zone:
                    lv, ob = self.zone_distance(t.zone, z)
                    if self.speed(t, "全速").value >= lv + ob:
                        out.append(f"移动 至 {z} 全速")
                    if self.speed(t, "半速").value >= lv + ob:
                        out.append(f"移动 至 {z}")
        for p in self._changes(t):
            out.append("变阵 " + " ".join(p))
        if t.formation.density == "紧密":
            out.append("固守")
        if t.shield is not None:
            out.append("举盾")
        if engaged:
            out.append("脱离")
        out += ["撤退", "行动 …", "待命"]
        allowed = command(t.training, t.commander).orders
        if allowed is not None:
            out = [o for o in out if o.split()[0] in allowed]
        moral = checks.morale_orders(t.morale)
        if moral is not None:
            out = [o for o in out if o.split()[0] in moral]
        return list(dict.fromkeys(out))

    def _may_charge(self, t: Troop) -> bool:
        """F1, §2.4: a 紧密 unit cannot go 全速 (but 行军); a mounted unit without 骑兵 never charges."""
        if t.formation.density == "紧密" and t.formation.shape != "行军":
            return False
        return t.mount is None or "骑兵" in t.traits

    def _changes(self, t: Troop) -> list[tuple[str, ...]]:
        """Every formation change ``t`` may order (one part, or two with 组合阵型)."""
        tactics = tuple(parse_tactic(x) for x in t.tactics)
        f = t.formation
        out: list[tuple[str, ...]] = []
        dens = [d for d in ("紧密", "松散") if d != f.density]
        shapes = [s for s in ("纵深", "稳固", "展开", "行军") if s != f.shape]
        options = [(d,) for d in dens] + [(s,) for s in shapes] + [(d, s) for d in dens for s in shapes]
        for parts in options:
            new = self._formed(f, parts)
            try:
                change(f, new, tactics=tactics, mount=t.mount)
            except ValueError:
                continue
            if not problems(new, mount=t.mount, traits=t.traits, training=t.training, commander=t.commander):
                out.append(parts)
        return out

    @staticmethod
    def _formed(f: Formation, parts: Sequence[str]) -> Formation:
        """``f`` with the parts changed (a 紧密 unit at 全速 slows to 半速)."""
        new = f
        for p in parts:
            new = replace(new, density=p) if p in ("紧密", "松散") else replace(new, shape=p)  # type: ignore[arg-type]
        if new.density == "紧密" and new.move == "全速" and new.shape != "行军":
            new = replace(new, move="半速")
        return new

    def is_legal(self, t: Troop, o: Order) -> bool:
        """Whether ``o`` is among ``t``'s legal orders (行动 with any words)."""
        text = "行动 …" if o.kind == "行动" else canonical(o)
        return text in self.legal(t)

    # -- records --------------------------------------------------------------------------------------

    def unit_record(self, t: Troop) -> Record:
        """§1.7's UNIT."""
        f = t.formation
        return {"id": t.id, "side": t.side, "name": t.name, "start_men": t.start_men, "men": t.men,
                "wounded": t.wounded, "dead": t.dead, "band": t.band, "start_band": band_after_losses(t.start_men,
                                                                                                     t.start_men),
                "training": t.training, "commander": t.commander, "traits": list(t.traits), "tactics": list(t.tactics),
                "weapons": [{"name": w.name, "traits": list(w.traits), "range": w.range, "modes": list(w.modes)}
                            for w in t.weapons],
                "armour": {"kind": t.armour.kind, "traits": list(t.armour.traits)},
                "shield": None if t.shield is None else {"name": t.shield.name, "traits": list(t.shield.traits),
                                                         "raised": t.raised},
                "mount": None if t.mount is None else {"kind": t.mount.kind, "armour": t.mount.armour},
                "formation": {"density": f.density, "shape": f.shape, "move": f.move}, "zone": t.zone,
                "engaged_with": sorted(t.engaged_with), "morale": t.morale, "lost": t.lost,
                "lost_men": t.start_men - t.men, "loss_percent": round(100 * (t.start_men - t.men) / t.start_men),
                "speed": self.speed(t).value, "unknown": []} | self._masked(t)

    def _masked(self, t: Troop) -> Record:
        """§1.6: the card fields the readers do not know yet, as null (and its speed, which they decide)."""
        hidden = self.unknown.get(t.id, ())
        return {"unknown": list(hidden), "speed": None, **dict.fromkeys(hidden)} if hidden else {}

    def distance_records(self) -> list[Record]:
        """§1.7's distances between every two hostile units still in the battle."""
        out = []
        units = self.alive()
        for i, a in enumerate(units):
            for b in units[i + 1:]:
                if a.side != b.side:
                    lv, ob = self.distance(a, b)
                    out.append({"a": a.id, "b": b.id, "level": lv, "obstacles": ob,
                                "name": movement.DISTANCES[lv]})
        return out

    def zone_records(self) -> list[Record]:
        """§1.7's zones."""
        return [{"id": z["id"], "name": z.get("name") or z["id"], "complex": z["complex"], "cover": dict(z["cover"]),
                 "obstacle": z["obstacle"]} for z in self.zones.values()]

    # -- one engagement, judged or thrown ------------------------------------------------------------

    def side_of(self, t: Troop, weapon: Weapon | None, f: Formation | None = None) -> Side:
        """``t`` as an engagement sees it (its 投掷 spent once its rounds are gone)."""
        if weapon is not None and "投掷" in weapon.traits and t.ammo <= t.thrown_used:
            weapon = replace(weapon, traits=tuple(x for x in weapon.traits if x != "投掷"))
        shield = None if t.shield is None else replace(t.shield, raised=t.raised)
        return Side(t.id, t.men, t.training, f or t.formation, weapon, t.armour, shield, t.mount, t.traits,
                    t.start_men)

    def dm_for(self, round_no: int, hitter: Troop, target: Troop) -> tuple[int, int, int, list[Record]]:
        """E6: the host's attack, defence and dice for this engagement, with the entries used."""
        att = dfn = dice = 0
        used = []
        for e in self.dm.get(f"r{round_no}", ()):
            vs = e.get("vs")
            if e["kind"] == "defence" and e["unit"] == target.id and vs in (None, hitter.id):
                dfn += e["n"]
            elif e["kind"] in ("attack", "dice") and e["unit"] == hitter.id and vs in (None, target.id):
                if e["kind"] == "attack":
                    att += e["n"]
                else:
                    dice += e["n"]
            else:
                continue
            used.append({"round": round_no, "unit": e["unit"], "vs": vs, "kind": e["kind"], "n": e["n"],
                         "reason": e["reason"]})
        return att, dfn, dice, used

    def setup(self, hitter: Troop, target: Troop, weapon: Weapon | None, mode: str, phase: Phase, round_no: int,
              hf: Formation | None = None, tf: Formation | None = None) -> tuple[Setup, int, list[Record]]:
        """The engagement's circumstances, the host's extra dice, and the host entries used."""
        att, dfn, dice, used = self.dm_for(round_no, hitter, target)
        s = Setup(self.side_of(hitter, weapon, hf), self.side_of(target, target.melee_weapon, tf), phase, mode,
                  self.zones[target.zone]["cover"], target.lost is not None, att, dfn)
        return s, dice, used

    def expect(self, hitter: Troop, target: Troop, weapon: Weapon | None, mode: str, phase: Phase,
               round_no: int, extra: int = 0) -> Record:
        """R-E6: the exact expectation of one engagement (for the AI and the readers' preview)."""
        s, dice, _ = self.setup(hitter, target, weapon, mode, phase, round_no)
        j = judge(s)
        ranged = mode != "白刃"
        pool = () if phases.new_pool(phase, ranged=ranged) else target.pools.get(hitter.id, ())
        n = phases.dice_count(phase, pool_size=len(pool), attack=j.attack.total, extra=dice + extra, ranged=ranged)
        pct = float(expected_percent(pool, n, j.defence.total)) - percent(result(pool))
        return {"dice": n, "attack": j.attack.total, "defence": j.defence.total, "percent": pct,
                "men": pct * target.start_men / 100, "phase": phase}

    def melee_phase(self, hitter: Troop, target: Troop, at_start: Mapping[str, set[str]]) -> Phase:
        """E13, E14: 突袭 when the target cannot strike back, else 久战 if engaged at the round's start, else 接战."""
        at = target.id in at_start.get(hitter.id, set()) or hitter.id in at_start.get(target.id, set())
        return phases.phase(engaged_at_start=at,
                            one_sided=target.melee_weapon is None or hitter.id in self.ambushing)

    def shot_phase(self, shooter: Troop, target: Troop, distance: int | None = None) -> Phase:
        """E13: a shot is an 突袭 when the target has no weapon reaching back at ``distance`` (default: where they
        stand), else 接战 (a new pool each round)."""
        return phases.phase(engaged_at_start=False, one_sided=not self.reaches(target, shooter, distance)
                            or shooter.id in self.ambushing, ranged=True)


def build(data: Mapping[str, Any], arc: int, carried: Mapping[str, Any] | None) -> Battle:
    """Battle ``arc`` at its start, from the campaign and the last battle's state (``units`` by id)."""
    b = data["battles"][arc - 1]
    cards: dict[str, Any] = {}
    for earlier in data["battles"][:arc - 1]:
        for u in map(with_card, earlier["units"]):
            cards[u["id"]] = merged(u, cards.get(u["id"]))
    cards.update(copy.deepcopy(dict((carried or {}).get("units", {}))))
    done = between.apply(cards, data.get("between", {}).get(f"b{arc}", {}), arc) if arc > 1 else []
    troops: dict[str, Troop] = {}
    reserves: dict[str, Troop] = {}
    unknown: dict[str, tuple[str, ...]] = {}
    for u in map(with_card, b["units"]):
        t = troop(merged(u, cards.get(u["id"])))
        if t.men > 0:  # DESIGNED: a unit the last battle destroyed cannot take the field until the host recruits
            (reserves if u.get("hidden") else troops)[t.id] = t
            if u.get("card_hidden"):
                unknown[t.id] = tuple(u["card_hidden"])
    zd = {frozenset((d[0], d[1])): (movement.DISTANCES.index(d[2]), int(d[3]) if len(d) > 3 else 0)
          for d in b["distances"]}
    return Battle(arc, b["name"], data["readers"], {z["id"]: z for z in b["zones"]}, zd, troops,
                  b["dm"], b["ai"], data["options"], b["prisoners"], reserves=reserves, unknown=unknown, between=done)


@dataclass
class RoundRecord:
    """What one round gathered (§1.7's fields)."""

    orders: list[Record] = field(default_factory=list)
    speeds: list[Record] = field(default_factory=list)
    closings: list[Record] = field(default_factory=list)
    engagements: list[Record] = field(default_factory=list)
    disengage: list[Record] = field(default_factory=list)
    checks: list[Record] = field(default_factory=list)
    dm: list[Record] = field(default_factory=list)
    story: list[Record] = field(default_factory=list)


def _roll(r: Roll | None) -> Record | None:
    return None if r is None else r.to_json()


def _eng_record(eid: str, hitter: Troop, target: Troop, weapon: Weapon | None, distance: int,
                e: Engagement) -> Record:
    """§1.7's ENG."""
    a, d = e.judged.attack, e.judged.defence
    return {"id": eid, "attacker": hitter.id, "defender": target.id, "phase": e.phase,
            "weapon": None if weapon is None else weapon.name, "mode": e.mode, "distance": distance,
            "attack_adv": [{"source": x.source, "n": x.n} for x in a.advantages],
            "attack_ignored": [{"source": x.source, "n": x.n, "by": x.by} for x in a.ignored],
            "attack_cap": a.cap, "attack_count": a.total,
            "defence_adv": [{"source": x.source, "n": x.n} for x in d.advantages],
            "defence_ignored": [{"source": x.source, "n": x.n, "by": x.by} for x in d.ignored],
            "defence_count": d.total, "extra_dice": dict(e.extra_dice), "pool_before": list(e.pool_before),
            "roll": e.roll.to_json(), "counted": list(e.counted), "ignored": list(e.ignored), "rewrite": e.rewrite,
            "pool_after": list(e.pool_after), "result_before": e.result_before, "result_after": e.result_after,
            "casualties": e.casualties, "cumulative": e.cumulative}


class Round:
    """One round of ``battle`` played from ``plans`` (unit id → :class:`Plan`) and the response orders."""

    def __init__(self, battle: Battle, dice: Dice, plans: dict[str, Plan], responses: Sequence[Response]) -> None:
        self.b = battle
        self.dice = dice
        self.plans = plans
        self.responses = list(responses)
        self.rec = RoundRecord()
        self.n = battle.round
        self.key = f"b{battle.arc}/r{self.n}"
        self.at_start = {t.id: set(t.engaged_with) for t in battle.troops.values()}
        self.lost_at_start = {t.id: t.start_men - t.men for t in battle.troops.values()}
        self.moved_full: set[str] = set()
        self.parting: set[frozenset[str]] = set()
        """Pairs that part at the settlement (a successful disengagement)."""
        self.no_strike: set[tuple[str, str]] = set()
        """(leaver, other): the leaver strikes no blow this round (脱离久战)."""
        self.no_melee: set[frozenset[str]] = set()
        """Pairs that part before the melee (脱离接战 succeeded)."""

    # -- the round, step by step ----------------------------------------------------------------------

    def play(self) -> RoundRecord:
        """Main turns, response turns, the formation changes, moves, disengagement, the engagements and the
        settlement (002 §3.1 steps 2–5)."""
        b = self.b
        for t in b.alive():
            t.raised = False
        self._responses()
        for uid, p in sorted(self.plans.items()):
            self.rec.orders.append(self._order_record(uid, p))
        b.attack_ordered = any(p.order.attack or p.order.kind == "射击" for p in self.plans.values())
        self._formations("now")
        self._moves()
        self._formations("settlement")
        self._speeds()
        extra = self._disengage()
        self._engagements(extra)
        self._settle()
        return self.rec

    def _order_record(self, uid: str, p: Plan) -> Record:
        o = p.order
        return {"unit": uid, "turn": p.turn, "pass": p.pass_no, "by": p.by, "kind": o.kind, "target": o.target,
                "weapon": o.weapon, "mode": o.mode, "formation": list(o.parts) or None, "speed": o.move,
                "trigger": p.trigger, "ai_reason": p.ai_reason, "text": canonical(o)}

    def _events(self, t: Troop) -> set[str]:
        """What the orders given so far do to ``t`` (the response triggers)."""
        out: set[str] = set()
        for uid, p in self.plans.items():
            o = p.order
            other = self.b.troops[uid]
            if other.side == t.side:
                if o.attack or o.kind == "射击":
                    pass
                continue
            if o.target == t.id and o.attack:
                out.add("被攻击")
                if o.kind == "冲锋" and uid not in t.engaged_with:
                    out.add("被冲锋")
            if o.target == t.id and o.kind == "射击":
                out.add("被射击")
            if o.kind == "移动" and o.target == t.zone:
                out.add("敌入本区")
        return out

    def _friend_attacked(self, friend: str) -> bool:
        return any(p.order.target == friend and (p.order.attack or p.order.kind == "射击")
                   for uid, p in self.plans.items() if self.b.troops[uid].side != self.b.troops[friend].side)

    def _responses(self) -> None:
        """E12: up to ``response_turns`` passes; in each, the responses whose trigger holds fire, higher training
        first, then speed, then id; a fired response takes the place of the unit's main order (DESIGNED: one
        response per unit a round). A pass where nothing fires ends them."""
        b = self.b
        done: set[str] = set()
        passes = int(b.options.get("response_turns", phases.RESPONSE_PASSES))
        for k in range(1, passes + 1):
            fired: list[Response] = []
            for r in self.responses:
                t = b.troops.get(r.unit)
                if t is None or not t.alive or r.unit in done:
                    continue
                hit = self._friend_attacked(r.friend) if r.friend and r.friend in b.troops else \
                    r.trigger in self._events(t)
                if hit and command(t.training, t.commander).responses and b.is_legal(t, r.order):
                    fired.append(r)
            order = phases.response_order([phases.Responder(r.unit, b.troops[r.unit].training,
                                                            b.speed(b.troops[r.unit]).value) for r in fired])
            for uid in order:
                r = next(x for x in fired if x.unit == uid)
                old = self.plans.get(uid)
                self.plans[uid] = Plan(r.order, old.by if old else "readers", "response", k,
                                       old.ai_reason if old and old.by == "ai" and r.order == old.order else None,
                                       f"友军{r.friend}被攻击" if r.friend else r.trigger)
                done.add(uid)
            if phases.responses_end(k, len(order), passes):
                break

    def _formations(self, when: str) -> None:
        """E15, E5b: formation changes counted at once (急速), before the settlement (快速), or after it; 固守
        and moves set the way of moving."""
        b = self.b
        for uid, p in sorted(self.plans.items()):
            t = b.troops[uid]
            o = p.order
            if when == "now":
                ch = p.change or (o if o.kind == "变阵" else None)
                if ch is not None:
                    new = b._formed(t.formation, ch.parts)
                    c = change(t.formation, new, tactics=tuple(parse_tactic(x) for x in t.tactics), mount=t.mount)
                    p.new_formation, p.effective, p.costs_turn = new, c.effective, c.costs_turn
                move = o.move
                if o.kind in ("脱离", "撤退"):
                    move = "半速" if t.formation.density == "紧密" and t.formation.shape != "行军" else "全速"
                if move is not None:
                    t.formation = replace(t.formation, move=move)  # type: ignore[arg-type]
                if o.kind == "举盾":
                    t.raised = True
                if o.move == "全速":
                    self.moved_full.add(uid)
            if p.new_formation is not None and p.effective == when:
                t.formation = settle(replace(p.new_formation, move=t.formation.move))
                p.new_formation = None

    def _speeds(self) -> None:
        b = self.b
        for t in b.alive():
            s = b.speed(t)
            self.rec.speeds.append({"unit": t.id, "base": s.base, "modifiers": dict(s.modifiers), "value": s.value})

    def _leaving(self, t: Troop) -> bool:
        p = self.plans.get(t.id)
        return p is not None and p.order.kind in ("脱离", "撤退", "移动")

    def _moves(self) -> None:
        """E17: moves into zones, then closing on a target (contact engages; 接近 stops at 短距)."""
        b = self.b
        for uid, p in sorted(self.plans.items()):
            t, o = b.troops[uid], p.order
            if o.kind == "移动" and o.target is not None:
                t.zone = o.target
                b.reset_distances(t)
                self.rec.story.append({"kind": "move", "unit": uid, "zone": o.target})
        for uid, p in sorted(self.plans.items()):
            t, o = b.troops[uid], p.order
            if not (o.attack or o.kind == "接近") or o.target is None:
                continue
            e = b.troops[o.target]
            if e.id in t.engaged_with or not e.alive:
                continue
            lv, ob = b.distance(t, e)
            leaving = self._leaving(e)
            c = movement.close(closer=b.speed(t).value, retreat=b.full(e).value if leaving else 0, distance=lv,
                               obstacles=ob, holds=not leaving)
            closed = c.closed and o.attack
            after = 0 if closed else (max(1, c.distance_after) if c.closed else c.distance_after)
            self.rec.closings.append({"unit": uid, "target": e.id, "distance_before": lv, "required": c.required,
                                      "gain": c.gain, "closed": closed, "distance_after": after,
                                      "obstacles_after": 0 if c.closed else c.obstacles_after, "extra_shots": 0,
                                      "wasted": c.wasted})
            if closed:
                t.zone = e.zone
                b.reset_distances(t)
                t.engaged_with.add(e.id)
                e.engaged_with.add(t.id)
                t.held = False
                e.held = e.formation.holding
            else:
                if after <= 1:
                    t.zone = e.zone
                    b.reset_distances(t)
                b.distances[frozenset((t.id, e.id))] = (after, 0 if c.closed else c.obstacles_after)
            self.rec.story.append({"kind": "charge" if o.kind == "冲锋" else "close", "unit": uid, "target": e.id,
                                   "closed": closed})

    def _disengage(self) -> dict[tuple[str, str], int]:
        """E18: a leaver engaged since the round's start leaves (脱离久战: it strikes no blow, the other throws the
        table's extra dice on it this round); one caught this round throws the d4 (脱离接战): on a success they
        part before the melee, on a failure they stay engaged. 冲锋…后脱离 throws the d4 after its charge's melee
        (DESIGNED). The extra dice by (hitter, target)."""
        b = self.b
        extra: dict[tuple[str, str], int] = {}
        for uid, p in sorted(self.plans.items()):
            t = b.troops[uid]
            if not (p.order.kind in ("脱离", "撤退", "移动") or p.order.then_disengage) or not t.engaged_with:
                continue
            for oid in sorted(t.engaged_with):
                o = b.troops[oid]
                ph = "久战" if oid in self.at_start[uid] else "接战"
                other = b.speed(o, engaged_move(o.formation, engaged=True, held_from_start=o.held)).value
                r = movement.attempt(self.dice, f"{self.key}/{uid}/脱离", leaver=b.full(t).value, other=other,
                                     phase=ph, nimble=t.mount is not None and t.mount.kind == "陆行鸟")
                self.rec.disengage.append({"unit": uid, "from": oid, "phase": ph, "leaver_speed": r.leaver_speed,
                                           "other_speed": r.other_speed, "diff": r.diff, "quarters": r.quarters,
                                           "roll": _roll(r.check.roll if r.check else None), "success": r.success,
                                           "extra_dice": r.extra_dice})
                if not r.success:
                    continue
                self.parting.add(frozenset((uid, oid)))
                if ph == "久战":
                    self.no_strike.add((uid, oid))
                    if r.extra_dice:
                        extra[(oid, uid)] = r.extra_dice
                elif not p.order.then_disengage:
                    self.no_melee.add(frozenset((uid, oid)))
        return extra

    def _engagements(self, extra: Mapping[tuple[str, str], int]) -> None:
        """E6–E9: every shot and every melee direction, thrown in id order; losses applied together."""
        b = self.b
        assigned: dict[str, int] = {}
        jobs: list[tuple[Troop, Troop, Weapon | None, str, Phase, int, int]] = []
        for uid, p in sorted(self.plans.items()):
            t, o = b.troops[uid], p.order
            if o.kind != "射击" or o.target is None or p.costs_turn or self.at_start[uid]:
                continue
            e = b.troops[o.target]
            w = t.weapon(o.weapon) or next((x for x in t.weapons if o.mode in x.modes), None)
            lv = self.start_distance(t, e)
            plus = self._distance_advantage(t, e)
            jobs.append((t, e, w, o.mode or "抛射", b.shot_phase(t, e, lv), lv, plus))
        pairs = sorted({tuple(sorted((a.id, x))) for a in b.troops.values() for x in a.engaged_with})
        for a_id, c_id in pairs:
            for hid, tid in ((a_id, c_id), (c_id, a_id)):
                h, tg = b.troops[hid], b.troops[tid]
                hp = self.plans.get(hid)
                if frozenset((hid, tid)) in self.no_melee or (hid, tid) in self.no_strike:
                    continue
                if hp is not None and hp.costs_turn:
                    continue
                w = h.weapon(hp.order.weapon) if hp and hp.order.target == tid and hp.order.weapon else None
                w = w if w is not None and w.melee else h.melee_weapon
                if w is None:
                    continue
                jobs.append((h, tg, w, "白刃", b.melee_phase(h, tg, self.at_start), 0, 0))
        for h, tg, w, mode, ph, lv, plus in jobs:
            hf = self._fighting(h, tg)
            tf = self._fighting(tg, h)
            s, dm_dice, used = b.setup(h, tg, w, mode, ph, self.n, hf, tf)
            more = {k: v for k, v in (("脱离", extra.get((h.id, tg.id), 0)), ("主持", dm_dice),
                                      ("距离", plus)) if v}
            pool = tg.pools.get(h.id, ())
            eid = f"{h.id}-{tg.id}"
            res = resolve(s, self.dice, f"{self.key}/{eid}", pool_before=pool, extra_dice=more,
                        men_left=tg.men - assigned.get(tg.id, 0), rounding=b.options.get("rounding", "half_up"))
            assigned[tg.id] = assigned.get(tg.id, 0) + res.casualties
            if mode == "白刃" or ph != "突袭":
                tg.pools[h.id] = res.pool_after if mode == "白刃" else ()
            rec = _eng_record(eid, h, tg, w, lv, res)
            rec["steps"] = res.result_after - res.result_before
            self.rec.engagements.append(rec)
            self.rec.dm += used
            hurt = tg.hurt_by.setdefault(h.id, {"casualties": 0, "poor": False, "piercing": False, "magic": False,
                                                 "cruel": False, "fire": False, "breaker": False})
            traits = set(w.traits) if w else set()
            hurt["casualties"] += res.casualties
            hurt["poor"] |= "劣质" in traits
            hurt["piercing"] |= "破甲" in traits
            hurt["magic"] |= "附魔武器" in traits
            hurt["cruel"] |= "强大而残忍" in h.traits
            if w is not None and "投掷" in w.traits and ph == "接战":
                h.thrown_used += 1
        for t in b.troops.values():
            t.men -= assigned.get(t.id, 0)
        shooters = {uid for uid, p in self.plans.items() if p.order.kind == "射击"}
        for t in b.troops.values():
            t.shot_last = t.id in shooters

    def start_distance(self, a: Troop, b_: Troop) -> int:
        """The distance level at the round's start (a shot is taken as the enemy comes)."""
        for c in self.rec.closings:
            if {c["unit"], c["target"]} == {a.id, b_.id}:
                return int(c["distance_before"])
        return self.b.distance(a, b_)[0]

    def _distance_advantage(self, shooter: Troop, target: Troop) -> int:
        """E17: a stationary shooter's +1 per distance level the target closed on it this round."""
        for c in self.rec.closings:
            if c["unit"] == target.id and c["target"] == shooter.id and shooter.formation.move == "静止":
                cl = movement.Closing(c["distance_before"], 0, c["required"], c["gain"], c["closed"],
                                      c["distance_after"], 0, c["wasted"])
                return movement.distance_advantage(cl, stationary=True)
        return 0

    def _fighting(self, t: Troop, other: Troop) -> Formation:
        """F8: an engaged unit fights at 半速 unless it has held since the engagement began; the charge round
        keeps the ordered way of moving."""
        if other.id in self.at_start.get(t.id, set()):
            return replace(t.formation, move=engaged_move(t.formation, engaged=True, held_from_start=t.held))
        return t.formation

    def _settle(self) -> None:
        """E19 cohesion, F5 drift, E20 morale, E21 actions, then retreats, parting and the end test."""
        b = self.b
        took: dict[str, int] = {}
        fire: set[str] = set()
        breakers: dict[str, int] = {}
        for e in self.rec.engagements:
            took[e["defender"]] = took.get(e["defender"], 0) + e["steps"]
            w = b.troops[e["attacker"]].weapon(e["weapon"])
            if w is not None and e["casualties"]:
                fire.update([e["defender"]] if "焰爆箭" in w.traits else [])
                breakers[e["defender"]] = breakers.get(e["defender"], 0) + int("破阵" in w.traits)
        for t in list(b.alive()):
            f = t.formation
            if checks.cohesion_due(density=f.density, took_casualties=took.get(t.id, 0) > 0,
                                   full_speed=t.id in self.moved_full, marching=f.shape == "行军"):
                vs_wedge = any(b.troops[o].formation.shape == "稳固" for o in t.engaged_with)
                parts = checks.cohesion(t.training, steps=took.get(t.id, 0), fire_arrows=t.id in fire,
                                        full_speed=t.id in self.moved_full, marching=f.shape == "行军",
                                        breakers=breakers.get(t.id, 0), vs_wedge=vs_wedge, wedge=f.shape == "稳固")
                c = checks.check(parts.quarters, self.dice, f"{self.key}/{t.id}/阵型", "阵型检定")
                if not c.success:
                    t.formation = loosen(f)
                self._check(t, "cohesion", parts, c, None if c.success else "松散")
            long_fight = any(o in self.at_start[t.id] for o in t.engaged_with)
            if long_fight and t.formation.shape != "展开":
                parts = checks.drift(t.training)
                c = checks.check(parts.quarters, self.dice, f"{self.key}/{t.id}/展开", "久战检定")
                if not c.success:
                    t.formation = drift_to(t.formation)
                self._check(t, "drift", parts, c, None if c.success else "展开")
            lost_now = t.start_men - t.men
            due = checks.morale_due(start_men=t.start_men, round_losses=lost_now - self.lost_at_start[t.id],
                                    lost_before=self.lost_at_start[t.id], lost_after=lost_now)
            if due.due and t.men > 0:
                parts = checks.morale(t.training, start_men=t.start_men, lost=lost_now, commander=t.commander,
                                      traits=t.traits)
                c = checks.check(parts.quarters, self.dice, f"{self.key}/{t.id}/士气", "士气检定")
                before = t.morale
                t.morale = checks.morale_after(t.morale, c.success)
                self._check(t, "morale", parts, c, None if t.morale == before else t.morale)
            p = self.plans.get(t.id)
            if p is not None and p.order.kind == "行动":
                dm = next((e["n"] for e in b.dm.get(f"r{self.n}", ()) if e["kind"] == "action" and
                           e["unit"] == t.id), None)
                parts = checks.action(t.training, dm_quarters=dm, forest_craft=bool(b.zones[t.zone]["complex"]),
                                      traits=t.traits)
                c = checks.check(parts.quarters, self.dice, f"{self.key}/{t.id}/行动", "行动检定")
                self._check(t, "action", parts, c, p.order.text if c.success else None)
        for pair in sorted(self.parting, key=sorted):
            uid, oid = sorted(pair)
            t, o = b.troops[uid], b.troops[oid]
            t.engaged_with.discard(oid)
            o.engaged_with.discard(uid)
            t.pools.pop(oid, None)
            o.pools.pop(uid, None)
            b.distances[pair] = SAME_ZONE
        for t in b.troops.values():
            p = self.plans.get(t.id)
            if t.lost is None and t.men <= 0:
                t.lost = "destroyed"
            elif t.lost is None and (t.morale == "routed" or (p is not None and p.order.kind == "撤退"
                                                               and not t.engaged_with)):
                t.lost = "routed" if t.morale == "routed" else "retreated"
            if t.lost is not None:
                for oid in list(t.engaged_with):
                    b.troops[oid].engaged_with.discard(t.id)
                t.engaged_with.clear()
        self._formations("next_round")
        for t in b.troops.values():
            t.held = t.held and t.formation.holding
        in_range = sum(1 for t in b.alive() for e in b.enemies(t) if b.reaches(t, e) and b.distance(t, e)[0] > 0)
        engaged = sum(len(t.engaged_with) for t in b.alive())
        sides = len({t.side for t in b.alive()})
        b.over = phases.battle_over(engaged=engaged, in_range=in_range, attack_ordered=b.attack_ordered,
                                    sides_left=sides, round_no=self.n,
                                    max_rounds=int(b.options.get("max_rounds", phases.MAX_ROUNDS)))

    def _check(self, t: Troop, kind: str, parts: checks.Parts, c: checks.Check, effect: str | None) -> None:
        self.rec.checks.append({"unit": t.id, "kind": kind, "parts": dict(parts.parts), "quarters": c.quarters,
                                "roll": _roll(c.roll), "success": c.success, "effect": effect})


def battle_end(b: Battle, dice: Dice) -> Record:
    """E10, E11: each unit's casualties split by armour and its hitters' weapons; a retreating unit's 1D6 for
    the wounded it brings; the unhurt go back to the ranks."""
    out = []
    for t in b.troops.values():
        cas = unhurt = wounded = dead = 0
        mods: list[str] = []
        percents = wounds.ARMOUR_SPLIT[t.armour.kind]
        for h in sorted(t.hurt_by):
            x = t.hurt_by[h]
            f = wounds.fate(x["casualties"], t.armour.kind, armour_piercing=x["piercing"], poor_weapon=x["poor"],
                            cruel=x["cruel"], troll_vigour="巨魔活力" in t.traits, magic_hit=x["magic"])
            cas, unhurt, wounded, dead = cas + f.casualties, unhurt + f.unhurt, wounded + f.wounded, dead + f.dead
            mods += [m for m in f.modifiers if m not in mods]
            if f.casualties:
                percents = f.percents
        retreat = None
        if t.lost in ("retreated", "routed") and wounded:
            r = wounds.retreat(wounded, dice, f"b{b.arc}/end/{t.id}/撤退", prisoners=b.prisoners)
            retreat = {"roll": r.roll.to_json(), "saved": r.saved, "left": r.left}
            wounded, dead = r.saved, dead + r.dead
        t.men += unhurt
        t.wounded += wounded
        t.dead += dead
        out.append({"id": t.id, "side": t.side, "casualties": cas,
                    "percents": {"unhurt": percents.unhurt, "wounded": percents.wounded, "dead": percents.dead},
                    "modifiers": mods, "unhurt": unhurt, "wounded": wounded, "dead": dead, "retreat": retreat,
                    "men_after": t.men, "lost": t.lost})
    return {"units": out}


__all__ = ["Battle", "FALLBACK_LOSS", "Plan", "Round", "RoundRecord", "Troop", "VoteError", "battle_end", "build",
           "troop"]
