"""Contracts and renewals (designed 000 ch.10, §4.4 step 8) and the players' monthly affinity."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.render import find_problems, make_env
from anko_writer.rulesets.purasbar.models import SQUAD_LIMIT
from anko_writer.rulesets.purasbar.money.ledger import Ledger
from anko_writer.rulesets.purasbar.transfers.contracts import (
    affinity_change,
    age_modifier,
    assign_contracts,
    contract_offer,
    initial_contract,
    load_contracts,
    load_contracts_table,
    month_affinity,
    renewal,
    renewal_band,
    season_contracts,
    signing_bonus,
    start_affinity,
)
from tests.util import RES, club, player

TABLE = load_contracts(RES)


def test_table_is_designed_with_the_five_affinity_bands() -> None:
    assert TABLE["source"] == "designed"
    bands = [(b["from"], b["to"], b["chance"], b.get("rival_from"), b["bonus_percent"])
             for b in TABLE["renewal"]["bands"]]
    assert bands == [(0, 10, 10, 11, 50), (11, 30, 40, 91, 30), (31, 70, 70, None, 20),
                     (71, 90, 90, None, 10), (91, 100, 98, None, 0)]
    assert TABLE["affinity"] == {"start": 50, "played": 1, "benched": -1, "injured": 0, "winning": 1, "losing": -1}


def test_bands_must_cover_0_to_100(tmp_path: Path) -> None:
    text = RES.table_path("contracts.yaml").read_text(encoding="utf-8").replace("{from: 11, to: 30", "{from: 12, to: 30")
    bad = tmp_path / "contracts.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match="这一段应从 11 开始"):
        load_contracts_table(bad)


@pytest.mark.parametrize("age, face, length", [
    (18, 1, 2), (23, 3, 4), (24, 1, 1), (30, 3, 3), (31, 1, 1), (31, 2, 1), (35, 3, 2),
])
def test_initial_contract_is_1d3_plus_age(age: int, face: int, length: int) -> None:
    d = Dice(1)
    d.fix(face, prefix="k")
    assert initial_contract(d, "k", player("甲", "FW", age=age), TABLE) == length
    assert [age_modifier(a, TABLE) for a in (23, 24, 30, 31)] == [1, 0, 0, -1]


def test_contract_offer_record_and_assign() -> None:
    d = Dice(1)
    d.fix(2, prefix="k/乙")
    rec = contract_offer(d, "k/乙", player("乙", "DF", age=33), TABLE)
    assert (rec["roll"]["total"], rec["mod"], rec["length"]) == (2, -1, 1)
    squad = [player(n, "MF", age=a) for n, a in (("丙", 20), ("丁", 27))]
    d.fix(3, prefix="c/丙")
    d.fix(1, prefix="c/丁")
    assert [r["length"] for r in assign_contracts(d, "c", squad, TABLE)] == [4, 1]
    assert [p.contract for p in squad] == [4, 1]


@pytest.mark.parametrize("affinity, key", [(0, "hostile"), (10, "hostile"), (11, "distant"), (30, "distant"),
                                           (31, "professional"), (70, "professional"), (71, "trusted"),
                                           (90, "trusted"), (91, "devoted"), (100, "devoted")])
def test_renewal_band_edges(affinity: int, key: str) -> None:
    assert renewal_band(affinity, TABLE)["key"] == key


def _setup(affinity: int, room: bool = True) -> tuple[dict, object, object]:
    """Three clubs; 甲 of 主队 has the given affinity and an expiring contract."""
    p = player("甲", "FW", age=26)
    p.affinity, p.contract = affinity, 1
    home = club("主队", [p, player("乙", "GK")])
    home.ledger = Ledger(1_000_000)
    rival = club("死敌", [player(f"r{i}", "MF") for i in range(SQUAD_LIMIT if not room else 5)])
    other = club("路人", [player("x", "DF")])
    return {c.name: c for c in (home, rival, other)}, home, p


@pytest.mark.parametrize("affinity, face, outcome", [
    (50, 70, "renewed"), (50, 71, "free"), (10, 10, "renewed"), (10, 11, "rival"), (0, 100, "rival"),
    (20, 40, "renewed"), (20, 41, "free"), (20, 90, "free"), (20, 91, "rival"), (80, 90, "renewed"),
    (80, 91, "free"), (95, 98, "renewed"), (95, 99, "free"),
])
def test_renewal_roll_against_the_band(affinity: int, face: int, outcome: str) -> None:
    clubs, home, p = _setup(affinity)
    d = Dice(1)
    d.fix(face, 2 if outcome == "renewed" else 1, 1, prefix="r")  # D100, then the length or the rival die (1 = 死敌)
    rec = renewal(d, "r", p, home, ["死敌", "路人"], TABLE, clubs, season=1)
    assert rec["outcome"] == outcome and rec["roll"]["total"] == face
    if outcome == "renewed":
        assert p in home.players and p.contract == rec["length"] == 2
    elif outcome == "rival":
        assert p in clubs["死敌"].players and p not in home.players and rec["to"] == "死敌"
        assert p.affinity == 50 and p.contract == rec["length"]
    else:
        assert all(p not in c.players for c in clubs.values()) and rec["to"] is None


def test_renewal_bonus_is_posted_in_the_settlement() -> None:
    clubs, home, p = _setup(50)
    d = Dice(1)
    d.fix(1, 3, prefix="r")
    rec = renewal(d, "r", p, home, ["死敌"], TABLE, clubs, season=2)
    assert p.wage == 230 * 2500 and rec["bonus_percent"] == 20
    assert rec["bonus"] == signing_bonus(p.wage, 20, TABLE) == 115_000
    assert [(e.season, e.month, e.kind, e.amount) for e in home.ledger.entries] == [(2, 13, "signing_bonus", -115_000)]
    assert home.ledger.balance == 885_000 and p.contract == 3


def test_rival_without_room_means_a_free() -> None:
    clubs, home, p = _setup(5, room=False)
    d = Dice(1)
    d.fix(50, 1, prefix="r")
    rec = renewal(d, "r", p, home, ["死敌", "路人"], TABLE, clubs)
    assert (rec["outcome"], rec["rival"], rec["reason"], rec["to"]) == ("free", "死敌", "full", None)
    assert len(clubs["死敌"].players) == SQUAD_LIMIT and p not in home.players


def test_rival_without_clubs_is_left_to_the_caller() -> None:
    _, home, p = _setup(5)
    d = Dice(1)
    d.fix(50, 2, prefix="r")
    rec = renewal(d, "r", p, home, ["死敌", "路人"], TABLE)
    assert (rec["outcome"], rec["to"], rec["moved"]) == ("rival", "路人", False)
    assert p not in home.players


def test_season_contracts_tick_and_roll() -> None:
    a, b, c = player("a", "FW"), player("b", "MF"), player("c", "DF")
    a.contract, b.contract, c.contract = 1, 3, 1
    one = club("一", [a, b])
    two = club("二", [c])
    d = Dice(1)
    d.fix(1, 2, prefix="s/一/a")    # a renews for 2
    d.fix(99, prefix="s/二/c")      # c (affinity 50) leaves on a free
    pool: list = []
    rec = season_contracts(d, "s", {"一": one, "二": two}, TABLE, free_pool=pool)
    assert [(r["player"], r["outcome"]) for r in rec["renewals"]] == [("a", "renewed"), ("c", "free")]
    assert (a.contract, b.contract) == (2, 2) and rec["ticked"] == [{"club": "一", "player": "b", "contract": 2}]
    assert pool == [c] and two.players == []


def test_renewal_rate_matches_the_band() -> None:
    d = Dice(20240601)
    for affinity, expected in ((50, 0.70), (20, 0.40), (5, 0.10)):
        kept = 0
        n = 3000
        for i in range(n):
            clubs, home, p = _setup(affinity)
            kept += renewal(d, f"stat/{affinity}/{i}", p, home, ["路人"], TABLE, clubs)["renewed"]
        assert abs(kept / n - expected) < 0.03


@pytest.mark.parametrize("played, injured, results, delta", [
    (True, False, ["win", "draw"], 2), (True, False, ["win", "loss"], 1), (True, False, ["loss"], 0),
    (False, False, ["loss", "loss"], -2), (False, True, ["loss"], -1), (False, True, [], 0),
    (False, False, ["win", "win", "loss"], 0),
])
def test_affinity_change(played: bool, injured: bool, results: list[str], delta: int) -> None:
    p = player("甲", "MF")
    p.affinity = 50
    rec = affinity_change(p, played, results, TABLE, injured=injured)
    assert rec["delta"] == delta and rec["after"] == 50 + delta
    assert month_affinity(p, played, results, TABLE, injured=injured) == 50 + delta
    assert p.affinity == 50  # the caller stores it


def test_affinity_reads_the_injury_and_refuses_unknown_results() -> None:
    p = player("甲", "MF")
    p.injured_weeks = 3
    assert affinity_change(p, False, [], TABLE)["role"] == "injured"
    with pytest.raises(ValueError):
        affinity_change(p, True, ["won"], TABLE)
    assert (start_affinity(20, TABLE), start_affinity(-60, TABLE)) == (70, 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100), st.lists(st.tuples(st.booleans(), st.booleans(),
                                               st.lists(st.sampled_from(["win", "draw", "loss"]), max_size=8)),
                                     max_size=40))
def test_affinity_stays_in_range(start: int, months: list) -> None:
    p = player("甲", "MF")
    p.affinity = start
    for played, hurt, results in months:
        p.affinity = month_affinity(p, played, results, TABLE, injured=hurt)
        assert 0 <= p.affinity <= 100


def test_renewal_macros_render() -> None:
    clubs, home, p = _setup(50)
    d = Dice(1)
    d.fix(1, 3, prefix="s/主队/甲")
    q = player("丙", "GK", age=24)
    q.contract, q.affinity = 1, 5
    home.players.append(q)
    d.fix(60, 1, 2, prefix="s/主队/丙")
    rec = season_contracts(d, "s", clubs, TABLE, season=1)
    env = make_env(RES)
    text = env.from_string("{% import 'transfers.j2' as tr %}{{ tr.renewals(rec, '主队') }}\n"
                           "{{ tr.affinity(a) }}").render(rec=rec, a=affinity_change(p, True, ["win"], TABLE))
    assert "**甲**（前锋，26 岁）好感 50（公事公办，续约率 70%）：续约意愿「1D100＝1」 ≤ 70，**续约** 3 季（「1D3＝3」）" in text
    assert "签字费 = 年薪 575,000 P$ × 20% = 115,000 P$" in text
    assert "**丙**（门将，24 岁）好感 5（敌视，续约率 10%）：续约意愿「1D100＝60」 > 10，拒绝续约，去向「1D2＝1」 → **加盟死敌**" in text
    assert "甲好感 出场 +1、本月胜多负少 +1：50 → 52" in text
    assert find_problems(text) == []
