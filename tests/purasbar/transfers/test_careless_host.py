"""The careless host of ``benchmarks/economy.py --host careless`` (issue 15): the votes it writes are valid
campaign decisions, bid for the dearest players first at a price the seller cannot refuse, never sell, and
spend the owner's month on upkeep; a window carries them out until the owner's budget runs out."""

from __future__ import annotations

import pytest
import yaml

from anko_writer.dice import Dice
from anko_writer.errors import CampaignError
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.rulesets.purasbar.models import Player
from anko_writer.rulesets.purasbar.money.ledger import Ledger
from anko_writer.rulesets.purasbar.transfers.market import load_transfer_tables, value_parts
from anko_writer.rulesets.purasbar.transfers.transfers import chance, run_window
from anko_writer.schema import validate
from benchmarks.economy import CARELESS_OWNER, careless_buys, careless_month
from tests.util import RES, TABLES, club, player

T = load_transfer_tables(RES)


def shown(players: list[Player]) -> list[dict]:
    """The market list a host reads: name, position and value (Appendix D, no environment modifier)."""
    return [{"name": p.name, "position": p.position, "value": value_parts(p, T, 0)["value"]} for p in players]


def market() -> list[Player]:
    """A 20-year-old core FW (240 × 5,000 × 120% = 1,440,000), a 27-year-old core DF (235 × 5,000 =
    1,175,000 → 1,170,000 rounded down) and a role MF (205 × 500 × 110% → 110,000)."""
    return [player("新星", "FW", atk=40, age=20), player("老将", "DF", df=35, age=27),
            player("替补", "MF", core=False, age=27)]


def test_bids_for_the_whole_market_dearest_first_at_a_sure_price() -> None:
    listed = shown(market()) + [{"name": "乙", "position": "GK", "value": 50_000},
                                {"name": "甲", "position": "GK", "value": 50_000}]
    buys = careless_buys(listed)
    values = {p["name"]: p["value"] for p in listed}
    assert [b["player"] for b in buys] == ["新星", "老将", "替补", "乙", "甲"]  # a tie goes by name (code point)
    for b in buys:
        v = values[b["player"]]
        assert b["offer"] % 10_000 == 0 and v * 120 <= b["offer"] * 100 < v * 120 + 1_000_000
        assert chance(b["offer"] * 100 // v, T) == 100  # Appendix D: no die, no counter
    assert buys[0]["offer"] == 1_730_000  # 1,440,000 × 120% = 1,728,000, rounded up


def test_owner_actions_cost_upkeep_and_never_bring_money() -> None:
    effects = {r.params["key"]: r.effect for r in TABLES.owner_actions.rows}
    assert {effects[k] for k in CARELESS_OWNER} == {"facility", "staff_level"}
    assert [careless_month(m, None)["owner"] for m in range(1, 13)] == list(CARELESS_OWNER) * 3
    assert "transfers" not in careless_month(3, None)
    vote = careless_month(7, shown(market()))
    assert vote["transfers"]["sell"] == [] and vote["transfers"]["release"] == []


def test_careless_votes_are_valid_campaign_decisions() -> None:
    made = RULESET.new_campaign({"city": "雷希特"}, 245, RES)
    doc = yaml.safe_load(made.yaml_text)
    doc["decisions"] = {f"s1m{m}": careless_month(m, shown(market()) if m in (1, 7) else None) for m in range(1, 13)}
    schema = RULESET.campaign_schema(RES)
    data = validate(doc, schema, "<careless>")
    assert data["decisions"]["s1m7"] == careless_month(7, shown(market()))
    assert data["decisions"]["s1m2"] == {"owner": CARELESS_OWNER[1]}
    doc["decisions"]["s1m2"] = {"owner": "buy_a_yacht"}  # the schema does check what the builder writes
    with pytest.raises(CampaignError, match="buy_a_yacht"):
        validate(doc, schema, "<careless>")


def test_a_window_carries_out_the_careless_bids_until_the_budget_runs_out() -> None:
    us = club("我队", [player(f"我{pos}{i}", pos) for pos in ("FW", "MF", "DF", "GK") for i in range(4)], ours=True)
    us.ledger = Ledger(5_000_000)
    ai = club("他队", [player(f"他{pos}{i}", pos) for pos in ("FW", "MF", "DF", "GK") for i in range(4)])
    players = market()
    listed = shown(players)
    votes = careless_month(7, listed)["transfers"]
    rec = run_window(Dice(1), "w", 1, 7, {"我队": us, "他队": ai}, "我队", players, votes, 2_000_000, T)
    got = [(d["player"], d["done"], d.get("reason")) for d in rec["ours"]]
    # 新星 at 1,730,000 leaves 270,000: 老将 (1,410,000) is over the budget, the role player (140,000) is not
    assert got == [("新星", True, None), ("老将", False, "over_budget"), ("替补", True, None)]
    assert all(d["kind"] == "buy" for d in rec["ours"])
    spent = sum(d["fee"] for d in rec["ours"] if d["done"])
    assert rec["budget"]["spent"] == spent and rec["budget"]["left"] == 2_000_000 - spent >= 0
    paid_now = sum(d["paid_now"] for d in rec["ours"] if d["done"])
    assert us.ledger.balance == 5_000_000 - paid_now and rec["outflow"] == spent
