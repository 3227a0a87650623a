"""A campaign's own ``transfers.yaml`` moves the winter window for every rule that reads it: the market
chapter, the window itself and the owner's window-gated action (追加转会预算, ``requires: [transfer_window]``)."""

from __future__ import annotations

from pathlib import Path

from anko_writer.campaign import load_campaign
from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar import RULESET
from tests.util import RES, campaign_file

VOTES = "decisions:\n  s1m7: {owner: transfer_budget}\n  s1m8: {owner: transfer_budget}\n"
"""The readers pick 追加转会预算 in months 7 and 8: it is carried out only in a window month."""


def _months(camp: Path, resources: Resources) -> dict[int, dict]:
    run = RULESET.play_season(load_campaign(camp), 1, 8, resources)
    return {ch.month: ch.results for ch in run.chapters}


def _owner(results: dict) -> tuple[str | None, list]:
    owner = results["life"]["owner"]
    return owner["action"], owner["fallback"]


def test_a_campaign_moves_the_winter_window(tmp_path: Path) -> None:
    camp = campaign_file(tmp_path, extra=VOTES)
    tables = tmp_path / "tables" / "purasbar"
    tables.mkdir(parents=True)
    text = RES.table_path("transfers.yaml").read_text(encoding="utf-8")
    assert text.count("winter: 7") == 1
    (tables / "transfers.yaml").write_text(text.replace("winter: 7", "winter: 8"), encoding="utf-8")

    months = _months(camp, Resources("purasbar", tmp_path))
    assert not months[6].get("market") and months[6]["market_list"] == []
    assert months[7]["market"]["listings"] and months[7]["market_list"]  # the chapter before the window
    assert months[7]["life"]["window"] is None and months[8]["life"]["window"]["window"] == "winter"
    action, chain = _owner(months[7])
    assert action != "transfer_budget" and chain and chain[0]["reason"] == "requires_transfer_window"
    assert _owner(months[8]) == ("transfer_budget", [])


def test_the_shipped_winter_window_opens_in_month_7(tmp_path: Path) -> None:
    months = _months(campaign_file(tmp_path, extra=VOTES), RES)
    assert months[6]["market"]["listings"] and not months[7].get("market")
    assert months[7]["life"]["window"]["window"] == "winter" and months[8]["life"]["window"] is None
    assert _owner(months[7]) == ("transfer_budget", [])
    assert _owner(months[8])[0] != "transfer_budget"


def test_a_campaign_moves_the_summer_window(tmp_path: Path) -> None:
    camp = campaign_file(tmp_path)
    tables = tmp_path / "tables" / "purasbar"
    tables.mkdir(parents=True)
    text = RES.table_path("transfers.yaml").read_text(encoding="utf-8")
    assert text.count("summer: 1") == 1
    (tables / "transfers.yaml").write_text(text.replace("summer: 1", "summer: 2"), encoding="utf-8")

    run = RULESET.play_season(load_campaign(camp), 1, 2, Resources("purasbar", tmp_path))
    months = {ch.month: ch.results for ch in run.chapters}
    assert months[1]["life"]["window"] is None and months[1]["life"]["market"] is None
    assert not months[1].get("market")  # the summer market is posted before the season, not a chapter before
    assert months[2]["life"]["window"]["window"] == "summer"
    assert months[2]["life"]["market"]["key"] == "s1/m02/market"
