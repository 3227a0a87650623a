"""Team morale: the designed month-end adjustment (§4.1 phase 5, §13.3), the §4.4 carry and §5.1.3."""

from __future__ import annotations

from pathlib import Path

import pytest

from anko_writer.errors import TableError
from anko_writer.rulesets.purasbar.club.morale import (
    clamp,
    load_morale,
    load_morale_table,
    modifier,
    monthly_adjustment,
    offseason_adjustment,
    overflow,
    season_carry,
)
from anko_writer.rulesets.purasbar.match import engine as match
from tests.util import RES, club, player

TABLE = load_morale(RES)


def test_table_is_designed_and_small() -> None:
    m = TABLE["monthly"]
    assert TABLE["source"] == "designed"
    assert (m["win"], m["draw"], m["loss"], m["swing_cap"], m["drift_percent"]) == (4, 1, -4, 12, 15)
    assert m["swing_cap"] < 20  # one month moves the §5.1.3 modifier by at most about one step


@pytest.mark.parametrize("results, before, after, delta", [
    (["win", "win"], 0, 10, 10),                 # 4 + 4 + sweep 2
    (["win"], 0, 4, 4),                          # a single match is no sweep
    (["win", "draw"], 20, 22, 2),                # −3 drift, +5
    (["loss", "loss"], 0, -10, -10),             # −4 −4 slump −2
    (["loss", "draw"], 40, 31, -9),              # −6 drift, −3
    (["win", "loss"], -30, -26, 4),              # +4 drift (15% of 30), 0
    ([], 5, 4, -1),                              # no match: drift at least 1
    ([], 1, 0, -1), ([], -1, 0, 1), ([], 0, 0, 0),  # drift never crosses 0
    (["win"] * 8, 0, 12, 12),                    # cup month: 32 + 2 capped at 12
    (["loss"] * 8, 0, -12, -12),
])
def test_monthly_adjustment_examples(results: list[str], before: int, after: int, delta: int) -> None:
    rec = monthly_adjustment(results, before, TABLE)
    assert (rec["morale"], rec["delta"]) == (after, delta)
    assert rec["before"] + rec["drift"] + rec["swing"] + rec["bonus"] == after


def test_monthly_record_parts() -> None:
    rec = monthly_adjustment(["win", "draw", "win"], 47, TABLE, bonus=2)
    assert rec == {
        "before": 47, "results": {"win": 2, "draw": 1, "loss": 0}, "drift": -7, "streak": 0,
        "raw_swing": 9, "swing": 9, "bonus": 2, "delta": 4, "morale": 51, "clamped": False,
        "modifier_before": 4, "modifier": 5,
    }


def test_monthly_adjustment_is_clamped() -> None:
    assert monthly_adjustment(["win"] * 3, 100, TABLE, bonus=5)["morale"] == 100
    assert monthly_adjustment(["win"] * 3, 100, TABLE, bonus=5)["clamped"] is True
    assert monthly_adjustment(["loss"] * 3, -100, TABLE, bonus=-5)["morale"] == -100
    assert monthly_adjustment(["win"] * 8, 95, TABLE, bonus=10)["morale"] == 100  # 95 − 14 + 12 + 10


def test_monthly_adjustment_refuses_unknown_results() -> None:
    with pytest.raises(ValueError):
        monthly_adjustment(["won"], 0, TABLE)


def months(pattern: list[str], n: int, start: int = 0) -> list[int]:
    """Morale after each of ``n`` months with the same results."""
    out, m = [], start
    for _ in range(n):
        m = monthly_adjustment(pattern, m, TABLE)["morale"]
        out.append(m)
    return out


def test_long_run_moves_visibly_but_rarely_saturates() -> None:
    assert modifier(months(["win", "loss"], 24, start=40)[-1]) == 0   # a .500 side drifts home
    assert modifier(months(["win", "draw"], 24)[-1]) == 3            # a good side settles near +3
    assert modifier(months(["draw", "draw"], 24)[-1]) == 1
    perfect = months(["win", "win"], 12)
    assert modifier(perfect[0]) == 1 and modifier(perfect[-1]) == 5   # only a perfect season saturates
    assert [modifier(m) for m in perfect[:3]] == [1, 1, 2]
    assert modifier(months(["loss", "loss"], 24)[-1]) == -7


def test_season_carry_halves_toward_zero_and_adds() -> None:
    assert season_carry(15, 0) == 7 and season_carry(-15, 0) == -7
    assert season_carry(61, 3) == 33 and season_carry(-61, -3) == -33
    assert season_carry(100, 60) == 100 and season_carry(-100, -60) == -100
    assert season_carry(0, -10) == -10


def test_offseason_adjustment_bands() -> None:
    assert [offseason_adjustment(r, TABLE) for r in (1, 2, 4, 5, 8, 9, 16, 17, 20, 21, 23, 24)] == \
        [10, 6, 6, 3, 3, 0, 0, -3, -3, -6, -6, -10]
    assert offseason_adjustment(12, TABLE, cup_winner=True) == 5
    with pytest.raises(ValueError):
        offseason_adjustment(25, TABLE)


def test_offseason_bands_must_be_contiguous(tmp_path: Path) -> None:
    text = RES.table_path("morale.yaml").read_text(encoding="utf-8").replace("{from: 5,  to: 8", "{from: 6,  to: 8")
    bad = tmp_path / "morale.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match="这一段应从第 5 名开始"):
        load_morale_table(bad)


def test_clamp_and_modifier_match_the_match_engine() -> None:
    assert [clamp(m) for m in (-150, -100, 0, 100, 101)] == [-100, -100, 0, 100, 100]
    for m in range(-100, 101):
        assert modifier(m) == min(match.MORALE_CAP, m // 10)
    assert [modifier(m) for m in (-11, -1, 9, 10, 55, 100)] == [-2, -1, 0, 1, 5, 5]


def test_overflow_matches_post_match_recovery() -> None:
    p = player("甲", "MF", age=30)
    c = club("测试", [p])
    base = match.recovery(c, p, 1)
    for m in (0, 59, 60, 75, 100):
        c.morale = m
        assert match.recovery(c, p, 1) - base == overflow(m)
    assert [overflow(m) for m in (59, 60, 75, 100)] == [0, 1, 2, 5]
