"""Transfers (000 Appendix D, designed; §3.1.3 values, §3.2 the 33-player limit): valuation, the market,
negotiation, budget, instalments, our votes, the AI clubs and the window's invariants."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.errors import TableError
from anko_writer.render import find_problems, make_env
from anko_writer.rulesets.purasbar.models import POSITIONS, SQUAD_LIMIT, Club, Player
from anko_writer.rulesets.purasbar.money.instalments import Instalments
from anko_writer.rulesets.purasbar.money.ledger import Ledger
from anko_writer.rulesets.purasbar.setup.data import load_tables
from anko_writer.rulesets.purasbar.transfers.contracts import load_contracts
from anko_writer.rulesets.purasbar.transfers.market import (
    city_bands,
    load_transfer_tables,
    load_transfer_tables_from,
    make_market,
    tag_info,
    valuation,
    value_parts,
)
from anko_writer.rulesets.purasbar.transfers.transfers import (
    chance,
    negotiate,
    run_window,
    sell_offer,
    transfer_budget,
    window_of,
)
from tests.util import RES, club, player

T = load_transfer_tables(RES)
NAMES = load_tables(RES).names


def squad(tag: str, counts: dict[str, int] | None = None) -> list[Player]:
    """A rolled squad: 3 FW, 5 MF, 5 DF, 2 GK by default (15, above every ``keep``)."""
    counts = counts or {"FW": 3, "MF": 5, "DF": 5, "GK": 2}
    return [player(f"{tag}{pos}{i}", pos) for pos, n in counts.items() for i in range(n)]


def league(ai_ledger: int | None = None, ours: list[Player] | None = None) -> dict[str, Club]:
    """Our club (5,000,000 P$) and one AI club (no ledger: it cannot trade, unless given one)."""
    us = club("我队", ours if ours is not None else squad("我"), ours=True)
    us.ledger = Ledger(5_000_000)
    ai = club("他队", squad("他"))
    ai.ledger = Ledger(ai_ledger) if ai_ledger is not None else None
    return {"我队": us, "他队": ai}


def star(tag: str | None = None) -> Player:
    """A 20-year-old core FW of total 240: 240 × 5,000 × 120% = 1,440,000 P$."""
    p = player("新星", "FW", atk=40, age=20)
    p.tag = tag
    return p


# ---------------------------------------------------------------- tables and valuation


def test_tables_are_designed_and_pinned() -> None:
    r = T.rules
    assert r["source"] == "designed" and T.tags.source == "designed"
    assert r["windows"] == {"summer": 1, "winter": 7}
    assert (r["valuation"]["core_per_point"], r["valuation"]["role_per_point"]) == (5000, 500)
    assert r["negotiation"] == {"refuse_below": 70, "sure_at": 120, "chance_minus": 40, "unlisted_percent": 150,
                                "sale_mirror": 200}
    assert r["instalments"] == {"above": 1_000_000, "first_percent": 50, "months": 4}
    assert T.tags.lookup(61).params["name"] == "大赛专家" and T.tags.lookup(60).effect == "none"
    assert window_of(1, T) == "summer" and window_of(7, T) == "winter" and window_of(12, T) is None


def test_tag_table_must_cover_every_total(tmp_path: Path) -> None:
    text = RES.table_path("transfers.yaml").read_text(encoding="utf-8").replace("{range: 95-100,", "{range: 96-100,")
    bad = tmp_path / "transfers.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match="缺少 \\[95\\]"):
        load_transfer_tables_from(bad, load_contracts(RES))


@pytest.mark.parametrize("core, age, env, value", [
    (True, 27, 0, 1_150_000),     # 230 × 5,000 × 100%
    (True, 20, 0, 1_380_000),     # × 120%
    (True, 25, 0, 1_260_000),     # × 110% = 1,265,000, rounded down
    (True, 31, 0, 800_000),       # × 70% = 805,000
    (True, 34, 0, 460_000),       # × 40%
    (True, 27, -20, 920_000),     # 附录 C 财政公平法案
    (True, 27, 20, 1_380_000),    # 转会市场过热
    (False, 27, 0, 110_000),      # role: 230 × 500 = 115,000
    (False, 34, 0, 40_000),       # 46,000 → 40,000
])
def test_valuation_from_total_ability(core: bool, age: int, env: int, value: int) -> None:
    p = player("甲", "MF", age=age, core=core)
    assert p.total == 230
    assert valuation(p, T, env) == value


def test_value_record_minimum_and_unrolled() -> None:
    weak = Player("弱", "GK", False, {"ATK": 1, "DEF": 2, "MID": 2, "GK": 5, "STA": 41, "MNT": 11}, 35)
    rec = value_parts(weak, T)
    assert (rec["raw"], rec["value"]) == (62 * 500 * 40 // 100, 10_000)
    with pytest.raises(ValueError):
        valuation(Player("未知", "FW", True), T)


# ---------------------------------------------------------------- market


def test_market_player_follows_the_core_formulas() -> None:
    d = Dice(5)
    band = [{"city": "雷希特", "club": "雷希特竞技", "abilities": {"ATK": 45, "DEF": 40, "MID": 30, "GK": 19}}]
    d.fix(35, 1, prefix="m/p1/kind")                  # D100 ≤ 35 → core; 1D4 = 1 → FW
    d.fix(50, 50, 50, 50, 25, 25, 8, prefix="m/p1/attrs")  # four D100, STA, MNT, age 1D18 = 8 → 25
    d.fix(61, prefix="m/p1/tag")                      # 大赛专家
    d.fix(3, prefix="m/p1/contract")
    players, rec = make_market(d, "m", 1, band, NAMES, set(), T)
    p, x = players[0], rec["listings"][0]
    assert (p.position, p.core, p.age, p.contract, p.tag) == ("FW", True, 25, 3, "big_game")
    # 000 §3.2.1 FW: ATK = 45 × (0.6 + 50/500) = 31, MID = 30 × (0.3 + 50/800) = 10,
    # DEF = 40 × (0.2 + 50/1000) = 10, GK = 19 × (0.1 + 50/1200) = 2, STA 25 + 40, MNT 25 + 30
    assert p.attrs == {"ATK": 31, "DEF": 10, "MID": 10, "GK": 2, "STA": 65, "MNT": 55}
    assert x["value"]["value"] == 950_000 and x["tag"]["name"] == "大赛专家"  # 173 × 5,000 × 110% = 951,500
    assert x["band_roll"] is None and rec["size"] == {"roll": None, "base": 1, "extra": 0, "size": 1}


def test_market_role_player_and_size_rule() -> None:
    d = Dice(5)
    d.fix(3, prefix="m/size")
    d.fix(36, 4, prefix="m/p1/kind")                 # 36 > 35 → role; GK
    d.fix(8, 50, 20, 10, prefix="m/p1/attrs")         # age 8 + 17, k roll 50, STA 20 + 40, MNT 10 + 10
    players, rec = make_market(d, "m", "1D4+3", [{"city": "甲", "abilities": {"ATK": 20, "DEF": 40,
                                                                              "MID": 30, "GK": 50}}],
                               NAMES, set(), T, extra=2)
    assert rec["size"]["size"] == 3 + 3 + 2 and len(players) == 8
    gk = players[0]
    # 000 §3.3.1: k = 0.4 + 50/250 = 0.6; GK = 50 × 0.6 = 30, DEF = 40 × 0.3 = 12, MID = 30 × 0.3 = 9
    assert (gk.core, gk.position, gk.age, gk.k) == (False, "GK", 25, 0.6)
    assert gk.attrs == {"ATK": 1, "DEF": 12, "MID": 9, "GK": 30, "STA": 60, "MNT": 20}


def test_market_is_independent_of_other_rolls() -> None:
    bands = city_bands([club("甲", []), Club("乙", "乙队", 60, {"ATK": 10, "DEF": 20, "MID": 15, "GK": 15},
                                              "DEF", "5 4 1")])
    a, b = Dice(9), Dice(9)
    for i in range(30):
        b.roll(f"s1/m06/other{i}", "1D100", "别的骰子")
    ma, ra = make_market(a, "s1/m07/market", "1D4+3", bands, NAMES, set(), T)
    mb, rb = make_market(b, "s1/m07/market", "1D4+3", bands, NAMES, set(), T)
    assert ra == rb and [p.to_json() for p in ma] == [p.to_json() for p in mb]


def test_market_tag_rates_match_the_table() -> None:
    d = Dice(77)
    _, rec = make_market(d, "stat", 600, [{"city": "甲", "abilities": {"ATK": 30, "DEF": 30, "MID": 30, "GK": 30}}],
                         NAMES, set(), T)
    tagged = sum(1 for x in rec["listings"] if x["tag"])
    cores = sum(1 for x in rec["listings"] if x["core"])
    assert abs(tagged / 600 - 0.40) < 0.05 and abs(cores / 600 - 0.35) < 0.05
    assert 18 <= min(x["player"]["age"] for x in rec["listings"]) and max(x["player"]["age"] for x in rec["listings"]) <= 35


# ---------------------------------------------------------------- negotiation and budget


def test_chance_thresholds() -> None:
    assert [chance(r, T) for r in (0, 69, 70, 85, 100, 119, 120, 300)] == [0, 0, 30, 45, 60, 79, 100, 100]


@pytest.mark.parametrize("offer, face, limit, outcome, fee", [
    (690_000, None, None, "refused", None),          # 69% → no roll
    (700_000, 30, None, "agreed", 700_000),          # 70% → chance 30, 30 ≤ 30
    (700_000, 31, None, "failed", None),             # counter 1,200,000, no limit
    (1_000_000, 61, 1_200_000, "countered", 1_200_000),
    (1_000_000, 61, 1_190_000, "failed", None),
    (1_190_000, 79, None, "agreed", 1_190_000),
    (1_200_000, None, None, "agreed", 1_200_000),    # 120% → sure, no roll
])
def test_negotiation(offer: int, face: int | None, limit: int | None, outcome: str, fee: int | None) -> None:
    d = Dice(1)
    if face is not None:
        d.fix(face, prefix="n")
    rec = negotiate(d, "n", 1_000_000, offer, T, limit)
    assert (rec["outcome"], rec["fee"]) == (outcome, fee)
    assert (rec["roll"] is None) == (face is None) and len(d.log) == (0 if face is None else 1)
    if outcome in ("countered", "failed") and face is not None:
        assert rec["counter"] == 1_200_000


def test_counter_is_rounded_up() -> None:
    d = Dice(1)
    d.fix(99, prefix="n")
    assert negotiate(d, "n", 1_440_000, 1_100_000, T, 2_000_000)["fee"] == 1_730_000  # 1,728,000 ↑


@pytest.mark.parametrize("price, face, minimum, outcome, fee", [
    (1_310_000, None, None, "refused", None),        # mirrored 200 − 131 = 69
    (1_300_000, 30, None, "agreed", 1_300_000),      # 70 → chance 30
    (1_000_000, 61, None, "failed", None),           # 100 → chance 60; counter 800,000
    (1_000_000, 61, 800_000, "countered", 800_000),
    (800_000, None, None, "agreed", 800_000),        # 120 → sure
])
def test_sale_is_the_mirror(price: int, face: int | None, minimum: int | None, outcome: str, fee: int | None) -> None:
    d = Dice(1)
    if face is not None:
        d.fix(face, prefix="s")
    rec = sell_offer(d, "s", 1_000_000, price, T, minimum)
    assert (rec["outcome"], rec["fee"]) == (outcome, fee)


@pytest.mark.parametrize("ratio", [75, 100, 115])
def test_acceptance_rate_matches_the_chance(ratio: int) -> None:
    d = Dice(4242)
    n = 4000
    agreed = sum(negotiate(d, f"stat/{ratio}/{i}", 1_000_000, ratio * 10_000, T)["outcome"] == "agreed"
                 for i in range(n))
    assert abs(agreed / n - chance(ratio, T) / 100) < 0.025


def test_budget() -> None:
    assert transfer_budget(5_000_000, 100, T) == 1_500_000
    assert transfer_budget(5_000_000, 50, T) == 750_000
    assert transfer_budget(4_321_000, 150, T) == 1_940_000     # 1,944,450 rounded down
    assert transfer_budget(-10, 200, T) == 0 and transfer_budget(100_000, 1000, T) == 100_000


# ---------------------------------------------------------------- instalments


def test_instalments_plan_pay_and_round_trip() -> None:
    clubs = league(1_000_000)
    book = Instalments()
    book.plan("我队", "他队", 1, 11, 1_000_003, 4, "x")
    assert [(i.season, i.month, i.amount) for i in book.items] == [(1, 12, 250_000), (2, 1, 250_000),
                                                                   (2, 2, 250_000), (2, 3, 250_003)]
    assert book.outstanding("我队") == book.receivable("他队") == 1_000_003
    assert Instalments.from_json(book.to_json()) == book
    assert book.pay(1, 11, clubs) == []
    paid = book.pay(2, 1, clubs)   # month 12 was skipped: it is caught up
    assert [p["amount"] for p in paid] == [250_000, 250_000]
    assert clubs["我队"].ledger.balance == 4_500_000 and clubs["他队"].ledger.balance == 1_500_000
    assert {e.kind for e in clubs["我队"].ledger.entries} == {"instalment"} and len(book.items) == 2


# ---------------------------------------------------------------- our club


def test_vote_buy_from_the_market_with_instalments() -> None:
    clubs = league()
    market = [star("loyal")]
    d = Dice(1)
    d.fix(60, prefix="w/ours/buy/新星")
    book = Instalments()
    rec = run_window(d, "w", 1, 1, clubs, "我队", market, {"buy": [{"player": "新星", "offer": 1_440_000}]},
                     2_000_000, T, book=book)
    deal = rec["ours"][0]
    assert (deal["outcome"], deal["fee"], deal["paid_now"], deal["from"]) == ("agreed", 1_440_000, 720_000, None)
    assert [(i["month"], i["amount"], i["payee"]) for i in deal["instalments"]] == [(2, 180_000, None), (3, 180_000, None),
                                                                                   (4, 180_000, None), (5, 180_000, None)]
    us = clubs["我队"]
    assert [(e.kind, e.amount) for e in us.ledger.entries] == [("transfer_in", -720_000)]
    assert market == [] and us.players[-1].name == "新星" and us.players[-1].affinity == 70  # 忠诚 +20
    assert rec["outflow"] == 1_440_000 and rec["budget"]["left"] == 560_000 and book.outstanding("我队") == 720_000
    assert deal["value"]["value"] == 1_440_000 and deal["tag"]["name"] == "忠诚"


def test_vote_counter_within_max_and_budget() -> None:
    clubs = league()
    d = Dice(1)
    d.fix(99, prefix="w/ours/buy/新星")
    rec = run_window(d, "w", 1, 7, clubs, "我队", [star()],
                     {"buy": [{"player": "新星", "offer": 1_100_000, "max": 1_800_000}]}, 2_000_000, T)
    neg = rec["ours"][0]["negotiation"]
    assert (neg["ratio"], neg["chance"], neg["counter"], neg["outcome"]) == (76, 36, 1_730_000, "countered")
    assert rec["ours"][0]["paid_now"] == 865_000 and rec["window"] == "winter"


@pytest.mark.parametrize("vote, budget, reason", [
    ({"player": "无名", "offer": 1}, 2_000_000, "unknown"),
    ({"player": "新星", "offer": 1_440_000}, 1_000_000, "over_budget"),
])
def test_vote_buy_blocked(vote: dict, budget: int, reason: str) -> None:
    clubs = league()
    rec = run_window(Dice(1), "w", 1, 1, clubs, "我队", [star()], {"buy": [vote]}, budget, T)
    assert rec["ours"][0]["reason"] == reason and not rec["ours"][0]["done"]


def test_vote_buy_blocked_by_the_33_limit() -> None:
    clubs = league(ours=[player(f"满{i}", POSITIONS[i % 4]) for i in range(SQUAD_LIMIT)])
    rec = run_window(Dice(1), "w", 1, 1, clubs, "我队", [star()], {"buy": [{"player": "新星", "offer": 2_000_000}]},
                     3_000_000, T)
    assert rec["ours"][0]["reason"] == "squad_full" and len(clubs["我队"].players) == SQUAD_LIMIT


def test_vote_buy_unlisted_player_of_another_club() -> None:
    clubs = league(1_000_000)
    d = Dice(1)
    d.fix(60, prefix="w/ours/buy/他MF0")
    rec = run_window(d, "w", 1, 1, clubs, "我队", [], {"buy": [{"player": "他MF0", "offer": 1_890_000}]},
                     2_000_000, T)
    deal = rec["ours"][0]
    # value 1,260,000 (25 years: 110%); unlisted → basis 1,890,000, offer 100% of it → chance 60
    assert deal["unlisted"] and deal["negotiation"]["basis"] == 1_890_000 and deal["done"]
    assert clubs["他队"].ledger.balance == 1_000_000 + 945_000 and clubs["我队"].ledger.balance == 5_000_000 - 945_000
    assert rec["outflow"] == 0 and "他MF0" in [p.name for p in clubs["我队"].players]


def test_vote_sale_and_release() -> None:
    clubs = league(10_000_000)
    d = Dice(1)
    d.fix(1, 60, prefix="w/ours/sell/我FW0")   # the only buyer (1D1), then the mirrored D100 ≤ 60
    votes = {"sell": [{"player": "我FW0", "price": 1_150_000}], "release": ["我GK1"]}
    rec = run_window(d, "w", 1, 1, clubs, "我队", [], votes, 0, T)
    release, sale = rec["ours"]
    assert (release["severance"], release["wage"], release["contract"]) == (575_000 * 2 // 2, 575_000, 2)
    assert sale["done"] and sale["to"] == "他队" and sale["fee"] == 1_150_000 and sale["paid_now"] == 575_000
    us, them = clubs["我队"], clubs["他队"]
    assert [(e.kind, e.amount) for e in us.ledger.entries] == [("severance", -575_000), ("transfer_out", 575_000)]
    assert [(e.kind, e.amount) for e in them.ledger.entries][:1] == [("transfer_in", -575_000)]
    assert rec["budget"]["credit"] == 575_000 and rec["outflow"] == 575_000
    assert rec["instalments"][0]["payer"] == "他队" and rec["instalments"][0]["payee"] == "我队"


def test_our_ai_fills_the_weakest_position() -> None:
    clubs = league()
    weak = [player(f"我FW{i}", "FW", atk=20) for i in range(3)]
    clubs["我队"].players = weak + [p for p in clubs["我队"].players if p.position != "FW"]
    market = [star(), player("后卫", "DF", df=80)]
    d = Dice(1)
    d.fix(60, prefix="w/ours/buy/新星")
    rec = run_window(d, "w", 1, 1, clubs, "我队", market, None, 2_000_000, T)
    assert not rec["votes"] and rec["ours"][0]["actor"] == "ai" and rec["ours"][0]["player"] == "新星"
    assert rec["ours"][0]["negotiation"]["offer"] == 1_440_000 and rec["ours"][0]["done"]


# ---------------------------------------------------------------- AI clubs


def test_ai_short_of_a_position_buys_without_the_d100() -> None:
    clubs = league(5_000_000)
    clubs["他队"].players = [p for p in clubs["他队"].players if p.name != "他GK1"]   # one GK < keep 2
    keeper = player("门神", "GK", gk=60, age=28)                                    # 260 × 5,000 = 1,300,000
    d = Dice(1)
    d.fix(1, 21, 60, prefix="w/ai/他队/buy1")   # target 1D1, offer 1D41+79 = 100%, D100 60 ≤ 60
    rec = run_window(d, "w", 1, 1, clubs, "我队", [keeper], {"buy": []}, 0, T)
    bid = next(b for b in rec["ai"] if b["club"] == "他队" and b["bid"] == 1)
    assert (bid["need"], bid["roll"], bid["position"], bid["candidates"]) == ("GK", None, "GK", 1)
    deal = bid["deal"]
    assert (deal["offer_roll"]["total"], deal["negotiation"]["offer"], deal["negotiation"]["chance"]) == (100, 1_300_000, 60)
    assert deal["done"] and deal["paid_now"] == 650_000 and rec["outflow"] == 1_300_000
    assert clubs["他队"].players[-1] is keeper


def test_ai_listing_and_purchase_between_clubs() -> None:
    seller = club("卖家", squad("卖", {"FW": 4, "MF": 6, "DF": 6, "GK": 4}))   # 20 > target 18; 4 4 2 keeps FW 3
    buyer = club("买家", squad("买"))                                          # 15 < 18: buys for sure
    us = club("我队", squad("我"), ours=True)
    for c, money in ((seller, 1_000_000), (buyer, 5_000_000), (us, 1_000_000)):
        c.ledger = Ledger(money)
    clubs = {"我队": us, "卖家": seller, "买家": buyer}
    d = Dice(1)
    d.fix(40, 1, prefix="w/ai/卖家/list")           # D100 ≤ 40, then the first surplus player (卖FW0)
    d.fix(100, prefix="w/ai/卖家/buy1")             # D100 100 > 50: the seller stays out of the market
    d.fix(1, 1, 41, 79, prefix="w/ai/买家/buy1")    # FW, target 1D1, offer 120% → 1,510,000 (119%), 79 ≤ 79
    rec = run_window(d, "w", 1, 1, clubs, "我队", [], {"buy": []}, 0, T)
    listing = next(x for x in rec["listings"] if x["club"] == "卖家")
    assert listing["listed"] == "卖FW0"
    deal = next(b for b in rec["ai"] if b["club"] == "买家")["deal"]
    assert (deal["from"], deal["to"], deal["negotiation"]["outcome"], deal["fee"]) == ("卖家", "买家", "agreed", 1_510_000)
    assert deal["negotiation"]["ratio"] == 119 and deal["negotiation"]["chance"] == 79
    assert seller.ledger.balance == 1_000_000 + 755_000 and buyer.ledger.balance == 5_000_000 - 755_000
    assert "卖FW0" in [p.name for p in buyer.players] and "卖FW0" not in [p.name for p in seller.players]


def test_trialists_cover_missing_positions_and_the_floor() -> None:
    clubs = league()
    clubs["他队"].players = [player(f"他MF{i}", "MF") for i in range(5)]   # no FW, DF, GK; 5 < 14
    rec = run_window(Dice(3), "w", 1, 1, clubs, "我队", [], {"buy": []}, 0, T, names=NAMES)
    ai = clubs["他队"]
    assert all(any(p.position == pos for p in ai.players) for pos in POSITIONS)
    assert len(ai.players) == T.rules["ai"]["squad_floor"]
    assert all(t["fee"] == 0 and t["to"] == "他队" for t in rec["trials"]) and len(rec["trials"]) == 9


# ---------------------------------------------------------------- invariants


@st.composite
def windows(draw: st.DrawFn) -> dict:
    """Random leagues (3–5 clubs of 11–33 players), markets, money, votes and a seed."""
    n = draw(st.integers(3, 5))
    sizes = draw(st.lists(st.integers(11, 33), min_size=n, max_size=n))
    money = draw(st.lists(st.integers(0, 8_000_000), min_size=n, max_size=n))
    market = draw(st.integers(0, 8))
    seed = draw(st.integers(0, 10_000))
    sell = draw(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 3_000_000)), max_size=3))
    buy = draw(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 3_000_000), st.booleans()), max_size=3))
    release = draw(st.lists(st.integers(0, 10), max_size=2))
    return {"sizes": sizes, "money": money, "market": market, "seed": seed, "sell": sell, "buy": buy,
            "release": release, "vote": draw(st.booleans())}


def _build(spec: dict) -> tuple[dict[str, Club], list[Player]]:
    """Clubs whose squads cover every position, and a market of role and core players."""
    clubs: dict[str, Club] = {}
    for i, (size, money) in enumerate(zip(spec["sizes"], spec["money"], strict=False)):
        players = [player(f"c{i}p{j}", POSITIONS[j % 4], atk=10 + j, age=18 + j % 17, core=j % 3 == 0)
                   for j in range(size)]
        c = club(f"俱乐部{i}", players, ours=i == 0)
        c.ledger = Ledger(money)
        clubs[c.name] = c
    market = [player(f"m{j}", POSITIONS[j % 4], mid=20 + j, age=19 + j, core=j % 2 == 0) for j in range(spec["market"])]
    return clubs, market


def _votes(spec: dict, clubs: dict[str, Club], market: list[Player]) -> dict | None:
    """Votes naming real and unknown players."""
    if not spec["vote"]:
        return None
    ours = clubs["俱乐部0"].players
    others = [p.name for c in list(clubs.values())[1:] for p in c.players] + [p.name for p in market]
    pick = lambda names, i: names[i % len(names)] if names and i < 10 else "无名"  # noqa: E731
    return {"sell": [{"player": pick([p.name for p in ours], i), "price": price} for i, price in spec["sell"]],
            "buy": [{"player": pick(others, i), "offer": offer, **({"max": offer * 2} if m else {})}
                    for i, offer, m in spec["buy"]],
            "release": [pick([p.name for p in ours], i) for i in spec["release"]]}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(windows())
def test_window_keeps_limits_and_money(spec: dict) -> None:
    clubs, market = _build(spec)
    before = sum(c.ledger.balance for c in clubs.values())
    book = Instalments()
    d = Dice(spec["seed"])
    rec = run_window(d, "w", 1, 1, clubs, "俱乐部0", market, _votes(spec, clubs, market),
                     transfer_budget(clubs["俱乐部0"].ledger.balance, 100, T), T, book=book, names=NAMES)
    for c in clubs.values():
        assert T.rules["ai"]["squad_floor"] <= len(c.players) <= SQUAD_LIMIT
        assert all(any(p.position == pos for p in c.players) for pos in POSITIONS)
        assert len({p.name for p in c.players}) == len(c.players)
    everyone = [p for c in clubs.values() for p in c.players] + market
    assert len({id(p) for p in everyone}) == len(everyone)     # nobody is in two places
    owed_outside = sum(i.amount for i in book.items if i.payee is None)
    # between clubs money only moves; the market's agents and released players are the outflow
    assert sum(c.ledger.balance for c in clubs.values()) == before - rec["outflow"] + owed_outside
    for month in range(2, 6):
        book.pay(1, month, clubs)
    assert book.items == [] and sum(c.ledger.balance for c in clubs.values()) == before - rec["outflow"]
    assert rec["budget"]["spent"] <= rec["budget"]["budget"] + rec["budget"]["credit"]


# ---------------------------------------------------------------- chapter text


def test_window_and_market_macros_render() -> None:
    clubs = league(10_000_000)
    d = Dice(1)
    d.fix(60, prefix="w/ours/buy/新星")
    d.fix(1, 60, prefix="w/ours/sell/我FW0")
    votes = {"buy": [{"player": "新星", "offer": 1_440_000}], "sell": [{"player": "我FW0", "price": 1_150_000}],
             "release": ["我GK1"]}
    rec = run_window(d, "w", 1, 1, clubs, "我队", [star("big_game")], votes, 2_000_000, T)
    _, mrec = make_market(Dice(2), "m", "1D4+3", city_bands(clubs.values()), NAMES, set(), T, extra=1)
    text = make_env(RES).from_string(
        "{% import 'transfers.j2' as tr %}{{ tr.market(m) }}\n\n{{ tr.window(w) }}\n\n{{ tr.instalments(i) }}"
    ).render(m=mrec, w=rec, i=rec["instalments"])
    assert "**夏季转会窗**（附录 D）：转会预算 2,000,000 P$" in text
    assert ("**新星**（前锋）自由市场 → 我队。身价 = 总能力 240 × 5,000 P$（核心） × 年龄 20 岁系数 120% = "
            "1,440,000 P$，取整 **1,440,000 P$**；报价 1,440,000 P$，为比价基准 1,440,000 P$ 的 100%："
            "成功率 = 100 − 40 = 60%，「1D100＝60」 ≤ 60，**谈成**。转会费 1,440,000 P$：本月付 720,000 P$，"
            "余款分 4 期（第 2 月 180,000 P$、第 3 月 180,000 P$、第 4 月 180,000 P$、第 5 月 180,000 P$）") in text
    assert "〔大赛专家：淘汰赛终结值 +3〕" in text
    assert "**我GK1**（门将）被解约：解约金 = 年薪 575,000 P$ × 剩余 2 季 × 50% = 575,000 P$" in text
    assert "买家「1D1＝1」（1 家可选）" in text and "要价 1,150,000 P$，买方比价 = 200 − " in text
    assert "候选人数「1D4+3＝" in text and "| 球员 | 来历 |" in text
    assert "第 3 月转会分期：他队 → 我队 143,750 P$（我FW0 转会：我队 → 他队）" in text
    assert find_problems(text) == []
    assert tag_info("glass", T)["name"] == "玻璃人"


def test_an_ai_club_recruits_for_its_formation() -> None:
    """Designed (issue 26): an AI club keeps its formation's starters + ``cover`` at each outfield
    position, so a 4 3 3 side with three forwards buys a fourth for sure; one still short of its
    formation after the bids signs a free trialist for the position."""
    assert T.rules["ai"]["cover"] == 1
    buyer = club("买家", squad("买", {"FW": 3, "MF": 5, "DF": 5, "GK": 2}), formation="4 3 3")
    buyer.ledger = Ledger(5_000_000)
    us = club("我队", squad("我"), ours=True)
    us.ledger = Ledger(1_000_000)
    rec = run_window(Dice(3), "w", 1, 1, {"我队": us, "买家": buyer}, "我队", [], {"buy": []}, 0, T)
    bid = next(b for b in rec["ai"] if b["club"] == "买家")
    assert bid["need"] == "FW" and bid["outcome"] == "no_candidate"
    thin = club("薄", squad("薄", {"FW": 1, "MF": 5, "DF": 5, "GK": 2}), formation="4 3 3")
    rec = run_window(Dice(3), "w", 1, 1, {"我队": us, "薄": thin}, "我队", [], {"buy": []}, 0, T, names=NAMES)
    assert [t["position"] for t in rec["trials"] if t["to"] == "薄"] == ["FW", "FW"]
