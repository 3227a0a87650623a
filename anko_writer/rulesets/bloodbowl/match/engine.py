"""The half loop: coin toss, set-up, kick-off (with its table), team turns 1–8 for each side, the record.

Turn order (004 §1): after each kick-off the receiving team moves first and the teams alternate; a
touchdown ends the drive and the scoring team kicks the next one; the half ends when both teams have
played their eighth turn. Substitutions happen only at kick-offs (after a score or at half-time, 004 §4).
"""

from __future__ import annotations

import copy
from typing import Any

from ....dice import Dice
from . import rules
from .ai import AI, Actions
from .data import load_tables
from .model import ATTACKS, LENGTH, LOS, PITCH, Player, Square, State, in_wide_zone, on_pitch, other, own_half
from .sheets import HalfInput, HalfResult, PlayerSheet, Side, TeamSheet

FORMATIONS: dict[str, list[tuple[int, int]]] = {
    "balanced": [(0, 7), (0, 8), (0, 9), (1, 3), (1, 13), (2, 5), (2, 11), (3, 8), (4, 4), (4, 12), (7, 8)],
    "defensive": [(0, 6), (0, 8), (0, 10), (1, 4), (1, 12), (2, 7), (2, 9), (3, 5), (3, 11), (5, 8), (8, 8)],
    "offensive": [(0, 7), (0, 8), (0, 9), (0, 5), (0, 11), (2, 3), (2, 13), (3, 7), (3, 9), (5, 6), (5, 10)],
}
"""Set-ups as (squares behind the line, y), line slots first: at least three on the line, at most two in
each wide zone (004 set-up rules as the issue states them)."""

UNAVAILABLE = ("ko", "casualty", "dead")
"""States that keep a player off the pitch at a kick-off (a KO'd player first rolls to come back)."""


def _symbol(side: Side, i: int) -> str:
    """Diagram letter: home A–Z, away a–z, by roster order."""
    return chr((65 if side == "home" else 97) + i % 26)


class Half:
    """One half in play: the state, the dice, and the record being written."""

    def casualty_entry(self, roll: dict[str, Any], during: Side, rolls: list[dict[str, Any]]) -> dict[str, Any]:
        """A casualty for the league: who, when, the D68 roll (and the apothecary's, among ``rolls``) and its
        outcome (sealed when it is hidden)."""
        p = self.st.players[roll["player"]]
        outcome: dict[str, Any] = {"code": roll["total"], "result": roll["result"], "meaning": roll.get("text"),
                                   "lasting": roll.get("lasting"), "miss_next": roll.get("miss_next")}
        apo = next((r for r in rolls if r.get("kind") == "apothecary" and r.get("id") == roll.get("apothecary")),
                   None) if roll.get("apothecary") else None
        if apo is not None:
            outcome["apothecary"] = {"id": apo["id"], "code": apo["total"], "kept": apo["kept"],
                                     "first": roll.get("first_text"), "second": apo.get("text")}
        if roll.get("hidden"):
            outcome["sealed_by"] = roll["id"]
        return {"team": self.sheets[p.side].name, "player": p.id, "name": p.name, "half": self.given.half,
                "turn": self.st.turn[during], "during": during, "roll": roll, "outcome": outcome}

    def __init__(self, given: HalfInput, dice: Dice) -> None:
        self.given, self.dice = given, dice
        self.sheets: dict[Side, TeamSheet] = {"home": given.home, "away": given.away}
        st = State(key=given.key, players={}, plans=dict(given.plans), half=given.half)
        st.coach = rules.Coach()
        st.score = list(given.score)
        ours: Side | None = next((side for side in ("home", "away") if self_sheet(given, side).ours), None)
        st.ours = ours if given.seal_ours else None
        st.on_event = self._moment
        self.st = st
        self.symbols: dict[str, str] = {}
        raw = given.carry.get("out")
        out: dict[str, str] = dict(raw) if isinstance(raw, dict) else {}
        for side in ("home", "away"):
            for i, ps in enumerate(self.sheets[side].players):
                p = Player(ps.id, ps.name, ps.position, side, ps.MA, ps.ST, ps.AG, ps.AV, frozenset(ps.skills),
                           ps.lasting.count("niggling"))
                p.state = str(out.get(ps.id, "reserve"))
                if p.state == "sent_off":
                    p.state, p.sent_off = "reserve", True
                if ps.dead:
                    p.state = "dead"
                elif ps.miss_next:
                    p.state = "casualty"
                st.players[p.id] = p
                self.symbols[p.id] = _symbol(side, i)
            st.rerolls[side] = self.sheets[side].rerolls
            used = given.carry.get("apothecary_used")
            st.apothecary[side] = self.sheets[side].apothecary and side not in (used if isinstance(used, list) else [])
        self.turns: list[dict[str, Any]] = []
        self.kickoffs: list[dict[str, Any]] = []
        self.diagrams: list[dict[str, Any]] = []
        self.casualties: list[dict[str, Any]] = []
        self.where = "kickoff"
        self.coin: dict[str, Any] | None = None
        self.kickoff_rolls: list[dict[str, Any]] = []

    # ------------------------------------------------------------ diagrams
    def diagram(self, moment: str) -> dict[str, Any]:
        """The pitch as 15 rows of 26 characters: players by letter, a loose ball ●, empty squares ·."""
        st = self.st
        marks: dict[Square, str] = {}
        legend: dict[str, Any] = {}
        for p in st.players.values():
            if p.sq is not None:
                ch = self.symbols[p.id]
                marks[p.sq] = ch
                legend[ch] = {"id": p.id, "side": p.side, "state": p.state, "ball": st.ball.carrier == p.id}
        if st.ball.carrier is None and st.ball.sq is not None and on_pitch(st.ball.sq) and st.ball.sq not in st.grid:
            marks[st.ball.sq] = "●"
        d = {"moment": moment, "turn": self.where, "team": st.active,
             "rows": PITCH.cells(lambda sq: marks.get(sq, "·")), "legend": legend, "score": list(st.score)}
        self.diagrams.append(d)
        return d

    def _moment(self, moment: str) -> None:
        """A decisive moment: a touchdown or a casualty gets a diagram."""
        if moment in ("touchdown", "casualty"):
            self.diagram(moment)

    # ------------------------------------------------------------ set-up and kick-off
    def available(self, side: Side) -> list[Player]:
        """Players fit to take the field at a kick-off: the plan's line-up first, then the strongest."""
        lineup = list(self.st.plans.get(side, {}).get("lineup", []) or [])
        fit = [p for p in self.st.team(side) if p.state == "reserve" and not p.sent_off]
        rank = {pid: i for i, pid in enumerate(lineup)}

        def key(p: Player) -> tuple[int, int, str]:
            return (rank.get(p.id, len(rank)), -(p.st * 3 + p.ag * 2 + p.ma + len(p.skills)), p.id)
        return sorted(fit, key=key)[:11]

    def set_up(self, side: Side, formation: str) -> None:
        """Place up to 11 players: the line slots take the strongest, the deep slots the ball handlers."""
        st = self.st
        for p in st.on_field(side):
            st.place(p, None, "reserve")
        players = sorted(self.available(side), key=lambda p: (-p.st, -int(p.has("block")), -p.av, p.ma, p.id))
        slots = FORMATIONS.get(formation, FORMATIONS["balanced"])
        for p, (depth, y) in zip(players, slots, strict=False):
            x = LOS[side] - depth if side == "home" else LOS[side] + depth
            st.place(p, (x, y), "standing")
            p.stun_fresh = False
        self.check_setup(side)

    def check_setup(self, side: Side) -> None:
        """The set-up rules: own half, ≤ 11, ≥ 3 on the line when 3 are fielded, ≤ 2 per wide zone."""
        placed = self.st.on_field(side)
        assert len(placed) <= 11
        assert all(p.sq is not None and own_half(side, p.sq) for p in placed)
        on_line = sum(1 for p in placed if p.sq is not None and p.sq[0] == LOS[side])
        assert on_line >= min(3, len(placed))
        for top in (True, False):
            assert sum(1 for p in placed if p.sq and in_wide_zone(p.sq) and (p.sq[1] <= 4) == top) <= 2

    def formation(self, side: Side, kicking: bool) -> str:
        """The plan's set-up, else defensive when kicking and balanced when receiving."""
        return self.st.plans.get(side, {}).get("setup") or ("defensive" if kicking else "balanced")

    def kickoff(self, kicking: Side) -> None:
        """A kick-off: KO'd players roll to return, both set up, the kick scatters, the kick-off table."""
        st, dice = self.st, self.dice
        receiving = other(kicking)
        st.stream = f"{self.given.key}/kickoff{len(self.kickoffs) + 1}"
        st.rolls = self.kickoff_rolls = []
        st.active = kicking
        st.ball.carrier, st.ball.sq = None, None
        for p in st.players.values():
            if p.sq is not None:
                st.place(p, None, "reserve")
            p.stun_fresh = False
        for p in sorted(st.players.values(), key=lambda p: p.id):
            if p.state == "ko":
                rules.ko_return(st, dice, p)
        self.set_up(kicking, self.formation(kicking, True))
        self.set_up(receiving, self.formation(receiving, False))
        target: Square = (6, 8) if receiving == "home" else (21, 8)
        r = dice.roll(st.stream, "1D8", "开球偏移方向", kind="scatter")
        row = rules._tables(st).scatter.lookup(r.total)
        dist = dice.roll(st.stream, "1D6", "开球偏移格数", kind="scatter")
        land: Square = (target[0] + int(row.params["dx"]) * dist.total, target[1] + int(row.params["dy"]) * dist.total)
        st.log({"id": r.id, "kind": "scatter", "player": None, "dice": [r.total, dist.total], "modifiers": {},
                "target": None, "success": on_pitch(land), "frm": list(target), "to": list(land)})
        event = rules._tables(st).kickoff
        kr = dice.roll(st.stream, "2D6", "开球事件", kind="kickoff")
        ev = event.lookup(kr.total)
        table_roll: dict[str, Any] = {"id": kr.id, "kind": "kickoff", "player": None, "dice": list(kr.dice), "modifiers": {},
                      "target": None, "success": True, "total": kr.total, "result": ev.effect}
        st.log(table_roll)
        record: dict[str, Any] = {"n": len(self.kickoffs) + 1, "kicking": kicking, "receiving": receiving,
                                  "kicker": self.sheets[kicking].name, "receiver": self.sheets[receiving].name,
                                  "roll": table_roll, "target": list(target), "event": ev.effect,
                                  "event_text": ev.text, "turn_markers": dict(st.turn)}
        land, extra_actions = self.kickoff_event(ev.effect, kicking, land)
        touchback = not on_pitch(land) or own_half(kicking, land)
        if touchback:
            self.touchback(receiving)
        else:
            under = st.at(land)
            if under is not None and under.standing:
                rules.catch(st, dice, under, 0)
            else:
                rules.bounce(st, dice, land)
            c = st.carrier()
            if c is None and (st.ball.sq is None or own_half(kicking, st.ball.sq)):
                touchback = True
                self.touchback(receiving)
        record.update({"landing": list(land), "touchback": touchback, "rolls": self.kickoff_rolls,
                       "blitz_actions": extra_actions, "turn_markers_after": dict(st.turn)})
        every = self.kickoff_rolls + [r for a in extra_actions for r in a["rolls"]]
        for roll in every:
            if roll.get("kind") == "casualty":  # a thrown rock
                self.casualties.append(self.casualty_entry(roll, kicking, every))
        self.kickoffs.append(record)
        self.where = f"kickoff{record['n']}"
        record["diagram"] = self.diagram("kickoff")["rows"]
        st.touchdown = None
        st.turnover = None

    def touchback(self, receiving: Side) -> None:
        """The receiving coach gives the ball to the player farthest from any opponent (ties: id)."""
        st = self.st
        mine = [p for p in st.on_field(receiving) if p.standing]
        if not mine:
            st.ball.carrier, st.ball.sq = None, ((6, 8) if receiving == "home" else (21, 8))
            return
        foes = [q.sq for q in st.on_field(other(receiving)) if q.sq is not None]

        def key(p: Player) -> tuple[int, str]:
            assert p.sq is not None
            near = min((max(abs(p.sq[0] - f[0]), abs(p.sq[1] - f[1])) for f in foes), default=99)
            return (-near, p.id)
        p = min(mine, key=key)
        st.ball.carrier, st.ball.sq = p.id, None
        st.log({"kind": "kickoff", "player": p.id, "dice": [], "modifiers": {}, "target": None, "success": True,
                "result": "touchback"})

    def kickoff_event(self, effect: str, kicking: Side, land: Square) -> tuple[Square, list[dict[str, Any]]]:
        """Apply a kick-off table row (designed from LRB6; see tables/bloodbowl/kickoff.yaml)."""
        st, dice = self.st, self.dice
        receiving = other(kicking)
        actions: list[dict[str, Any]] = []

        def contest(purpose: str) -> Side | None:
            a = dice.roll(st.stream, "1D6", purpose, kind="kickoff")
            b = dice.roll(st.stream, "1D6", purpose, kind="kickoff")
            win: Side | None = "home" if a.total > b.total else "away" if b.total > a.total else None
            st.log({"id": a.id, "kind": "kickoff", "player": None, "dice": [a.total, b.total], "modifiers": {},
                    "target": None, "success": win is not None, "result": f"{effect}:{win or 'tie'}"})
            return win

        if effect == "get_the_ref":
            for s in ("home", "away"):
                st.ref_bribe[s] += 1
        elif effect == "riot":
            mark = st.turn[receiving]
            if mark >= 7:
                delta = -1
            elif mark == 0:
                delta = 1
            else:
                r = dice.roll(st.stream, "1D6", "骚乱", kind="kickoff")
                delta = 1 if r.total <= 3 else -1
                st.log({"id": r.id, "kind": "kickoff", "player": None, "dice": [r.total], "modifiers": {},
                        "target": None, "success": True, "result": f"riot:{delta:+d}"})
            for s in ("home", "away"):
                st.turn[s] = max(0, st.turn[s] + delta)  # type: ignore[index]
        elif effect == "perfect_defence":
            self.set_up(kicking, "defensive")
        elif effect == "high_kick":
            if on_pitch(land) and own_half(receiving, land) and land not in st.grid:
                free = [p for p in st.on_field(receiving) if p.standing and p.sq is not None
                        and st.tackle_zones(p.sq, p.side) == 0]
                if free:
                    p = min(free, key=lambda p: (max(abs(p.sq[0] - land[0]), abs(p.sq[1] - land[1])), p.id)  # type: ignore[index]
                            )
                    st.place(p, land)
        elif effect in ("cheering_fans", "brilliant_coaching"):
            win = contest(effect)
            if win is not None:
                st.rerolls[win] += 1
        elif effect == "changing_weather":
            land = rules.scatter(st, dice, land) if on_pitch(land) else land
        elif effect == "quick_snap":
            f = 1 if receiving == "home" else -1
            for p in sorted(st.on_field(receiving), key=lambda p: (-f * (p.sq or (0, 0))[0], p.id)):
                assert p.sq is not None
                to = (p.sq[0] + f, p.sq[1])
                if on_pitch(to) and to not in st.grid:
                    st.place(p, to)
        elif effect == "blitz":
            st.active = kicking
            if on_pitch(land):
                st.ball.sq = land
            AI(st, dice, Actions(st, dice, actions), kicking).turn(free_moves=True)
            st.rolls = self.kickoff_rolls
            st.ball.sq = None
            for p in st.on_field(kicking):
                p.acted, p.moved = False, 0
            st.turnover = None
        elif effect == "throw_a_rock":
            a = dice.roll(st.stream, "1D6", "扔石头", kind="kickoff")
            b = dice.roll(st.stream, "1D6", "扔石头", kind="kickoff")
            st.log({"id": a.id, "kind": "kickoff", "player": None, "dice": [a.total, b.total], "modifiers": {},
                    "target": None, "success": True, "result": "throw_a_rock"})
            hit = [s for s, v, w in (("home", a.total, b.total), ("away", b.total, a.total)) if v <= w]
            for s in hit:
                team = sorted(st.on_field(s), key=lambda p: p.id)  # type: ignore[arg-type]
                if team:
                    pick = dice.roll(st.stream, f"1D{len(team)}", "被砸中的球员", kind="kickoff")
                    victim = team[pick.total - 1]
                    st.log({"id": pick.id, "kind": "kickoff", "player": victim.id, "dice": [pick.total],
                            "modifiers": {}, "target": None, "success": True, "result": "hit_by_rock"})
                    rules.injury(st, dice, victim)
                    victim.stun_fresh = False
        elif effect == "pitch_invasion":
            for p in sorted(st.players.values(), key=lambda p: p.id):
                if p.sq is not None and p.standing:
                    r = dice.roll(st.stream, "1D6", "球场入侵", kind="kickoff")
                    six = r.total == 6
                    st.log({"id": r.id, "kind": "kickoff", "player": p.id, "dice": [r.total], "modifiers": {},
                            "target": 6, "success": six, "result": "stunned" if six else "unhurt"})
                    if six:
                        p.state, p.stun_fresh = "stunned", False
        st.active = kicking
        return land, actions

    # ------------------------------------------------------------ the half
    def coin_toss(self) -> Side:
        """Half 1: a D6 for the toss (1–3 home wins, 4–6 away wins); the winner receives."""
        st = self.st
        r = self.dice.roll(f"{self.given.key}/coin", "1D6", "掷硬币", kind="kickoff")
        winner: Side = "home" if r.total <= 3 else "away"
        self.coin = {"id": r.id, "kind": "kickoff", "player": None, "dice": [r.total], "modifiers": {},
                     "target": None, "success": True, "result": f"coin_toss:{winner}", "receiving": winner}
        del st
        return other(winner)

    def play(self) -> Side:
        """Kick-offs and team turns until both teams have played turn 8; returns who kicked off."""
        st = self.st
        if self.given.half == 1:
            kicking = self.coin_toss()
        else:
            kicking = self.given.carry.get("kicking", self.given.kicking)  # type: ignore[assignment]
        first = kicking
        self.kickoff(kicking)
        active = other(kicking)
        while True:
            if st.turn[active] >= 8:
                if st.turn[other(active)] >= 8:
                    break
                active = other(active)
                continue
            st.turn[active] += 1
            self.team_turn(active)
            if st.touchdown is not None:
                scorer = st.touchdown
                if st.turn["home"] >= 8 and st.turn["away"] >= 8:
                    break
                self.kickoff(scorer)
                active = other(scorer)
                continue
            active = other(active)
        return first

    def team_turn(self, side: Side) -> None:
        """One team turn: the AI's actions until all acted or a turnover, then the stunned turn over."""
        st = self.st
        st.active = side
        st.turnover, st.touchdown = None, None
        st.flags = type(st.flags)()
        st.stream = f"{self.given.key}/{side}{st.turn[side]}"
        self.where = f"{side}{st.turn[side]}"
        actions: list[dict[str, Any]] = []
        AI(st, self.dice, Actions(st, self.dice, actions), side).turn()
        for a in actions:
            for roll in a["rolls"]:
                if roll.get("kind") == "casualty":
                    self.casualties.append(self.casualty_entry(roll, side, a["rolls"]))
        to = st.turnover
        if to is not None and to != "touchdown":
            b = st.ball_sq()
            if b is not None and (b[0] <= 4 or b[0] >= LENGTH - 3):
                self.diagram(f"turnover:{to}")
        self.turns.append({"half": self.given.half, "turn": st.turn[side], "team": self.sheets[side].name,
                           "side": side, "actions": actions, "turnover": to, "score": list(st.score)})
        rules.end_turn(st, side)

    # ------------------------------------------------------------ results
    def teams_record(self) -> list[dict[str, Any]]:
        """DESIGN §12 ``teams`` with each player's state at the end of the half."""
        out = []
        for side in ("home", "away"):
            sheet = self.sheets[side]
            players = []
            for ps in sheet.players:
                p = self.st.players[ps.id]
                players.append({"id": ps.id, "name": ps.name, "position": ps.position, "MA": ps.MA, "ST": ps.ST,
                                "AG": ps.AG, "AV": ps.AV, "skills": list(ps.skills), "state": p.state,
                                "symbol": self.symbols[ps.id], "sent_off": p.sent_off, "spp_half": p.spp,
                                "square": list(p.sq) if p.sq else None})
            out.append({"name": sheet.name, "race": sheet.race, "ours": sheet.ours, "side": side,
                        "rerolls_left": self.st.rerolls[side], "players": players})
        return out

    def sheet_after(self, side: Side) -> TeamSheet:
        """The team sheet after the half: SPP, lasting injuries (max two per stat, never below 1), deaths."""
        sheet = copy.deepcopy(self.sheets[side])
        for ps in sheet.players:
            p = self.st.players[ps.id]
            ps.spp += p.spp
            if p.casualty is None:
                continue
            row = next((c for c in self.casualties if c["player"] == ps.id), None)
            if p.casualty == "dead":
                ps.dead = True
                continue
            if row is not None and row["outcome"].get("miss_next"):  # 004 §4: 这场与下一场比赛均无法上场
                ps.miss_next = True
            if p.casualty == "niggling":
                ps.lasting.append("niggling")
            elif p.casualty.startswith("-1 "):
                stat = p.casualty[3:]
                if ps.lasting.count(p.casualty) < 2 and getattr(ps, stat) > 1:
                    setattr(ps, stat, getattr(ps, stat) - 1)
                    ps.lasting.append(p.casualty)
        return sheet


def self_sheet(given: HalfInput, side: str) -> TeamSheet:
    """The team sheet of ``side``."""
    return given.home if side == "home" else given.away


def play_half(given: HalfInput, dice: Dice) -> HalfResult:
    """Play one half by the rules (004 and the designed sections), both sides by their AI coaches' plans."""
    load_tables()
    h = Half(given, dice)
    first = h.play()
    st = h.st
    out_states = {p.id: ("sent_off" if p.sent_off else p.state) for p in st.players.values()
                  if p.sent_off or p.state in UNAVAILABLE}
    carry: dict[str, object] = {}
    if given.half == 1:
        carry = {"kicking": other(first), "out": out_states,
                 "apothecary_used": [s for s in ("home", "away") if h.sheets[s].apothecary and not st.apothecary[s]]}
    record: dict[str, object] = {
        "half": given.half,
        "score_at_start": list(given.score),
        "coin_toss": h.coin,
        "teams": h.teams_record(),
        "turns": h.turns,
        "kickoffs": h.kickoffs,
        "score": list(st.score),
        "attacks": {h.sheets[s].name: ATTACKS[s] for s in ("home", "away")},
        "attacks_by_side": dict(ATTACKS),
        "diagrams": h.diagrams,
        "legend": {"home": "A–Z (roster order)", "away": "a–z (roster order)", "ball": "●", "empty": "·",
                   "line_of_scrimmage": "between x 13 and 14", "end_zones": "x 1 and x 26",
                   "wide_zones": "y 1–4 and 12–15"},
        "casualties": h.casualties,
        "sealed": [c["outcome"]["sealed_by"] for c in h.casualties if "sealed_by" in c["outcome"]],
        "rerolls_left": dict(st.rerolls),
    }
    score = (st.score[0], st.score[1])
    return HalfResult(record=record, score=score, home=h.sheet_after("home"), away=h.sheet_after("away"),
                      carry=carry)


__all__ = ["FORMATIONS", "Half", "play_half", "PlayerSheet"]
