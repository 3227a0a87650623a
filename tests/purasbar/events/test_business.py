"""000 §6.2 business events: trigger threshold, dynamic ranges, depth order, exclusive tables, staff branches."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.events.business import (
    dynamic_ranges,
    load_business_tables,
    lookup,
    month_start,
)
from anko_writer.rulesets.purasbar.events.depth import Depth
from anko_writer.rulesets.purasbar.money.finance import r_band
from tests.util import RES

TABLES = load_business_tables(RES)
BASE = TABLES.base
ALL_LEVEL_2 = {"assistant": 2, "doctor": 2, "commercial": 2, "fitness": 2, "scout": 2}
ALL_MAX = {r: 5 for r in ALL_LEVEL_2}


def span(key: str, table: Any = BASE) -> tuple[int, int]:
    """The base range of the row ``key``."""
    row = next(r for r in table.rows if r.params["key"] == key)
    return row.lo, row.hi


def spans(ranges: list) -> dict[str, tuple[int, int]]:
    """key → (lo, hi) of a dynamic range list."""
    return {row.params["key"]: (lo, hi) for lo, hi, row in ranges}


def face_of(key: str) -> int:
    """A face inside ``key``'s base range that does not move the depth ladder."""
    lo, hi = span(key)
    return next(f for f in range(lo, hi + 1) if 6 <= f <= 95)


def run(*faces: int, depth: Depth | None = None, level: int = 2, fan: int = 50, wealth: int = 20,
        R: float = 1.5, staff: dict[str, int] | None = None, **kw: Any) -> list[dict[str, Any]]:
    """One month_start with fixed dice; the check records only."""
    d = Dice(1)
    d.fix(*faces, prefix="m")
    recs = month_start(d, "m", depth or Depth("business"), level, fan, wealth, R, r_band(R), TABLES, staff=staff, **kw)
    assert recs[0]["kind"] == "ranges"
    return recs[1:]


# --- tables -----------------------------------------------------------------------------------------------

def test_tables_shape() -> None:
    assert len(BASE) >= 20 and len(TABLES.golden) >= 6 and len(TABLES.dark) >= 6
    assert span("injection") == (61, 65)
    for key in ("facility_upgrade", "staff_training", "staff_poached"):
        span(key)
    for t in (TABLES.base, TABLES.golden, TABLES.dark):
        assert t.source == "designed" and str(t.dice) == "1D100"
        assert all(r.text and r.text.endswith(("。", "！", "？", "”")) for r in t.rows)  # full-width prose
    assert {r.params["polarity"] for r in TABLES.golden.rows} == {"positive"}
    assert {r.params["polarity"] for r in TABLES.dark.rows} == {"negative"}


# --- §6.2.1 trigger threshold -------------------------------------------------------------------------------

def test_threshold_is_twenty_plus_commercial_level() -> None:
    checks = run(23, 22, face_of("charity_match"), 100, level=2)
    assert [c["threshold"] for c in checks] == [22, 22, 22]
    assert [c["triggered"] for c in checks] == [False, True, False]
    assert checks[1]["key"] == "charity_match"
    assert [c["trigger"]["total"] for c in checks] == [23, 22, 100]
    assert checks[1]["event_roll"]["expr"] == "1D100" and checks[1]["trigger"]["purpose"] == "经营事件判定"


# --- §6.2.2 widening ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fan, wealth, want", [
    (67, 41, (59, 67)), (67, 40, (60, 66)), (66, 41, (60, 66)), (66, 40, (61, 65)), (100, 100, (59, 67)),
])
def test_injection_widening(fan: int, wealth: int, want: tuple[int, int]) -> None:
    ranges, rec = dynamic_ranges(BASE, fan, wealth, 1.5, r_band(1.5))
    s = spans(ranges)
    assert s["injection"] == want and rec["injection"] == list(want)
    widen = 61 - want[0]
    left, right = span("season_tickets"), span("charity_match")
    assert s["season_tickets"] == (left[0], left[1] - widen)  # extra faces come from both neighbours
    assert s["charity_match"] == (right[0] + widen, right[1])
    assert sum(hi - lo + 1 for lo, hi, _ in ranges) == 100


def test_widened_injection_fires_on_its_new_faces_and_is_not_scaled() -> None:
    depth = Depth("business", 2)
    checks = run(1, 59, depth=depth, fan=80, wealth=90)
    c = checks[0]
    assert c["key"] == "injection" and c["effect"]["effect"] == "investment"
    row = next(r for r in BASE.rows if r.params["key"] == "injection")
    want = row.params["amount"] + 90 * row.params["per_wealth"]
    assert c["effect"]["amount"] == c["effect"]["base"] == want  # 000 §6.2.2: never depth-scaled
    assert c["strings"] == "lenient"
    assert run(1, 59)[0]["key"] == "season_tickets"


# --- §6.2.3 R scaling -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("R, width, left_change, right_change", [
    (2.0, 12, -3, -3), (5.0, 12, -3, -3), (1.0, 6, 0, 0), (1.99, 6, 0, 0),
    (0.5, 3, 2, 1), (0.99, 3, 2, 1), (0.49, 0, 3, 3), (0.0, 0, 3, 3),
])
def test_facility_width_by_R(R: float, width: int, left_change: int, right_change: int) -> None:
    ranges, rec = dynamic_ranges(BASE, 50, 20, R, r_band(R))
    s = spans(ranges)
    lo, hi = span("facility_upgrade")
    left, right = span("emergency_repair"), span("staff_training")
    assert rec["facility_width"] == width
    assert s["emergency_repair"] == (left[0], left[1] + left_change)
    assert s["staff_training"] == (right[0] - right_change, right[1])
    if width:
        assert s["facility_upgrade"] == (lo + left_change, hi - right_change)
        assert s["facility_upgrade"][1] - s["facility_upgrade"][0] + 1 == width
    else:
        assert "facility_upgrade" not in s and rec["facility"] is None
    assert sum(hi - lo + 1 for lo, hi, _ in ranges) == 100
    assert [lo for lo, _, _ in ranges][0] == 1 and ranges[-1][1] == 100
    for (_, a, _), (b, _, _) in zip(ranges, ranges[1:], strict=False):
        assert b == a + 1  # contiguous: every face 1–100 belongs to exactly one row
    others = {k: v for k, v in s.items() if k not in ("emergency_repair", "facility_upgrade", "staff_training")}
    assert all(v == span(k) for k, v in others.items())


def test_zero_width_facility_never_fires() -> None:
    ranges, _ = dynamic_ranges(BASE, 50, 20, 0.1, r_band(0.1))
    assert all(lookup(ranges, f).params["key"] != "facility_upgrade" for f in range(1, 101))


def test_widening_and_R_together() -> None:
    ranges, rec = dynamic_ranges(BASE, 90, 90, 3.0, r_band(3.0))
    assert rec["injection"] == [59, 67] and rec["facility_width"] == 12 and rec["band"] == "rich"
    assert sum(hi - lo + 1 for lo, hi, _ in ranges) == 100


def test_facility_upgrade_rolls_the_discount_die() -> None:
    c = run(1, face_of("facility_upgrade"), 20)[0]
    assert c["key"] == "facility_upgrade" and c["effect"]["levels"] == 1
    b = c["branch"]
    assert b["discount_roll"]["expr"] == "1D50" and b["discount"] == 20
    assert b["cost"] == b["list_cost"] * 80 // 100


# --- §6.1 depth order within a month --------------------------------------------------------------------------

def test_ladder_on_96_scales_the_next_event_of_the_month() -> None:
    depth = Depth("business")
    f = face_of("charity_match")
    checks = run(1, 96, 1, f, 1, f, depth=depth)
    first, second, third = checks
    assert first["key"] == "title_sponsor" and first["depth_before"] == 0
    assert first["effect"]["amount"] == first["effect"]["base"] == 300000  # this event at depth 0: ×1
    assert first["depth_step"] == {"pool": "business", "face": 96, "before": 0, "after": 1}
    assert second["depth_before"] == 1 and second["effect"]["amount"] == second["effect"]["base"] * 3 // 2
    assert second["depth_step"] is None and third["depth_before"] == 1
    assert depth.value == 1


def test_ladder_down_halves_a_following_positive_and_enlarges_a_negative() -> None:
    checks = run(1, 5, 1, face_of("charity_match"), 1, face_of("fan_riot_fine"))
    assert checks[0]["depth_after"] == -1
    assert checks[1]["effect"]["amount"] == math.ceil(checks[1]["effect"]["base"] / 2)
    assert checks[2]["effect"]["amount"] == checks[2]["effect"]["base"] * 3 // 2


def test_neutral_row_turns_at_depth_two() -> None:
    f = face_of("owner_interview")
    calm = run(1, f, depth=Depth("business", 1))[0]["effect"]
    assert (calm["effect"], calm["dormant"], calm["polarity"]) == ("nothing", "morale", "neutral")
    up = run(1, f, depth=Depth("business", 2))[0]["effect"]
    assert (up["effect"], up["polarity"], up["amount"]) == ("morale", "positive", 5)
    down = run(1, f, depth=Depth("business", -2))[0]["effect"]
    assert (down["effect"], down["polarity"]) == ("morale", "negative")


# --- §6.2.5 exclusive tables ----------------------------------------------------------------------------------

def test_golden_age_at_plus_three_then_reset() -> None:
    depth = Depth("business", 3)
    f = face_of("charity_match")
    checks = run(1, 1, 1, f, 99, depth=depth)
    first, second, third = checks
    assert first["table"] == "business_golden" and first["key"] == "golden_windfall"
    assert first["event_roll"]["purpose"] == "黄金时代"
    assert first["depth_reset"] == {"pool": "business", "before": 3, "after": 0, "reset": True}
    assert first["depth_after"] == 0 and first["effect"]["amount"] == first["effect"]["base"]
    assert second["table"] == "business_events" and second["key"] == "charity_match"
    assert second["effect"]["amount"] == second["effect"]["base"]  # depth 0 again
    assert not third["triggered"] and depth.value == 0


def test_dark_times_at_minus_three() -> None:
    depth = Depth("business", -3)
    c = run(1, 100, depth=depth)[0]
    assert c["table"] == "business_dark" and c["polarity"] == "negative" and depth.value == 0
    assert c["depth_step"] is None


def test_reaching_three_mid_month_switches_the_next_event() -> None:
    depth = Depth("business", 2)
    checks = run(1, 99, 1, 50, 100, depth=depth)
    assert checks[0]["table"] == "business_events" and checks[0]["depth_after"] == 3
    assert checks[1]["table"] == "business_golden" and checks[1]["depth_after"] == 0


def test_super_events_ask_for_an_extra_external_check() -> None:
    golden = run(1, span("golden_consortium_wave", TABLES.golden)[0], depth=Depth("business", 3))[0]
    assert golden["extra_external"] and golden["effect"]["effect"] == "depth"
    assert golden["effect"]["pool"] == "external"


# --- §6.2.4 staff branches ------------------------------------------------------------------------------------

def test_training_levels_up_a_random_staff_member_below_max() -> None:
    staff = {"assistant": 5, "doctor": 3, "commercial": 5, "fitness": 1, "scout": 5}
    c = run(1, face_of("staff_training"), 2, staff=staff)[0]
    b = c["branch"]
    assert b["branch"] == "level_up" and b["candidates"] == ["doctor", "fitness"]
    assert b["pick_roll"]["expr"] == "1D2" and b["role"] == "fitness" and (b["from"], b["to"]) == (1, 2)
    assert c["effect"] == {"effect": "staff_level", "role": "fitness", "levels": 1, "base": 1, "amount": 1,
                           "polarity": "positive"}


def test_training_with_one_candidate_needs_no_roll() -> None:
    staff = dict(ALL_MAX, scout=4)
    b = run(1, face_of("staff_training"), staff=staff)[0]["branch"]
    assert b["role"] == "scout" and b["pick_roll"] is None and b["to"] == 5


def test_training_when_all_are_max_pays_the_bonus() -> None:
    c = run(1, face_of("staff_training"), staff=ALL_MAX, depth=Depth("business", 2))[0]
    assert c["branch"] == {"branch": "bonus", "candidates": []}
    assert c["effect"] == {"effect": "funds", "base": 50000, "amount": 50000, "polarity": "positive"}


def test_poaching_a_missing_role_pays_half_a_season_salary() -> None:
    staff = dict(ALL_LEVEL_2)
    del staff["scout"]
    c = run(1, face_of("staff_poached"), 5, staff=staff, salaries={"scout": 90000})[0]
    b = c["branch"]
    assert b["role"] == "scout" and b["branch"] == "absent" and "stay_roll" not in b
    assert b["salary"] == 90000 and b["compensation"] == 45000
    assert c["effect"]["effect"] == "funds" and c["effect"]["amount"] == 45000 and c["polarity"] == "positive"
    assert c["base_polarity"] == "negative"


def test_poaching_an_unwilling_member_pays_compensation_from_the_level_salary() -> None:
    row = next(r for r in BASE.rows if r.params["key"] == "staff_poached")
    c = run(1, face_of("staff_poached"), 2, row.params["stay"], staff=ALL_LEVEL_2)[0]
    b = c["branch"]
    assert b["role"] == "doctor" and b["branch"] == "compensation"
    assert b["salary"] == row.params["salary_by_level"][1] and b["compensation"] == b["salary"] // 2


def test_poaching_a_willing_member_lowers_the_level() -> None:
    row = next(r for r in BASE.rows if r.params["key"] == "staff_poached")
    staff = dict(ALL_LEVEL_2, doctor=4)
    c = run(1, face_of("staff_poached"), 2, row.params["stay"] + 1, staff=staff, depth=Depth("business", -2))[0]
    b = c["branch"]
    assert b["branch"] == "leaves" and b["level"] == 4
    assert c["effect"]["amount"] == 2 and b["to"] == 2  # −2: a negative event ×2
    assert (c["effect"]["effect"], c["effect"]["role"], c["effect"]["levels"]) == ("staff_level", "doctor", 2)


def test_effect_record_feeds_effects_apply() -> None:
    from anko_writer.rulesets.purasbar.events.effects import Target, apply
    from tests.util import club, player
    c = run(1, face_of("staff_poached"), 5, staff=dict(ALL_LEVEL_2, scout=0))[0]
    from anko_writer.rulesets.purasbar.money.ledger import Ledger
    led = Ledger(1_000_000)
    out = apply(Target(club("雷希特", [player("甲", "FW")]), Dice(1), "fx", funds=led, season=1, month=4), c["effect"])
    assert out["changed"] and led.balance == 1_000_000 + c["branch"]["compensation"] == 1_030_000
    assert [(e.season, e.month, e.amount) for e in led.entries] == [(1, 4, 30_000)]


def test_without_staff_the_branch_is_left_to_the_lead() -> None:
    c = run(1, face_of("staff_poached"))[0]
    assert c["branch"] is None and c["effect"]["role"] == "random"


# --- records --------------------------------------------------------------------------------------------------

def test_records_are_plain_json() -> None:
    import json

    from anko_writer.rulesets.purasbar.events.effects import KINDS
    d = Dice(3)
    depth = Depth("business")
    for m in range(30):
        recs = month_start(d, f"s1/m{m}", depth, 5, 80, 60, 2.5, r_band(2.5), TABLES, staff=ALL_LEVEL_2)
        json.dumps(recs, ensure_ascii=False)
        assert recs[0]["R"] == 2.5 and recs[0]["band"] == "rich"
        assert [r["n"] for r in recs[1:]] == [1, 2, 3]
        for c in recs[1:]:
            if c["triggered"]:
                assert c["effect"]["effect"] in KINDS and c["polarity"] == c["effect"]["polarity"]
                assert all(r["id"].startswith(f"s1/m{m}#") for r in (c["trigger"], c["event_roll"]))


# --- statistics: every row fires at the frequency its width gives --------------------------------------------

def _frequencies(fan: int, wealth: int, R: float, months: int) -> Counter:
    """Event keys over ``months`` seeded months at depth 0 (no exclusive switch), level 5 → 25%."""
    d = Dice(20240601)
    seen: Counter = Counter()
    for m in range(months):
        for c in month_start(d, f"stat/{m}", Depth("business"), 5, fan, wealth, R, r_band(R), TABLES)[1:]:
            if c["triggered"]:
                seen[c["key"]] += 1
    return seen


@pytest.mark.parametrize("fan, wealth, R", [(50, 20, 1.5), (80, 80, 3.0), (67, 10, 0.7), (10, 50, 0.2)])
def test_rows_fire_at_their_width(fan: int, wealth: int, R: float) -> None:
    ranges, _ = dynamic_ranges(BASE, fan, wealth, R, r_band(R))
    seen = _frequencies(fan, wealth, R, 16000)
    n = sum(seen.values())
    assert abs(n - 16000 * 3 * 0.25) < 4 * math.sqrt(16000 * 3 * 0.25 * 0.75)  # the 25% trigger rate
    chi2 = 0.0
    for lo, hi, row in ranges:
        p = (hi - lo + 1) / 100
        expect = n * p
        got = seen[row.params["key"]]
        assert abs(got - expect) < 4 * math.sqrt(n * p * (1 - p)), row.params["key"]
        chi2 += (got - expect) ** 2 / expect
    assert set(seen) <= {row.params["key"] for _, _, row in ranges}
    df = len(ranges) - 1
    assert chi2 < df + 4 * math.sqrt(2 * df)  # far beyond the 0.1% tail of χ²(df)
