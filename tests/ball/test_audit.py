"""``anko-writer audit`` on BALL: AI-vs-AI games from random openings, card mode off and on, by side."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.dice import Dice
from anko_writer.rulesets.ball.audit import LOPSIDED, OPENING_TURNS, audit_game, opening, summarise
from anko_writer.rulesets.ball.game import api


def test_the_designed_numbers() -> None:
    assert (OPENING_TURNS, LOPSIDED) == (2, 0.9)


def test_a_game_is_a_function_of_its_seed() -> None:
    a, b = audit_game(11, False, 1, 10), audit_game(11, False, 1, 10)
    assert a == b and a["how"] in ("touchdown", "limit") and a["winner"] in ("ATK", "DEF")
    assert a["how"] == "touchdown" or (a["winner"], a["turn"]) == ("DEF", 10)  # the limit: the defence held
    # the AI plays no cards, so card mode on plays the same game from the same opening
    assert {k: v for k, v in audit_game(11, True, 1, 10).items() if k != "cards"} == \
        {k: v for k, v in a.items() if k != "cards"}
    openings = {opening(api.standard_position(), Dice(seed), "ball/opening").pieces for seed in range(6)}
    assert len(openings) > 1  # the seed varies the opening (no other die anywhere)


def test_the_opening_is_plain_moves_only() -> None:
    pos = opening(api.standard_position(), Dice(5), "ball/opening")
    assert pos.turn == OPENING_TURNS + 1 and pos.to_move == "DEF"
    assert all(p.state == "able" for p in pos.pieces) and any(p.ball and p.id == "ATK-X5" for p in pos.pieces)


def test_summarise_counts() -> None:
    games = [{"cards": False, "winner": "ATK", "how": "touchdown", "turn": t, "ball_changes": 2} for t in (10, 20)]
    games += [{"cards": False, "winner": "DEF", "how": "limit", "turn": 40, "ball_changes": 0}]
    r = summarise(games)
    assert (r["games"], r["ATK"]["k"], r["DEF"]["k"], r["limit"]["k"]) == (3, 2, 1, 1)
    assert (r["td_turn_mean"], r["td_turns"], r["ball_changes_mean"], r["lopsided"]) == (15.0, [10, 20], 1.33, None)
    assert summarise(games[:2])["lopsided"] == "ATK"  # 2 of 2 > 90 %


def test_the_audit_command(campaign: Path, tmp_path: Path) -> None:
    camp = tmp_path / "ball.yaml"  # the shared new campaign (tests/ball/conftest.py), copied
    # Turn limit 6: after the 2 opening turns the AI plays turns 3–6, so each side plays a second turn with the PE
    # its first one converted in hand (DEF on 5, ATK on 6: up to 2, enough for most cards, if the AI played any).
    # What the test claims — the command's counts by mode, the same results with cards on and off, the same report
    # twice — does not grow with the games' length (one game over 10 turns, cards on and off:
    # test_a_game_is_a_function_of_its_seed); turns 7 and 8 were half as much AI work again.
    text = campaign.read_text(encoding="utf-8").replace("turn_limit: 40", "turn_limit: 6")
    camp.write_text(text.replace("ai_strength: 2", "ai_strength: 1"), encoding="utf-8")
    for out in ("a", "b"):
        res = CliRunner().invoke(app, ["audit", str(camp), "--seasons", "2", "--out", str(tmp_path / out)])
        assert res.exit_code == 0, res.output
        assert "共 4 局，双方都是强度 1 的 AI" in res.output and "卡牌模式关：ATK" in res.output
    report = json.loads((tmp_path / "a/report.json").read_text(encoding="utf-8"))
    modes = report["ball_games"]["modes"]
    assert modes["off"]["games"] == modes["on"]["games"] == 2 and report["ball_games"]["same_in_both_modes"] == 2
    assert (tmp_path / "a/report.json").read_bytes() == (tmp_path / "b/report.json").read_bytes()
