"""Bankruptcy (000 §11.3, designed): the trigger chain stage by stage, the stage-2 action, the macros."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.rulesets.purasbar.money.bankruptcy import (
    BANKRUPT,
    EMERGENCY,
    NORMAL,
    WARNING,
    Bankruptcy,
    after,
    bankruptcy_step,
    book_emergency,
    emergency,
)
from anko_writer.rulesets.purasbar.money.ledger import Ledger
from tests.util import TABLES, player, render_macro

RULES = TABLES.finance


def test_designed_numbers() -> None:
    b = RULES.bankruptcy
    assert (b["warning_months"], b["emergency_months"], b["owner_base"], b["owner_wealth_divisor"]) == (3, 3, 20, 2)
    assert (b["cushion"], b["fire_sale_per_point"]) == (300_000, 2_500)  # a fire sale: half a core's value


def steps(balances: list[int], season: int = 1, month: int = 1) -> list[dict]:
    """Run the chain over consecutive checks (months 1–12, then the settlement 13)."""
    state, out = Bankruptcy(), []
    for b in balances:
        out.append(bankruptcy_step(state, b, season, month, RULES))
        season, month = (season, month + 1) if month < 13 else (season + 1, 1)
    return out


def test_chain_stage_by_stage_to_bankruptcy() -> None:
    recs = steps([100, -1, -5, -5, -5, 50, -5, -5], season=1, month=10)
    assert [(r["month"], r["event"], r["stage"], r["months_left"]) for r in recs] == [
        (10, "none", NORMAL, 0),
        (11, "warning", WARNING, 3),
        (12, "countdown", WARNING, 2),
        (13, "countdown", WARNING, 1),      # the §4.4 settlement is a check too
        (1, "emergency", EMERGENCY, 3),
        (2, "probation", EMERGENCY, 2),     # a good month in probation does not end it early
        (3, "probation", EMERGENCY, 1),
        (4, "bankrupt", BANKRUPT, 0),
    ]
    assert recs[1]["deadline"] == {"season": 2, "month": 1}
    assert recs[4]["action"] == {"kind": "emergency", "deficit": 5} and recs[4]["deadline"] == {"season": 2, "month": 4}
    assert [r["action"] for r in recs if r["event"] != "emergency"] == [None] * 7
    assert recs[-1]["ended"] and recs[-1]["stage_name"] == "bankrupt" and recs[-1]["deadline"] is None


def test_warning_recovers_when_funds_return_to_zero() -> None:
    recs = steps([-1, -1, 0, -1])
    assert [(r["event"], r["stage"], r["months_left"]) for r in recs] == [
        ("warning", WARNING, 3), ("countdown", WARNING, 2), ("recovered", NORMAL, 0), ("warning", WARNING, 3)]


def test_probation_cleared_when_solvent_at_the_deadline() -> None:
    recs = steps([-1, -1, -1, -1, -1, -1, 0])
    assert [r["event"] for r in recs] == ["warning", "countdown", "countdown", "emergency", "probation",
                                         "probation", "cleared"]
    assert recs[-1]["stage"] == NORMAL and not recs[-1]["ended"]


def test_after_bankruptcy_nothing_moves() -> None:
    state = Bankruptcy(BANKRUPT, 0)
    rec = bankruptcy_step(state, 10**9, 3, 5, RULES)
    assert (rec["event"], rec["stage"], rec["ended"]) == ("ended", BANKRUPT, True)


def test_json_round_trip() -> None:
    for s in (Bankruptcy(), Bankruptcy(WARNING, 2), Bankruptcy(EMERGENCY, 1), Bankruptcy(BANKRUPT, 0)):
        assert Bankruptcy.from_json(s.to_json()) == s
    assert Bankruptcy.from_json(None) == Bankruptcy()
    with pytest.raises(ValueError):
        Bankruptcy.from_json({"stage": 4})


def test_after_counts_checks_through_the_settlement() -> None:
    assert after(1, 1, 0) == {"season": 1, "month": 1}
    assert after(1, 12, 1) == {"season": 1, "month": 13}
    assert after(1, 12, 2) == {"season": 2, "month": 1}
    assert after(2, 13, 14) == {"season": 4, "month": 1}


BALANCES = st.lists(st.integers(min_value=-3, max_value=3), min_size=1, max_size=60)


@given(BALANCES)
def test_chain_invariants(balances: list[int]) -> None:
    """Stages only move one at a time; bankruptcy needs 7 checks from the first negative one and ends it."""
    recs = steps(balances)
    for i, r in enumerate(recs):
        assert 0 <= r["months_left"] <= 3 and r["stage"] in (NORMAL, WARNING, EMERGENCY, BANKRUPT)
        assert r["stage"] - r["stage_before"] in (0, 1) or r["stage"] == NORMAL
        assert (r["action"] is not None) == (r["event"] == "emergency")
        if r["event"] == "bankrupt":
            assert balances[i] < 0 and i >= 6 and all(b < 0 for b in balances[i - 6:i - 2])
        if r["stage_before"] == BANKRUPT:
            assert r["stage"] == BANKRUPT
    if all(b >= 0 for b in balances):
        assert all(r["event"] == "none" for r in recs)


# --- stage 2 action ---------------------------------------------------------------------------------


def squad() -> list:
    """Three rolled players and an unrolled core player (000 §5.8.3)."""
    a, b, c = player("甲", "FW", atk=40), player("乙", "MF", mid=45), player("丙", "DF", df=45)
    ghost = player("丁", "GK")
    ghost.attrs = {}
    return [a, b, c, ghost]


def test_emergency_injection_succeeds_at_the_threshold() -> None:
    d = Dice(1)
    d.fix(40)
    rec = emergency(d, "s1/m05/bankruptcy", -250_000, 41, squad(), RULES)
    assert (rec["threshold"], rec["wealth_bonus"], rec["success"], rec["outcome"]) == (40, 20, True, "injection")
    assert rec["roll"] == {"id": "s1/m05/bankruptcy/emergency#1", "expr": "1D100", "total": 40}
    assert (rec["deficit"], rec["cushion"], rec["amount"]) == (250_000, 300_000, 550_000)
    led = Ledger(-250_000)
    lines = book_emergency(led, rec, 1, 5, RULES)
    assert [(e["kind"], e["amount"], e["label"]) for e in lines] == [
        ("emergency_injection", 550_000, "老板紧急注资")]
    assert led.balance == 300_000


def test_emergency_failure_sells_the_most_valuable_player() -> None:
    d = Dice(1)
    d.fix(41)
    rec = emergency(d, "k", -250_000, 41, squad(), RULES)
    # 乙 and 丙 both total 30+30+45+30+60+50 = 245; the first listed goes
    assert (rec["success"], rec["outcome"], rec["player"], rec["player_total"]) == (False, "forced_sale", "乙", 245)
    assert rec["amount"] == 245 * 2_500
    led = Ledger(-250_000)
    assert book_emergency(led, rec, 1, 5, RULES)[0]["kind"] == "forced_sale" and led.balance == 362_500
    d.fix(100)
    nobody = emergency(d, "k", -1, 0, [], RULES)
    assert (nobody["player"], nobody["amount"]) == (None, 0) and book_emergency(Ledger(-1), nobody, 1, 5, RULES) == []


def test_emergency_success_rate_matches_the_threshold() -> None:
    """Fixed seed: the owner's 1D100 ≤ 20 + wealth ÷ 2 succeeds at that rate."""
    d = Dice(99)
    for wealth, rate in ((0, 0.20), (41, 0.40), (100, 0.70)):
        n = 3_000
        wins = sum(emergency(d, f"w{wealth}/{i}", -1, wealth, [], RULES)["success"] for i in range(n))
        assert abs(wins / n - rate) < 0.03


# --- templates ----------------------------------------------------------------------------------------




def test_render_every_event(tmp_path: Path) -> None:
    recs = steps([5, -1, -2, -3, -4, 6, -7, -8], season=1, month=10)
    recs += steps([-1, 0, -1, -1, -1, -1, -1, -1, 0])
    recs.append(bankruptcy_step(Bankruptcy(BANKRUPT, 0), 1, 3, 3, RULES))
    texts: dict[str, str] = {}
    for r in recs:  # the first record of each event
        texts.setdefault(r["event"], render_macro(tmp_path, "bankruptcy(b)", b=r))
    assert set(texts) == {"none", "warning", "countdown", "recovered", "emergency", "probation", "cleared",
                          "bankrupt", "ended"}
    assert "倒计时开始：3 个月末内（最迟第二赛季第 1 月月末）" in texts["warning"]
    assert "账上仍为 −2 P$，还剩 **2** 个月末（最迟第二赛季第 1 月月末）" in texts["countdown"]
    assert "赤字 4 P$" in texts["emergency"]
    assert "第二赛季第 4 月月末账上若仍为负即宣告破产" in texts["emergency"]
    assert "宣告破产" in texts["bankrupt"]


def test_render_emergency(tmp_path: Path) -> None:
    d = Dice(1)
    d.fix(40, 41)
    ok = render_macro(tmp_path, "emergency(e)", e=emergency(d, "k", -250_000, 41, squad(), RULES))
    assert "「1D100＝40」，需要 ≤ 40（20 + 财富 41 ÷ 2 取整 20）：**成功**！" in ok
    assert "= 550,000 P$" in ok
    sold = render_macro(tmp_path, "emergency(e)", e=emergency(d, "k", -250_000, 41, squad(), RULES))
    assert "强制出售身价最高的乙（总能力 245），贱卖价 245 × 2,500 = 612,500 P$" in sold
    d.fix(100)
    nobody = emergency(d, "k", -1, 0, [], RULES)
    assert "阵中已没有可卖的球员" in render_macro(tmp_path, "emergency(e)", e=nobody)
