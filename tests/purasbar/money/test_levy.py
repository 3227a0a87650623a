"""The league's 财政调节 and an AI club's books (issue 26, designed ch.11): the numbers, the arithmetic,
money kept, a careless club still entering §11.3, and one played season's settlement."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from anko_writer.rulesets.purasbar.money.ai_books import ai_sales, sale_candidate
from anko_writer.rulesets.purasbar.money.bankruptcy import WARNING, Bankruptcy, bankruptcy_step
from anko_writer.rulesets.purasbar.money.finance import r_band, r_coefficient
from anko_writer.rulesets.purasbar.money.ledger import Ledger
from anko_writer.rulesets.purasbar.money.levy import collect_levy, levy_due, receivers, share_of
from tests.util import TABLES, club, player

RULES = TABLES.finance
LEVY = RULES.levy
STARTS_442 = {"FW": 2, "MF": 4, "DF": 4, "GK": 1}


def test_designed_numbers() -> None:
    assert (LEVY["free_multiple"], LEVY["percent"], LEVY["round_to"]) == (1, 50, 10_000)
    assert (LEVY["share_below"], LEVY["share_max"]) == (1, 800_000)
    assert RULES.ai_books["sales_max"] == 3
    assert RULES.labels["levy"] and RULES.labels["solidarity"]


def test_levy_is_half_the_funds_above_one_bill_rounded_down() -> None:
    rec = levy_due(7_654_321, 3_000_000, LEVY, "甲")
    assert (rec["free"], rec["excess"], rec["levy"]) == (3_000_000, 4_654_321, 2_320_000)
    assert levy_due(3_000_000, 3_000_000, LEVY)["levy"] == 0           # exactly one bill: nothing
    assert levy_due(3_019_999, 3_000_000, LEVY)["levy"] == 0           # 9,999 after halving: rounds to 0
    assert levy_due(3_020_000, 3_000_000, LEVY)["levy"] == 10_000
    assert levy_due(-5, 3_000_000, LEVY)["levy"] == 0
    assert levy_due(9_000_000, 0, LEVY)["levy"] == 0                   # no bill: no yardstick


@example(2_500_000, 1)  # an odd rest whose smaller half rounds down by 9,999: the club keeps 10,000 above it
@given(st.integers(-10_000_000, 80_000_000), st.integers(0, 10_000_000))
def test_after_the_levy_a_club_keeps_its_bill_and_half_the_rest(funds: int, bill: int) -> None:
    rec = levy_due(funds, bill, LEVY)
    assert 0 <= rec["levy"] <= max(0, funds - bill) // 2
    if bill and funds > bill:  # the club keeps its bill, the larger half of the rest, and what the rounding leaves
        kept = bill + (funds - bill + 1) // 2
        assert funds - rec["levy"] >= kept
        assert funds - rec["levy"] - kept < LEVY["round_to"]


def test_shares_are_equal_and_capped() -> None:
    assert share_of(10_000_000, 4, LEVY) == 800_000
    assert share_of(1_000_001, 4, LEVY) == 250_000
    assert share_of(5, 0, LEVY) == 0


def _league(funds: dict[str, int]) -> dict[str, Ledger]:
    return {name: Ledger(f) for name, f in funds.items()}


def test_collect_levy_posts_payers_then_shares_and_keeps_the_rest() -> None:
    ledgers = _league({"富": 13_000_000, "中": 3_500_000, "穷": 900_000, "欠": -200_000})
    bills = {"富": 3_000_000, "中": 3_000_000, "穷": 1_000_000, "欠": 1_000_000}
    rec = collect_levy(ledgers, bills, LEVY, RULES.labels, 4)
    assert [(p["club"], p["levy"]) for p in rec["paid"]] == [("富", 5_000_000), ("中", 250_000)]
    assert rec["fund"] == 5_250_000 and rec["receivers"] == ["穷", "欠"] and rec["share"] == 800_000
    assert rec["kept"] == 5_250_000 - 1_600_000
    assert {n: led.balance for n, led in ledgers.items()} == {
        "富": 8_000_000, "中": 3_250_000, "穷": 1_700_000, "欠": 600_000}
    assert [(e.kind, e.amount, e.month) for e in ledgers["欠"].entries] == [("solidarity", 800_000, 13)]
    assert [(e.kind, e.amount) for e in ledgers["富"].entries] == [("levy", -5_000_000)]


def test_nobody_rich_means_no_fund_and_no_share() -> None:
    ledgers = _league({"甲": 100, "乙": -5})
    rec = collect_levy(ledgers, {"甲": 1_000, "乙": 1_000}, LEVY, RULES.labels, 1)
    assert rec == {"paid": [], "fund": 0, "receivers": [], "share": 0, "kept": 0}
    assert all(not led.entries for led in ledgers.values())


def test_receivers_are_below_one_bill() -> None:
    ledgers = _league({"甲": 999, "乙": 1_000, "丙": -1})
    assert receivers(ledgers, {"甲": 1_000, "乙": 1_000, "丙": 1_000}, LEVY) == ["甲", "丙"]


def test_a_careless_club_deep_in_the_red_still_enters_the_chain() -> None:
    """Built scenario: the richest possible fund cannot lift a club 1.5 M in debt: the share is capped at
    800,000, so the settlement's §11.3 check finds it negative and the countdown starts."""
    ledgers = _league({"冠军": 60_000_000, "败家": -1_500_000})
    collect_levy(ledgers, {"冠军": 6_000_000, "败家": 4_000_000}, LEVY, RULES.labels, 3)
    assert ledgers["败家"].balance == -700_000
    step = bankruptcy_step(Bankruptcy(), ledgers["败家"].balance, 3, 13, RULES)
    assert (step["event"], step["stage"]) == ("warning", WARNING)


def test_a_winner_stays_rich_but_bounded() -> None:
    """A club earning 6 M over its 6 M bill every season: the levy settles it at a fixed point, R ≥ 2,
    instead of +6 M a season for ever."""
    led, bill, funds = Ledger(6_000_000), 6_000_000, []
    for s in range(1, 31):
        led.post(s, 12, "ticket", 12_000_000)
        led.post(s, 13, "wages", -bill)
        collect_levy({"我": led}, {"我": bill}, LEVY, RULES.labels, s)
        funds.append(led.balance)
    assert funds[-1] == funds[-2] and r_band(r_coefficient(funds[-1], bill)) == "rich"
    assert funds[-1] < 2 * bill + 6_000_000


def test_an_ai_club_in_the_red_sells_its_dearest_spare_players() -> None:
    fws = [player(f"前{i}", "FW", atk=10 + i) for i in range(4)]  # 4 FW for 2 slots: two spare
    others = [player(f"中{i}", "MF") for i in range(4)] + [player(f"后{i}", "DF") for i in range(4)]
    c = club("欠债", fws + others + [player("门", "GK")])
    led = Ledger(-300_000)
    sales = ai_sales(c, led, STARTS_442, RULES.ai_books, 2_500, "强制出售", 5)
    best = max(fws, key=lambda p: p.total)
    assert [s["player"] for s in sales] == [best.name]   # the first fee already clears the debt
    assert sales[0]["fee"] == best.total * 2_500 and led.balance == -300_000 + best.total * 2_500
    assert best not in c.players and len(c.players) == 12


def test_sales_stop_at_three_and_never_touch_a_needed_position() -> None:
    squad = [player(f"前{i}", "FW", atk=1) for i in range(6)] + [player(f"中{i}", "MF") for i in range(4)]
    squad += [player(f"后{i}", "DF") for i in range(4)] + [player("门", "GK")]
    c = club("巨债", squad)
    led = Ledger(-90_000_000)
    sales = ai_sales(c, led, STARTS_442, RULES.ai_books, 2_500, "强制出售", 5)
    assert len(sales) == 3 and {s["position"] for s in sales} == {"FW"}
    assert [s["after"] for s in sales] == [led.entries[i].amount + s["before"] for i, s in enumerate(sales)]
    tight = club("紧", [player("前", "FW"), player("门", "GK")])
    assert sale_candidate(tight.players, {"FW": 1, "GK": 1}) is None
    assert ai_sales(tight, Ledger(-5), {"FW": 1, "GK": 1}, RULES.ai_books, 2_500, "x", 1) == []
    assert ai_sales(c, Ledger(0), STARTS_442, RULES.ai_books, 2_500, "x", 1) == []


def test_one_season_settlement_books_the_levy_and_every_club(season_245) -> None:  # noqa: ANN001
    """Season 1 of seed 245: the levy record adds up and each club's recorded funds and bill are R's inputs."""
    st_ = season_245[1].chapters[-1].results["settlement"]
    levy, league = st_["levy"], st_["season_money"]["league"]
    assert levy["fund"] == sum(p["levy"] for p in levy["paid"])
    assert levy["kept"] == levy["fund"] - levy["share"] * len(levy["receivers"]) >= 0
    assert levy["share"] <= LEVY["share_max"] and len(league) == 24
    for p in levy["paid"]:
        assert p["levy"] == levy_due(p["funds"], p["bill"], LEVY)["levy"] > 0
    ours = st_["season_money"]["by_kind"]
    paid = next((p["levy"] for p in levy["paid"] if p["club"] == season_245[1].summary["club"]), 0)
    assert ours.get("levy", 0) == -paid
    for sale in levy["ai_sales"]:
        assert sale["fee"] == sale["total"] * RULES.bankruptcy["fire_sale_per_point"] and sale["before"] < 0
