"""000 §8.1 squad training and §8.2 (designed) one-on-one coaching with the §5.7.2 training injury."""

from __future__ import annotations

import math

import pytest

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.club.training import (
    SOFT_CAPS,
    cap_chances,
    draw_player,
    monthly_training,
    one_on_one,
    one_on_one_chance,
    success_chance,
)
from tests.util import player


def train(faces: tuple[int, ...], players: list, facility: int = 2, assistant: int = 3, rapport: int = 0) -> dict:  # noqa: ANN001
    d = Dice(1)
    d.fix(*faces)
    return monthly_training(d, "s1/m03/training", players, facility, assistant, rapport)


def test_success_chance() -> None:
    assert success_chance(2, 3) == 22 and success_chance(5, 5) == 50 and success_chance(1, 1, 4) == 14


def test_roll_at_the_chance_succeeds_and_above_fails() -> None:
    fw = player("甲", "FW", atk=50, age=28)
    rec = train((22, 1), [fw])
    assert rec["chance"] == 22 and rec["success"] and rec["roll"]["expr"] == "1D100"
    assert rec["growth"] == {"player": "甲", "attr": "ATK", "before": 50, "after": 51, "grew": True}
    assert fw.attrs["ATK"] == 51
    rec = train((23,), [fw])
    assert not rec["success"] and rec["draw"] is None and rec["growth"] is None and rec["boost"] is None
    assert fw.attrs["ATK"] == 51


def test_boost_names_player_and_main_attribute() -> None:
    gk = player("门", "GK", gk=60, age=30)
    rec = train((5, 1), [gk])
    assert rec["boost"] == {"player": "门", "attr": "GK", "amount": 2, "when": "next_month_first_match"}
    assert gk.attrs["GK"] == 61


def test_draw_is_one_die_over_cumulative_weights() -> None:
    young, old = player("少", "MF", age=23), player("老", "DF", age=24)
    for face, name in ((1, "少"), (2, "少"), (3, "老")):
        rec = train((1, face), [young, old])
        assert rec["draw"]["roll"]["expr"] == "1D3" and rec["draw"]["weights"] == [["少", 2], ["老", 1]]
        assert rec["draw"]["player"] == name
    assert young.attrs["MID"] == 32 and old.attrs["DEF"] == 31


def test_young_players_draw_twice_as_often() -> None:
    squad = [player("y1", "FW", age=19), player("o1", "FW", age=29), player("y2", "MF", age=22),
             player("o2", "DF", age=33)]
    d = Dice(4242)
    n = 12000
    young = sum(draw_player(d, f"draw/{i}", squad)[0].age <= 23 for i in range(n))
    p = 4 / 6
    assert abs(young - n * p) <= 4 * math.sqrt(n * p * (1 - p))


def test_soft_cap_chances_floor_each_halving() -> None:
    assert SOFT_CAPS == (90, 95)
    assert cap_chances(89, 22) == [] and cap_chances(90, 22) == [(90, 11)] and cap_chances(94, 22) == [(90, 11)]
    assert cap_chances(95, 22) == [(90, 11), (95, 5)] and cap_chances(99, 23) == [(90, 11), (95, 5)]


@pytest.mark.parametrize("value,faces,after,cap_rolls", [
    (89, (22, 1), 90, 0),           # below the cap: no extra roll
    (90, (22, 1, 11), 91, 1),       # ≥ 90 (000 §8.1.3): rolled again at 22 // 2 = 11
    (90, (22, 1, 12), 90, 1),
    (95, (22, 1, 11, 5), 96, 2),    # ≥ 95: a third roll at 11 // 2 = 5
    (95, (22, 1, 11, 6), 95, 2),
    (95, (22, 1, 12), 95, 1),       # the third roll only follows a passed second
    (99, (22, 1), 99, 0),           # at 99 nothing grows, nothing is rolled
])
def test_soft_caps(value: int, faces: tuple[int, ...], after: int, cap_rolls: int) -> None:
    fw = player("星", "FW", atk=value, age=27)
    rec = train(faces, [fw])
    assert rec["success"] and len(rec["cap_rolls"]) == cap_rolls
    assert rec["growth"]["after"] == fw.attrs["ATK"] == after
    assert rec["boost"]["amount"] == 2           # the boost follows training success, capped or not


def test_no_players_no_draw() -> None:
    rec = train((1,), [])
    assert rec["success"] and rec["draw"] is None and rec["boost"] is None


def one(faces: tuple[int, ...], p, assistant: int = 2, doctor: int = 0, factor=(1, 1)) -> dict:  # noqa: ANN001
    d = Dice(1)
    d.fix(*faces)
    return one_on_one(d, "s1/m03/one", p, assistant, doctor, factor=factor)


def test_one_on_one_chance() -> None:
    assert one_on_one_chance(2) == 50 and one_on_one_chance(5) == 65 and one_on_one_chance(2, factor=(1, 2)) == 25


@pytest.mark.parametrize("face", [1, 2])
def test_one_on_one_fumble_injures_for_1d3_weeks(face: int) -> None:
    mf = player("中", "MF", mid=40)
    rec = one((face, 3), mf)
    assert rec["injury"]["roll"]["expr"] == "1D3" and rec["injury"]["weeks"] == 3
    assert not rec["success"] and mf.attrs["MID"] == 40
    rec = one((face, 3), mf, doctor=1)
    assert rec["injury"]["weeks"] == 2
    assert one((face, 2), mf, doctor=4)["injury"]["weeks"] == 1     # the doctor leaves at least one week


def test_one_on_one_success_and_failure() -> None:
    df = player("卫", "DF", df=40)
    rec = one((3,), df)
    assert rec["success"] and rec["injury"] is None and rec["growth"] == {"attr": "DEF", "before": 40, "after": 42}
    assert df.attrs["DEF"] == 42
    rec = one((50,), df)
    assert rec["success"] and df.attrs["DEF"] == 44
    rec = one((51,), df)
    assert not rec["success"] and rec["injury"] is None and df.attrs["DEF"] == 44
    assert not one((26,), df, factor=(1, 2))["success"]


def test_one_on_one_gain_is_capped() -> None:
    fw = player("星", "FW", atk=90)
    assert one((10,), fw)["growth"]["after"] == 91
    fw.attrs["ATK"] = 99
    assert one((10,), fw)["growth"]["after"] == 99
