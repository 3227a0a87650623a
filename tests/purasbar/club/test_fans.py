"""Fans and reputation (000 ch.13 §13.1–13.2, designed): opening values and the §4.4 steps 3–4 updates."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.errors import TableError
from anko_writer.rulesets.purasbar.club.fans import (
    attendance_percent,
    initial_fans,
    initial_reputation,
    initial_values,
    load_fans,
    load_fans_table,
    season_fans,
    season_reputation,
)
from anko_writer.rulesets.purasbar.money.finance import CUP_STAGES, stadium_capacity
from anko_writer.rulesets.purasbar.setup.data import load_tables
from tests.util import RES, TABLES, render_macro

TABLE = load_fans(RES)


def test_table_is_designed() -> None:
    assert TABLE["source"] == "designed"
    assert TABLE["initial"]["morale"] == 0  # 000 §3.2.1 step 5: morale starts at 0
    assert [b["percent"] for b in TABLE["fans"]["league"]] == [15, 8, 4, 0, -3, -6, -10]
    assert [TABLE["reputation"]["cup"][s] for s in CUP_STAGES] == [0, 2, 3, 5, 8]


def test_initial_values_of_the_cities() -> None:
    cities = load_tables(RES).cities
    fans = [initial_fans(c["pbs"], TABLE) for c in cities]
    reps = [initial_reputation(c["total"], TABLE) for c in cities]
    assert (fans[0], fans[5], fans[-1]) == (30_908, 24_057, 8_240)   # 8,000 + PBS × 1.5
    assert (reps[0], reps[5], reps[-1]) == (60, 53, 14)              # total × 40%
    assert fans == sorted(fans, reverse=True) and reps == sorted(reps, reverse=True)
    for c, f in zip(cities, fans, strict=False):  # every fan base is about its stadium's size (smallest cities included)
        assert 80 <= f * 100 // stadium_capacity(c["total"], TABLES.finance) <= 130
    assert initial_values(10705, 134, TABLE) == {"pbs": 10705, "total": 134, "fans_base": 8000,
                                          "fans_per_pbs_permille": 1500, "fans": 24_057,
                                          "reputation_percent": 40, "reputation": 53, "morale": 0}
    assert initial_reputation(300, TABLE) == 100


def test_attendance_percent_reads_league_home_gates() -> None:
    recs = [{"competition": "league", "home": "A", "attendance": 15_355, "capacity": 24_120},
            {"competition": "league", "home": "A", "attendance": 24_120, "capacity": 24_120},
            {"competition": "league", "home": "B", "attendance": 1, "capacity": 24_120},
            {"competition": "knockout", "home": "A", "attendance": 0, "capacity": 24_120}]
    assert attendance_percent(recs, "A") == 39_475 * 100 // 48_240 == 81
    assert attendance_percent(recs, "C") is None


@pytest.mark.parametrize("fans, att, rank, stage, terms, after", [
    (24_057, 62, 12, "swiss", (144, 0, 0), 24_201),              # 24,057 × 2 × 3‰
    (24_057, 100, 1, "champion", (2_886, 3_608, 2_886), 33_437),  # 40 × 3‰ = 12%, 15%, 12%
    (10_000, 40, 24, "swiss", (-600, -1_000, 0), 8_400),
    (10_000, 60, 3, "semi", (0, 800, 500), 11_300),
    (10_000, None, 18, "quarter", (0, -300, 300), 10_000),        # no home match: no attendance term
    (3_100, 30, 24, "swiss", (-279, -310, 0), 3_000),             # floored at 3,000
])
def test_season_fans(fans: int, att: int | None, rank: int, stage: str, terms: tuple[int, int, int],
                     after: int) -> None:
    rec = season_fans(fans, att, rank, stage, TABLE)
    assert (rec["attendance_term"], rec["league_term"], rec["cup_term"]) == terms
    assert rec["fans"] == after and rec["delta"] == after - fans


def test_season_fans_cap_by_capacity() -> None:
    rec = season_fans(70_000, 100, 1, "champion", TABLE, capacity=24_120)
    assert (rec["cap"], rec["fans"]) == (72_360, 72_360) and rec["raw"] > rec["cap"]
    assert season_fans(70_000, 100, 1, "champion", TABLE)["fans"] == rec["raw"]


@pytest.mark.parametrize("rep, rank, stage, drift, after", [
    (53, 1, "champion", 0, 69),      # (53 − 50) × 10% → 0
    (90, 24, "swiss", -4, 80),
    (8, 1, "champion", 4, 28),       # (8 − 50) × 10% = −4.2 → −4 toward zero, so +4
    (99, 1, "champion", -4, 100),    # 111 clamped
    (0, 24, "swiss", 5, 0),          # −1 clamped
    (60, 12, "quarter", -1, 61),
])
def test_season_reputation(rep: int, rank: int, stage: str, drift: int, after: int) -> None:
    rec = season_reputation(rep, rank, stage, TABLE)
    assert rec["drift"] == drift and rec["reputation"] == after
    assert rec["raw"] == rep + drift + rec["league"] + rec["cup"]


def test_bad_rank_or_stage() -> None:
    with pytest.raises(ValueError):
        season_fans(10_000, 60, 25, "swiss", TABLE)
    with pytest.raises(ValueError):
        season_reputation(50, 1, "final", TABLE)


def test_rank_bands_must_cover_1_to_24(tmp_path: Path) -> None:
    text = RES.table_path("fans.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "fans.yaml"
    bad.write_text(text.replace("{from: 24, to: 24, percent: -10}", "{from: 23, to: 24, percent: -10}"),
                   encoding="utf-8")
    with pytest.raises(TableError, match="这一段应从第 24 名开始"):
        load_fans_table(bad)
    bad.write_text(text.replace("    - {from: 24, to: 24, points: -6}\n", ""), encoding="utf-8")
    with pytest.raises(TableError, match="各段止于第 23 名"):
        load_fans_table(bad)


RANKS = st.integers(min_value=1, max_value=24)
STAGES = st.sampled_from(CUP_STAGES)


@given(st.integers(min_value=0, max_value=100), RANKS, STAGES)
def test_reputation_stays_within_0_100(rep: int, rank: int, stage: str) -> None:
    assert 0 <= season_reputation(rep, rank, stage, TABLE)["reputation"] <= 100


@given(st.integers(min_value=0, max_value=500_000), st.one_of(st.none(), st.integers(min_value=0, max_value=100)),
       RANKS, RANKS, STAGES)
def test_fans_floor_and_better_rank_never_loses_fans(fans: int, att: int | None, a: int, b: int, stage: str) -> None:
    better, worse = sorted((a, b))
    high, low = season_fans(fans, att, better, stage, TABLE), season_fans(fans, att, worse, stage, TABLE)
    assert low["fans"] >= TABLE["fans"]["floor"]
    assert high["fans"] >= low["fans"]
    assert high["fans"] == max(TABLE["fans"]["floor"], fans + high["attendance_term"] + high["league_term"]
                               + high["cup_term"])


def test_mid_table_is_stable_over_ten_seasons() -> None:
    """A club that keeps finishing 12th, out in the Swiss rounds, at the pivot attendance stays put;
    a perennial champion climbs but reputation never leaves 0–100."""
    fans, rep = 24_057, 53
    for _ in range(10):
        fans = season_fans(fans, 60, 12, "swiss", TABLE)["fans"]
        rep = season_reputation(rep, 12, "swiss", TABLE)["reputation"]
    assert (fans, rep) == (24_057, 53)
    fans, rep = 24_057, 53
    for _ in range(10):
        fans = season_fans(fans, 100, 1, "champion", TABLE, capacity=24_120)["fans"]
        rep = season_reputation(rep, 1, "champion", TABLE)["reputation"]
    assert fans == 72_360 and rep == 100




def test_render_fans_macros(tmp_path: Path) -> None:
    text = render_macro(tmp_path, "initial(i)", i=initial_values(10705, 134, TABLE))
    assert "8,000 + 布拉斯得分 10,705 × 1.5 = 24,057 人" in text and "总能力 134 × 40% = 53" in text
    text = render_macro(tmp_path, "fans(f)", f=season_fans(24_057, 100, 1, "champion", TABLE))
    assert "（平均上座率 100% − 60%）× 3‰ = +2,886" in text
    assert "新赛季球迷 **33,437** 人（+9,380）" in text
    assert "不低于 3,000" in render_macro(tmp_path, "fans(f)", f=season_fans(3_100, 30, 24, "swiss", TABLE))
    none = season_fans(9_000, None, 9, "swiss", TABLE)
    assert "上座项：本季没有联赛主场" in render_macro(tmp_path, "fans(f)", f=none)
    capped = season_fans(70_000, 100, 1, "champion", TABLE, capacity=24_120)
    assert "主场容量 × 3 = 72,360" in render_macro(tmp_path, "fans(f)", f=capped)
    text = render_macro(tmp_path, "reputation(r)", r=season_reputation(8, 1, "champion", TABLE))
    assert "向 50 回落 10% 即 +4" in text and "新声望 **28**" in text
    assert "限制在 0–100" in render_macro(tmp_path, "reputation(r)", r=season_reputation(99, 1, "champion", TABLE))
