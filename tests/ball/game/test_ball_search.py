"""BALL (003): what the fast board keeps as it goes and what the search scores without making a move equal
what they would be recounted from the position."""

from __future__ import annotations

import random

from ball_scen import board

from anko_writer.rulesets.ball.game.engine import ABLE, BLOCK, DODGE, LONG, MOVE, PROTECT, SHORT, STAND, TACTICAL, UNIT, Board
from anko_writer.rulesets.ball.game.rules import standard_position
from anko_writer.rulesets.ball.game.search import contact_scores, evaluate, moved_scores, passed_scores


def _check(b: Board) -> None:
    """The kept lead is the recount; each move's or stand-up's score without making it (the search's
    leaves) is its score made."""
    assert b.lead == sum(UNIT[b.side[i]] for i in range(len(b.st)) if b.st[i] == ABLE)
    if b.over():
        return
    kind = STAND if b.phase else MOVE
    for side in (0, 1):
        moved, passed = moved_scores(b, side, stands=kind == STAND), passed_scores(b, side)
        contact = contact_scores(b, side)
        assert moved is not None
        for m in b.generate():
            undo = b.make(m)
            made = evaluate(b, side)
            b.unmake(undo)
            if m[0] == kind and m[1] != b.holder and m[3] != b.free:
                assert moved(m[1], m[3]) == made, (b.position(), m, side)
            elif m[0] in (SHORT, LONG):
                assert passed(m[7]) == made, (b.position(), m, side)
            elif m[0] in (DODGE, TACTICAL) and b.holder not in (m[1], m[5]):
                assert contact(m[1], m[3], m[5], -1) == made, (b.position(), m, side)
            elif m[0] in (BLOCK, PROTECT) and b.holder not in (m[1], m[5]):
                assert contact(-1, -1, m[1], m[5]) == made, (b.position(), m, side)


def test_kept_lead_and_move_scores_on_random_walks() -> None:
    rng = random.Random(3)
    stacks = board({"ATK-X1": "E5", "ATK-O1": "G9 top", "DEF-X1": "G9 bottom", "DEF-X2": "F10 down", "DEF-S1": "I11",
                    "ATK-X2": "D8 down", "DEF-X3": "C11", "ATK-S1": "H6"}, free="K9")
    for start in (standard_position(), stacks):
        for _ in range(6):
            b = Board.of(start)
            for _ in range(50):
                _check(b)
                moves = b.generate()
                for m in rng.sample(moves, min(3, len(moves))):  # made and unmade: all back as it was
                    before, undo = b.position(), b.make(m)
                    _check(b)
                    b.unmake(undo)
                    assert b.position() == before
                if b.can_end() and (not moves or rng.random() < 0.3):
                    b.end()
                elif moves:
                    b.make(rng.choice(moves))
                if b.over():
                    break


def test_no_move_scores_where_a_move_scores_a_touchdown() -> None:
    b = Board.of(board({"ATK-X1": "G17", "ATK-X2": "E5", "DEF-X1": "A1"}, ball="ATK-X1"))
    assert moved_scores(b, 0) is None and b.touchdown < 0
