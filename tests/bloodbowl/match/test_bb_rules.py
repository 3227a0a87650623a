"""004 §1–§4 as the seed states them, pinned with fixed dice (botbowl style: build, fix, call, assert)."""

from __future__ import annotations

import pytest

from anko_writer.rulesets.bloodbowl.match import rules
from anko_writer.rulesets.bloodbowl.match.ai import Actions
from anko_writer.rulesets.bloodbowl.match.data import ag_target, load_tables

from .scen import dice, put, state


def test_agility_table_numbers() -> None:
    """004 §2: AG 1 → 6+, 2 → 5+, 3 → 4+, 4 → 3+, 5 → 2+, 6+ → 1+."""
    assert [ag_target(a) for a in range(1, 8)] == [6, 5, 4, 3, 2, 1, 1]


def test_natural_one_and_six() -> None:
    """004 §2: an unmodified 1 always fails, a 6 always succeeds."""
    assert not rules.ag_success(1, 10, 1)
    assert rules.ag_success(6, -10, 6)
    assert rules.ag_success(4, 0, 4) and not rules.ag_success(3, 0, 4)


def test_dodge_seed_example_fails_and_knocks_down() -> None:
    """004 §2's example: AG 3 leaving two tackle zones, D6 3: 3 + 1 − 2 = 2 < 4 → down, turnover."""
    st = state()
    p = put(st, "H1", "home", (10, 8))
    put(st, "A1", "away", (11, 8))
    put(st, "A2", "away", (11, 7))
    d = dice(3, 2, 2)  # dodge 3, armour 2+2 holds
    assert not rules.step(st, d, p, (9, 9))
    r = st.rolls[0]
    assert (r["kind"], r["dice"], r["modifiers"], r["target"], r["success"]) == \
        ("dodge", [3], {"dodge": 1, "tackle_zones": -2}, 4, False)
    assert p.sq == (9, 9) and p.state == "prone" and st.turnover == "knocked_down"
    assert st.rolls[1]["kind"] == "armour" and st.rolls[1]["success"] is False


def test_dodge_success_and_entering_a_zone_needs_no_roll() -> None:
    """004 §2: leaving a zone needs one dodge whatever the count; moving into one needs none."""
    st = state()
    p = put(st, "H1", "home", (10, 8))
    put(st, "A1", "away", (11, 8))
    d = dice(4)
    assert rules.step(st, d, p, (9, 8))  # 4 + 1 − 1 = 4 ≥ 4
    assert rules.step(st, d, p, (10, 9)) is False or True  # entering A1's zone: no roll needed
    assert [r["kind"] for r in st.rolls] == ["dodge"]


def test_dodge_natural_six_with_ag1_and_natural_one_with_ag6() -> None:
    """004 §2: the natural 6 beats any modifier, the natural 1 fails any agility."""
    st = state()
    p = put(st, "H1", "home", (10, 8), ag=1)
    for i, sq in enumerate([(11, 8), (11, 7), (11, 9)]):
        put(st, f"A{i}", "away", sq)
    assert rules.step(st, dice(6), p, (9, 8))
    st2 = state()
    q = put(st2, "H1", "home", (10, 8), ag=6)
    put(st2, "A1", "away", (11, 8))
    assert not rules.step(st2, dice(1, 1, 1), q, (9, 8))


def test_pick_up_modifiers_and_failure_bounces_and_ends_turn() -> None:
    """004 §2: pick-up +1, −1 per enemy zone; a failure bounces the ball and ends the turn (item 3)."""
    st = state()
    p = put(st, "H1", "home", (10, 8))
    put(st, "A1", "away", (12, 8))
    st.ball.sq = (11, 8)
    assert not rules.step(st, dice(3, 2), p, (11, 8))  # 3 + 1 − 1 = 3 < 4; bounce D8 2 → (11, 7)
    r = st.rolls[0]
    assert (r["kind"], r["modifiers"], r["success"]) == ("pickup", {"pickup": 1, "tackle_zones": -1}, False)
    assert st.turnover == "pickup_failed" and st.ball.carrier is None and st.ball.sq == (11, 7)


def test_pick_up_success() -> None:
    """004 §2: 3 + 1 = 4 ≥ 4 picks up."""
    st = state()
    p = put(st, "H1", "home", (10, 8))
    st.ball.sq = (11, 8)
    assert rules.step(st, dice(3), p, (11, 8))
    assert st.ball.carrier == "H1"


def test_moved_into_ball_square_bounces_without_turnover() -> None:
    """004 §2: a player pushed onto the ball cannot pick it up; it bounces, no turnover."""
    st = state()
    a = put(st, "H1", "home", (10, 8))
    b = put(st, "A1", "away", (11, 8))
    st.ball.sq = (12, 7)
    d = dice(3, 1)  # push; bounce D8 1 → (11, 6)
    rules.block(st, d, a, b)
    assert b.sq == (12, 7) and st.ball.sq == (11, 6) and st.turnover is None


def test_gfi_two_plus_and_failure() -> None:
    """Designed GFI: 2+ beyond MA; a 1 knocks him down on the square moved to."""
    st = state()
    p = put(st, "H1", "home", (10, 8), ma=1)
    assert rules.step(st, dice(), p, (11, 8))
    assert rules.step(st, dice(2), p, (12, 8))
    assert not rules.step(st, dice(1, 1, 1), p, (13, 8))
    assert p.sq == (13, 8) and p.state == "prone" and st.turnover == "knocked_down"
    with pytest.raises(ValueError):
        rules.step(st, dice(), put(st, "H2", "home", (5, 5), ma=0), (5, 6)) or rules.step(st, dice(), st.players["H2"], (5, 7)) or \
            rules.step(st, dice(), st.players["H2"], (5, 8))


def test_stand_up_costs_three_or_needs_four_plus() -> None:
    """004 §4: standing costs 3 MA; MA < 3 needs a 4+ and leaves no normal move."""
    st = state()
    p = put(st, "H1", "home", (10, 8), state="prone")
    assert rules.stand_up(st, dice(), p) and p.moved == 3
    q = put(st, "H2", "home", (5, 8), ma=2, state="prone")
    assert not rules.stand_up(st, dice(3), q) and q.state == "prone"
    assert rules.stand_up(st, dice(4), q) and q.state == "standing" and q.moved == 2
    j = put(st, "H3", "home", (5, 2), ma=2, state="prone", skills=("jump_up",))
    assert rules.stand_up(st, dice(), j) and j.moved == 0


def test_stood_up_player_may_not_block() -> None:
    """004 §4: a player who stood up may not make a Block action this turn."""
    st = state()
    p = put(st, "H1", "home", (10, 8), state="prone")
    q = put(st, "A1", "away", (11, 8))
    acts = Actions(st, dice(), [])
    with pytest.raises(ValueError):
        acts.block(p, q)


@pytest.mark.parametrize("a,d,n,chooser", [(3, 3, 1, "attacker"), (4, 3, 2, "attacker"), (3, 4, 2, "defender"),
                                           (6, 3, 2, "attacker"), (7, 3, 3, "attacker"), (3, 7, 3, "defender")])
def test_block_dice_by_strength(a: int, d: int, n: int, chooser: str) -> None:
    """004 §3: equal one die; stronger two and he chooses; more than twice as strong three."""
    assert rules.block_dice(a, d) == (n, chooser)


def test_assists_unmarked_team_mates_and_guard() -> None:
    """Designed §8: +1 ST per team-mate next to the target and in no other enemy zone; Guard anyway."""
    st = state()
    a = put(st, "H1", "home", (10, 8))
    d = put(st, "A1", "away", (11, 8))
    put(st, "H2", "home", (12, 9))           # free helper
    put(st, "H3", "home", (12, 7))           # marked by A2
    put(st, "A2", "away", (13, 6))
    assert rules.assists(st, a, d) == (1, 0)
    st.players["H3"].skills = frozenset({"guard"})
    assert rules.assists(st, a, d) == (2, 0)
    st.rolls.clear()
    rules.block(st, dice(6, 6, 6, 2, 2), a, d)  # ST 5 v 3: two dice
    b = st.rolls[0]
    assert (b["attacker_st"], b["defender_st"], b["assists"], b["dice_count"], b["chooser"]) == \
        (3, 3, {"attacker": 2, "defender": 0}, 2, "attacker")


def block_scene(att_skills: tuple[str, ...] = (), def_skills: tuple[str, ...] = ()):  # noqa: ANN201
    """A home blocker at (10, 8) against an away player at (11, 8), ST 3 v 3."""
    st = state()
    a = put(st, "H1", "home", (10, 8), skills=att_skills)
    d = put(st, "A1", "away", (11, 8), skills=def_skills)
    return st, a, d


def test_face_attacker_down() -> None:
    """004 §3 skull: the attacker is knocked down (turnover)."""
    st, a, d = block_scene()
    assert rules.block(st, dice(1, 2, 2), a, d) == "attacker_down"
    assert a.state == "prone" and d.state == "standing" and st.turnover == "knocked_down"


def test_face_both_down_and_block_skill() -> None:
    """004 §3 skull+star: both down; a Block player stays up; both with Block: nobody falls."""
    st, a, d = block_scene()
    rules.block(st, dice(2, 2, 2, 2, 2), a, d)
    assert a.state == d.state == "prone" and st.turnover == "knocked_down"
    st, a, d = block_scene(att_skills=("block",))
    rules.block(st, dice(2, 2, 2), a, d)
    assert a.state == "standing" and d.state == "prone" and st.turnover is None
    st, a, d = block_scene(att_skills=("block",), def_skills=("block",))
    rules.block(st, dice(2), a, d)
    assert a.state == d.state == "standing"


def test_face_both_down_wrestle() -> None:
    """Designed Wrestle: both placed prone, no armour roll, no turnover."""
    st, a, d = block_scene(att_skills=("wrestle",))
    rules.block(st, dice(2), a, d)
    assert a.state == d.state == "prone" and st.turnover is None
    assert not any(r["kind"] == "armour" for r in st.rolls)


def test_face_push_and_follow_up() -> None:
    """004 §3 arrows: pushed one square, not down; the attacker follows up free of dodges."""
    st, a, d = block_scene()
    put(st, "A2", "away", (9, 8))  # a zone on the attacker: follow-up still needs no dodge
    rules.block(st, dice(3), a, d)
    assert d.state == "standing" and d.sq in [(12, 7), (12, 8), (12, 9)]
    assert a.sq == (11, 8) and not any(r["kind"] == "dodge" for r in st.rolls)


def test_face_stumbles_with_and_without_dodge() -> None:
    """004 §3 star+!: pushed and down, unless the defender has Dodge (then only pushed)."""
    st, a, d = block_scene()
    rules.block(st, dice(5, 2, 2), a, d)
    assert d.state == "prone" and d.sq != (11, 8)
    st, a, d = block_scene(def_skills=("dodge",))
    rules.block(st, dice(5), a, d)
    assert d.state == "standing" and d.sq != (11, 8)


def test_face_defender_down() -> None:
    """004 §3 star: pushed and knocked down; armour rolled."""
    st, a, d = block_scene()
    rules.block(st, dice(6, 5, 5, 3, 3), a, d)  # armour 10 > 8, injury 6 stunned
    assert d.state == "stunned" and [r["kind"] for r in st.rolls][-2:] == ["armour", "injury"]


def test_push_squares_straight_and_diagonal() -> None:
    """004 §3's push diagram: three squares away from the pusher."""
    assert rules.push_squares((10, 8), (11, 8)) == [(12, 7), (12, 8), (12, 9)]
    assert rules.push_squares((10, 8), (11, 9)) == [(12, 9), (12, 10), (11, 10)]


def test_chain_push() -> None:
    """004 §3: all three squares taken → pushed onto a player, who is pushed in turn."""
    st, a, d = block_scene()
    for i, sq in enumerate([(12, 7), (12, 8), (12, 9)]):
        put(st, f"X{i}", "away", sq)
    rules.block(st, dice(3), a, d)
    pushes = [r for r in st.rolls if r["kind"] == "push"]
    assert len(pushes) == 2
    moved = st.players[st.grid[tuple(pushes[1]["to"])]]  # type: ignore[arg-type]
    assert moved is d and pushes[0]["player"] != "A1"
    assert d.sq == (12, 7) and st.players["X0"].sq == (13, 6)  # both towards the nearer sideline


def test_crowd_push_is_an_injury_roll_and_the_ball_lands_where_he_stood() -> None:
    """004 §3: at the edge with no free square: into the crowd, injury roll without armour; stunned → dug-out."""
    st = state()
    a = put(st, "H1", "home", (10, 14))
    d = put(st, "A1", "away", (10, 15), ball=True)
    put(st, "H2", "home", (1, 1))
    rules.block(st, dice(3, 3, 3), a, d)  # push; injury 3+3 stunned
    assert d.sq is None and d.state == "reserve" and st.turnover is None
    assert [r["kind"] for r in st.rolls] == ["block", "push", "injury"] and st.rolls[2]["crowd"]
    assert st.ball.carrier is None and st.ball.sq == (10, 15) and a.sq == (10, 14)  # no follow-up onto the ball


def test_stand_firm() -> None:
    """Designed Stand Firm: not pushed; knocked down in place on a star."""
    st, a, d = block_scene(def_skills=("stand_firm",))
    rules.block(st, dice(6, 2, 2), a, d)
    assert d.sq == (11, 8) and d.state == "prone" and a.sq == (10, 8)


@pytest.mark.parametrize("roll,broken", [((4, 4), False), ((4, 5), True)])
def test_armour_must_beat_av(roll: tuple[int, int], broken: bool) -> None:
    """004 §4: AV 8 needs 9+ on 2D6."""
    st = state()
    p = put(st, "A1", "away", (5, 5))
    assert (rules.armour(st, dice(*roll), p) is not None) == broken


def test_mighty_blow_on_armour_then_injury() -> None:
    """Designed Mighty Blow: +1 when it breaks the armour, else +1 on the injury."""
    st = state()
    p = put(st, "A1", "away", (5, 5))
    assert rules.armour(st, dice(4, 4), p, mighty_blow=True) == 0
    assert st.rolls[-1]["modifiers"] == {"mighty_blow": 1} and st.rolls[-1]["total"] == 9
    assert rules.armour(st, dice(5, 5), p, mighty_blow=True) == 1


@pytest.mark.parametrize("total,res", [(7, "stunned"), (8, "ko"), (9, "ko"), (10, "casualty"), (12, "casualty")])
def test_injury_boundaries(total: int, res: str) -> None:
    """004 §4: 2–7 stunned, 8–9 KO'd, 10–12 casualty."""
    assert rules.injury_result(total, False) == res


def test_thick_skull_and_niggling() -> None:
    """Designed Thick Skull: 8 is stunned; 004 §4 niggling: +1 per injury carried."""
    assert rules.injury_result(8, True) == "stunned" and rules.injury_result(9, True) == "ko"
    st = state()
    p = put(st, "A1", "away", (5, 5))
    p.niggling = 1
    assert rules.injury(st, dice(4, 3), p) == "ko"
    assert st.rolls[-1]["modifiers"] == {"niggling": 1} and st.rolls[-1]["total"] == 8
    assert p.sq is None and p.state == "ko"


@pytest.mark.parametrize("d6,d8,effect", [(1, 1, "badly_hurt"), (3, 8, "badly_hurt"), (4, 1, "serious"),
                                          (5, 1, "niggling"), (5, 3, "stat_loss"), (5, 7, "stat_loss"),
                                          (6, 1, "dead"), (6, 8, "dead")])
def test_casualty_d68(d6: int, d8: int, effect: str) -> None:
    """004 §4: D6 tens, D8 units; designed ranges."""
    st = state()
    p = put(st, "A1", "away", (5, 5))
    st.place(p, None, "casualty")
    assert rules.casualty(st, dice(d6, d8), p) == effect
    assert st.rolls[-1]["total"] == 10 * d6 + d8
    assert (p.state == "dead") == (effect == "dead")


def test_stunned_turns_over_at_the_end_of_his_next_turn() -> None:
    """004 §4: stunned stays face-down until the end of his team's next turn, even if stunned in his own."""
    st = state(active="away")
    p = put(st, "H1", "home", (5, 5))
    rules.injury(st, dice(3, 3), p)  # stunned in the opponent's turn
    rules.end_turn(st, "away")
    assert p.state == "stunned"
    rules.end_turn(st, "home")
    assert p.state == "prone"
    st.active = "home"
    q = put(st, "H2", "home", (7, 7))
    rules.injury(st, dice(3, 3), q)  # stunned in his own turn (a failed dodge)
    rules.end_turn(st, "home")
    assert q.state == "stunned"
    rules.end_turn(st, "home")
    assert q.state == "prone"


def test_ko_return_four_plus() -> None:
    """004 §4: a KO'd player returns at a kick-off on 4+."""
    st = state()
    p = put(st, "H1", "home", (5, 5))
    st.place(p, None, "ko")
    assert not rules.ko_return(st, dice(3), p) and p.state == "ko"
    assert rules.ko_return(st, dice(4), p) and p.state == "reserve"


def test_knocked_down_carrier_drops_the_ball() -> None:
    """004 §4: a knocked-down carrier's ball bounces one square."""
    st = state()
    a = put(st, "H1", "home", (10, 8))
    d = put(st, "A1", "away", (11, 8), ball=True)
    rules.block(st, dice(6, 1, 1, 7), a, d)  # down, armour 2, bounce D8 7 (down)
    assert st.ball.carrier is None and st.ball.sq is not None


def test_touchdown_ends_the_turn() -> None:
    """004 §1 item 4: a carrier reaching the end zone scores; the turn ends."""
    st = state()
    p = put(st, "H1", "home", (25, 8), ball=True)
    rules.step(st, dice(), p, (26, 8))
    assert st.score == [1, 0] and st.turnover == "touchdown" and st.touchdown == "home" and p.spp == 3


def test_once_per_turn_limits() -> None:
    """004 §1: one blitz, one pass, one hand-off, one foul per team turn."""
    st = state()
    h1 = put(st, "H1", "home", (5, 5))
    h2 = put(st, "H2", "home", (5, 9))
    v = put(st, "A1", "away", (20, 5), state="prone")
    acts = Actions(st, dice(), [])
    acts.foul(h1, [], v)
    with pytest.raises(ValueError):
        acts.foul(h2, [], v)
    for flag, call in (("blitz", lambda: acts.blitz(h2, [], v)), ("pass_", lambda: acts.pass_(h2, [], (6, 9))),
                       ("handoff", lambda: acts.handoff(h2, [], h1))):
        setattr(st.flags, flag, True)
        with pytest.raises(ValueError):
            call()


def test_tables_cover_every_roll() -> None:
    """Every Blood Bowl dice table covers every total (the core loader's check) and the rosters load."""
    t = load_tables()
    assert len(t.kickoff) == 11 and len(t.scatter) == 8 and len(t.throw_in) == 3
    assert t.casualty.lookup(11).effect == "badly_hurt" and t.casualty.lookup(68).effect == "dead"
    assert set(t.rosters) >= {"human", "orc", "dwarf", "skaven"}
    assert set(t.skills) == set(rules.__dict__.get("SKILLS", t.skills))
