"""The rules as small procedures (004 §1–§4 as the seed states them, §5–§10 designed from LRB6).

Each procedure takes the :class:`~.model.State` and the :class:`~anko_writer.dice.Dice`, rolls on the
state's current stream, appends DESIGN §12 ``ROLL`` records to ``state.rolls`` and sets
``state.turnover`` when the seed's turnover list says the team turn ends. Choices a coach makes inside a
procedure (block face, push square, follow-up, re-rolls) are asked of ``state.coach`` (:class:`Coach`).
"""

from __future__ import annotations

import math
from typing import Any

from ....dice import Dice, DiceExpr
from ....dice import Roll as Throw
from .data import D68, Tables, ag_target, load_tables
from .model import ATTACKS, DIRS, Player, Roll, Square, State, adjacent, neighbours, on_pitch, other
from .sheets import Side

FACES = {1: "attacker_down", 2: "both_down", 3: "push", 4: "push", 5: "defender_stumbles", 6: "defender_down"}
"""Block die: the D6 face → the seed's five results (004 §3: skull, skull+star, two arrows, star+!, star)."""

TURNOVERS = {
    "knocked_down": "004 §1 turnover 1: a player of the moving team knocked down (block, failed dodge or GFI)",
    "pass_not_caught": "004 §1 turnover 2: a pass not caught by the moving team",
    "intercepted": "004 §1 turnover 2: a pass intercepted (not caught by the moving team)",
    "handoff_not_caught": "004 §1 turnover 2: a hand-off not caught by the moving team",
    "pickup_failed": "004 §1 turnover 3: failed to pick up the ball",
    "touchdown": "004 §1 turnover 4: a touchdown",
    "fumble": "004 §1 turnover 6: the thrower fumbled the pass",
    "sent_off": "004 §1 turnover 8: the referee caught a foul",
}
"""Every turnover the engine records, with the seed's list item it comes from (items 5 and 7 — the
four-minute clock and Throw Team-Mate — have no counterpart in an engine with no clock and no such skill)."""

PASS_RANGES = (("quick", 3.5, 1), ("short", 7.5, 0), ("long", 10.5, -1), ("bomb", 13.5, -2))
"""Designed (LRB6 passing ruler): range name, farthest distance in squares (centre to centre), modifier."""


def _tables(st: State) -> Tables:
    """The tables the state plays with."""
    return getattr(st, "tables", None) or load_tables()


def ag_success(die: int, mods: int, target: int) -> bool:
    """004 §2: a natural 1 always fails, a natural 6 always succeeds, else die + modifiers ≥ target."""
    if die == 1:
        return False
    if die == 6:
        return True
    return die + mods >= target


def _roll(st: State, dice: Dice, expr: str | DiceExpr, purpose: str, kind: str, hidden: bool = False) -> Throw:
    """Throw ``expr`` on the current stream (``hidden``: sealed, told only at its reveal)."""
    return dice.roll(st.stream, expr, purpose, hidden=hidden, kind=kind)


def record(kind: str, player: str | None, r: Throw, modifiers: dict[str, int], target: int | None,
           success: bool, **extra: Any) -> Roll:
    """A DESIGN §12 ROLL record for dice roll ``r``."""
    out: Roll = {"id": r.id, "kind": kind, "player": player, "dice": list(r.dice), "modifiers": dict(modifiers),
                 "target": target, "success": success}
    out.update(extra)
    return out


class Coach:
    """The choices the rules leave to a coach, each by a rule a chapter can state (the AI's defaults)."""

    def block_face(self, st: State, att: Player, dfn: Player, faces: list[str], chooser: str) -> int:
        """Index of the face the chooser takes: the best for his side by :func:`face_value`."""
        vals = [face_value(st, att, dfn, f) for f in faces]
        best = max(vals) if chooser == "attacker" else min(vals)
        return vals.index(best)

    def block_reroll(self, st: State, att: Player, dfn: Player, chosen: str) -> bool:
        """Re-roll the block dice when the face taken knocks our blocker down and his plan allows it."""
        return face_value(st, att, dfn, chosen) < 0 and self.may_reroll(st, att.side, "block", att)

    def may_reroll(self, st: State, side: Side, kind: str, p: Player) -> bool:
        """The plan's re-roll policy: early = any failure; ball_only = ball handling and the carrier's rolls;
        late = from the team's turn 6 on."""
        policy = st.plans.get(side, {}).get("rerolls", "early")
        if policy == "late":
            return st.turn[side] >= 6
        if policy == "ball_only":
            return kind in ("pickup", "catch", "pass") or st.ball.carrier == p.id
        return True

    def push_square(self, st: State, pusher: Side, victim: Player, options: list[Square]) -> Square:
        """Push towards the sideline nearest to the victim (ties: the first option in D8 order)."""
        return min(options, key=lambda s: (min(s[1] - 1, 15 - s[1]), options.index(s)))

    def follow_up(self, st: State, att: Player, to: Square) -> bool:
        """Follow up unless the blocker carries the ball, a loose ball lies there (it would bounce away), or
        the square would put him in more tackle zones."""
        if st.ball.carrier == att.id or (st.ball.carrier is None and st.ball.sq == to):
            return False
        assert att.sq is not None
        return st.tackle_zones(to, att.side) <= max(1, st.tackle_zones(att.sq, att.side))


def face_value(st: State, att: Player, dfn: Player, face: str) -> float:
    """How good a block face is for the attacker (positive: the defender falls; negative: the attacker)."""
    if face == "attacker_down":
        return -3.0
    if face == "push":
        return 1.5 if st.ball.carrier == dfn.id else 1.0
    if face == "defender_stumbles":
        return 1.0 if dfn.has("dodge") else 3.0
    if face == "defender_down":
        return 3.0
    a_block, d_block = att.has("block"), dfn.has("block")
    if a_block and not d_block:
        return 3.0 if not dfn.has("wrestle") else 0.5
    if a_block and d_block:
        return 0.0
    if att.has("wrestle") or dfn.has("wrestle"):
        return 0.2
    return -2.0 if not d_block else -3.0


def can_team_reroll(st: State, side: Side) -> bool:
    """Designed (LRB6): a team re-roll in the team's own turn, one per turn, while the half's stock lasts."""
    return st.active == side and st.rerolls[side] > 0 and not st.flags.reroll


def _use_team_reroll(st: State, p: Player, kind: str, dice: Dice | None = None) -> bool:
    """Spend a team re-roll and record it; a Loner (designed, LRB6) must first roll 4+ or the re-roll is lost
    and the roll stands. True if the roll is thrown again."""
    st.rerolls[p.side] -= 1
    st.flags.reroll = True
    st.log({"kind": "reroll", "player": p.id, "dice": [], "modifiers": {}, "target": None, "success": True,
            "source": "team", "for": kind, "left": st.rerolls[p.side]})
    if p.has("loner") and dice is not None:
        r = _roll(st, dice, "1D6", "独行侠", "loner")
        ok = r.dice[0] >= LONER
        st.log(record("loner", p.id, r, {}, LONER, ok, total=r.dice[0]))
        return ok
    return True


LONER = 4
"""Loner (designed, LRB6): the D6 a Loner needs before a team re-roll helps him."""

ACTION_CHECKS = {"bone_head": 2, "really_stupid": 4, "wild_animal": 4}
"""Designed (LRB6): the big guys' D6 before each action and the roll it needs (Really Stupid 2+ with a
standing team-mate next to him who is not Really Stupid; Wild Animal 2+ for a block or blitz)."""


def action_check(st: State, dice: Dice, p: Player, kind: str) -> bool:
    """A big guy's roll as his action starts (Bone-head, Really Stupid, Wild Animal); False: he does
    nothing this turn (his action is spent). Designed simplification: he keeps his tackle zones."""
    trait = next((t for t in ACTION_CHECKS if p.has(t)), None)
    if trait is None:
        return True
    need = ACTION_CHECKS[trait]
    if trait == "really_stupid" and p.sq is not None and any(
            q is not None and q.side == p.side and q.standing and not q.has("really_stupid")
            for q in (st.at(n) for n in neighbours(p.sq))):
        need = 2
    if trait == "wild_animal" and kind in ("block", "blitz"):
        need = 2
    r = _roll(st, dice, "1D6", {"bone_head": "笨头", "really_stupid": "蠢笨", "wild_animal": "野兽"}[trait], trait)
    ok = r.dice[0] >= need
    st.log(record(trait, p.id, r, {}, need, ok, total=r.dice[0]))
    return ok


ONCE_PER_TURN = ("dodge", "sure_feet")
"""Skill re-rolls usable once per turn per player (LRB6); the others (Sure Hands, Catch, Pass) on any roll."""


def _reroll_source(st: State, p: Player, kind: str, skill: str | None) -> str | None:
    """Which re-roll a failed roll gets: the skill's, else a team re-roll if the coach wants one."""
    if skill is not None and p.has(skill):
        tag = f"{p.id}/{skill}"
        if skill not in ONCE_PER_TURN or tag not in st.flags.used_skill:
            st.flags.used_skill.add(tag)
            return skill
    if can_team_reroll(st, p.side) and st.coach.may_reroll(st, p.side, kind, p):
        return "team"
    return None


def agility_roll(st: State, dice: Dice, p: Player, kind: str, purpose: str, mods: dict[str, int],
                 skill: str | None, target: int | None = None) -> bool:
    """An AG-table roll (dodge, pick-up, catch, pass, interception) or a fixed-target roll (GFI 2+, stand-up
    4+), re-rolled once by ``skill`` or a team re-roll (a roll is never re-rolled twice)."""
    need = ag_target(p.ag) if target is None else target
    for attempt in (0, 1):
        r = _roll(st, dice, "1D6", purpose, kind)
        ok = ag_success(r.dice[0], sum(mods.values()), need)
        extra: dict[str, Any] = {"total": r.dice[0] + sum(mods.values())}
        if target is None:
            extra["ag"] = p.ag
        st.log(record(kind, p.id, r, mods, need, ok, **extra))
        if ok or attempt == 1:
            return ok
        src = _reroll_source(st, p, kind, skill)
        if src is None:
            return False
        if src == "team":
            if not _use_team_reroll(st, p, kind, dice):
                return False
        else:
            st.log({"kind": "reroll", "player": p.id, "dice": [], "modifiers": {}, "target": None,
                    "success": True, "source": src, "for": kind})
    return False


def _turnover(st: State, why: str) -> None:
    """End the team turn (the first cause is kept)."""
    if st.turnover is None:
        st.turnover = why


def _event(st: State, moment: str, **info: Any) -> None:
    """Note a decisive moment (the engine takes a diagram)."""
    st.events.append({"moment": moment, **info})
    if st.on_event is not None:
        st.on_event(moment)


# ---------------------------------------------------------------- movement (004 §2)

def dodge(st: State, dice: Dice, p: Player, to: Square) -> bool:
    """004 §2: leave a square in enemy tackle zones with an AG roll, +1, −1 per enemy tackle zone on the
    square left (the seed's example counts the square being left); a failure knocks him down on ``to``."""
    assert p.sq is not None
    tz = st.tackle_zones(p.sq, p.side)
    ok = agility_roll(st, dice, p, "dodge", "闪避", {"dodge": 1, "tackle_zones": -tz}, "dodge")
    st.place(p, to)
    if not ok:
        knock_down(st, dice, p)
    return ok


def gfi(st: State, dice: Dice, p: Player, to: Square) -> bool:
    """Designed (LRB6 going for it): up to two squares beyond MA, each 2+ (a natural 1 fails); a failure
    knocks him down on the square he moved to. Sure Feet re-rolls once per turn."""
    ok = agility_roll(st, dice, p, "gfi", "冲刺", {}, "sure_feet", target=2)
    if not ok:
        st.place(p, to)
        knock_down(st, dice, p)
    return ok


def pick_up(st: State, dice: Dice, p: Player) -> bool:
    """004 §2: pick up with an AG roll, +1, −1 per enemy tackle zone on his square; a failure bounces the
    ball and ends the turn. Sure Hands re-rolls."""
    assert p.sq is not None
    tz = st.tackle_zones(p.sq, p.side)
    ok = agility_roll(st, dice, p, "pickup", "捡球", {"pickup": 1, "tackle_zones": -tz}, "sure_hands")
    if ok:
        st.ball.carrier, st.ball.sq = p.id, None
        check_touchdown(st)
    else:
        _turnover(st, "pickup_failed")
        bounce(st, dice, p.sq)
    return ok


def step(st: State, dice: Dice, p: Player, to: Square, pickup: bool = True) -> bool:
    """Move one square (004 §2): GFI when MA is spent, a dodge when leaving enemy tackle zones, a pick-up
    on the ball's square. False if he fell or the turn ended."""
    assert p.sq is not None and adjacent(p.sq, to) and on_pitch(to) and to not in st.grid
    if p.moved >= p.ma + 2:
        raise ValueError(f"{p.id} has no movement left")
    going_for_it = p.moved >= p.ma
    p.moved += 1
    if going_for_it and not gfi(st, dice, p, to):
        return False
    if st.tackle_zones(p.sq, p.side) > 0:
        if not dodge(st, dice, p, to):
            return False
    else:
        st.place(p, to)
    if st.ball.carrier is None and st.ball.sq == to:
        if not pickup:
            bounce(st, dice, to)
            return True
        return pick_up(st, dice, p)
    check_touchdown(st)
    return st.turnover is None


def move(st: State, dice: Dice, p: Player, path: list[Square], pickup: bool = True) -> bool:
    """Walk ``path`` square by square; stops at the first fall or turnover."""
    for sq in path:
        if not step(st, dice, p, sq, pickup) or st.turnover is not None:
            return False
    return True


def stand_up(st: State, dice: Dice, p: Player) -> bool:
    """004 §4: standing costs 3 MA; with MA < 3 a D6 of 4+ stands him and he may not move on (GFI only).
    Jump Up (designed, LRB6): standing costs nothing."""
    if p.has("jump_up"):
        p.state = "standing"
        return True
    if p.ma >= 3:
        p.state, p.moved = "standing", 3
        return True
    r = _roll(st, dice, "1D6", "起身", "standup")
    ok = r.dice[0] >= 4
    st.log(record("standup", p.id, r, {}, 4, ok, total=r.dice[0]))
    if ok:
        p.state, p.moved = "standing", p.ma
    return ok


# ---------------------------------------------------------------- blocks (004 §3, assists §8 designed)

def block_dice(att_st: int, def_st: int) -> tuple[int, str]:
    """004 §3: equal strength one die; stronger two dice and he chooses; more than twice as strong three."""
    if att_st == def_st:
        return 1, "attacker"
    hi, lo = max(att_st, def_st), min(att_st, def_st)
    n = 3 if hi > 2 * lo else 2
    return n, "attacker" if att_st > def_st else "defender"


def _free_helper(st: State, q: Player, target: Player) -> bool:
    """A standing team-mate next to ``target`` who is in no tackle zone but the target's (Guard: any)."""
    if not q.standing or q.sq is None or target.sq is None or not adjacent(q.sq, target.sq):
        return False
    return q.has("guard") or st.tackle_zones(q.sq, q.side, ignore=target) == 0


def assists(st: State, att: Player, dfn: Player) -> tuple[int, int]:
    """Designed (004 §8 is empty; LRB6): +1 ST for each team-mate adjacent to the opponent and in no other
    enemy tackle zone (Guard assists anyway), for both sides."""
    a = sum(1 for q in st.on_field(att.side) if q is not att and _free_helper(st, q, dfn))
    d = sum(1 for q in st.on_field(dfn.side) if q is not dfn and _free_helper(st, q, att))
    return a, d


def block(st: State, dice: Dice, att: Player, dfn: Player) -> str:
    """004 §3: a block — dice by strength with assists, the stronger chooses, then the face's effect.
    Returns the face taken."""
    assert att.sq is not None and dfn.sq is not None and adjacent(att.sq, dfn.sq) and dfn.standing
    a_ast, d_ast = assists(st, att, dfn)
    n, chooser = block_dice(att.st + a_ast, dfn.st + d_ast)
    extra = {"attacker_st": att.st, "defender_st": dfn.st, "assists": {"attacker": a_ast, "defender": d_ast},
             "dice_count": n, "chooser": chooser, "defender": dfn.id}
    chosen = ""
    for attempt in (0, 1):
        r = _roll(st, dice, f"{n}D6", "阻挡骰", "block")
        faces = [FACES[v] for v in r.dice]
        chosen = faces[st.coach.block_face(st, att, dfn, faces, chooser)]
        good = face_value(st, att, dfn, chosen) > 0
        st.log(record("block", att.id, r, {}, None, good, faces=faces, chosen=chosen, **extra))
        if attempt == 1 or not can_team_reroll(st, att.side) or not st.coach.block_reroll(st, att, dfn, chosen):
            break
        if not _use_team_reroll(st, att, "block", dice):
            break
    apply_face(st, dice, att, dfn, chosen)
    return chosen


def apply_face(st: State, dice: Dice, att: Player, dfn: Player, face: str) -> None:
    """The five results (004 §3): push, follow-up, then knock-downs with armour and injury."""
    if face == "attacker_down":
        knock_down(st, dice, att, by=dfn)
        return
    if face == "both_down":
        if (not att.has("block") and att.has("wrestle")) or (not dfn.has("block") and dfn.has("wrestle")):
            wrestle(st, dice, att, dfn)
            return
        if not dfn.has("block"):
            knock_down(st, dice, dfn, by=att)
        if not att.has("block"):
            knock_down(st, dice, att, by=dfn)
        return
    down = face == "defender_down" or (face == "defender_stumbles" and not dfn.has("dodge"))
    assert att.sq is not None and dfn.sq is not None
    old = dfn.sq
    moved = push_back(st, dice, att.sq, dfn, att.side)
    if moved and on_pitch(old) and old not in st.grid and st.coach.follow_up(st, att, old):
        st.place(att, old)
    if down and dfn.sq is not None and dfn.state == "standing":
        knock_down(st, dice, dfn, by=att)
    _settle_ball(st, dice)
    check_touchdown(st)


def wrestle(st: State, dice: Dice, att: Player, dfn: Player) -> None:
    """Designed (LRB6 Wrestle): on both down, both are placed prone — no armour roll, no turnover."""
    for p in (dfn, att):
        p.state = "prone"
        if st.ball.carrier == p.id:
            st.ball.carrier, st.ball.sq = None, p.sq
            assert p.sq is not None
            bounce(st, dice, p.sq)
    st.log({"kind": "push", "player": att.id, "dice": [], "modifiers": {}, "target": None, "success": True,
            "result": "wrestle", "players": [att.id, dfn.id]})


def push_squares(frm: Square, sq: Square) -> list[Square]:
    """004 §3's push diagram: the three squares away from the pusher (on or off the pitch)."""
    dx, dy = sq[0] - frm[0], sq[1] - frm[1]
    if dx and dy:
        return [(sq[0] + dx, sq[1]), (sq[0] + dx, sq[1] + dy), (sq[0], sq[1] + dy)]
    if dx:
        return [(sq[0] + dx, sq[1] - 1), (sq[0] + dx, sq[1]), (sq[0] + dx, sq[1] + 1)]
    return [(sq[0] - 1, sq[1] + dy), (sq[0], sq[1] + dy), (sq[0] + 1, sq[1] + dy)]


def push_back(st: State, dice: Dice, frm: Square, victim: Player, pusher: Side) -> bool:
    """004 §3 push-back: to a free square of the three; if all are taken, into the crowd when one is off the
    pitch, else onto a player who is pushed in turn (chain push). Stand Firm (designed) refuses.
    Returns whether the victim left his square."""
    assert victim.sq is not None
    if victim.has("stand_firm"):
        st.log({"kind": "push", "player": victim.id, "dice": [], "modifiers": {}, "target": None,
                "success": False, "result": "stand_firm", "from": list(victim.sq), "to": list(victim.sq)})
        return False
    options = push_squares(frm, victim.sq)
    free = [s for s in options if on_pitch(s) and s not in st.grid]
    if free:
        to = st.coach.push_square(st, pusher, victim, free)
    elif any(not on_pitch(s) for s in options):
        crowd(st, dice, victim)
        return True
    else:
        movable = [s for s in options if not st.players[st.grid[s]].has("stand_firm")]
        if not movable:
            return False
        to = st.coach.push_square(st, pusher, victim, movable)
        push_back(st, dice, victim.sq, st.players[st.grid[to]], pusher)
        if to in st.grid:  # the chained player stood firm after all
            return False
    st.log({"kind": "push", "player": victim.id, "dice": [], "modifiers": {}, "target": None, "success": True,
            "result": "pushed", "from": list(victim.sq), "to": list(to)})
    st.place(victim, to)
    return True


def crowd(st: State, dice: Dice, p: Player) -> None:
    """004 §3: pushed off the pitch, the crowd beats him: an injury roll with no armour roll; stunned means
    the dug-out; a ball he held lands where he stood."""
    assert p.sq is not None
    was = p.sq
    st.log({"kind": "push", "player": p.id, "dice": [], "modifiers": {}, "target": None, "success": True,
            "result": "crowd", "from": list(was), "to": None})
    st.place(p, None, "reserve")
    if st.ball.carrier == p.id:
        st.ball.carrier, st.ball.sq = None, was
    injury(st, dice, p, crowd=True)


def _settle_ball(st: State, dice: Dice) -> None:
    """A loose ball under a player (pushed onto it, followed onto it): it bounces (004 §2)."""
    if st.ball.carrier is None and st.ball.sq is not None and st.ball.sq in st.grid:
        bounce(st, dice, st.ball.sq)


# ---------------------------------------------------------------- knock-down and injury (004 §4)

def knock_down(st: State, dice: Dice, p: Player, by: Player | None = None) -> None:
    """004 §4: he falls prone (no tackle zones), a ball he held bounces, armour (then injury) is rolled;
    a player of the moving team knocked down ends the turn (004 §1)."""
    assert p.sq is not None
    p.state = "prone"
    if p.side == st.active:
        _turnover(st, "knocked_down")
    had_ball = st.ball.carrier == p.id
    if had_ball:
        st.ball.carrier, st.ball.sq = None, p.sq
    sq = p.sq
    mb = by is not None and by.has("mighty_blow")
    left = armour(st, dice, p, mb, by)
    if left is not None:
        injury(st, dice, p, mighty_blow=left, by=by)
    if had_ball:
        bounce(st, dice, sq)
    _settle_ball(st, dice)


def armour(st: State, dice: Dice, p: Player, mighty_blow: bool = False, by: Player | None = None) -> int | None:
    """004 §4: 2D6 must beat AV (AV 8 needs 9+). Mighty Blow (designed) adds 1 when it makes the difference.
    Returns None if the armour held, else the Mighty Blow still to add to the injury (0 or 1)."""
    r = _roll(st, dice, "2D6", "破甲", "armour")
    mods: dict[str, int] = {}
    broken = r.total > p.av
    if not broken and mighty_blow and r.total + 1 > p.av:
        mods["mighty_blow"] = 1
        broken = True
    total = r.total + sum(mods.values())
    st.log(record("armour", p.id, r, mods, p.av, broken, total=total, result="broken" if broken else "held",
                  by=by.id if by else None))
    if not broken:
        return None
    return 1 if mighty_blow and not mods else 0


def injury_result(total: int, thick_skull: bool) -> str:
    """004 §4: 2–7 stunned, 8–9 KO'd, 10+ casualty; Thick Skull (designed, LRB6) turns an 8 into stunned."""
    if total <= 7 or (total == 8 and thick_skull):
        return "stunned"
    return "ko" if total <= 9 else "casualty"


def injury(st: State, dice: Dice, p: Player, mighty_blow: int = 0, by: Player | None = None,
           crowd: bool = False, kind: str = "injury") -> str:
    """004 §4's injury roll (niggling injuries +1 each, Mighty Blow if unused on armour), and its effect."""
    r = _roll(st, dice, "2D6", "伤害", kind)
    mods: dict[str, int] = {}
    if p.niggling:
        mods["niggling"] = p.niggling
    if mighty_blow:
        mods["mighty_blow"] = mighty_blow
    total = r.total + sum(mods.values())
    res = injury_result(total, p.has("thick_skull"))
    extra: dict[str, Any] = {"thick_skull": True} if res != injury_result(total, False) else {}
    st.log(record(kind, p.id, r, mods, None, res != "stunned", total=total, result=res,
                  crowd=crowd, by=by.id if by else None, **extra))
    if res == "stunned":
        if crowd or p.sq is None:
            st.place(p, None, "reserve")
        else:
            p.state, p.stun_fresh = "stunned", p.side == st.active
    elif res == "ko":
        st.place(p, None, "ko")
        _event(st, "ko", player=p.id)
    else:
        st.place(p, None, "casualty")
        casualty(st, dice, p, by)
    return res


SEVERITY = ("badly_hurt", "serious", "niggling", "stat_loss", "dead")
"""The casualty table's effects, lightest first: the apothecary keeps the lighter of two rolls."""


def casualty(st: State, dice: Dice, p: Player, by: Player | None = None) -> str:
    """004 §4's casualty roll: D68 (D6 tens, D8 units) on the designed table; a death removes him. The team's
    apothecary (designed, LRB6) may roll it again once a match: the lighter result is kept."""
    # designed: the D68 of one of the readers' players is sealed until the next chapter (the host's
    # suspense, DESIGN §10); the league seals and reveals it through the core's SealBook
    r = _roll(st, dice, D68, "伤亡", "casualty", hidden=st.ours == p.side)
    table = _tables(st).casualty
    row = first = table.lookup(r.total)
    second: Roll | None = None
    # designed (LRB6 Apothecary, once a match): the coach sends him to a casualty worse than badly hurt; a
    # sealed roll's coach cannot look, so he goes to the first casualty (nothing may hang on the sealed die)
    if st.apothecary.get(p.side) and (r.hidden or first.effect != "badly_hurt"):
        st.apothecary[p.side] = False
        a = _roll(st, dice, D68, "队医重掷伤亡", "apothecary", hidden=r.hidden)
        again = table.lookup(a.total)
        keep = SEVERITY.index(again.effect) < SEVERITY.index(first.effect)
        row = again if keep else first
        second = record("apothecary", p.id, a, {}, None, True, total=a.total, result=again.effect,
                        text=again.text, kept="second" if keep else "first", hidden=a.hidden)
    p.casualty = row.effect if row.effect != "stat_loss" else str(row.params.get("lasting"))
    if row.effect == "dead":
        p.state = "dead"
    extra: dict[str, Any] = {}
    if second is not None:
        extra = {"apothecary": second["id"], "first_text": first.text, "first_result": first.effect}
    st.log(record("casualty", p.id, r, {}, None, True, total=r.total, result=row.effect,
                  lasting=row.params.get("lasting"), miss_next=bool(row.params.get("miss_next")), text=row.text,
                  hidden=r.hidden, **extra))
    if second is not None:
        st.log(second)
    if by is not None and by.side != p.side:
        by.spp += 2
    _event(st, "casualty", player=p.id, code=r.total, result=row.effect)
    return row.effect


# ---------------------------------------------------------------- the ball (§5, §9 designed)

def scatter(st: State, dice: Dice, sq: Square, kind: str = "scatter") -> Square:
    """Move the ball one square in a D8 direction (designed scatter template); the result may be off the pitch."""
    r = _roll(st, dice, "1D8", "偏移", kind)
    row = _tables(st).scatter.lookup(r.total)
    nxt = (sq[0] + int(row.params["dx"]), sq[1] + int(row.params["dy"]))
    st.log(record(kind, None, r, {}, None, on_pitch(nxt), frm=list(sq), to=list(nxt)))
    return nxt


def bounce(st: State, dice: Dice, sq: Square) -> None:
    """The ball bounces one square (D8); lands, is caught, bounces on, or goes to the crowd (004 §2)."""
    st.ball.carrier, st.ball.sq = None, sq
    to = scatter(st, dice, sq, "bounce")
    if not on_pitch(to):
        throw_in(st, dice, sq, to)
    else:
        land(st, dice, to)


def land(st: State, dice: Dice, sq: Square, catch_mod: int = 0) -> None:
    """The ball comes down on ``sq``: a standing player tries to catch it, anyone else makes it bounce."""
    p = st.at(sq)
    if p is None:
        st.ball.carrier, st.ball.sq = None, sq
        return
    if p.standing:
        catch(st, dice, p, catch_mod)
    else:
        bounce(st, dice, sq)


def catch(st: State, dice: Dice, p: Player, mod: int = 0) -> bool:
    """Designed (LRB6): an AG roll, +1 for an accurate pass or a hand-off, −1 per enemy tackle zone; a miss
    bounces. Catch re-rolls."""
    assert p.sq is not None
    mods = {"accurate": mod} if mod else {}
    mods["tackle_zones"] = -st.tackle_zones(p.sq, p.side)
    ok = agility_roll(st, dice, p, "catch", "接球", mods, "catch")
    if ok:
        st.ball.carrier, st.ball.sq = p.id, None
        check_touchdown(st)
    else:
        bounce(st, dice, p.sq)
    return ok


def throw_in(st: State, dice: Dice, last: Square, out: Square) -> None:
    """Designed (LRB6 throw-in): from the last square on the pitch, D6 direction (table) and 2D6 squares."""
    if out[0] < 1:
        inward: Square = (1, 0)
    elif out[0] > 26:
        inward = (-1, 0)
    elif out[1] < 1:
        inward = (0, 1)
    else:
        inward = (0, -1)
    r = _roll(st, dice, "1D6", "界外回传方向", "bounce")
    lat = int(_tables(st).throw_in.lookup(r.total).params["lateral"])
    d = (inward[0] + lat * abs(inward[1]), inward[1] + lat * abs(inward[0]))
    r2 = _roll(st, dice, "2D6", "界外回传距离", "bounce")
    sq = last
    for _ in range(r2.total):
        nxt = (sq[0] + d[0], sq[1] + d[1])
        if not on_pitch(nxt):
            st.log({"id": r2.id, "kind": "bounce", "player": None, "dice": list(r.dice) + list(r2.dice),
                    "modifiers": {}, "target": None, "success": False, "result": "throw_in", "frm": list(last),
                    "to": list(nxt)})
            throw_in(st, dice, sq, nxt)
            return
        sq = nxt
    st.log({"id": r2.id, "kind": "bounce", "player": None, "dice": list(r.dice) + list(r2.dice),
            "modifiers": {}, "target": None, "success": True, "result": "throw_in", "frm": list(last),
            "to": list(sq)})
    land(st, dice, sq)


def pass_range(frm: Square, to: Square) -> tuple[str, int] | None:
    """Designed (LRB6 ruler): quick / short / long / bomb by distance, with +1 / 0 / −1 / −2; None beyond."""
    d = math.hypot(frm[0] - to[0], frm[1] - to[1])
    for name, reach, mod in PASS_RANGES:
        if d <= reach:
            return name, mod
    return None


def under_ruler(frm: Square, to: Square, sq: Square) -> bool:
    """Designed: a square is under the passing ruler if it lies between thrower and target and its centre is
    less than one square from the line joining them."""
    vx, vy = to[0] - frm[0], to[1] - frm[1]
    wx, wy = sq[0] - frm[0], sq[1] - frm[1]
    ll = vx * vx + vy * vy
    if ll == 0:
        return False
    t = (wx * vx + wy * vy) / ll
    if t <= 0 or t >= 1 or sq == to:
        return False
    return abs(wx * vy - wy * vx) / math.sqrt(ll) < 1.0


def interceptor(st: State, thrower: Player, to: Square) -> Player | None:
    """Designed: the standing opponent under the ruler most likely to intercept (best AG, fewest tackle
    zones; ties: lowest id)."""
    assert thrower.sq is not None
    cands = [q for q in st.on_field(other(thrower.side)) if q.standing and q.sq is not None
             and under_ruler(thrower.sq, to, q.sq)]
    if not cands:
        return None
    return min(cands, key=lambda q: (-(q.ag - st.tackle_zones(q.sq or (0, 0), q.side)), q.id))


def throw(st: State, dice: Dice, p: Player, to: Square) -> str:
    """Designed pass (LRB6): interception first (AG −2, −1 per tackle zone), then the pass roll (AG table,
    range modifier, −1 per tackle zone): a natural 1 or a modified 1 or less is a fumble (the ball bounces
    from the thrower), a success is accurate (catch +1), a failure scatters three times from the target.
    Returns accurate | inaccurate | fumble | intercepted; sets the turnover when the moving team lost it."""
    assert p.sq is not None and st.ball.carrier == p.id
    rng = pass_range(p.sq, to)
    if rng is None:
        raise ValueError(f"{to} is out of passing range")
    name, rmod = rng
    q = interceptor(st, p, to)
    if q is not None and q.sq is not None:
        ok = agility_roll(st, dice, q, "interception", "拦截",
                          {"interception": -2, "tackle_zones": -st.tackle_zones(q.sq, q.side)}, None)
        if ok:
            st.ball.carrier, st.ball.sq = q.id, None
            q.spp += 2
            _turnover(st, "intercepted")
            check_touchdown(st)
            return "intercepted"
    mods = {"range": rmod, "tackle_zones": -st.tackle_zones(p.sq, p.side)}
    result = "inaccurate"
    for attempt in (0, 1):
        r = _roll(st, dice, "1D6", "传球", "pass")
        die = r.dice[0]
        fumble = die == 1 or (die != 6 and die + sum(mods.values()) <= 1)
        ok = ag_success(die, sum(mods.values()), ag_target(p.ag))
        result = "accurate" if ok else "fumble" if fumble else "inaccurate"
        st.log(record("pass", p.id, r, mods, ag_target(p.ag), ok, result=result, range=name, to=list(to),
                      total=die + sum(mods.values()), ag=p.ag))
        if ok or attempt == 1:
            break
        src = _reroll_source(st, p, "pass", "pass")
        if src is None:
            break
        if src == "team":
            if not _use_team_reroll(st, p, "pass", dice):
                break
        else:
            st.log({"kind": "reroll", "player": p.id, "dice": [], "modifiers": {}, "target": None,
                    "success": True, "source": src, "for": "pass"})
    st.ball.carrier = None
    if result == "fumble":
        _turnover(st, "fumble")
        bounce(st, dice, p.sq)
        return result
    if result == "accurate":
        target = st.at(to)
        if target is not None and target.standing:
            caught = catch(st, dice, target, 1)
            if caught and target.side == p.side:
                p.spp += 1
        else:
            land(st, dice, to)
    else:
        land_sq = to
        for _ in range(3):
            nxt = scatter(st, dice, land_sq)
            if not on_pitch(nxt):
                st.ball.sq = land_sq
                throw_in(st, dice, land_sq, nxt)
                break
            land_sq = nxt
        else:
            land(st, dice, land_sq)
    c = st.carrier()
    if c is None or c.side != p.side:
        _turnover(st, "pass_not_caught")
    return result


def hand_off(st: State, dice: Dice, p: Player, to: Player) -> bool:
    """Designed (LRB6): hand the ball to an adjacent standing team-mate, who catches it with +1; the turn
    ends unless the moving team holds the ball afterwards (004 §1 turnover 2)."""
    assert p.sq is not None and to.sq is not None and adjacent(p.sq, to.sq) and st.ball.carrier == p.id
    st.ball.carrier = None
    catch(st, dice, to, 1)
    c = st.carrier()
    if c is None or c.side != p.side:
        _turnover(st, "handoff_not_caught")
        return False
    return True


# ---------------------------------------------------------------- fouls (§10 designed)

def foul(st: State, dice: Dice, p: Player, victim: Player) -> bool:
    """Designed (LRB6): armour 2D6 + 1 per free team-mate next to the victim − 1 per free opponent next to
    the fouler; broken → injury. Doubles on either roll: the referee sends the fouler off (turnover) unless
    Get the Ref left his team a free pass. Returns whether he was sent off."""
    assert p.sq is not None and victim.sq is not None and adjacent(p.sq, victim.sq)
    assert victim.state in ("prone", "stunned")
    off = sum(1 for q in st.on_field(p.side) if q is not p and _free_helper(st, q, victim))
    dfn = sum(1 for q in st.on_field(victim.side) if q is not victim and _free_helper(st, q, p))
    mods = {k: v for k, v in (("assists", off), ("defensive_assists", -dfn)) if v}
    r = _roll(st, dice, "2D6", "犯规破甲", "foul")
    total = r.total + sum(mods.values())
    broken = total > victim.av
    doubles = r.dice[0] == r.dice[1]
    st.log(record("foul", p.id, r, mods, victim.av, broken, total=total, result="broken" if broken else "held",
                  victim=victim.id, doubles=doubles))
    if broken:
        before = len(st.rolls)
        injury(st, dice, victim, by=None)
        inj = st.rolls[before]
        doubles = doubles or inj["dice"][0] == inj["dice"][1]
    if not doubles:
        return False
    if st.ref_bribe[p.side] > 0:
        st.ref_bribe[p.side] -= 1
        st.log({"kind": "foul", "player": p.id, "dice": [], "modifiers": {}, "target": None, "success": True,
                "result": "ref_ignored"})
        return False
    if st.ball.carrier == p.id:
        st.ball.carrier, st.ball.sq = None, p.sq
        bounce(st, dice, p.sq)
    st.place(p, None, "reserve")
    p.sent_off = True
    st.log({"kind": "foul", "player": p.id, "dice": [], "modifiers": {}, "target": None, "success": False,
            "result": "sent_off"})
    _turnover(st, "sent_off")
    _event(st, "sent_off", player=p.id)
    return True


# ---------------------------------------------------------------- drive bookkeeping

def check_touchdown(st: State) -> Side | None:
    """004 §1: a standing carrier in the end zone he attacks scores (the turn ends)."""
    c = st.carrier()
    if c is None or c.sq is None or c.state != "standing" or st.touchdown is not None:
        return None
    if c.sq[0] != ATTACKS[c.side]:
        return None
    st.touchdown = c.side
    st.score[0 if c.side == "home" else 1] += 1
    c.spp += 3
    _turnover(st, "touchdown")
    _event(st, "touchdown", player=c.id, side=c.side)
    return c.side


def end_turn(st: State, side: Side) -> None:
    """004 §4: stunned players turn face-up (prone) at the end of their team's next turn."""
    for p in st.on_field(side):
        if p.state == "stunned":
            if p.stun_fresh:
                p.stun_fresh = False
            else:
                p.state = "prone"
        p.acted, p.moved = False, 0


def ko_return(st: State, dice: Dice, p: Player) -> bool:
    """004 §4: at each kick-off a KO'd player comes back to the dug-out on a D6 of 4+."""
    r = _roll(st, dice, "1D6", "昏死者归队", "ko_return")
    ok = r.dice[0] >= 4
    st.log(record("ko_return", p.id, r, {}, 4, ok, total=r.dice[0]))
    if ok:
        p.state = "reserve"
    return ok


def free_squares(st: State, sq: Square) -> list[Square]:
    """Empty on-pitch squares next to ``sq``."""
    return [s for s in neighbours(sq) if s not in st.grid]


__all__ = ["FACES", "TURNOVERS", "PASS_RANGES", "Coach", "face_value", "ag_success", "record", "agility_roll",
           "can_team_reroll", "dodge", "gfi", "pick_up", "step", "move", "stand_up", "block_dice", "assists",
           "block", "apply_face", "wrestle", "push_squares", "push_back", "crowd", "knock_down", "armour",
           "injury_result", "injury", "casualty",
           "SEVERITY", "action_check", "ACTION_CHECKS", "LONER", "scatter", "bounce", "land", "catch", "throw_in", "pass_range",
           "under_ruler", "interceptor", "throw", "hand_off", "foul", "check_touchdown", "end_turn", "ko_return",
           "free_squares", "DIRS"]
