"""The AI coaches' race plans (designed, :mod:`anko_writer.rulesets.bloodbowl.match.plans`): each procedure in a
scenario with fixed dice, its numbers pinned, and an invariant over many halves."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from anko_writer.dice import Dice
from anko_writer.rulesets.bloodbowl.match import ai as coach
from anko_writer.rulesets.bloodbowl.match import plans
from anko_writer.rulesets.bloodbowl.match.api import play_half
from anko_writer.rulesets.bloodbowl.match.model import Player, State

from .scen import dice, half, put, state


def _coach(st: State, d: Dice, style: str = "pass", side: str = "home") -> tuple[coach.AI, list[dict[str, Any]]]:
    out: list[dict[str, Any]] = []
    st.plans = {"home": {"style": style}, "away": {"style": style}}  # type: ignore[typeddict-item]
    return coach.AI(st, d, coach.Actions(st, d, out), side), out  # type: ignore[arg-type]


def _kinds(out: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(str(a["kind"]), str(a["player"])) for a in out]


def test_the_plans_numbers() -> None:
    """Each designed number of the plans, so a change is a decision (docs/rules-coverage.md, Blood Bowl AI)."""
    assert (plans.PASS_ODDS, plans.LAST_TURN_ODDS, plans.ADVANCE_ODDS, plans.ADVANCE_GAIN) == (0.5, 0.15, 0.6, 4)
    assert (plans.STALL_REACH, plans.SCORE_ROLLS, plans.DEEP) == (3, 1, 2)
    assert (plans.FOUL_ASSISTS, plans.FOUL_BREAK, coach.CAGE_MATES) == (1, 0.4, 4)
    assert plans.PASS_STYLES == ("pass",) and plans.CAGE_STYLES == ("cage",)


def test_pass_chance_multiplies_interception_accuracy_and_catch() -> None:
    """Short pass, AG 3 thrower with Pass (4+ re-rolled: 3/4), AG 3 catcher (+1: 3+, 2/3), an AG 3 opponent
    under the ruler (−2: only a natural 6, 1/6)."""
    st = state()
    t = put(st, "H1", "home", (10, 8), skills=("pass",), ball=True)
    r = put(st, "H2", "home", (15, 8))
    ch = plans.pass_chance(st, t, (15, 8), r)
    assert ch is not None and (ch.safe, ch.accurate, ch.caught) == (1.0, 0.75, pytest.approx(2 / 3))
    put(st, "A1", "away", (12, 8))
    ch = plans.pass_chance(st, t, (15, 8), r)
    assert ch is not None and ch.safe == pytest.approx(5 / 6) and ch.whole == pytest.approx(5 / 6 * 0.75 * 2 / 3)
    assert plans.pass_chance(st, t, (25, 8), r) is None  # beyond a bomb


def test_the_receiver_runs_in_then_the_pass_scores() -> None:
    """Trailing, the carrier (MA 1) cannot walk in; the Catch receiver runs unmarked into the end zone, where a
    quick pass reaches him (3 + 1, better than a short one to where he stood), the catch 3 + 1 holds."""
    st = state()
    st.score = [0, 1]
    c = put(st, "H1", "home", (23, 8), ma=1, skills=("pass",), ball=True)
    put(st, "H2", "home", (18, 4), ma=8, skills=("catch",))
    a, out = _coach(st, dice(3, 3))
    a.turn()
    assert _kinds(out)[:2] == [("move", "H2"), ("pass", "H1")]
    assert st.touchdown == "home" and st.players["H2"].sq == (26, 7)
    assert c.spp == 1


def test_the_receiver_catches_then_runs_in() -> None:
    """A quick pass to where he stands beats a short one to the end zone: pass 3 (+1), catch 3 (+1), then
    he walks the four squares in."""
    st = state()
    st.score = [0, 1]
    put(st, "H1", "home", (20, 8), ma=4, skills=("pass",), ball=True)
    put(st, "H2", "home", (22, 8), skills=("catch",))
    a, out = _coach(st, dice(3, 3))
    a.turn()
    assert _kinds(out)[:2] == [("pass", "H1"), ("move", "H2")] and st.touchdown == "home"


def test_no_pass_when_the_odds_are_poor() -> None:
    """An AG 1 receiver (6+ to catch, 1/6 even with +1… 2/6) and no Pass skill: under PASS_ODDS, no pass."""
    st = state()
    st.score = [0, 1]
    put(st, "H1", "home", (20, 8), ma=4, ball=True)
    put(st, "H2", "home", (21, 6), ag=1)
    a, out = _coach(st, dice())
    a.turn()
    assert all(k != "pass" for k, _ in _kinds(out))


def test_a_last_turn_pass_takes_longer_odds() -> None:
    """The same poor pass is thrown on the last turn (LAST_TURN_ODDS): pass 4 accurate, catch 5 + 1."""
    st = state()
    st.turn = {"home": 8, "away": 8}
    put(st, "H1", "home", (20, 8), ma=4, ball=True)
    put(st, "H2", "home", (21, 6), ag=1)
    a, out = _coach(st, dice(4, 6), style="cage")
    a.turn()
    assert ("pass", "H1") in _kinds(out) and st.touchdown == "home"


def test_the_pass_past_the_line() -> None:
    """No score this turn: an AG 4 thrower with Pass hits the free Catch receiver in the opponents' half, nine
    squares on (long: 4 − 1 ≥ 3; catch 3 + 1), who then waits a square short of the line (nobody near)."""
    st = state()
    put(st, "H1", "home", (8, 8), ag=4, skills=("pass",), ball=True)
    put(st, "H2", "home", (17, 8), ma=8, skills=("catch",))
    a, out = _coach(st, dice(4, 3))
    a.turn()
    assert _kinds(out)[:2] == [("pass", "H1"), ("move", "H2")]
    assert st.ball.carrier == "H2" and st.touchdown is None and st.players["H2"].sq == (25, 8)


def test_the_clock_waits_when_level_and_nobody_can_reach_him() -> None:
    """Level at 0–0 on turn 3, the only opponent far away: the carrier stops a square short of the line."""
    st = state()
    c = put(st, "H1", "home", (20, 8), ball=True)
    put(st, "A1", "away", (3, 3))
    a, out = _coach(st, dice(), style="cage")
    a.turn()
    assert st.touchdown is None and c.sq == (25, 8)


@pytest.mark.parametrize("why", ["behind", "last_turn", "reachable"])
def test_the_clock_scores_now(why: str) -> None:
    """Behind, on the last turn, or with an opponent who could reach him (MA 6 + 3 squares): he walks in."""
    st = state()
    c = put(st, "H1", "home", (20, 8), ball=True)
    put(st, "A1", "away", (16, 14) if why == "reachable" else (3, 3))
    if why == "behind":
        st.score = [0, 1]
    if why == "last_turn":
        st.turn = {"home": 8, "away": 8}
    a, _ = _coach(st, dice(), style="cage")
    a.turn()
    assert st.touchdown == "home" and c.sq is not None and c.sq[0] == 26


def test_a_hand_off_to_a_team_mate_who_walks_in() -> None:
    """Trailing, the MA 3 carrier hands off (catch 3 + 1) to the team-mate beside him, who walks in."""
    st = state()
    st.score = [0, 1]
    put(st, "H1", "home", (19, 8), ma=3, ball=True)
    put(st, "H2", "home", (20, 8))
    a, out = _coach(st, dice(3), style="cage")
    a.turn()
    assert _kinds(out)[:2] == [("handoff", "H1"), ("move", "H2")] and st.touchdown == "home"


def _foul_scene(av: int = 8, helpers: int = 2, fouler_skills: tuple[str, ...] = ()) -> tuple[State, Player]:
    st = state()
    v = put(st, "A1", "away", (10, 8), av=av, state="prone")
    put(st, "H1", "home", (12, 8), skills=fouler_skills)
    for i, sq in enumerate([(9, 8), (10, 9)][:helpers]):
        put(st, f"H{i + 2}", "home", sq, skills=("catch",))
    put(st, "H9", "home", (3, 3), skills=("catch",), ball=True)
    return st, v


def test_the_foul_that_pays() -> None:
    """Two free team-mates beside the prone victim (AV 8): 2D6 + 2 > 8 has 21/36; the spare lineman fouls
    (3 + 5 + 2 = 10 breaks, injury 2 + 3 stunned, no doubles)."""
    st, v = _foul_scene()
    a, out = _coach(st, dice(3, 5, 2, 3), style="cage")
    assert plans.foul_assists(st, st.players["H1"], v, (11, 8)) == 2
    assert plans.foul_pays(a) and _kinds(out) == [("foul", "H1")] and v.state == "stunned"


@pytest.mark.parametrize("av,helpers,skills", [(8, 0, ()), (10, 1, ()), (8, 2, ("sure_hands",))],
                         ids=["no assist", "armour too good", "valuable fouler"])
def test_no_foul_when_it_does_not_pay(av: int, helpers: int, skills: tuple[str, ...]) -> None:
    """No assist for us; 2D6 + 1 > 10 has only 6/36 (under FOUL_BREAK); or only a ball handler could go."""
    st, _ = _foul_scene(av, helpers, skills)
    a, out = _coach(st, dice(), style="cage")
    assert not plans.foul_pays(a) and out == []


def test_the_cage_walks_where_the_free_mates_can_cage_him() -> None:
    """A dwarf-style cage: the carrier goes forward only as far as four free team-mates can follow, and they
    fill his four diagonals."""
    st = state()
    c = put(st, "H1", "home", (8, 8), ma=4, ball=True)
    for i, sq in enumerate([(7, 6), (7, 10), (6, 7), (6, 9)]):
        put(st, f"H{i + 2}", "home", sq, ma=4)
    put(st, "A1", "away", (20, 3))
    a, _ = _coach(st, dice(), style="cage")
    a.turn()
    assert c.sq is not None and c.sq[0] > 8
    diagonals = {(c.sq[0] + dx, c.sq[1] + dy) for dx in (-1, 1) for dy in (-1, 1)}
    assert {p.sq for p in st.players.values() if p.id != "H1"} & diagonals == diagonals


@settings(max_examples=8, deadline=None)
@given(hs.integers(min_value=0, max_value=10**6))
def test_every_ai_foul_is_by_a_spare_player_with_an_assist(seed: int) -> None:
    """Over whole halves: no foul by a valuable player, none without more assists for than against."""
    res = play_half(half(key=f"foul{seed}"), Dice(seed))
    sheets = {p.id: p for t in (res.home, res.away) for p in t.players}
    for t in res.record["turns"]:  # type: ignore[attr-defined]
        for a in t["actions"]:
            if a["kind"] != "foul":
                continue
            p = sheets[a["player"]]
            assert not plans.valuable(Player(p.id, p.name, p.position, "home", p.MA, p.ST, p.AG, p.AV,
                                             frozenset(p.skills)))
            foul = next((r for r in a["rolls"] if r["kind"] == "foul" and r.get("dice")), None)
            if foul is not None:
                assert sum(foul["modifiers"].values()) >= plans.FOUL_ASSISTS


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(1, 26), hs.integers(1, 15), hs.booleans(), hs.sampled_from(["standing", "prone"])),
                min_size=1, max_size=22, unique_by=lambda t: (t[0], t[1])),
       hs.integers(0, 8), hs.integers(0, 3), hs.booleans())
def test_the_no_roll_search_is_the_cheapest_first_search(spots: list[tuple[int, int, bool, str]], moved: int,
                                                          ma_less: int, through: bool) -> None:
    """With no risky roll allowed, the breadth-first search gives the heap's squares, steps, paths and order."""
    from anko_writer.rulesets.bloodbowl.match import paths

    st = state()
    for i, (x, y, home, how) in enumerate(spots):
        put(st, f"P{i:02d}", "home" if home else "away", (x, y), ma=8 - ma_less, state=how)
    st.ball.sq = (13, 8) if (13, 8) not in st.grid else None
    p = st.players["P00"]
    p.moved = min(moved, p.ma)
    tz = paths.tz_map(st, p.side)
    normal, limit = max(0, p.ma - p.moved), p.ma + 2 - p.moved
    ball = None if through else st.ball.sq
    assert p.sq is not None
    fast = paths._reach_free(st, p.sq, tz, normal, limit, ball)
    slow = paths._reach_search(st, p.sq, tz, normal, limit, ball, 0)
    assert list(fast.items()) == list(slow.items())
