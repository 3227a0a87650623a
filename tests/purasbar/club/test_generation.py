"""000 §2.2 ability allocation, §3.2 core players, §3.3 role players, with fixed dice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.club.generation import allocate, plan_squad, roll_core, roll_role
from anko_writer.rulesets.purasbar.models import Player
from tests.util import RES

TEAM = {"ATK": 40, "DEF": 30, "MID": 50, "GK": 20}


def test_allocation_exact() -> None:
    """1D4 = 1 → ATK first; 1D3 = 2 → MID, 1D2 = 1 → DEF; then R% of what remains, floored."""
    d = Dice(1)
    d.fix(1, 2, 1, 30, 50, 60)
    a = allocate(d, "k", 134)
    assert a.order == ["ATK", "MID", "DEF", "GK"]
    assert [(s.remaining, s.value) for s in a.steps] == [(134, 40), (94, 47), (47, 28)]
    assert a.result == {"ATK": 40, "DEF": 28, "MID": 47, "GK": 19}


def test_allocation_cap_overflow_and_floor_protection() -> None:
    """Above 99 the value locks at 99 and the overflow stays in the pool; < 1 is raised to 1 from the largest."""
    d = Dice(1)
    d.fix(2, 1, 1, 100, 100, 50)  # DEF first, then ATK, MID, GK
    a = allocate(d, "k", 150)
    s = a.steps
    assert (s[0].computed, s[0].value, s[0].overflow) == (150, 99, 51)
    assert (s[1].remaining, s[1].value) == (51, 51)
    assert (s[2].remaining, s[2].value) == (0, 0)
    assert a.protections == [("MID", "DEF", 1), ("GK", "DEF", 1)]
    assert a.result == {"ATK": 51, "DEF": 97, "MID": 1, "GK": 1}
    assert sum(a.result.values()) == 150


def test_allocation_fourth_above_cap_gives_overflow_in_priority_order() -> None:
    d = Dice(1)
    d.fix(3, 1, 1, 1, 1, 1)  # MID first, then ATK, DEF, GK last
    a = allocate(d, "k", 150)
    assert a.last == "GK" and a.last_value == 147
    assert a.last_overflow == [("MID", 48)]
    assert a.result == {"ATK": 1, "DEF": 1, "MID": 49, "GK": 99}


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**9), total=st.sampled_from([36, 44, 50, 88, 116, 134, 140, 144, 150]))
def test_allocation_invariants(seed: int, total: int) -> None:
    """Every ability in 1–99 and the four sum to the city's total (000 §2.2)."""
    a = allocate(Dice(seed), "k", total)
    assert all(1 <= v <= 99 for v in a.result.values())
    assert sum(a.result.values()) == total


def test_core_forward_formulas() -> None:
    """FW: ATK × (0.6 + d/500), MID × (0.3 + d/800), DEF × (0.2 + d/1000), GK × (0.1 + d/1200)."""
    d = Dice(1)
    d.fix(50, 80, 100, 1, 10, 5, 1)
    p = Player("甲", "FW", True)
    roll_core(d, "k", p, TEAM)
    assert p.attrs == {"ATK": 28, "DEF": 9, "MID": 20, "GK": 2, "STA": 50, "MNT": 35}
    assert p.age == 18 and p.stamina == 100 and p.morale == 0
    assert p.wage == p.total * 2500 == 144 * 2500


def test_core_midfielder_and_defender_formulas() -> None:
    d = Dice(1)
    d.fix(100, 100, 100, 100, 50, 50, 18)
    mf = Player("乙", "MF", True)
    roll_core(d, "k", mf, TEAM)
    # MID 50×0.8=40, ATK 40×(0.3+0.125)=17, DEF 30×(0.2+0.125)=9, GK 20×(0.1+1/12)=3
    assert mf.attrs == {"ATK": 17, "DEF": 9, "MID": 40, "GK": 3, "STA": 90, "MNT": 80}
    assert mf.age == 35
    d.fix(100, 100, 100, 100, 1, 1, 1)
    df = Player("丙", "DF", True)
    roll_core(d, "k", df, TEAM)
    # DEF 30×0.8=24, MID 50×0.425=21, GK 20×(0.2+0.125)=6, ATK 40×(0.1+1/12)=7
    assert df.attrs == {"ATK": 7, "DEF": 24, "MID": 21, "GK": 6, "STA": 41, "MNT": 31}


def test_core_goalkeeper_formulas() -> None:
    """GK: GK × (0.7 + d/400), DEF × (0.3 + d/800), MID × (0.2 + d/1000), ATK × 0.05; STA 1D50+30, MNT 1D50+20."""
    d = Dice(1)
    d.fix(100, 40, 50, 1, 1, 1)
    p = Player("丁", "GK", True)
    roll_core(d, "k", p, TEAM)
    assert p.attrs == {"ATK": 2, "DEF": 10, "MID": 12, "GK": 19, "STA": 31, "MNT": 21}


def test_core_formula_floor_one() -> None:
    d = Dice(1)
    d.fix(1, 1, 1, 1, 1, 1, 1)
    p = Player("戊", "FW", True)
    roll_core(d, "k", p, {"ATK": 1, "DEF": 1, "MID": 1, "GK": 1})
    assert min(p.attrs.values()) == 1


def test_role_player() -> None:
    """k = 0.4 + D100/250; main = team × k, two secondaries = team × k/2, the fourth is 1."""
    d = Dice(1)
    d.fix(7, 50, 20, 10)  # age 24, k roll 50 → 0.6, STA 60, MNT 20
    p = Player("己", "MF", False)
    roll_role(d, "k", p, TEAM)
    assert p.k == 0.6 and p.age == 24
    assert p.attrs == {"ATK": 12, "DEF": 9, "MID": 30, "GK": 1, "STA": 60, "MNT": 20}
    assert p.wage == 20_000
    d.fix(1, 100, 40, 20)
    g = Player("庚", "GK", False)
    roll_role(d, "k", g, TEAM)
    assert g.k == 0.8 and g.attrs == {"ATK": 1, "DEF": 12, "MID": 20, "GK": 16, "STA": 80, "MNT": 30}


def test_squad_plan_rerolls_last_for_missing_position() -> None:
    """1D3+2 cores, 1D10+10 role players, 1D4 positions; a missing GK re-rolls the last player until found."""
    d = Dice(1)
    d.fix(1, 1, *([1] * 12), 2, 3, 1, 2, 4)  # 3 cores + 11 role: 12 FW, MF, DF; rerolls 1, 2, 4
    plan = plan_squad(d, "k")
    assert plan.core_count == 3 and len(plan.positions) == 14
    assert plan.positions[11] == "GK"
    assert plan.positions[:11] == ["FW"] * 11 and plan.positions[12:] == ["MF", "DF"]
    assert [r["total"] for r in plan.rerolls[0]["rolls"]] == [1, 2, 4]
    assert plan.rerolls[0]["index"] == 11  # the last player whose position is not unique


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_new_club_invariants(seed: int) -> None:
    """Any generated club: 3–5 cores, 14–25 players, every position present, abilities in 1–99."""
    nc = __import__("anko_writer.rulesets.purasbar", fromlist=["RULESET"]).RULESET.new_campaign(
        {"city": "穆西卡"}, seed, RES)
    players = nc.chapter0.results["players"]
    cores = [p for p in players if p["core"]]
    assert 3 <= len(cores) <= 5 and 14 <= len(players) <= 25
    assert {p["position"] for p in players} == {"FW", "MF", "DF", "GK"}
    for p in players:
        assert all(1 <= p[a] <= 99 for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT"))
        assert 18 <= p["age"] <= 35
