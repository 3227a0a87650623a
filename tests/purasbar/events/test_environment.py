"""000 §6.4 external environment: the forced season event, the external depth ladder, the exclusive
tables, depth scaling of percents and the §6.4.3 cross-pool modifiers."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.rulesets.purasbar.events import environment
from anko_writer.rulesets.purasbar.events.depth import Depth
from anko_writer.rulesets.purasbar.events.environment import (
    GOOD,
    Environment,
    apply_percent,
    extra_trigger,
    injury_bonus,
    load_event_table,
    load_external,
    modifier,
    morale_bonus,
    season_start,
    youth_bonus,
)
from tests.util import RES

TABLES = load_external(RES)


def at(depth: int, *faces: int) -> tuple[Dice, Environment]:
    """Fixed dice for the ``env`` keys and an environment at ``depth``."""
    dice = Dice(seed=1)
    dice.fix(*faces, prefix="env")
    return dice, Environment(Depth("external", depth))


def start(depth: int, face: int) -> tuple[dict, Environment]:
    """One forced season event on ``face`` at ``depth``."""
    dice, env = at(depth, face)
    return season_start(dice, "env/s1", env, TABLES), env


def test_tables_have_enough_designed_rows() -> None:
    assert len(TABLES.base) >= 12 and len(TABLES.golden) >= 6 and len(TABLES.dark) >= 6
    for table in (TABLES.base, TABLES.golden, TABLES.dark):
        assert table.source == "designed" and str(table.dice) == "1D100"
        keys = [r.params["key"] for r in table.rows]
        assert len(set(keys)) == len(keys)
        assert all(r.text and r.params["name"] for r in table.rows)
    assert {r.params["polarity"] for r in TABLES.golden.rows} == {"positive"}
    assert {r.params["polarity"] for r in TABLES.dark.rows} == {"negative"}
    by_key = {r.params["key"]: r for r in TABLES.base.rows}
    # 000 §6.4.3's two examples, as written
    assert (by_key["broadcast_cut"].params["target"], by_key["broadcast_cut"].params["percent"]) == ("broadcast", -30)
    assert (by_key["youth_boom"].params["target"], by_key["youth_boom"].params["percent"]) == ("youth", 5)
    assert {r.effect for r in TABLES.base.rows} >= {"environment", "funds", "morale"}


def test_loader_refuses_a_row_whose_sign_contradicts_its_polarity(tmp_path: Path) -> None:
    text = (RES.table_path("external_events.yaml").read_text(encoding="utf-8")
            .replace("    target: injury\n    percent: -1\n", "    target: injury\n    percent: 1\n"))
    bad = tmp_path / "external_events.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match="与 positive 的行不符"):
        load_event_table(bad)


def test_loader_refuses_a_gap(tmp_path: Path) -> None:
    text = RES.table_path("external_dark.yaml").read_text(encoding="utf-8").replace("range: 91-100", "range: 92-100")
    bad = tmp_path / "external_dark.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match="没有一行包含 91"):
        load_event_table(bad)


def test_every_season_start_forces_one_event_and_replaces_last_seasons_modifiers() -> None:
    dice = Dice(seed=1)
    dice.fix(78, 93, 20, prefix="env")  # 青训热潮, 经济繁荣, 经济衰退
    env = Environment()
    keys = []
    for season in (1, 2, 3):
        rec = season_start(dice, f"env/s{season}", env, TABLES)
        assert rec["forced"] and rec["roll"]["expr"] == "1D100" and rec["table"] == "外部环境与政策表"
        assert env.events == [rec["event"]["key"]]  # only this season's event
        keys.append(rec["event"]["key"])
    assert keys == ["youth_boom", "economic_boom", "recession"]
    assert env.modifiers == {"ticket": -15}


@pytest.mark.parametrize("depth, up, stay_up, down, stay_down",
                         [(0, 96, 95, 5, 6), (1, 98, 97, 3, 4), (2, 99, 98, 2, 3)])
def test_external_depth_ladder(depth: int, up: int, stay_up: int, down: int, stay_down: int) -> None:
    for sign in (1, -1):
        d = sign * depth
        assert start(d, up)[1].depth.value == d + 1
        assert start(d, stay_up)[1].depth.value == d
        assert start(d, down)[1].depth.value == d - 1
        assert start(d, stay_down)[1].depth.value == d
    rec, _ = start(depth, up)
    assert rec["depth"] == {"pool": "external", "face": up, "before": depth, "after": depth + 1}


def test_depth_carries_across_seasons() -> None:
    dice = Dice(seed=1)
    dice.fix(97, 50, 100, prefix="env")
    env = Environment()
    for season in (1, 2, 3):
        season_start(dice, f"env/s{season}", env, TABLES)
    assert env.depth.value == 2  # 0 → +1 (97), stays (50), +1 → +2 (100)


@pytest.mark.parametrize("depth, table, key",
                         [(3, "黄金纪元", "golden_age"), (-3, "至暗纪元", "great_depression")])
def test_exclusive_table_at_three_then_reset(depth: int, table: str, key: str) -> None:
    rec, env = start(depth, 1)
    assert rec["table"] == table and rec["exclusive"] == (1 if depth > 0 else -1)
    assert rec["event"]["key"] == key
    assert rec["depth"] is None  # §6.1.3: nothing moves at ±3
    assert rec["reset"] == {"pool": "external", "before": depth, "after": 0, "reset": True}
    assert env.depth.value == 0 and rec["depth_after"] == 0


def test_exclusive_rows_are_not_scaled_and_return_their_other_effects() -> None:
    rec, env = start(3, 10)  # 足球黄金时代: ticket +30, broadcast +20
    assert env.modifiers == {"ticket": 30, "broadcast": 20}
    rec, env = start(-3, 10)  # 经济大萧条: business depth −1, ticket −25, sponsor −25
    assert env.modifiers == {"ticket": -25, "sponsor": -25}
    assert rec["effects"] == [{"kind": "depth", "scope": "league", "amount": 1, "delta": -1, "pool": "business"}]
    rec, env = start(-3, 85)  # 联盟改制·重税
    assert rec["effects"][0]["delta"] == -1_000_000 and env.modifiers == {}


def test_next_forced_event_after_reset_uses_appendix_c_again() -> None:
    dice = Dice(seed=1)
    dice.fix(40, 40, prefix="env")
    env = Environment(Depth("external", 3))
    assert season_start(dice, "env/s1", env, TABLES)["table"] == "黄金纪元"
    assert season_start(dice, "env/s2", env, TABLES)["table"] == "外部环境与政策表"


def test_extra_trigger_uses_appendix_c_even_at_three_and_adds_to_the_season() -> None:
    dice = Dice(seed=1)
    dice.fix(3, prefix="env")
    env = Environment(Depth("external", 3))
    env.add("broadcast", -30)
    rec = extra_trigger(dice, "env/s1m5", env, TABLES)
    assert not rec["forced"] and rec["table"] == "外部环境与政策表" and rec["event"]["key"] == "broadcast_cut"
    # depth.scale treats +3 as +2: a negative event at +2 is × 0.25 (30 // 4 = 7)
    assert rec["modifiers"] == [{"target": "broadcast", "base": -30, "percent": -7}]
    assert env.depth.value == 3 and rec["reset"] is None and env.modifiers == {"broadcast": -37}


@pytest.mark.parametrize("face, target, expect", [
    (20, "ticket", [-30, -22, -15, -8, -3]),   # 经济衰退 −15 (negative)
    (93, "ticket", [3, 8, 15, 22, 30]),        # 经济繁荣 +15 (positive)
    (12, "injury", [4, 3, 2, 1, 1]),           # 传染病流行 +2 points (negative; at least 1)
    (70, "injury", [-1, -1, -1, -1, -2]),      # 运动医学突破 −1 (positive)
])
def test_percent_scaling_by_depth(face: int, target: str, expect: list[int]) -> None:
    got = [start(d, face)[1].modifiers[target] for d in (-2, -1, 0, 1, 2)]
    assert got == expect


def test_scaling_uses_the_depth_before_the_event_moves_it() -> None:
    rec, env = start(0, 3)  # 联盟削减转播预算 moves the depth to −1, but is itself unscaled
    assert rec["depth_used"] == 0 and env.depth.value == -1 and env.modifiers == {"broadcast": -30}
    rec, env = start(-1, 3)
    assert env.modifiers == {"broadcast": -45} and env.depth.value == -2


def test_league_funds_and_morale_are_scaled_and_returned_not_applied() -> None:
    rec, env = start(1, 83)  # 联盟分红 +200,000 at +1 → ×1.5
    assert rec["effects"] == [{"kind": "funds", "scope": "league", "amount": 300000, "delta": 300000}]
    assert env.modifiers == {}
    rec, _ = start(1, 28)  # 球场安全新规 −200,000 at +1 → ×0.5
    assert rec["effects"][0]["delta"] == -100000
    rec, _ = start(-2, 33)  # 球迷骚乱风波 −10 at −2 → ×2
    assert rec["effects"] == [{"kind": "morale", "scope": "league", "amount": 20, "delta": -20}]


def test_neutral_rows_lean_at_one_and_turn_at_two() -> None:
    rec, env = start(0, 40)  # 财政公平法案: transfer −20, turn sponsor 10
    assert env.modifiers == {"transfer": -20} and rec["lean"] is None and rec["polarity"] == "neutral"
    rec, env = start(1, 40)
    assert env.modifiers == {"transfer": -20} and rec["lean"] == "positive" and rec["event"]["lean_text"]
    rec, env = start(2, 40)
    assert env.modifiers == {"transfer": -20, "sponsor": 10} and rec["polarity"] == "positive"
    rec, env = start(-2, 40)
    assert env.modifiers == {"transfer": -20, "sponsor": -10} and rec["polarity"] == "negative"
    rec, env = start(-2, 50)  # 风平浪静 turns into ticket −5
    assert env.modifiers == {"ticket": -5} and rec["modifiers"][0]["turn"] == "negative"


def test_cross_pool_multipliers_and_points() -> None:
    _, env = start(0, 4)  # 联盟削减转播预算 (depth 0 → −1 afterwards)
    assert modifier(env, "broadcast") == -30
    assert apply_percent(1_234_567, env, "broadcast") == 864196  # × 0.7, rounded down
    assert apply_percent(1_000_000, env, "broadcast") == 700000
    assert apply_percent(500_000, env, "ticket") == 500_000
    _, env = start(0, 78)  # 大陆青训热潮
    assert youth_bonus(env) == 5 and injury_bonus(env) == 0 and morale_bonus(env) == 0
    env.add("ticket", -150)
    assert apply_percent(1000, env, "ticket") == 0  # never below nothing
    with pytest.raises(ValueError):
        apply_percent(1000, env, "youth")
    with pytest.raises(ValueError):
        modifier(env, "weather")


def test_environment_json_round_trip() -> None:
    env = Environment(Depth("external", -2))
    env.add("broadcast", -30)
    env.add("youth", 5)
    env.add("youth", -5)  # cancels out
    env.events.append("broadcast_cut")
    data = env.to_json()
    assert data == {"depth": -2, "modifiers": {"broadcast": -30}, "events": ["broadcast_cut"]}
    back = Environment.from_json(data)
    assert back.to_json() == data and back.depth.pool == "external"
    assert Environment.from_json({}).to_json() == {"depth": 0, "modifiers": {}, "events": []}


def test_good_signs_cover_every_target() -> None:
    assert set(GOOD) == set(environment.TARGETS)


def test_appendix_c_rows_fire_at_their_widths() -> None:
    n = 20000
    dice = Dice(seed=2024)
    counts: Counter[str] = Counter()
    for _ in range(n):
        counts[season_start(dice, "stat/env", Environment(), TABLES)["event"]["key"]] += 1
    for row in TABLES.base.rows:
        p = (row.hi - row.lo + 1) / 100
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(counts[row.params["key"]] - n * p) <= 4 * sigma, row.params["key"]
