"""The engage ruleset played through: a battle with the readers' votes applied, an illegal vote located at its
key with the legal orders, the AI's intent die sealed when thrown and revealed in the next chapter, and battle 2
starting from battle 1's state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from anko_writer.campaign import load_campaign
from anko_writer.cli import app
from tests.scenario import play, tally_write, write_campaign

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "campaigns" / "engage" / "river.yaml"


def _campaign(tmp_path: Path, orders: dict[str, Any]) -> Path:
    data = YAML(typ="safe").load(SHIPPED.read_text(encoding="utf-8"))
    data["orders"] = orders
    return write_campaign(tmp_path, data)


def _play(path: Path, arc: int = 1, part: int = 12) -> Any:
    return play(path, arc, part)[1]


def test_the_readers_votes_are_played(tmp_path: Path) -> None:
    run = _play(_campaign(tmp_path, {"b1r01": {"游侠": "射击 巨魔 用 长弓 抛射", "矛手": "固守",
                                               "应对": ["若 被冲锋 则 矛手 固守"]}}))
    r1 = run.chapters[0].results
    mine = {o["unit"]: o for o in r1["orders"]}
    assert mine["游侠"]["by"] == "readers" and mine["游侠"]["text"] == "射击 巨魔 用 长弓 抛射"
    assert mine["矛手"]["kind"] == "固守" and mine["巨魔"]["by"] == "ai"
    shot = next(e for e in r1["engagements"] if e["attacker"] == "游侠")
    # 002 §3.5: the trolls have no weapon reaching 中距 — an 突袭; 松散 against 抛射 is a defence (F2)
    assert shot["phase"] == "突袭" and shot["mode"] == "抛射"
    assert {"source": "松散对抛射", "n": 1} in shot["defence_adv"]
    assert shot["casualties"] == r1["units"][[u["id"] for u in r1["units"]].index("巨魔")]["men"] - next(
        u["men"] for u in r1["after"] if u["id"] == "巨魔")
    # every chapter keeps the contract's fields (§1.7)
    for key in ("ruleset", "arc", "part", "readers", "sides", "rolls", "zones", "distances", "units", "orders",
                "speeds", "closings", "engagements", "disengage", "checks", "after", "dm", "battle_end", "seals",
                "reveals", "vote"):
        assert key in r1, key
    assert run.chapters[-1].name == "end" and run.state_text


def test_an_illegal_vote_is_located_and_names_the_legal_orders(tmp_path: Path) -> None:
    path = _campaign(tmp_path, {"b1r01": {"矛手": "冲锋 巨魔"}})  # 紧密 cannot go 全速 (F1)
    res = CliRunner().invoke(app, ["check", str(path)])
    assert res.exit_code != 0
    assert "orders.b1r01.矛手" in res.output and "合法的有" in res.output and "固守" in res.output


def test_a_response_for_another_sides_unit_is_refused(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["check", str(_campaign(tmp_path, {"b1r01": {"应对": ["若 被冲锋 则 巨魔 固守"]}}))])
    assert res.exit_code != 0 and "orders.b1r01.应对" in res.output


def test_the_intent_die_is_sealed_when_thrown_and_revealed_next_chapter(tmp_path: Path) -> None:
    run = _play(_campaign(tmp_path, {}))
    r1, r2 = run.chapters[0], run.chapters[1]
    (sealed,) = r1.results["sealed"]
    assert sealed["id"] == "b1/r1/意图#1" and sealed["expr"] == "1D6"
    public = r1.json_record()
    assert next(r for r in public["rolls"] if r["id"] == sealed["id"])["total"] is None
    assert [r["id"] for r in r2.results["reveals"]] == [sealed["id"]]
    assert r2.results["intent_used"] == {"id": sealed["id"], "total": sealed["total"]}
    # round 1 has no die before it (DESIGNED): the AI takes the first of the near-best orders
    assert r1.results["intent_used"] is None


@pytest.mark.parametrize("face", [1, 6])
def test_the_sealing_chapter_does_not_show_the_die(tmp_path: Path, face: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from anko_writer.dice import Dice
    from tests.contract.sealing import forcing

    base = _play(_campaign(tmp_path, {})).chapters[0].json_record()
    forcing(monkeypatch, "b1/r1/意图#1", (face,))
    forced = _play(_campaign(tmp_path, {})).chapters[0].json_record()
    assert Dice  # the forcing patches Dice.roll
    assert forced == base


def test_battle_two_starts_from_battle_ones_end(tmp_path: Path) -> None:
    path = _campaign(tmp_path, {})
    one = _play(path)
    end = {u["id"]: u for u in one.chapters[-1].results["battle_end"]["units"]}
    two = _play(path, 2, 1).chapters[0].results
    start = {u["id"]: u for u in two["units"]}
    assert start["游侠"]["men"] == end["游侠"]["men_after"]
    assert start["游侠"]["wounded"] >= end["游侠"]["wounded"]
    assert "猎手" not in start and "头领" in start


def test_tally_counts_the_opening_vote_and_the_battle_plays_it(tmp_path: Path) -> None:
    """Chapter 0's 安价 counted from a pasted thread by ``tally --write``: two spellings of one order count as one,
    an answer for a unit the readers do not command is listed, and round 1 plays the result."""
    path = _campaign(tmp_path, {})
    tally_write(path, "小明：【安价 b1r01】游侠：射击 巨魔 用 长弓 抛射；矛手：固守\n"
                      "阿红：【安价 b1r01】游侠：射击  巨魔  用 长弓  抛射\n"
                      "老王：【安价 b1r01】矛手：固守；应对：无\n", "b1r01")
    orders = load_campaign(path).data["orders"]["b1r01"]
    assert orders["游侠"] in ("射击 巨魔 用 长弓 抛射", ["射击 巨魔 用 长弓 抛射"])
    r1 = _play(path).chapters[0].results
    mine = {o["unit"]: o for o in r1["orders"]}
    assert mine["游侠"]["by"] == "readers" and mine["游侠"]["text"] == "射击 巨魔 用 长弓 抛射"
    assert mine["矛手"]["by"] == "readers" and mine["矛手"]["kind"] == "固守"
