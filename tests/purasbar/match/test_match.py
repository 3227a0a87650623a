"""000 §5.1–5.3, §5.6, §7.1: 攻势值, 终结值, shooter draw, slices, stamina, recovery, formations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.match.abilities import effective, effective_all, stamina_factor, team_abilities
from anko_writer.rulesets.purasbar.match.engine import (
    COMPETITION_DIE,
    SLICES,
    _Ctx,
    attack,
    pick_lineup,
    play,
    recovery,
    stamina_loss,
)
from anko_writer.rulesets.purasbar.match.formations import FORMATIONS, apply_bonus, counter
from tests.util import club, no_reveal, player, side


def _xi(prefix: str, *, fw: int = 40, mf: int = 30, df: int = 40, gk: int = 30, n=(4, 4, 2)) -> dict:
    d, m, f = n
    return {
        "GK": [player(f"{prefix}门", "GK", gk=gk)],
        "DF": [player(f"{prefix}卫{i}", "DF", df=df) for i in range(d)],
        "MF": [player(f"{prefix}中{i}", "MF", mid=mf) for i in range(m)],
        "FW": [player(f"{prefix}锋{i}", "FW", atk=fw) for i in range(f)],
    }


def _sides(home_form: str = "4 3 3", away_form: str = "4 4 2"):
    hx = _xi("主", n=(FORMATIONS[home_form].df, FORMATIONS[home_form].mf, FORMATIONS[home_form].fw))
    ax = _xi("客", n=(FORMATIONS[away_form].df, FORMATIONS[away_form].mf, FORMATIONS[away_form].fw))
    h = club("主队", [p for ps in hx.values() for p in ps])
    a = club("客队", [p for ps in ax.values() for p in ps])
    return side(h, hx, home_form, +2), side(a, ax, away_form, -2)


def test_formation_table_and_counters() -> None:
    """000 §7.1 bonuses and the §7.1.1 cycle 4 4 2 > 3 5 2 > 5 4 1 > 4 3 3 > 4 4 2."""
    assert FORMATIONS["4 4 2"].bonus == {"ATK": 5, "DEF": 5, "MID": 0, "GK": 0}
    assert FORMATIONS["4 3 3"].bonus == {"ATK": 15, "DEF": -10, "MID": 5, "GK": 0}
    assert FORMATIONS["5 4 1"].bonus == {"ATK": -15, "DEF": 20, "MID": 0, "GK": 5}
    assert FORMATIONS["3 5 2"].bonus == {"ATK": 5, "DEF": -5, "MID": 15, "GK": 0}
    assert [counter("4 4 2", "3 5 2"), counter("4 3 3", "4 4 2"), counter("5 4 1", "4 3 3"),
            counter("3 5 2", "5 4 1")] == [2, 2, 2, 2]
    assert [counter("3 5 2", "4 4 2"), counter("4 4 2", "4 3 3")] == [-2, -2]
    assert counter("4 4 2", "5 4 1") == counter("4 3 3", "3 5 2") == counter("4 4 2", "4 4 2") == 0
    assert apply_bonus(43, "MID", "3 5 2") == 49 and apply_bonus(40, "ATK", "5 4 1") == 34


def test_stamina_penalty_bands() -> None:
    """000 §5.3.2: ≥ 50 none, 30–49 × 0.8, < 30 × 0.6, floored after the formation bonus."""
    assert [stamina_factor(s) for s in (100, 50, 49, 30, 29, 0)] == [(1, 1), (1, 1), (4, 5), (4, 5), (3, 5), (3, 5)]
    p = player("甲", "FW", atk=50, stamina=45)
    assert effective(p, "ATK", "4 3 3") == 57 * 4 // 5  # 50 × 1.15 = 57 → × 0.8 = 45
    p.stamina = 20
    assert effective(p, "ATK", None) == 30


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 100), st.integers(16, 40)), min_size=0, max_size=6),
       st.sampled_from(["ATK", "DEF", "MID", "GK"]), st.sampled_from([None, *FORMATIONS]), st.integers(-5, 5))
def test_effective_all_is_effective_of_each(rows: list[tuple[int, int, int]], attr: str, formation: str | None,
                                            boost: int) -> None:
    """The whole-group form an attack uses (issue 29) is :func:`effective` player by player."""
    ps = [player(f"p{i}", "MF", atk=v, df=v, mid=v, gk=v, stamina=s, age=a) for i, (v, s, a) in enumerate(rows)]
    assert effective_all(ps, attr, formation, boost) == [effective(p, attr, formation, boost) for p in ps]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["ATK", "DEF", "MID", "GK"]), st.booleans(), st.integers(0, 100), st.integers(0, 100))
def test_side_values_are_side_value_of_each(attr: str, adapting: bool, s1: int, s2: int) -> None:
    """:meth:`Side.values` with and without stand-ins, training bonuses and boosts is :meth:`Side.value` of each."""
    a, b = player("甲", "FW", atk=41, mid=37, stamina=s1), player("乙", "MF", atk=23, mid=52, stamina=s2, age=31)
    s = side(club("队", [a, b]), {"GK": [], "DF": [], "MF": [b], "FW": [a]}, "4 3 3", 2)
    s.adapting = adapting
    assert s.values([a, b], attr) == [s.value(a, attr), s.value(b, attr)]
    s.temp, s.pre_bonus, s.boost = {"乙": (attr, 19)}, {"甲": (attr, 2)}, {"甲": 3}
    assert s.values([a, b], attr) == [s.value(a, attr), s.value(b, attr)]


def test_attack_exact_numbers_and_goal() -> None:
    """攻势值 = (46 + 31)/2 − (42 + 30)/2 + 20 + 2 (counter) + 2 (home) = 26 > 15 → shot; 终结值 = 13 + (46 − 30)/2 = 21 > 20."""
    home, away = _sides()
    d = Dice(1)
    d.fix(20, 10, 2, 13)  # attack die, shooter group 1D100 = 10 → FW, pick 1D3 = 2, finish 13
    ctx = _Ctx(d, "m", COMPETITION_DIE["league"], no_reveal)
    a = attack(ctx, 1, home, away)
    assert (a["attack_fw"], a["attack_mf"], a["attack_avg"]) == (46, 31, 38)
    assert (a["defense_df"], a["defense_mf"], a["defense_avg"]) == (42, 30, 36)
    assert a["modifiers"] == {"formation": 2, "venue": 2, "morale": 0}
    assert a["value"] == 26 and a["shot"] and a["die_sides"] == 30
    assert a["shooter"] == "主锋1" and a["shooter_pos"] == "FW"
    assert (a["shooter_atk"], a["keeper_gk"], a["finish_die"], a["finish_value"]) == (46, 30, 13, 21)
    assert a["goal"] and home.goals == 1


def test_attack_threshold_is_strict() -> None:
    """Exactly 15 is no shot; exactly 20 is no goal (000 §5.1.1, §5.1.2: strictly greater)."""
    home, away = _sides()
    d = Dice(1)
    d.fix(9)  # 38 − 36 + 9 + 4 = 15
    ctx = _Ctx(d, "m", 30, no_reveal)
    assert attack(ctx, 1, home, away)["shot"] is False
    d.fix(10, 1, 1, 12)  # 16 → shot; FW 1; finish 12 + 8 = 20 → saved
    a = attack(ctx, 1, home, away)
    assert a["shot"] and a["finish_value"] == 20 and not a["goal"]


def test_away_side_and_morale_modifier() -> None:
    """Away −2, counter −2 (4 4 2 against 4 3 3), morale floor(57/10) = 5, capped at +5 for 80."""
    home, away = _sides()
    away.club.morale = 57
    d = Dice(1)
    d.fix(1)
    a = attack(_Ctx(d, "m", 30, no_reveal), 1, away, home)
    assert a["modifiers"] == {"formation": -2, "venue": -2, "morale": 5}
    away.club.morale = 80
    d.fix(1)
    assert attack(_Ctx(d, "m", 30, no_reveal), 1, away, home)["modifiers"]["morale"] == 5
    away.club.morale = -25
    d.fix(1)
    assert attack(_Ctx(d, "m", 30, no_reveal), 1, away, home)["modifiers"]["morale"] == -3


@pytest.mark.parametrize("face,group", [(1, "FW"), (50, "FW"), (51, "MF"), (80, "MF"), (81, "OTHER"), (100, "OTHER")])
def test_shooter_weights(face: int, group: str) -> None:
    """000 §5.1.2: FW 50 / MF 30 / others 20 on one D100."""
    home, away = _sides()
    d = Dice(1)
    d.fix(30, face, 1, 1)
    a = attack(_Ctx(d, "m", 30, no_reveal), 1, home, away)
    assert a["shooter_pick"]["group"] == group and a["shooter_pick"]["group_roll"]["expr"] == "1D100"


def test_shooter_weights_respread_without_forwards() -> None:
    """An empty group's weight is spread in proportion: MF 30 and others 20 become a 1D50."""
    home, away = _sides()
    home.lineup["FW"] = []
    for _, p in away.on_pitch():
        p.attrs.update(DEF=1, MID=1)
    d = Dice(1)
    d.fix(30, 31, 1, 1)
    a = attack(_Ctx(d, "m", 30, no_reveal), 1, home, away)
    assert a["shooter_pick"]["group_roll"]["expr"] == "1D50"
    assert a["shooter_pick"]["weights"] == [["MF", 30], ["OTHER", 20]]
    assert a["shooter_pick"]["group"] == "OTHER"
    assert a["attack_fw"] == 0  # no FW: that half of the mean counts 0


def test_finish_floor_on_negative_odd_difference() -> None:
    """(ATK − GK) / 2 rounds down: (30 − 45) / 2 = −8."""
    home, away = _sides("4 4 2", "4 4 2")
    for p in away.lineup["GK"]:
        p.attrs["GK"] = 45
    for p in home.lineup["FW"]:
        p.attrs["ATK"] = 29  # × 1.05 = 30
    d = Dice(1)
    d.fix(30, 1, 1, 25)
    a = attack(_Ctx(d, "m", 30, no_reveal), 1, home, away)
    assert (a["shooter_atk"], a["keeper_gk"], a["finish_value"]) == (30, 45, 17)


def test_match_kickoff_slices_stamina_and_recovery() -> None:
    """1D2 = 2: the away side attacks first in all six slices; −5 a slice, −6 from 30; §5.6 recovery."""
    home, away = _sides()
    home.lineup["FW"][0].age = 30
    home.club.facilities = {"medical": 2}
    d = Dice(1)
    d.fix(2, prefix="m")
    rec = play(d, "m", home, away, competition="league", round_no=1, neutral=False, reveal=no_reveal)
    assert rec["first"] == "away" and len(rec["slices"]) == 6 == len(SLICES)
    teams = [rec["attacks"][e["attack"]]["team"] for s in rec["slices"] for e in s["events"] if e["kind"] == "attack"]
    assert teams == ["客队", "主队"] * 6
    end = {p["name"]: p["stamina_end"] for p in rec["lineups"]["home"]}
    assert end["主锋0"] == 100 - 36 and end["主锋1"] == 100 - 30
    after = {p["name"]: p["recovered"] for p in rec["lineups"]["home"]}
    assert after["主锋0"] == 64 + 12 and after["主锋1"] == 70 + 12  # 10 + medical 2
    assert rec["score"] == [sum(a["goal"] for a in rec["attacks"] if a["team"] == "主队"),
                            sum(a["goal"] for a in rec["attacks"] if a["team"] == "客队")]


def test_recovery_formula() -> None:
    """000 §5.6: 10 + medical + 2 × doctor, +2 if ≤ 23, morale ≥ 60 adds (morale − 50)/10, 3rd match halves."""
    c = club("队", [], facilities={"medical": 3}, doctor=2)
    young, old = player("少", "FW", age=23), player("老", "FW", age=24)
    assert recovery(c, young, 1) == 19 and recovery(c, old, 1) == 17
    assert recovery(c, young, 3) == 9
    c.morale = 75
    assert recovery(c, old, 1) == 19
    c.morale = 59
    assert recovery(c, old, 1) == 17


def test_stamina_loss_rule() -> None:
    assert stamina_loss(player("a", "FW", age=29)) == 5
    assert stamina_loss(player("b", "FW", age=30)) == 6
    assert stamina_loss(player("c", "FW", age=30), extra_time=True) == 12


def test_lineup_numbers_and_health() -> None:
    """A line-up holds the formation's DF/MF/FW and one GK, never an injured player."""
    players = [player(f"后{i}", "DF", df=30 + i) for i in range(6)] + \
              [player(f"中{i}", "MF", mid=30 + i) for i in range(5)] + \
              [player(f"前{i}", "FW", atk=30 + i) for i in range(4)] + [player("门", "GK"), player("替门", "GK", gk=10)]
    players[5].injured_weeks = 2  # the best DF is hurt
    c = club("队", players)
    xi = pick_lineup(c, "5 4 1")
    assert {k: len(v) for k, v in xi.items()} == {"GK": 1, "DF": 5, "MF": 4, "FW": 1}
    assert players[5] not in xi["DF"] and xi["GK"][0].name == "门"
    assert xi["FW"][0].name == "前3"


def test_lineup_fills_a_short_position_from_others() -> None:
    players = [player(f"后{i}", "DF") for i in range(3)] + [player(f"中{i}", "MF", atk=20 + i) for i in range(8)] + \
              [player("前", "FW"), player("门", "GK")]
    xi = pick_lineup(club("队", players), "4 3 3")
    assert len(xi["DF"]) == 4 and len(xi["FW"]) == 3
    assert sum(p.position != "FW" for p in xi["FW"]) == 2


def test_team_abilities_weighted_by_total_over_the_position_that_carries_each() -> None:
    """000 §3.1.1: weight = the player's total ability, taken per position (ATK over FW, DEF over DF, MID
    over MF, GK over GK); injured players do not count; a position with no one gives 1."""
    a = player("甲", "FW", atk=60, df=10, mid=10, gk=10)  # total 90 + 110 = 200
    b = player("乙", "FW", atk=30, df=60, mid=10, gk=10)
    b.attrs["STA"] = 10  # total 110 + 10 + 50 = 170
    assert (a.total, b.total) == (200, 170)
    keeper = player("丙", "GK", atk=1, df=20, mid=10, gk=48)
    ab = team_abilities([a, b, keeper])
    assert ab["ATK"] == (60 * 200 + 30 * 170) // 370
    assert ab["GK"] == 48  # the outfield players' GK of 10 is not weighed in
    assert ab["DEF"] == 1 and ab["MID"] == 1  # no defender, no midfielder
    b.injured_weeks = 1
    assert team_abilities([a, b, keeper])["ATK"] == 60
    assert team_abilities([]) == {"ATK": 1, "DEF": 1, "MID": 1, "GK": 1}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), form_h=st.sampled_from(list(FORMATIONS)), form_a=st.sampled_from(list(FORMATIONS)),
       stamina=st.integers(0, 100), age=st.integers(18, 35))
def test_match_invariants(seed: int, form_h: str, form_a: str, stamina: int, age: int) -> None:
    """Any match: value formula holds, shot iff > 15, goal iff > 20, score = goals, stamina in 0–100."""
    home, away = _sides(form_h, form_a)
    for s in (home, away):
        for _, p in s.on_pitch():
            p.stamina, p.age = stamina, age
    rec = play(Dice(seed), "m", home, away, competition="league", round_no=1, neutral=False, reveal=no_reveal)
    for a in rec["attacks"]:
        assert a["value"] == a["attack_avg"] - a["defense_avg"] + a["die"] + sum(a["modifiers"].values())
        assert a["shot"] == (a["value"] > 15) and 1 <= a["die"] <= 30
        assert a["goal"] == (a["shot"] and a["finish_value"] is not None and a["finish_value"] > 20)
    assert rec["score"] == [sum(a["goal"] for a in rec["attacks"] if a["team"] == t) for t in ("主队", "客队")]
    for s in (home, away):
        assert all(0 <= p.stamina <= 100 for _, p in s.on_pitch())
