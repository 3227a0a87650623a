"""The designed sections (004 §5–§10 are empty): passing, scatter, interception, re-rolls, fouls, kick-off."""

from __future__ import annotations

import pytest

from anko_writer.dice import Dice
from anko_writer.rulesets.bloodbowl.match import rules
from anko_writer.rulesets.bloodbowl.match.engine import FORMATIONS, Half

from .scen import dice, half, put, state


@pytest.mark.parametrize("to,name", [((13, 8), "quick"), ((17, 8), "short"), ((20, 8), "long"),
                                     ((23, 8), "bomb")])
def test_pass_ranges(to: tuple[int, int], name: str) -> None:
    """Designed passing ruler: quick ≤ 3.5, short ≤ 7.5, long ≤ 10.5, bomb ≤ 13.5 squares."""
    rng = rules.pass_range((10, 8), to)
    assert rng is not None and rng[0] == name
    assert rules.pass_range((10, 8), (24, 8)) is None


def pass_scene(to: tuple[int, int] = (13, 8)):  # noqa: ANN201
    """A home thrower at (10, 8) with the ball and a receiver at ``to``."""
    st = state()
    t = put(st, "H1", "home", (10, 8), ball=True)
    r = put(st, "H2", "home", to)
    return st, t, r


def test_accurate_pass_and_catch_plus_one() -> None:
    """Designed: quick pass +1; accurate → catch +1; a completion earns 1 SPP."""
    st, t, r = pass_scene()
    assert rules.throw(st, dice(3, 3), t, (13, 8)) == "accurate"
    assert st.ball.carrier == "H2" and st.turnover is None and t.spp == 1
    assert st.rolls[0]["modifiers"] == {"range": 1, "tackle_zones": 0}
    assert st.rolls[1]["modifiers"] == {"accurate": 1, "tackle_zones": 0}


def test_fumble_natural_one_and_modified() -> None:
    """Designed: a natural 1 or a modified 1 or less is a fumble: bounce from the thrower, turnover."""
    st, t, r = pass_scene()
    assert rules.throw(st, dice(1, 2), t, (13, 8)) == "fumble"
    assert st.turnover == "fumble" and st.ball.sq == (10, 7)
    st, t, r = pass_scene((23, 8))
    assert rules.throw(st, dice(3, 2), t, (23, 8)) == "fumble"  # 3 − 2 = 1


def test_inaccurate_pass_scatters_three_times() -> None:
    """Designed: a miss scatters three D8 squares from the target; not caught by the team → turnover."""
    st, t, r = pass_scene((17, 8))
    assert rules.throw(st, dice(2, 2, 2, 5), t, (16, 8)) == "inaccurate"
    assert st.ball.sq == (17, 6) and st.turnover == "pass_not_caught"
    assert [x["kind"] for x in st.rolls] == ["pass", "scatter", "scatter", "scatter"]


def test_interception() -> None:
    """Designed: an opponent under the ruler rolls AG − 2; success: he has the ball, turnover."""
    st, t, r = pass_scene((16, 8))
    put(st, "A1", "away", (13, 8))
    assert rules.interceptor(st, t, (16, 8)) is st.players["A1"]
    assert rules.throw(st, dice(6), t, (16, 8)) == "intercepted"
    assert st.ball.carrier == "A1" and st.turnover == "intercepted"
    st, t, r = pass_scene((16, 8))
    put(st, "A1", "away", (13, 8))
    rules.throw(st, dice(5, 4, 4), t, (16, 8))  # 5 − 2 = 3 < 4 misses; pass 4 accurate; catch 4 + 1
    assert st.ball.carrier == "H2"


def test_hand_off_catch_and_turnover() -> None:
    """Designed hand-off: catch +1; a miss bounces and ends the turn (004 §1 item 2)."""
    st, t, r = pass_scene((11, 8))
    assert rules.hand_off(st, dice(3), t, r) and st.ball.carrier == "H2"
    st, t, r = pass_scene((11, 8))
    assert not rules.hand_off(st, dice(2, 2), t, r) and st.turnover == "handoff_not_caught"


def test_throw_in_from_the_end_line() -> None:
    """Designed throw-in: D6 direction, 2D6 squares from the last square on the pitch."""
    st = state()
    rules.bounce(st, dice(4, 3, 1, 1), (1, 8))  # D8 4: off the left end; D6 3 straight in; 2 squares
    assert st.ball.sq == (3, 8)


def test_scatter_template() -> None:
    """Designed D8 template: 1 up-left … 8 down-right."""
    st = state()
    assert [rules.scatter(st, dice(i), (10, 8)) for i in range(1, 9)] == \
        [(9, 7), (10, 7), (11, 7), (9, 8), (11, 8), (9, 9), (10, 9), (11, 9)]


def test_team_reroll_once_per_turn() -> None:
    """Designed: a team re-roll re-rolls a failure; only one per turn."""
    st = state()
    st.rerolls["home"] = 2
    p = put(st, "H1", "home", (10, 8))
    put(st, "A1", "away", (11, 8))
    assert rules.step(st, dice(2, 5), p, (9, 8))
    assert [r["kind"] for r in st.rolls] == ["dodge", "reroll", "dodge"] and st.rerolls["home"] == 1
    q = put(st, "H2", "home", (12, 9))
    assert not rules.step(st, dice(2, 2, 2), q, (13, 10))
    assert st.rerolls["home"] == 1


def test_reroll_policy_ball_only() -> None:
    """The plan's ``ball_only``: no team re-roll for a dodge by a player without the ball."""
    st = state()
    st.rerolls["home"] = 2
    st.plans["home"] = {"rerolls": "ball_only"}
    p = put(st, "H1", "home", (10, 8))
    put(st, "A1", "away", (11, 8))
    assert not rules.step(st, dice(2, 2, 2), p, (9, 8)) and st.rerolls["home"] == 2


@pytest.mark.parametrize("skill,kind", [("dodge", "dodge"), ("sure_feet", "gfi"), ("sure_hands", "pickup")])
def test_skill_rerolls(skill: str, kind: str) -> None:
    """Designed Pro-style skill re-rolls: Dodge and Sure Feet once per turn, Sure Hands on any pick-up."""
    st = state()
    p = put(st, "H1", "home", (10, 8), skills=(skill,), ma=0 if kind == "gfi" else 6)
    if kind == "dodge":
        put(st, "A1", "away", (11, 8))
    if kind == "pickup":
        st.ball.sq = (9, 8)
    assert rules.step(st, dice(1, 6), p, (9, 8))
    assert [r["kind"] for r in st.rolls] == [kind, "reroll", kind] and st.rolls[1]["source"] == skill


def test_dodge_skill_only_once_per_turn_and_never_twice_on_one_roll() -> None:
    """Designed: the Dodge re-roll once per turn; a re-rolled roll is not re-rolled again."""
    st = state()
    st.rerolls["home"] = 1
    p = put(st, "H1", "home", (10, 8), skills=("dodge",))
    put(st, "A1", "away", (11, 8))
    assert not rules.step(st, dice(1, 1, 1, 1), p, (9, 8))
    assert [r["kind"] for r in st.rolls][:3] == ["dodge", "reroll", "dodge"] and st.rerolls["home"] == 1


def test_catch_and_pass_skill_rerolls() -> None:
    """Designed: Catch re-rolls a catch, Pass re-rolls a pass."""
    st, t, r = pass_scene()
    t.skills = frozenset({"pass"})
    r.skills = frozenset({"catch"})
    assert rules.throw(st, dice(2, 5, 1, 4), t, (13, 8)) == "accurate"
    assert [x.get("source") for x in st.rolls if x["kind"] == "reroll"] == ["pass", "catch"]
    assert st.ball.carrier == "H2"


def test_block_team_reroll() -> None:
    """The coach re-rolls block dice that would knock his blocker down (plan permitting)."""
    st = state()
    st.rerolls["home"] = 1
    a = put(st, "H1", "home", (10, 8))
    d = put(st, "A1", "away", (11, 8))
    assert rules.block(st, dice(1, 3), a, d) == "push"
    assert [r["kind"] for r in st.rolls][:3] == ["block", "reroll", "block"]


def test_foul_assists_and_sent_off_on_doubles() -> None:
    """Designed fouls: +1 per free team-mate on the victim, −1 per free opponent on the fouler; doubles → off."""
    st = state()
    f = put(st, "H1", "home", (10, 8))
    v = put(st, "A1", "away", (11, 8), state="prone")
    put(st, "H2", "home", (12, 8))
    put(st, "A2", "away", (9, 9))
    assert not rules.foul(st, dice(3, 5), f, v)
    assert st.rolls[0]["modifiers"] == {"assists": 1, "defensive_assists": -1} and st.rolls[0]["total"] == 8
    assert rules.foul(st, dice(5, 5, 1, 2), f, v)  # armour 10 > 8 doubles; injury 3 stunned
    assert f.sent_off and f.sq is None and st.turnover == "sent_off"


def test_foul_doubles_on_injury_and_get_the_ref() -> None:
    """Doubles on the injury roll also send off; Get the Ref's free pass lets one go."""
    st = state()
    st.ref_bribe["home"] = 1
    f = put(st, "H1", "home", (10, 8))
    v = put(st, "A1", "away", (11, 8), state="stunned")
    assert not rules.foul(st, dice(4, 6, 2, 2), f, v)
    assert st.rolls[-1]["result"] == "ref_ignored" and st.ref_bribe["home"] == 0 and not f.sent_off


def kick(effect_dice: tuple[int, int], *more: int, plans: dict | None = None) -> Half:
    """Half 1's first kick-off (away kicks, aiming at (6, 8)); D8 2 × 1: lands on (6, 7); then the table."""
    h = Half(half(plans=plans), Dice(3))
    h.dice.fix(2, 1, *effect_dice, *more, prefix="s1/r1/h1/kickoff1")
    h.kickoff("away")
    return h


def test_kickoff_setups_are_legal_and_touchback() -> None:
    """Set-up: 11, ≥ 3 on the line, ≤ 2 per wide zone (checked on every set-up); touchback on the kicking half."""
    h = Half(half(), Dice(3))
    h.dice.fix(5, 6, 3, 4, prefix="s1/r1/h1/kickoff1")  # right 6 → (12, 7): still home half
    h.kickoff("away")
    h2 = Half(half(), Dice(3))
    h2.dice.fix(5, 6, 3, 4, prefix="s1/r1/h1/kickoff1")
    h2.kickoff("home")  # home kicks at (21, 8): + 6 → (27, 7) out: touchback
    assert h2.kickoffs[0]["touchback"] and h2.st.carrier() is not None and h2.st.carrier().side == "away"


def test_kickoff_2_get_the_ref() -> None:
    """2: each team may ignore one sending-off this half."""
    assert kick((1, 1)).st.ref_bribe == {"home": 1, "away": 1}


def test_kickoff_3_riot() -> None:
    """3: at the start of the half the turn markers move on one."""
    assert kick((1, 2)).st.turn == {"home": 1, "away": 1}


def test_kickoff_4_perfect_defence() -> None:
    """4: the kicking team sets up again (defensive)."""
    h = kick((1, 3), plans={"home": {}, "away": {"setup": "offensive"}})
    xs = sorted((p.sq[0] - 14, p.sq[1]) for p in h.st.on_field("away"))  # type: ignore[index]
    assert xs == sorted(FORMATIONS["defensive"])


def test_kickoff_5_high_kick() -> None:
    """5: the nearest free receiver moves under the ball."""
    h = kick((1, 4))
    assert h.st.at((6, 7)) is not None and h.st.at((6, 7)).side == "home"  # type: ignore[union-attr]


@pytest.mark.parametrize("pair,effect,winner", [((2, 4), "cheering_fans", "home"),
                                                 ((2, 6), "brilliant_coaching", "away")])
def test_kickoff_6_and_8_extra_reroll(pair: tuple[int, int], effect: str, winner: str) -> None:
    """6 and 8: each coach a D6, the higher gets a team re-roll."""
    a, b = (5, 2) if winner == "home" else (2, 5)
    h = kick(pair, a, b)
    assert h.kickoffs[0]["event"] == effect and h.st.rerolls[winner] == 4  # type: ignore[index]


def test_kickoff_7_changing_weather() -> None:
    """7: a gust: the ball scatters one more square."""
    assert kick((3, 4), 5).kickoffs[0]["landing"] == [7, 7]


def test_kickoff_9_quick_snap() -> None:
    """9: every receiving player moves one square forward if it is free."""
    h = kick((4, 5))
    assert any(p.sq and p.sq[0] == 14 for p in h.st.on_field("home"))


def test_kickoff_10_blitz() -> None:
    """10: the kicking team gets free moves."""
    h = kick((4, 6))
    assert h.kickoffs[0]["blitz_actions"] and all(a["kind"] == "move" for a in h.kickoffs[0]["blitz_actions"])


def test_kickoff_11_throw_a_rock() -> None:
    """11: the lower D6 loses a random player to an injury roll."""
    h = kick((5, 6), 1, 6, 1)
    hit = [r for r in h.kickoffs[0]["rolls"] if r.get("result") == "hit_by_rock"]
    assert len(hit) == 1 and hit[0]["player"].startswith("H")


def test_kickoff_12_pitch_invasion() -> None:
    """12: every player on the pitch rolls a D6; a 6 stuns."""
    h = kick((6, 6))
    inv = [r for r in h.kickoffs[0]["rolls"] if r.get("result") in ("stunned", "unhurt")]
    assert len(inv) == 22
