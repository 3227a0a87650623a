"""BALL (003): perft — counts of legal actions from fixed positions, by hand for the small ones."""

from __future__ import annotations

from collections import Counter

from ball_scen import board

from anko_writer.rulesets.ball.game.api import Position
from anko_writer.rulesets.ball.game.rules import end_phase, legal_actions, perform, standard_position


def perft(pos: Position, depth: int) -> int:
    """Action sequences of ``depth`` actions within one action phase."""
    if depth == 0:
        return 1
    return sum(perft(perform(pos, a), depth - 1) for a in legal_actions(pos))


def test_lone_x_in_the_corner() -> None:
    pos = board({"ATK-X1": "A1", "DEF-X1": "M17"}, ball="DEF-X1")
    # by hand: A1 → B2, C3 (2); then from B2: A1 C1 A3 C3 D4 (5), from C3: B2 D2 B4 D4 A1 E1 A5 E5 (8) → 13
    assert perft(pos, 1) == 2 and perft(pos, 2) == 13


def test_lone_carrier_long_passes() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "M17"}, ball="ATK-X1")
    # by hand: 8 moves; long passes to 111 squares − E5 and its 4 diagonals − M17 = 105 → 113
    assert perft(pos, 1) == 113


def test_standard_position_def_to_move() -> None:
    pos = standard_position()
    # by hand: 46 moves (O1 5, □1 9, X1 8, X2 6, X3 6, X4 8, X5 4) + 8 protects; DEF has no ball
    assert Counter(a.kind for a in legal_actions(pos)) == {"move": 46, "protect": 8}
    assert perft(pos, 1) == 54 and perft(pos, 2) == 2814


def test_standard_position_atk_to_move() -> None:
    pos = end_phase(end_phase(standard_position()))
    # by hand: hand-off network of G5: F6 E7 H6 I7 (4); short pass: C7 4 + E7 3 + I7 3 + K7 4 + F6 2 + H6 2 = 18;
    # long pass: 111 − 22 squares within 1 of ATK − 7 DEF squares = 82; moves 46, protects 8
    assert Counter(a.kind for a in legal_actions(pos)) == {"long_pass": 82, "move": 46, "short_pass": 18,
                                                           "protect": 8, "handoff": 4}
    assert perft(pos, 1) == 158 and perft(pos, 2) == 13896


def test_card_mode_adds_conversion() -> None:
    pos = standard_position(card_mode=True)
    assert perft(pos, 1) == 56 and perft(pos, 2) == 2973  # + 转换 1PE, 转换 2PE; no card affordable at 0 PE
