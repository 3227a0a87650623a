"""000 §5.7 injuries and the designed season calendar, with fixed dice."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.competition.calendar import (
    MONTH_WEEKS,
    SEASON_WEEKS,
    cup_week,
    league_week,
    month_of,
    week_in_month,
    week_of,
)
from anko_writer.rulesets.purasbar.competition.schedule import ROUNDS_BY_MONTH
from anko_writer.rulesets.purasbar.match.injuries import (
    Infirmary,
    comeback,
    injury_risk,
    minutes_played,
    post_match_check,
    retirement_check,
    weeks_out,
)
from tests.util import player

KEY = "s1/league/r04/甲-乙/injury"


def _dice(*values: int) -> Dice:
    d = Dice(seed=1)
    if values:
        d.fix(*values, prefix=KEY)
    return d


# --- calendar (designed) ---------------------------------------------------------------------------

def test_weeks_and_months() -> None:
    assert SEASON_WEEKS == 48
    assert week_of(1, 1) == 1 and week_of(2, 3) == 7 and week_of(12, 4) == 48
    assert MONTH_WEEKS[3] == (9, 10, 11, 12)
    assert [month_of(w) for w in (1, 4, 5, 48)] == [1, 1, 2, 12]
    assert week_in_month(7) == 3
    with pytest.raises(ValueError):
        week_of(13, 1)
    with pytest.raises(ValueError):
        month_of(49)


def test_league_weeks() -> None:
    assert [league_week(r) for r in (1, 2, 3, 4, 19, 20)] == [1, 3, 5, 7, 37, 39]
    assert [league_week(r) for r in (21, 22, 23)] == [41, 42, 44]
    for month, rounds in ROUNDS_BY_MONTH.items():
        assert {month_of(league_week(r)) for r in rounds} == {month}
    weeks = [league_week(r) for r in range(1, 24)]
    assert weeks == sorted(set(weeks))  # one round a week, in order
    with pytest.raises(ValueError):
        league_week(24)


def test_cup_weeks() -> None:
    assert [cup_week(i) for i in range(8)] == [45, 45, 46, 46, 47, 47, 48, 48]
    with pytest.raises(ValueError):
        cup_week(8)


# --- risk, minutes, weeks out --------------------------------------------------------------------

@pytest.mark.parametrize(("age", "stamina", "risk"), [
    (29, 60, 2), (29, 45, 7), (29, 25, 12),
    (30, 60, 3), (30, 45, 8), (30, 25, 13),
    (34, 60, 7), (34, 45, 12), (34, 25, 17),
    (20, 50, 2), (20, 49, 7), (20, 30, 7), (20, 29, 12),
])
def test_injury_risk(age: int, stamina: int, risk: int) -> None:
    assert injury_risk(age, stamina) == risk


def test_minutes() -> None:
    assert minutes_played(range(1, 7)) == 88
    assert minutes_played(range(1, 9)) == 118
    assert minutes_played([5, 6]) == 25  # on at 66′
    assert minutes_played([4, 5, 6]) == 44  # on at 46′
    assert minutes_played([1, 2]) == 44 and minutes_played([1, 2, 3]) == 44
    with pytest.raises(ValueError):
        minutes_played([9])


@pytest.mark.parametrize(("face", "weeks"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 4)])
def test_weeks_table(face: int, weeks: int) -> None:
    rec = post_match_check(_dice(1, face), KEY, player("甲", "FW"), 88, 60, 0, 7)
    assert rec is not None and rec["injured"]
    assert (rec["weeks_roll"], rec["weeks_table"], rec["weeks"]) == (face, weeks, weeks)
    assert rec["out_until_week"] == 7 + weeks


@pytest.mark.parametrize(("face", "doctor", "weeks"), [(6, 1, 3), (6, 2, 2), (6, 3, 1), (6, 5, 1),
                                                       (5, 2, 1), (1, 1, 1), (4, 1, 1)])
def test_doctor_reduction(face: int, doctor: int, weeks: int) -> None:
    assert weeks_out(face, doctor) == weeks
    rec = post_match_check(_dice(1, face), KEY, player("甲", "FW"), 88, 60, doctor, 7)
    assert rec is not None and (rec["doctor"], rec["weeks"], rec["out_until_week"]) == (doctor, weeks, 7 + weeks)


# --- post-match check (000 §5.7.1) ---------------------------------------------------------------

def test_threshold_40_minutes() -> None:
    d = _dice()
    p = player("甲", "FW")
    assert post_match_check(d, KEY, p, minutes_played([5, 6]), 60, 0, 7) is None  # on at 66′
    assert post_match_check(d, KEY, p, 40, 60, 0, 7) is None
    assert not d.log
    assert post_match_check(_dice(50), KEY, p, minutes_played([4, 5, 6]), 60, 0, 7) is not None
    assert post_match_check(_dice(50), KEY, p, 41, 60, 0, 7) is not None


def test_check_boundary_and_record() -> None:
    old = player("老将", "DF", age=34)
    hit = post_match_check(_dice(17, 5), KEY, old, 88, 25, 1, 7)
    assert hit is not None
    assert {k: hit[k] for k in ("player", "minutes", "risk", "roll", "injured", "weeks_roll", "weeks_table",
                                "doctor", "weeks", "out_until_week", "week")} == {
        "player": "老将", "minutes": 88, "risk": 17, "roll": 17, "injured": True, "weeks_roll": 5,
        "weeks_table": 3, "doctor": 1, "weeks": 2, "out_until_week": 9, "week": 7}
    assert [r["expr"] for r in hit["rolls"]] == ["1D100", "1D6"]
    miss = post_match_check(_dice(18), KEY, old, 88, 25, 1, 7)
    assert miss is not None and not miss["injured"]
    assert miss == {"player": "老将", "week": 7, "minutes": 88, "stamina_after": 25, "risk": 17, "roll": 18,
                    "injured": False}  # a clean check keeps a short record
    json.dumps([hit, miss])


def test_a_lean_check_keeps_no_clean_record_but_throws_the_die() -> None:
    old = player("老将", "DF", age=34)
    dice = _dice(18, 42)
    assert post_match_check(dice, KEY, old, 88, 25, 1, 7, keep_clean=False) is None  # risk 17, roll 18: clean
    assert dice.roll(KEY, "1D100", "next").total == 42  # the check's die was thrown
    hit = post_match_check(_dice(17, 5), KEY, old, 88, 25, 1, 7, keep_clean=False)
    assert hit == post_match_check(_dice(17, 5), KEY, old, 88, 25, 1, 7)  # an injury keeps its whole record
    assert post_match_check(_dice(1), KEY, old, 40, 25, 1, 7, keep_clean=False) is None  # ≤ 40 minutes: no check


def test_unrolled_age_has_no_age_term() -> None:
    p = player("甲", "FW")
    p.age = None
    rec = post_match_check(_dice(99), KEY, p, 88, 45, 0, 7)
    assert rec is not None and rec["risk"] == 7


# --- in-match retirement (000 §5.7.3) ------------------------------------------------------------

def test_retirement_only_under_20() -> None:
    d = _dice()
    assert retirement_check(d, KEY, player("甲", "MF", stamina=20), 5, 0, 7) is None
    assert not d.log
    rec = retirement_check(_dice(6), KEY, player("甲", "MF", stamina=19), 5, 0, 7)
    assert rec is not None and not rec["forced_off"] and rec["weeks"] is None


def test_a_lean_retirement_check_keeps_only_a_forced_off() -> None:
    tired = player("累", "MF", stamina=10)
    dice = _dice(6, 42)
    assert retirement_check(dice, KEY, tired, 3, 0, 7, keep_clean=False) is None  # 6 > 5: stays on
    assert dice.roll(KEY, "1D100", "next").total == 42  # the 1D20 was thrown
    off = retirement_check(_dice(5, 2), KEY, tired, 3, 0, 7, keep_clean=False)
    assert off is not None and off == retirement_check(_dice(5, 2), KEY, tired, 3, 0, 7)

@pytest.mark.parametrize(("face", "off"), [(1, True), (5, True), (6, False), (20, False)])
def test_retirement_face(face: int, off: bool) -> None:
    rec = retirement_check(_dice(face, 6), KEY, player("甲", "MF", stamina=12), 5, 1, 7)
    assert rec is not None and rec["forced_off"] is off and rec["roll"] == face
    assert (rec["slice"], rec["stamina"]) == (5, 12)
    if off:
        assert (rec["weeks_roll"], rec["weeks_table"], rec["weeks"], rec["out_until_week"]) == (6, 4, 3, 10)
        assert [r["expr"] for r in rec["rolls"]] == ["1D20", "1D6"]


# --- absences across weeks and months (000 §5.7.4) ----------------------------------------------

def test_absence_across_month_boundary() -> None:
    p = player("甲", "FW")
    inj = Infirmary()
    injured_week = week_of(2, 3)
    assert injured_week == league_week(4) == 7
    rec = post_match_check(_dice(1, 5), KEY, p, 88, 60, 0, injured_week)  # 5 → 3 weeks
    assert rec is not None and rec["out_until_week"] == 10 == week_of(3, 2)
    assert inj.apply(p, rec)
    assert p.injured_weeks == 4 and not p.healthy  # rest of week 7 + three weeks
    missed = [w for w in range(injured_week, 49) if not inj.available(p, w)]
    assert missed == [7, 8, 9, 10]  # the rest of week 7, month 2 week 4, month 3 weeks 1–2
    d = _dice(7, 3)
    assert inj.advance([p], week_of(2, 4), d, KEY) == [] and p.injured_weeks == 3
    assert inj.advance([p], league_week(5), d, KEY) == [] and p.injured_weeks == 2  # month 3 week 1
    assert not d.log
    back = inj.advance([p], league_week(6), d, KEY)  # month 3 week 3
    assert league_week(6) == week_of(3, 3) == 11
    assert [(b["player"], b["week"], b["out_until_week"]) for b in back] == [("甲", 11, 10)]
    assert p.healthy and p.injured_weeks == 0 and inj.available(p, 11)
    assert inj.advance([p], 12, d, KEY) == []  # returns once


def test_same_week_matches_missed() -> None:
    p = player("甲", "FW")
    inj = Infirmary()
    inj.advance([p], cup_week(0), _dice(), KEY)
    rec = post_match_check(_dice(1, 1), KEY, p, 88, 60, 0, cup_week(0))  # 1 week
    assert rec is not None and inj.apply(p, rec)
    available = [inj.available(p, cup_week(i)) for i in range(8)]
    assert available == [False, False, False, False, True, True, True, True]  # back for Swiss round 5
    assert p.injured_weeks == 2
    inj.advance([p], cup_week(1), _dice(), KEY)
    assert p.injured_weeks == 2  # same week: the count is a function of the week
    inj.advance([p], cup_week(2), _dice(), KEY)
    assert p.injured_weeks == 1


def test_longer_absence_kept_and_json_round_trip() -> None:
    p = player("甲", "FW")
    inj = Infirmary()
    inj.set_injury(p, 12, week=7)
    inj.set_injury(p, 9, week=8)
    assert inj.out_until == {"甲": 12}
    again = Infirmary.from_json(json.loads(json.dumps(inj.to_json())))
    assert again.out_until == {"甲": 12}
    rebuilt = Infirmary.from_players([p], 8)
    assert rebuilt.out_until == {"甲": 12}
    assert not inj.apply(p, None)


def test_comeback() -> None:
    p = player("甲", "FW", stamina=40)
    p.morale = 2
    rec = comeback(_dice(7, 3), KEY, p, 11)
    assert (p.stamina, p.morale) == (97, -1)
    assert {k: rec[k] for k in ("stamina_roll", "stamina", "morale_roll", "morale_before", "morale")} == {
        "stamina_roll": 7, "stamina": 97, "morale_roll": 3, "morale_before": 2, "morale": -1}
    assert [r["expr"] for r in rec["rolls"]] == ["1D10", "1D4"]
    comeback(_dice(10, 4), KEY, p, 11)
    assert (p.stamina, p.morale) == (100, -5)


def test_return_through_advance() -> None:
    p = player("甲", "FW", stamina=30)
    inj = Infirmary()
    inj.set_injury(p, 3, week=1)
    back = inj.advance([p, player("乙", "MF")], 4, _dice(1, 4), KEY)
    assert len(back) == 1 and (p.stamina, p.morale) == (91, -4)


# --- statistics with a fixed seed ----------------------------------------------------------------

def test_rates_match_the_rule() -> None:
    d = Dice(seed=20240601)
    p = player("老将", "DF", age=34)
    n = 30_000
    recs = [post_match_check(d, "stat", p, 88, 25, 0, 7) for _ in range(n)]
    risk = 0.17
    injured = [r for r in recs if r is not None and r["injured"]]
    assert abs(len(injured) / n - risk) <= 4 * math.sqrt(risk * (1 - risk) / n)
    m = len(injured)
    counts = Counter(r["weeks_table"] for r in injured)
    for weeks, prob in {1: 2 / 6, 2: 2 / 6, 3: 1 / 6, 4: 1 / 6}.items():
        assert abs(counts[weeks] / m - prob) <= 4 * math.sqrt(prob * (1 - prob) / m)
