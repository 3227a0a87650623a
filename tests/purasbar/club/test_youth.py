"""The youth academy (designed ch.9) and role-player promotion (000 §3.3.2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.rulesets.purasbar.club.youth import (
    eligible,
    load_youth,
    load_youth_table,
    promotion_chance,
    promotions,
    youth_intake,
)
from anko_writer.rulesets.purasbar.match.abilities import team_abilities
from anko_writer.rulesets.purasbar.models import SQUAD_LIMIT, Player
from anko_writer.rulesets.purasbar.setup.data import load_tables
from tests.purasbar.club.test_ageing import render_macro
from tests.util import RES, club, player

TABLE = load_youth(RES)
NAMES = load_tables(RES).names


def squad(n: int) -> list[Player]:
    """``n`` rolled role players (ATK 40, DEF 30, MID 20, GK 10 equivalents), positions FW, MF, DF, GK in
    turn (so a squad of four or more has every §3.1.1 team ability: ATK 40, MID 20, DEF 30, GK 10)."""
    return [player(f"p{i}", ("FW", "MF", "DF", "GK")[i % 4], atk=40, df=30, mid=20, gk=10, core=False)
            for i in range(n)]


def academy(n: int, level: int, training: int = 2):  # noqa: ANN201
    """A club of ``n`` players with the given youth and training facilities."""
    return club("雷希特竞技", squad(n), facilities={"training": training, "youth": level, "medical": 1})


def role(name: str, age: int, apps: int = 0, goals: int = 0, pos: str = "FW") -> Player:
    """A role player with this season's appearances and goals."""
    p = player(name, pos, age=age, core=False)
    p.attrs["MNT"] = 20
    p.k, p.apps, p.goals = 0.6, apps, goals
    return p


def test_table_is_designed_with_the_documented_numbers() -> None:
    assert TABLE["source"] == "designed"
    assert [(r["level"], r["count"], r["k"]) for r in TABLE["intake"]] == [
        (1, "1D2", "1D50"), (2, "1D3", "1D60+5"), (3, "1D3+1", "1D70+10"), (4, "1D4+1", "1D80+10"),
        (5, "1D4+2", "1D80+20")]
    assert (TABLE["age"], TABLE["contract"], TABLE["affinity"]) == ("1D3+15", 3, "1D20+50")
    pt = TABLE["promotion"]
    assert (pt["min_apps"], pt["min_goals"], pt["per_training"], pt["per_assistant"], pt["min_chance"],
            pt["limit"], pt["mnt_bonus"]) == (18, 6, 3, 2, 1, 1, "1D10")
    assert [(b["from"], b["to"], b["term"]) for b in pt["age_terms"]] == \
        [(1, 21, 10), (22, 24, 6), (25, 27, 2), (28, 30, 0), (31, 99, -5)]


# ---------------------------------------------------------------- intake


def test_intake_pins_every_die() -> None:
    """The equivalents are k × the club's §2.2 abilities (designed YOUTH_REFERENCE), not its current
    dynamic abilities (ATK 40, DEF 30, MID 20, GK 10 here)."""
    c = academy(10, 3)
    team = dict(c.initial)
    assert team != team_abilities(c.players)
    d = Dice(1)
    d.fix(2, prefix="s1/youth/count")                 # 1D3+1 → 3 players
    d.fix(2, 1, 40, 10, 5, 7, prefix="s1/youth/1")    # MF, 16, k face 50, STA 50, MNT 15, affinity 57
    rec = youth_intake(d, "s1/youth", c, TABLE, NAMES, set())
    assert (rec["level"], rec["rolled"], rec["room"], rec["count"], rec["capped"], rec["k_die"]) == \
        (3, 3, 23, 3, False, "1D70+10")
    assert rec["team"] == team and len(c.players) == 13
    y = c.players[10]
    first = rec["players"][0]
    assert (y.name, y.position, y.age, y.k, y.core, y.youth, y.contract, y.affinity) == \
        (first["name"], "MF", 16, 0.6, False, True, 3, 57)
    assert first["k_roll"]["total"] == 50 and first["main"] == "MID" and first["secondary"] == ["ATK", "DEF"]
    assert y.attrs == {"ATK": team["ATK"] * 150 // 500, "DEF": team["DEF"] * 150 // 500,
                       "MID": team["MID"] * 150 // 250, "GK": 1, "STA": 50, "MNT": 15}
    assert len({p.name for p in c.players}) == 13


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_each_level_uses_its_row(level: int) -> None:
    c = academy(0, level)
    rec = youth_intake(Dice(level), "y", c, TABLE, NAMES, set())
    row = TABLE["intake"][level - 1]
    assert rec["count_roll"]["expr"] == row["count"] and rec["k_die"] == row["k"]
    assert all(p["k_roll"]["expr"] == row["k"] for p in rec["players"])


@pytest.mark.parametrize("size, rolled, count", [(32, 6, 1), (33, 6, 0), (30, 3, 3), (29, 6, 4)])
def test_intake_never_passes_33(size: int, rolled: int, count: int) -> None:
    c = academy(size, 5)
    d = Dice(2)
    d.fix(rolled - 2, prefix="s/count")
    rec = youth_intake(d, "s", c, TABLE, NAMES, set())
    assert (rec["rolled"], rec["count"], rec["capped"]) == (rolled, count, count < rolled)
    assert len(c.players) == size + count <= SQUAD_LIMIT


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 33), st.integers(1, 5), st.integers(0, 10_000))
def test_intake_invariants(size: int, level: int, seed: int) -> None:
    c = academy(size, level)
    rec = youth_intake(Dice(seed), "y", c, TABLE, NAMES, set())
    assert len(c.players) == size + rec["count"] <= SQUAD_LIMIT
    for p in c.players[size:]:
        assert p.youth and not p.core and 16 <= p.age <= 18 and 0.404 <= p.k <= 0.8
        assert all(1 <= v <= 99 for v in p.attrs.values()) and 51 <= p.affinity <= 70
    assert len({p.name for p in c.players}) == len(c.players)


def test_k_die_above_100_is_refused(tmp_path: Path) -> None:
    text = RES.table_path("youth.yaml").read_text(encoding="utf-8").replace("k: 1D80+20}", "k: 1D90+20}")
    bad = tmp_path / "youth.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match="应在 1–100 之内"):
        load_youth_table(bad)


# ---------------------------------------------------------------- promotion


@pytest.mark.parametrize("apps, goals, why", [(18, 0, ["apps"]), (17, 5, []), (0, 6, ["goals"]),
                                              (30, 9, ["apps", "goals"])])
def test_eligibility_thresholds(apps: int, goals: int, why: list[str]) -> None:
    assert eligible(role("甲", 20, apps, goals), TABLE) == why
    core = player("乙", "FW", age=20)
    core.apps = 30
    assert eligible(core, TABLE) == []


@pytest.mark.parametrize("age, term", [(16, 10), (21, 10), (22, 6), (24, 6), (25, 2), (27, 2), (28, 0),
                                       (30, 0), (31, -5), (38, -5)])
def test_chance_age_terms(age: int, term: int) -> None:
    got = promotion_chance(2, 2, age, TABLE)
    assert got == {"training": 6, "assistant": 4, "age_term": term, "bonus": 0, "chance": 10 + term,
                   "clamped": False}


def test_chance_bonus_and_bounds() -> None:
    assert promotion_chance(5, 5, 18, TABLE, bonus=5)["chance"] == 15 + 10 + 10 + 5
    assert promotion_chance(1, 0, 33, TABLE)["chance"] == 1          # 3 − 5 → at least 1
    assert promotion_chance(5, 5, 18, TABLE, bonus=90)["chance"] == 100


@pytest.mark.parametrize("face, success", [(20, True), (21, False)])
def test_promotion_roll_threshold(face: int, success: bool) -> None:
    p = role("甲", 21, apps=20)
    c = academy(0, 1, training=2)
    c.players.append(p)
    d = Dice(1)
    d.fix(face, prefix="s1/promo/甲")
    rec = promotions(d, "s1/promo", c, 2, TABLE)
    assert rec["candidates"][0]["chance"] == 20 and rec["candidates"][0]["success"] is success
    assert p.core is success and len(rec["promoted"]) == int(success)


def test_promotion_rerolls_by_the_core_formulas_and_keeps_age_and_mnt() -> None:
    p = role("甲", 24, goals=7, pos="FW")
    mates = squad(5)
    c = academy(0, 1, training=3)
    c.players += [p, *mates]
    team = team_abilities(c.players)
    d = Dice(1)
    d.fix(5, 50, 100, 1, 25, 30, 7, prefix="s1/promo/甲")  # roll, ATK, MID, DEF, GK, STA 1D50+40, MNT +1D10
    rec = promotions(d, "s1/promo", c, 1, TABLE)
    got = rec["promoted"][0]
    assert rec["candidates"][0]["chance"] == 9 + 2 + 6 and got["team"] == team
    rolled = {"ATK": team["ATK"] * 350 // 500, "DEF": max(1, team["DEF"] * 201 // 1000),
              "MID": team["MID"] * 340 // 800, "GK": max(1, team["GK"] * 145 // 1200), "STA": 70}
    assert rolled["ATK"] < got["before"]["ATK"] == 30   # the roll alone would demote him
    assert p.attrs == {**{a: max(v, got["before"][a]) for a, v in rolled.items()}, "MNT": 27}
    assert (p.core, p.k, p.age, p.youth) == (True, None, 24, False)
    assert got["mnt"]["before"] == 20 and got["mnt"]["after"] == 27
    assert got["wage_before"] == 20_000 and got["wage_after"] == p.total * 2500


def test_a_promotion_never_lowers_an_attribute() -> None:
    """rules-flagship D3: a role MF with MID 24 in a side whose team MID is 6 rolled MID 3 (6 × 2.8 / 5)
    by the core formula and lost 21 points; the designed reading keeps the better value (PROMOTION_KEEPS_BEST)."""
    p = role("洛伦茨", 22, apps=20, pos="MF")
    p.attrs.update({"MID": 24, "ATK": 2, "DEF": 3, "GK": 1, "STA": 50})
    c = academy(0, 1)
    c.players += [p, *[player(f"中{i}", "MF", mid=5, atk=5, df=5, gk=1, core=False) for i in range(3)]]
    team = team_abilities(c.players)
    d = Dice(1)
    d.fix(1, 100, 100, 100, 100, 50, 1, prefix="s1/promo/洛伦茨")
    got = promotions(d, "s1/promo", c, 2, TABLE)["promoted"][0]
    mid_step = next(st for st in got["steps"] if st["attr"] == "MID")
    assert mid_step["value"] == team["MID"] * 400 // 500 < 24
    assert p.attrs["MID"] == 24 and all(p.attrs[a] >= got["before"][a] for a in ("ATK", "DEF", "MID", "GK", "STA"))
    assert p.core and p.attrs["STA"] == 90


def test_goalkeeper_promotion_uses_the_fixed_atk() -> None:
    p = role("门", 20, apps=20, pos="GK")
    c = academy(0, 1)
    c.players += [p, *squad(3)]
    team = team_abilities(c.players)
    d = Dice(1)
    d.fix(1, 60, 40, 30, 10, 3, prefix="s1/promo/门")
    promotions(d, "s1/promo", c, 2, TABLE)
    assert team["GK"] * 340 // 400 < 30 and p.attrs["GK"] == 30   # the better of roll and own (designed)
    assert p.attrs["ATK"] == max(30, team["ATK"] * 5 // 100)
    assert p.attrs["STA"] == 60 and p.attrs["MNT"] == 23


def test_limit_and_order() -> None:
    a, b, x = role("甲", 26, apps=20), role("乙", 19, goals=8), role("丙", 30, apps=25)
    c = academy(0, 1)
    c.players += [a, x, b, role("丁", 20, apps=3)]
    d = Dice(1)
    d.fix(1, prefix="s1/promo/乙")
    rec = promotions(d, "s1/promo", c, 2, TABLE)
    assert [k["name"] for k in rec["candidates"]] == ["乙", "丙", "甲"]   # goals, then apps
    assert [k["roll"] is None for k in rec["candidates"]] == [False, True, True]
    assert b.core and not a.core and not x.core


def test_no_candidates() -> None:
    c = academy(4, 1)
    rec = promotions(Dice(1), "p", c, 3, TABLE)
    assert rec["candidates"] == [] and rec["promoted"] == []


# ---------------------------------------------------------------- chapters


def test_intake_and_promotion_render(tmp_path: Path) -> None:
    c = academy(32, 5)
    d = Dice(4)
    d.fix(4, prefix="s1/youth/count")
    rec = youth_intake(d, "s1/youth", c, TABLE, NAMES, set())
    md = render_macro(tmp_path, "intake(rec)", rec=rec)
    y = rec["players"][0]
    assert "青训设施 5 级，人数「1D4+2＝6」，但名单只剩 1 个空位（上限 33 人），只收 1 人。" in md
    assert f"**{y['name']}**：位置「1D4＝{y['position_roll']['total']}」" in md and "k = 0.4 + 1D80+20 / 250" in md
    empty = youth_intake(Dice(1), "x", c, TABLE, NAMES, set())
    assert "没有人升上一线队" in render_macro(tmp_path, "intake(rec)", rec=empty)

    a, b = role("卡尔·穆勒", 19, goals=8), role("汉斯·施密特", 31, apps=25)
    c2 = academy(0, 1, training=2)
    c2.players += [a, b, *squad(4)]
    d = Dice(1)
    d.fix(3, 50, 50, 50, 50, 20, 4, prefix="s1/promo/卡尔·穆勒")
    rec = promotions(d, "s1/promo", c2, 2, TABLE, bonus=5)
    md = render_macro(tmp_path, "promotions(rec)", rec=rec)
    assert "成功率 = 训练设施 2 级 × 3 + 首席助教 2 级 × 2 + 年龄项 + 5（外部环境）" in md
    assert "**卡尔·穆勒**（19 岁，出场 0，进球 8）：6 + 4 + 10（年龄） + 5 = 25%，「1D100＝3」 ≤ 25，**晋升核心**！" in md
    assert "**汉斯·施密特**（31 岁，出场 25，进球 0）：6 + 4 − 5（年龄） + 5 = 10%，名额已满，不再判定。" in md
    assert "精神补偿「1D10＝4」→ MNT 24" in md and "年薪 20,000 P$ →" in md and "ATK = " in md
    none = promotions(Dice(1), "p", academy(2, 1), 1, TABLE)
    assert "没有角色球员达到晋升门槛" in render_macro(tmp_path, "promotions(rec)", rec=none)


def test_a_club_under_fifteen_calls_up_academy_players_to_fifteen() -> None:
    """Designed squad floor (000 §3.3.1's 15–25): ten players left → five academy players, made as the
    intake makes them (1D4 position, the level's k, youth, the academy contract); fifteen → nobody."""
    from anko_writer.rulesets.purasbar.club.youth import SQUAD_FLOOR, top_up
    c = academy(10, 2)
    called = top_up(Dice(3), "s1/settle/floor/recht", c, TABLE, NAMES, set())
    assert SQUAD_FLOOR == 15 and len(c.players) == 15 and len(called) == 5
    new = c.players[10:]
    assert [p.name for p in new] == [y["name"] for y in called] and len({p.name for p in c.players}) == 15
    assert all(p.youth and not p.core and p.contract == TABLE["contract"] for p in new)
    assert all(y["position_roll"]["expr"] == "1D4" and y["k_roll"]["expr"] == TABLE["intake"][1]["k"] for y in called)
    assert top_up(Dice(3), "s1/settle/floor/recht", c, TABLE, NAMES, set()) == []
