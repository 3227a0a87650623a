"""BALL (003): the AI — deterministic, fast, explained, and an AI-vs-AI game that reaches a result."""

from __future__ import annotations

from ball_scen import board

from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.game.ai import EXPLANATION, choose, score_parts
from anko_writer.rulesets.ball.game.rules import apply, end_phase, game_over, standard_position, validate


def play_ai_game(pos: api.Position) -> api.Position:
    """AI against AI, every action re-validated by :func:`apply`: the final position (the AI's speed is
    measured in benchmarks/rulesets.py, never asserted here)."""
    while not game_over(pos):
        actions = api.ai_turn(pos)
        for a in actions:
            if a.kind in ("stand_up", "release") and pos.phase == "action":
                pos = end_phase(pos)
            pos = apply(pos, a)
            assert validate(pos) == []
            if game_over(pos):
                break
        else:
            pos = end_phase(end_phase(pos) if pos.phase == "action" else pos)
    return pos


def test_ai_vs_ai_reaches_a_touchdown() -> None:
    final = play_ai_game(standard_position())
    assert final.touchdown == "ATK" and final.turn == 28  # pinned: the game is deterministic


def test_ai_card_mode_converts_unused_pa() -> None:
    pos = board({"ATK-X1": "A1 down", "DEF-X2": "B2", "DEF-X1": "M17"}, ball="DEF-X1", card_mode=True)
    assert api.ai_turn(pos) == [api.Action("", "convert_pe", pa=2)]  # nothing to do: 2 PA become 2 PE


def test_ai_takes_a_touchdown_in_reach() -> None:
    pos = board({"ATK-X1": "G13", "DEF-X1": "A1"}, ball="ATK-X1")
    c = choose(pos)
    assert c.score == 1000 and api.apply(api.apply(pos, c.actions[0]), c.actions[1]).touchdown == "ATK"


def test_ai_is_deterministic_and_explained() -> None:
    pos = end_phase(end_phase(standard_position()))
    assert api.ai_turn(pos) == api.ai_turn(pos)
    text = api.ai_explain(pos)
    assert text.startswith(EXPLANATION) and str(choose(pos).score) in text


def test_score_parts() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "G7"}, ball="ATK-X1")
    # ATK holds on row 5: 20 + 4 × 10; DEF's X1 is a 2-square move away: −15; one able piece each
    assert score_parts(pos, "ATK") == {"ball": 20, "progress": 40, "threat": -15, "able": 0, "total": 45}
    assert score_parts(pos, "DEF")["total"] == -45
