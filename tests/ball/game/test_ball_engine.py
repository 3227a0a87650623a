"""BALL (003): the make/unmake board (``game/engine.py``) plays exactly the rules of ``game/rules.py``."""

from __future__ import annotations

from collections import Counter

from ball_scen import board
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.ball.game.engine import Board, Move, index
from anko_writer.rulesets.ball.game.model import Action, Position
from anko_writer.rulesets.ball.game.rules import end_phase, game_over, legal_actions, perform, standard_position
from anko_writer.rulesets.ball.game.rules import perft as rules_perft
from tests.choices import Choices


def test_perft_from_the_standard_formation() -> None:
    b = Board.of(standard_position())
    # the performance review's counts (its own generator and ours agree): 55 = 54 actions + closing the phase
    assert [b.perft(d) for d in (1, 2, 3, 4, 5)] == [55, 2869, 3027, 25489, 1232091]
    assert b.position() == standard_position()  # made and unmade back to where it started
    assert [rules_perft(standard_position(), d) for d in (1, 2, 3, 4)] == [55, 2869, 3027, 25489]


def test_perft_atk_to_move_matches_the_rules() -> None:
    pos = end_phase(end_phase(standard_position()))
    assert Board.of(pos).perft(2) == rules_perft(pos, 2) == 13896 + 158 + 1


def test_perft_with_stacks_and_a_down_piece() -> None:
    pos = board({"ATK-X1": "E5", "ATK-O1": "G7 top", "DEF-X1": "G7 bottom was_down", "DEF-X2": "F8 down",
                 "DEF-S1": "I9"}, ball="ATK-X1")
    for depth in (1, 2, 3, 4):
        assert Board.of(pos).perft(depth) == rules_perft(pos, depth)


def test_squares_are_ints() -> None:
    assert index("A1") == 0 and index("M17") == 220 and index("B2") == 14


def _same_moves(pos: Position, acts: list[Action]) -> tuple[Board, list[Move]]:
    """The board of ``pos``, checked to make the rules' legal actions ``acts`` of it: the board and its moves."""
    b = Board.of(pos)
    assert b.position() == pos
    moves = b.generate()
    assert Counter(b.action(m) for m in moves) == Counter(acts)
    assert b.can_end() == (pos.phase == "action" or not acts)
    return b, moves


def _index(ch: Choices, count: int) -> int:
    """``st.integers(-1, count - 1)``: -1 and the last index more often, the rest evenly (two bytes for a long
    list, as :meth:`Choices.integer` spans 216 values)."""
    i = ch.integer(-1, count - 1)
    return i if count < 216 or i in (-1, count - 1) else _wide(ch, count)


def _wide(ch: Choices, count: int) -> int:
    """A number in ``range(count)`` from two bytes once ``count`` passes 256 (:meth:`Choices.number` reads one)."""
    return ch.number(count) if count <= 256 else (ch.number(256) * 256 + ch.number(256)) % count


# The walk's choices read from one draw of bytes (tests.choices.Choices): Hypothesis drawing them one by one (a list of
# moves, sampled, and an index a step) was two thirds of the test; the walk and its checks are the same.
@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=700, max_size=700))  # the bytes themselves: a failing walk prints them
def test_random_walks_play_the_same_on_both(data: bytes) -> None:
    ch = Choices(data)
    pos = standard_position()
    for _ in range(70):
        if game_over(pos):
            break
        acts = legal_actions(pos)  # the rules' generator once a position (sorted: the walk's choice by index)
        b, moves = _same_moves(pos, acts)
        for m in [moves[_wide(ch, len(moves))] for _ in range(ch.integer(0, 4))] if moves else []:
            undo = b.make(m)
            assert b.position() == perform(pos, b.action(m))
            b.unmake(undo)
            assert b.position() == pos
        i = _index(ch, len(acts))
        if i < 0:
            if pos.phase == "recovery" and acts:
                continue
            e = b.end()
            assert b.position() == end_phase(pos)
            b.unend(e)
            pos = end_phase(pos)
        else:
            pos = perform(pos, acts[i])
