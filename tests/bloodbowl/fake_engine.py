"""A small deterministic stand-in for the Blood Bowl match engine (``match/engine.py`` is another
engineer's): it plays a half by a few dice per turn and returns a :class:`HalfResult` in DESIGN §12's
record shape, so the league, the templates and the CLI can be tested before the engine lands.

What it fakes (the real engine must give the same shapes): ``teams``, ``turns`` with ``actions`` and
ROLLs of kinds block/armour/injury/casualty/dodge/pickup/kickoff, a ``touchdown`` now and then, casualties
with a D68 (sealed when the victim is ours: the roll is thrown hidden, listed in ``sealed``, and what it
decided sits under ``outcome`` with ``sealed_by``), ``kickoffs`` with ``kicking``, ``diagrams`` of
monospace rows, ``score``, ``attacks``, ``casualties``, and the teams after the half.
"""

from __future__ import annotations

import copy

from anko_writer.dice import Dice, Roll
from anko_writer.resources import Resources
from anko_writer.errors import TableError
from anko_writer.rulesets.bloodbowl.league.rosters import SCHEMA, Rosters, parse_rosters
from anko_writer.schema import validate
from anko_writer.rulesets.bloodbowl.match.api import HalfInput, HalfResult, PlayerSheet, Side, TeamSheet
from anko_writer.yamlio import load_yaml_text

FAKE_ROSTERS = """
teams:
  human:
    name: 人类
    reroll_cost: 50000
    positions:
      - {key: lineman, name: 锋线手, cost: 50000, max: 16, MA: 6, ST: 3, AG: 3, AV: 8}
      - {key: catcher, name: 接球手, cost: 70000, max: 4, MA: 8, ST: 2, AG: 3, AV: 7, skills: [catch, dodge]}
      - {key: thrower, name: 传球手, cost: 70000, max: 2, MA: 6, ST: 3, AG: 3, AV: 8, skills: [sure_hands, pass]}
      - {key: blitzer, name: 闪击手, cost: 90000, max: 4, MA: 7, ST: 3, AG: 3, AV: 8, skills: [block]}
  orc:
    name: 兽人
    reroll_cost: 60000
    positions:
      - {key: lineman, name: 兽人锋线手, cost: 50000, max: 16, MA: 5, ST: 3, AG: 3, AV: 9}
      - {key: thrower, name: 兽人传球手, cost: 70000, max: 2, MA: 5, ST: 3, AG: 3, AV: 8, skills: [sure_hands, pass]}
      - {key: black_orc, name: 黑兽人, cost: 80000, max: 4, MA: 4, ST: 4, AG: 2, AV: 9}
      - {key: blitzer, name: 兽人闪击手, cost: 80000, max: 4, MA: 6, ST: 3, AG: 3, AV: 9, skills: [block]}
  dwarf:
    name: 矮人
    reroll_cost: 50000
    positions:
      - {key: longbeard, name: 长须战士, cost: 70000, max: 16, MA: 4, ST: 3, AG: 2, AV: 9, skills: [block, tackle]}
      - {key: runner, name: 矮人跑卫, cost: 80000, max: 2, MA: 6, ST: 3, AG: 3, AV: 8, skills: [sure_hands]}
      - {key: blitzer, name: 矮人闪击手, cost: 80000, max: 2, MA: 5, ST: 3, AG: 3, AV: 9, skills: [block]}
      - {key: troll_slayer, name: 屠魔者, cost: 90000, max: 2, MA: 5, ST: 3, AG: 2, AV: 8, skills: [block, frenzy]}
  skaven:
    name: 鼠人
    reroll_cost: 60000
    positions:
      - {key: lineman, name: 鼠人锋线手, cost: 50000, max: 16, MA: 7, ST: 3, AG: 3, AV: 7}
      - {key: thrower, name: 鼠人传球手, cost: 70000, max: 2, MA: 7, ST: 3, AG: 3, AV: 7, skills: [sure_hands, pass]}
      - {key: gutter_runner, name: 阴沟跑者, cost: 80000, max: 4, MA: 9, ST: 2, AG: 4, AV: 7, skills: [dodge]}
      - {key: blitzer, name: 鼠人闪击手, cost: 90000, max: 2, MA: 7, ST: 3, AG: 3, AV: 8, skills: [block]}
"""


def fake_rosters(resources: Resources | None) -> Rosters:
    """The fake's roster table (the real one is ``tables/bloodbowl/rosters.yaml``)."""
    return parse_rosters(validate(load_yaml_text(FAKE_ROSTERS, "rosters.yaml"), SCHEMA, "rosters.yaml", TableError))


CALLS: list[HalfInput] = []
"""Every half the fake was asked to play (tests read the plans the league passed)."""

FACES = {1: "attacker_down", 2: "both_down", 3: "push", 4: "push", 5: "defender_stumbles", 6: "defender_down"}
TARGET = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2}


def _d68_outcome(code: int) -> tuple[str, list[str], bool, bool]:
    """(result key, lasting injuries, misses next match, dead) of a D68 code (the fake's ranges)."""
    if code <= 38:
        return "badly_hurt", [], True, False
    if code <= 48:
        return "niggling", ["niggling"], True, False
    if code <= 58:
        stat = {5: "-1 MA", 6: "-1 AV", 7: "-1 AG", 8: "-1 ST"}.get(code % 10, "-1 MA")
        return "stat", [stat], True, False
    return "dead", [], False, True


MEANING = {"badly_hurt": "重伤（缺席下一场）", "niggling": "内伤（永久，伤害骰 +1）", "stat": "属性永久下降",
           "dead": "死亡"}


class _Half:
    """The fake's state while playing one half."""

    def __init__(self, given: HalfInput, dice: Dice) -> None:
        self.g, self.dice = given, dice
        self.teams: dict[Side, TeamSheet] = {"home": copy.deepcopy(given.home), "away": copy.deepcopy(given.away)}
        out = set(given.carry.get("out", [])) if given.carry else set()
        self.state: dict[str, str] = {}
        for side, t in self.teams.items():
            wanted = given.plans.get(side, {}).get("lineup")
            fit = [p for p in t.players if not p.dead and not p.miss_next and p.id not in out]
            on = [p for p in fit if wanted is None or p.id in wanted][:11]
            for p in t.players:
                self.state[p.id] = "standing" if p in on else ("reserve" if p in fit else "ko" if p.id in out else "reserve")
            for pid in out:
                self.state[pid] = "casualty" if pid in given.carry.get("cas", []) else "ko"
        self.score = list(given.score)
        self.turns: list[dict[str, object]] = []
        self.casualties: list[dict[str, object]] = []
        self.kickoffs: list[dict[str, object]] = []
        self.diagrams: list[dict[str, object]] = []
        self.sealed: list[str] = []
        self.key = given.key

    def on(self, side: Side) -> list[PlayerSheet]:
        """The standing players of a side."""
        return [p for p in self.teams[side].players if self.state.get(p.id) == "standing"]

    def roll(self, expr: str, purpose: str, hidden: bool = False) -> Roll:
        """A die on this half's stream."""
        return self.dice.roll(f"{self.key}/fake", expr, purpose, hidden)

    def kickoff(self, kicking: Side, turn: int) -> None:
        """A kick-off: the table's 2D6 and a diagram."""
        r = self.roll("2D6", "开球表")
        event = {2: "riot", 7: "good_weather", 12: "blitz"}.get(r.total, "high_kick" if r.total > 7 else "cheering")
        self.kickoffs.append({"turn": turn, "kicking": kicking, "kicker": self.teams[kicking].name,
                              "roll": {"kind": "kickoff", "player": None, "dice": list(r.dice), "modifiers": {},
                                       "target": None, "success": True, "total": r.total, "result": event, "id": r.id},
                              "event": event, "event_name": {"riot": "骚乱", "good_weather": "好天气", "blitz": "闪电突袭",
                                                             "high_kick": "高吊球", "cheering": "球迷喝彩"}[event]})
        self.diagrams.append({"moment": "kickoff", "turn": turn, "rows": self.pitch()})

    def pitch(self) -> list[str]:
        """A 26 × 15 pitch: home players o, away x, ball *."""
        rows = [["." for _ in range(26)] for _ in range(15)]
        for r in rows:
            r[12] = r[13] = "|"
        for side, col, mark in (("home", 11, "o"), ("away", 14, "x")):
            for i, _ in enumerate(self.on(side)):
                rows[2 + i][col - (i % 3)] = mark
        rows[7][13] = "*"
        return ["".join(r) for r in rows]

    def play_turn(self, side: Side, n: int) -> None:
        """One turn of ``side``: a block, maybe a dodge and a pick-up, maybe a touchdown."""
        other: Side = "away" if side == "home" else "home"
        actions: list[dict[str, object]] = []
        turnover: str | None = None
        mine, theirs = self.on(side), self.on(other)
        style = self.g.plans.get(side, {}).get("style", "cage")
        if mine and theirs:
            att, dfd = mine[n % len(mine)], theirs[(n * 3) % len(theirs)]
            actions.append(self.block(att, dfd, side))
            turnover = actions[-1]["turnover"]  # type: ignore[assignment]
        if turnover is None and mine:
            runner = mine[(n + 1) % len(mine)]
            kind = "pass" if style == "pass" else "dodge"
            d = self.roll("1D6", "闪避")
            mods = {"dodge": 1, "tackle_zones": -1} if kind == "dodge" else {"range": -1}
            total = d.total + sum(mods.values())
            ok = d.total != 1 and (d.total == 6 or total >= TARGET[min(runner.AG, 5)])
            roll = {"kind": kind, "player": runner.id, "dice": [d.total], "modifiers": mods,
                    "target": TARGET[min(runner.AG, 5)], "success": ok, "total": total, "id": d.id}
            act = {"player": runner.id, "kind": "pass" if kind == "pass" else "move", "path": [[10, 7], [11, 7]],
                   "rolls": [roll], "turnover": None if ok else ("fumble" if kind == "pass" else "failed_dodge")}
            actions.append(act)
            turnover = act["turnover"]  # type: ignore[assignment]
            if ok and n >= 4:
                p = self.roll("1D6", "捡球")
                pm = {"pickup": 1}
                ok2 = p.total != 1 and p.total + 1 >= TARGET[min(runner.AG, 5)]
                act["rolls"].append({"kind": "pickup", "player": runner.id, "dice": [p.total],  # type: ignore[attr-defined]
                                     "modifiers": pm, "target": TARGET[min(runner.AG, 5)], "success": ok2,
                                     "total": p.total + 1, "id": p.id})
                if not ok2:
                    turnover = act["turnover"] = "failed_pickup"
                elif p.total >= 5:
                    turnover = act["turnover"] = "touchdown"
                    self.score[0 if side == "home" else 1] += 1
                    runner.spp += 3
        self.turns.append({"half": self.g.half, "turn": n, "team": self.teams[side].name, "side": side,
                           "actions": actions, "turnover": turnover, "score": list(self.score)})
        if turnover == "touchdown" and n < 8:
            self.kickoff(side, n)

    def block(self, att: PlayerSheet, dfd: PlayerSheet, side: Side) -> dict[str, object]:
        """A block with its armour, injury and casualty rolls."""
        count = 2 if att.ST != dfd.ST else 1
        chooser = "attacker" if att.ST >= dfd.ST else "defender"
        r = self.roll(f"{count}D6", "阻挡骰")
        faces = [FACES[d] for d in r.dice]
        order = ["defender_down", "defender_stumbles", "push", "both_down", "attacker_down"]
        chosen = sorted(faces, key=order.index)[0 if chooser == "attacker" else -1]
        rolls: list[dict[str, object]] = [{
            "kind": "block", "player": att.id, "dice": list(r.dice), "modifiers": {}, "target": None,
            "success": chosen in ("defender_down", "defender_stumbles", "push"), "attacker_st": att.ST,
            "defender_st": dfd.ST, "assists": {"attacker": 0, "defender": 0}, "dice_count": count,
            "chooser": chooser, "faces": faces, "chosen": chosen, "id": r.id}]
        turnover = None
        victim = dfd if chosen in ("defender_down", "defender_stumbles") else att if chosen == "attacker_down" else None
        if chosen == "attacker_down":
            turnover = "knocked_down"
        if victim is not None:
            rolls += self.hurt(victim, att if victim is dfd else dfd)
        return {"player": att.id, "kind": "block", "path": [], "rolls": rolls, "turnover": turnover, "target": dfd.id}

    def hurt(self, victim: PlayerSheet, by: PlayerSheet) -> list[dict[str, object]]:
        """Armour, then injury, then the casualty roll."""
        self.state[victim.id] = "prone"
        a = self.roll("2D6", "破甲")
        out: list[dict[str, object]] = [{"kind": "armour", "player": victim.id, "dice": list(a.dice), "modifiers": {},
                                         "target": victim.AV, "success": a.total > victim.AV, "total": a.total,
                                         "result": "broken" if a.total > victim.AV else "held", "id": a.id}]
        if a.total <= victim.AV:
            return out
        i = self.roll("2D6", "伤害")
        res = "stunned" if i.total <= 7 else "ko" if i.total <= 9 else "casualty"
        out.append({"kind": "injury", "player": victim.id, "dice": list(i.dice), "modifiers": {}, "target": None,
                    "success": True, "total": i.total, "result": res, "id": i.id})
        self.state[victim.id] = res
        if res == "casualty":
            ours = self.victim_team(victim).ours
            c = self.roll("D68", "伤亡骰", hidden=ours)
            key, lasting, miss, dead = _d68_outcome(c.total)
            victim.lasting += lasting
            victim.miss_next = miss
            victim.dead = dead
            by.spp += 2
            outcome: dict[str, object] = {"code": c.total, "result": key, "meaning": MEANING[key], "lasting": lasting}
            if ours:
                outcome["sealed_by"] = c.id
                self.sealed.append(c.id)
            out.append({"kind": "casualty", "player": victim.id, "dice": list(c.dice), "modifiers": {}, "target": None,
                        "success": True, "total": c.total, "result": key, "id": c.id, "hidden": ours})
            self.casualties.append({"team": self.victim_team(victim).name, "player": victim.id, "name": victim.name,
                                    "half": self.g.half, "by": by.id, "roll": c.to_json(), "outcome": outcome})
        return out

    def victim_team(self, p: PlayerSheet) -> TeamSheet:
        """The team ``p`` plays for."""
        return self.teams["home"] if p in self.teams["home"].players else self.teams["away"]


def fake_play_half(given: HalfInput, dice: Dice) -> HalfResult:
    """Play one half with the fake's few dice per turn (deterministic for a seed and key)."""
    CALLS.append(given)
    h = _Half(given, dice)
    kicking = given.kicking
    receiving: Side = "away" if kicking == "home" else "home"
    h.kickoff(kicking, 1)
    for n in range(1, 9):
        h.play_turn(receiving, n)
        h.play_turn(kicking, n)
    teams = []
    for side in ("home", "away"):
        t = h.teams[side]  # type: ignore[index]
        teams.append({"name": t.name, "race": t.race, "ours": t.ours, "side": side, "players": [
            {"id": p.id, "name": p.name, "position": p.position, "MA": p.MA, "ST": p.ST, "AG": p.AG, "AV": p.AV,
             "skills": list(p.skills), "state": h.state.get(p.id, "reserve")} for p in t.players]})
    out_ids = [pid for pid, s in h.state.items() if s in ("ko", "casualty")]
    cas = [pid for pid, s in h.state.items() if s == "casualty"]
    record: dict[str, object] = {
        "teams": teams, "turns": h.turns, "kickoffs": h.kickoffs, "diagrams": h.diagrams, "score": list(h.score),
        "attacks": {"home": 26, "away": 1} if given.half == 1 else {"home": 1, "away": 26},
        "casualties": h.casualties, "sealed": h.sealed}
    carry: dict[str, object] = {"out": out_ids, "cas": cas} if given.half == 1 else {}
    return HalfResult(record, (h.score[0], h.score[1]), h.teams["home"], h.teams["away"], carry)


__all__ = ["CALLS", "FAKE_ROSTERS", "fake_play_half", "fake_rosters"]
