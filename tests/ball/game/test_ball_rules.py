"""BALL (003): every rule of the seed on a constructed position (``ball_scen.board``)."""

from __future__ import annotations

import pytest
from ball_scen import acts, board, dests, one

from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.game.api import IllegalMove
from anko_writer.rulesets.ball.game.rules import (
    CARDS,
    DIAG1,
    TURN_LIMIT,
    USABLE,
    apply,
    distance,
    end_phase,
    game_over,
    legal_actions,
    play_turn,
    standard_position,
    to_json,
    validate,
    winner,
)


def piece(pos: api.Position, pid: str) -> api.Piece:
    """The piece ``pid`` of ``pos``."""
    return next(p for p in pos.pieces if p.id == pid)


# -- the board (designed: usable squares, end zones) -----------------------------------------------------------

def test_usable_squares_are_one_colour_of_the_checkerboard() -> None:
    assert len(USABLE) == 7 * 9 + 6 * 8 == 111
    assert {"A1", "M1", "A17", "M17", "B2", "G5", "E5"} <= USABLE
    assert not {"B1", "A2", "E6", "F5"} & USABLE


def test_distance_is_the_shortest_path_over_usable_squares() -> None:
    for src in ("A1", "G9", "M17", "B2"):
        seen, todo = {src: 0}, [src]
        while todo:
            s = todo.pop(0)
            for n in DIAG1[s]:
                if n not in seen:
                    seen[n] = seen[s] + 1
                    todo.append(n)
        assert len(seen) == 111
        assert all(distance(src, t) == d for t, d in seen.items())


# -- §4 movement by piece type -------------------------------------------------------------------------------

def test_x_moves_diagonally_one_or_two() -> None:
    pos = board({"ATK-X1": "E5"})
    # hand count: 4 diagonal steps + 4 diagonal 2-steps = 8 (plus long passes of the holder)
    assert dests(pos, "ATK-X1") == {"D4", "F4", "D6", "F6", "C3", "G3", "C7", "G7"}
    assert dests(board({"ATK-X1": "A1"}), "ATK-X1") == {"B2", "C3"}


def test_o_moves_two_orthogonally_or_one_diagonally() -> None:
    pos = board({"ATK-O1": "E5"})
    assert dests(pos, "ATK-O1") == {"C5", "G5", "E3", "E7", "D4", "F4", "D6", "F6"}
    two = one(pos, piece="ATK-O1", kind="move", to="E7")
    assert two.over == "E6" and two.pa == 1  # the middle square is never usable: it never blocks


def test_square_piece_moves_both_ways() -> None:
    pos = board({"ATK-S1": "E5"})
    assert len(dests(pos, "ATK-S1")) == 12  # hand count: 4 diag-1 + 4 diag-2 + 4 orth-2


def test_a_two_square_move_is_one_action_not_two_steps() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "G7"}, ball="ATK-X1")
    assert one(pos, piece="ATK-X1", kind="dodge", to="H6").land == "G7"
    step = apply(pos, one(pos, piece="ATK-X1", to="F6", kind="move"))
    assert step.pa == 1
    assert [a.kind for a in acts(step, "ATK-X1") if a.to == "G7"] == ["block"]  # two steps: no dodge


def test_paths_own_able_passable_down_and_stacks_block() -> None:
    own = board({"ATK-X1": "E5", "ATK-X2": "F6"})
    assert "G7" in dests(own, "ATK-X1")
    for blocker in ({"ATK-X2": "F6 down"}, {"DEF-X2": "F6 down"},
                    {"ATK-X2": "F6 top", "DEF-X2": "F6 bottom"}):
        assert "G7" not in dests(board({"ATK-X1": "E5", **blocker}), "ATK-X1")
    # an able opponent in the middle: only a tactical dodge passes it
    opp = board({"ATK-X1": "E5", "DEF-X2": "F6"})
    assert "G7" not in dests(opp, "ATK-X1") and "G7" in dests(opp, "ATK-X1", "tactical_dodge")


def test_stacks_are_closed() -> None:
    pos = board({"ATK-X1": "E5", "ATK-O1": "F6 top", "DEF-X1": "F6 bottom", "ATK-X2": "G7 top",
                 "DEF-X2": "G7 bottom"}, ball="ATK-X1")
    assert {a.to for a in acts(pos, "ATK-X1") if a.kind != "long_pass"} == {"D4", "F4", "D6", "C3", "G3", "C7"}
    assert acts(pos, "ATK-O1") == [] and acts(pos, "ATK-X2") == []


def test_unable_pieces_cannot_act() -> None:
    pos = board({"ATK-X1": "E5 down", "ATK-X2": "H8"}, ball="ATK-X2")
    assert acts(pos, "ATK-X1") == []


# -- §5 dodge and forced fumble --------------------------------------------------------------------------------

def test_dodge_knocks_down_and_steps_off() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "G7", "ATK-O1": "H8"}, ball="ATK-O1")
    # hand count: G7's diagonal squares F6 H6 F8 H8; H8 is taken → 3 step-offs
    assert dests(pos, "ATK-X1", "dodge") == {"F6", "H6", "F8"}
    after = apply(pos, one(pos, piece="ATK-X1", kind="dodge", to="H6"))
    assert piece(after, "DEF-X1").state == "down" and piece(after, "DEF-X1").square == "G7"
    assert piece(after, "ATK-X1").square == "H6" and after.pa == 1
    # orthogonal 2-square moves dodge too (O, □)
    assert dests(board({"ATK-O1": "E5", "DEF-X1": "E7"}), "ATK-O1", "dodge") == {"D6", "F6", "D8", "F8"}


def test_dodge_needs_a_single_able_opponent_and_a_step_off() -> None:
    down = board({"ATK-X1": "E5", "DEF-X1": "G7 down"})
    assert acts(down, "ATK-X1", "dodge") == []
    walled = board({"ATK-X1": "E5", "DEF-X1": "G7", "DEF-X2": "F8", "DEF-X3": "H8", "DEF-X4": "H6",
                    "ATK-X2": "F6"})
    assert acts(walled, "ATK-X1", "dodge") == []  # no empty square to step off to


def test_forced_fumble_and_no_further_action() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "G7"}, ball="DEF-X1")
    after = apply(pos, one(pos, piece="ATK-X1", kind="dodge", to="H8"))
    assert piece(after, "ATK-X1").ball and not piece(after, "DEF-X1").ball
    assert "ATK-X1" in after.took_ball_this_turn and after.pa == 1
    assert acts(after, "ATK-X1") == []  # §9: no further ordinary action, not even a pass


# -- §6 tactical dodge -----------------------------------------------------------------------------------------

def test_tactical_dodge_pushes_diagonally_not_onto_the_landing() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "F6", "ATK-O1": "A1"}, ball="ATK-O1")
    # hand count: F6's diagonals E5 (vacated), G5, E7, G7 (landing: excluded) → 3 pushes
    assert {a.push_to for a in acts(pos, "ATK-X1", "tactical_dodge")} == {"E5", "G5", "E7"}
    after = apply(pos, one(pos, piece="ATK-X1", kind="tactical_dodge", push_to="G5"))
    assert piece(after, "ATK-X1").square == "G7"
    assert (piece(after, "DEF-X1").square, piece(after, "DEF-X1").state) == ("G5", "down")


def test_tactical_dodge_landing_must_be_empty() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "F6", "ATK-O1": "G7"}, ball="ATK-O1")
    assert acts(pos, "ATK-X1", "tactical_dodge") == []


def test_tactical_dodge_displaces_the_ball_opposite_the_push() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "F6", "DEF-X2": "G5"}, ball="DEF-X1")
    # push to E7 (−1, +1): the ball goes to G5 (+1, −1) — taken → free on F6; push to E5: ball to G7, the landing
    pushes = {a.push_to: a.ball_to for a in acts(pos, "ATK-X1", "tactical_dodge")}
    assert pushes == {"E5": "F6", "E7": "F6"}
    pos = board({"ATK-X1": "E5", "DEF-X1": "F6"}, ball="DEF-X1")
    assert {a.push_to: a.ball_to for a in acts(pos, "ATK-X1", "tactical_dodge")} == {
        "E5": "F6", "G5": "E7", "E7": "G5"}
    after = apply(pos, one(pos, piece="ATK-X1", kind="tactical_dodge", push_to="G5"))
    assert after.free_ball == "E7" and not any(p.ball for p in after.pieces)
    assert not validate(after)


def test_tactical_dodge_only_diagonal() -> None:
    pos = board({"ATK-O1": "E5", "DEF-X1": "E6", "ATK-X1": "A1"})
    assert acts(pos, "ATK-O1", "tactical_dodge") == []  # E6 is not usable; O has no diagonal 2-step


# -- §7 block / protect ----------------------------------------------------------------------------------------

def test_block_forms_a_closed_stack() -> None:
    pos = board({"ATK-X1": "E5", "DEF-O1": "F6", "ATK-X2": "A1"}, ball="ATK-X2")
    after = apply(pos, one(pos, piece="ATK-X1", kind="block"))
    assert (piece(after, "ATK-X1").state, piece(after, "DEF-O1").state) == ("stack_top", "stack_bottom")
    assert piece(after, "ATK-X1").square == "F6" and "F6" in after.formed_this_turn
    assert acts(after, "ATK-X1") == [] and not validate(after)
    other = end_phase(end_phase(after))
    assert acts(other, "DEF-O1") == []  # the bottom cannot act
    assert "down" not in {p.state for p in after.pieces}  # blocking does not knock down


def test_protect_and_possession_on_the_carrier() -> None:
    pos = board({"ATK-X1": "E5", "ATK-X2": "F6"}, ball="ATK-X2")
    after = apply(pos, one(pos, piece="ATK-X1", kind="protect"))
    assert piece(after, "ATK-X1").ball and not piece(after, "ATK-X2").ball
    pos = board({"ATK-X1": "E5", "DEF-X2": "F6"}, ball="DEF-X2")
    after = apply(pos, one(pos, piece="ATK-X1", kind="block"))
    assert piece(after, "ATK-X1").ball


def test_block_a_down_piece_and_release_returns_it_down() -> None:
    pos = board({"ATK-X1": "E5", "DEF-O1": "F6 down", "ATK-X2": "A1"}, ball="ATK-X2")
    after = apply(pos, one(pos, piece="ATK-X1", kind="block"))
    assert piece(after, "DEF-O1").was_down
    later = board({"ATK-X1": "F6 top", "DEF-O1": "F6 bottom was_down", "ATK-X2": "A1"}, ball="ATK-X2",
                  phase="recovery")
    rel = acts(later, kind="release")
    assert len(rel) == 12  # hand count: 4 diagonal squares, ordered pairs of two different ones: 4 × 3
    done = apply(later, rel[0])
    assert piece(done, "DEF-O1").state == "down" and piece(done, "ATK-X1").state == "able"


# -- §8 hand-off, short pass, long pass ------------------------------------------------------------------------

def test_hand_off_over_the_connected_network() -> None:
    pos = board({"ATK-X1": "E5", "ATK-X2": "F6", "ATK-X3": "G7", "ATK-X4": "H8 down", "ATK-O1": "I9",
                 "ATK-S1": "C3 top", "DEF-X1": "C3 bottom", "ATK-X5": "A1"}, ball="ATK-X1")
    # network: F6 — G7; H8 is down (breaks the chain to I9), the stack on C3 is not able; A1 is not adjacent
    assert {a.target for a in acts(pos, "ATK-X1", "handoff")} == {"ATK-X2", "ATK-X3"}
    after = apply(pos, one(pos, kind="handoff", target="ATK-X3"))
    assert piece(after, "ATK-X3").square == "G7" and piece(after, "ATK-X3").ball
    assert acts(after, "ATK-X3")  # the new carrier may go on acting


def test_short_pass_within_four_and_placement_beside_the_receiver() -> None:
    pos = board({"ATK-X1": "E5", "ATK-X2": "E9", "ATK-X3": "E11", "ATK-X4": "I5 down", "DEF-X1": "F10"},
                ball="ATK-X1")
    # E9 at 4 (E5 → F6 → E7 → F8 → E9): placed on D8, D10 or F8 (F10 taken); E11 at 6: out; I5 down: no receiver
    assert {(a.target, a.ball_to) for a in acts(pos, kind="short_pass")} == {
        ("ATK-X2", "D8"), ("ATK-X2", "D10"), ("ATK-X2", "F8")}
    after = apply(pos, one(pos, kind="short_pass", ball_to="D10"))
    assert after.free_ball == "D10" and not any(p.ball for p in after.pieces)  # not yet in possession


def test_long_pass_at_least_two_from_every_own_piece() -> None:
    pos = board({"ATK-X1": "E5", "ATK-X2": "E9 down", "DEF-X1": "G9"}, ball="ATK-X1")
    got = {a.ball_to for a in acts(pos, kind="long_pass")}
    want = {s for s in USABLE if s != "G9" and distance(s, "E5") >= 2 and distance(s, "E9") >= 2}
    assert got == want and len(got) == 111 - 1 - 5 - 5  # G9, and E5 / E9 with their 4 diagonal squares


def test_only_the_carrier_passes() -> None:
    pos = board({"ATK-X1": "E5", "ATK-X2": "F6"}, ball="ATK-X1")
    assert not [a for a in acts(pos, "ATK-X2") if a.kind in ("handoff", "short_pass", "long_pass")]


# -- §9 possession ---------------------------------------------------------------------------------------------

def test_ending_on_the_free_ball_takes_it_and_passing_over_does_not() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "M17"}, free="F6")
    over = apply(pos, one(pos, piece="ATK-X1", to="G7"))
    assert over.free_ball == "F6" and not piece(over, "ATK-X1").ball
    took = apply(pos, one(pos, piece="ATK-X1", to="F6"))
    assert piece(took, "ATK-X1").ball and took.free_ball is None and took.pa == 1
    assert acts(took, "ATK-X1") == []  # picked up: no further ordinary action this turn


# -- §10 recovery ----------------------------------------------------------------------------------------------

def test_stand_up_is_compulsory_when_possible() -> None:
    pos = board({"ATK-X1": "E5 down", "ATK-X2": "M1"}, ball="ATK-X2", phase="recovery")
    assert dests(pos, "ATK-X1", "stand_up") == {"D4", "F4", "D6", "F6"}
    with pytest.raises(IllegalMove, match="还有必须做的恢复任务"):
        end_phase(pos)
    up = apply(pos, one(pos, piece="ATK-X1", to="D6"))
    assert piece(up, "ATK-X1").state == "able" and end_phase(up).to_move == "DEF"


def test_stand_up_without_a_square_is_no_task() -> None:
    pos = board({"ATK-X1": "A1 down", "DEF-X2": "B2"}, ball="DEF-X2", phase="recovery")
    assert legal_actions(pos) == [] and end_phase(pos).turn == 3


def test_tasks_in_the_chosen_order() -> None:
    pos = board({"ATK-X1": "A1 down", "ATK-X2": "C1 down", "ATK-X3": "A3", "ATK-X4": "D2", "DEF-X1": "M17"},
                ball="DEF-X1", phase="recovery")
    # both can only stand on B2: whoever stands first takes it, the other is then no task
    assert {(a.piece, a.to) for a in legal_actions(pos)} == {("ATK-X1", "B2"), ("ATK-X2", "B2")}
    after = apply(pos, one(pos, piece="ATK-X2"))
    assert legal_actions(after) == [] and end_phase(after).to_move == "DEF"


def test_stack_formed_this_turn_is_never_released_this_turn() -> None:
    pos = board({"ATK-X1": "E5", "DEF-O1": "F6", "ATK-X2": "A1"}, ball="ATK-X2")
    after = end_phase(apply(pos, one(pos, piece="ATK-X1", kind="block")))
    assert after.phase == "recovery" and legal_actions(after) == []
    nxt = end_phase(end_phase(end_phase(end_phase(after))))  # DEF's turn passes; ATK's action phase
    assert nxt.to_move == "ATK" and nxt.phase == "recovery" and acts(nxt, kind="release")


def test_release_needs_two_different_empty_squares_and_the_ball_choice() -> None:
    walled = board({"ATK-X1": "A1 top", "DEF-X1": "A1 bottom", "DEF-X2": "M17"}, ball="ATK-X1",
                   phase="recovery")
    assert legal_actions(walled) == []  # A1 has one diagonal square: no legal release
    pos = board({"ATK-X1": "F6 top", "DEF-X1": "F6 bottom", "ATK-X2": "E5", "ATK-X3": "G5"}, ball="ATK-X1",
                phase="recovery")
    rel = acts(pos, kind="release")
    # hand count: E7 and G7 free → 2 ordered pairs × 2 keepers
    assert len(rel) == 4 and {a.ball_to for a in rel} == {"ATK-X1", "DEF-X1"}
    given = apply(pos, one(pos, kind="release", to="E7", ball_to="DEF-X1"))
    assert piece(given, "DEF-X1").ball and piece(given, "DEF-X1").square == "G7"
    theirs = board({"DEF-X1": "F6 top", "ATK-X1": "F6 bottom", "DEF-X2": "M17"}, ball="DEF-X2", phase="recovery")
    assert legal_actions(theirs) == []  # only the top piece's coach releases


# -- §2 PA, §11 card mode --------------------------------------------------------------------------------------

def test_two_pa_and_spending_none() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "M17"}, ball="DEF-X1")
    one_more = apply(apply(pos, one(pos, to="F6")), one(apply(pos, one(pos, to="F6")), to="G7"))
    assert one_more.pa == 0 and legal_actions(one_more) == []
    assert end_phase(pos).phase == "recovery"  # 0 PA spent is fine


def test_pe_conversion_is_card_mode() -> None:
    off = board({"ATK-X1": "E5", "DEF-X1": "M17"}, ball="DEF-X1")
    assert acts(off, kind="convert_pe") == []
    on = board({"ATK-X1": "E5", "DEF-X1": "M17"}, ball="DEF-X1", card_mode=True)
    assert [a.pa for a in acts(on, kind="convert_pe")] == [1, 2]
    after = apply(on, one(on, kind="convert_pe", pa=1))
    assert after.pa == 1 and after.pe["ATK"] == 1


def test_pe_table_and_cards() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "G7", "ATK-X2": "A1"}, ball="DEF-X1", card_mode=True)
    after = apply(pos, one(pos, piece="ATK-X1", kind="dodge", to="H8"))
    assert after.pe["ATK"] == 1  # designed table: a dodge earns 1 PE
    carry = one(after, kind="card", card="carry")
    again = apply(after, carry)
    assert again.pe["ATK"] == 0 and acts(again, "ATK-X1", "move")  # the card lifts the no-further-action rule
    rich = board({"ATK-X1": "E5", "ATK-X2": "F6", "ATK-X3": "A1 down", "DEF-X1": "M17"}, free="D4",
                 ball=None, card_mode=True, pe={"ATK": 3, "DEF": 0})
    cards = {a.card for a in acts(rich, kind="card")}
    assert cards == set(CARDS) - {"carry"}
    extra = apply(rich, one(rich, card="extra"))
    assert extra.pa == 3 and extra.pe["ATK"] == 0
    swap = apply(rich, one(rich, card="swap"))
    assert piece(swap, "ATK-X1").square == "F6" and piece(swap, "ATK-X2").square == "E5"
    catch = apply(rich, one(rich, card="catch"))
    assert piece(catch, "ATK-X1").ball and catch.pa == 2 and catch.pe["ATK"] == 2
    rise = apply(rich, one(rich, card="rise"))
    assert piece(rise, "ATK-X3").state == "able"
    sprint = apply(rich, one(rich, card="sprint", piece="ATK-X1", to="C7"))
    assert piece(sprint, "ATK-X1").square == "C7" and sprint.pa == 2 and sprint.pe["ATK"] == 1


# -- §1 touchdown, the turn limit, JSON ------------------------------------------------------------------------

def test_touchdown_in_the_opposing_end_zone() -> None:
    pos = board({"ATK-X1": "G15", "DEF-X1": "A1"}, ball="ATK-X1")
    td = apply(pos, one(pos, piece="ATK-X1", to="F16"))
    assert td.touchdown == "ATK" and game_over(td) and legal_actions(td) == [] and winner(td) == "ATK"
    with pytest.raises(IllegalMove):
        apply(td, one(pos, piece="ATK-X1", to="H16"))
    dpos = board({"DEF-X1": "G3", "ATK-X1": "A17"}, ball="DEF-X1", to_move="DEF")
    assert apply(dpos, one(dpos, piece="DEF-X1", to="F2")).touchdown == "DEF"
    assert apply(dpos, one(dpos, piece="DEF-X1", to="F4")).touchdown is None


def test_turn_limit_the_defence_holds() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "M17"}, ball="ATK-X1", turn=TURN_LIMIT, phase="recovery")
    last = end_phase(pos)
    assert last.turn == TURN_LIMIT + 1 and game_over(last) and winner(last) == "DEF"


def test_standard_position_and_json() -> None:
    pos = standard_position()
    assert pos.to_move == "DEF" and pos.turn == 1 and not validate(pos)
    assert [p.id for p in pos.pieces if p.ball] == ["ATK-X5"]
    counts = {k: sum(1 for p in pos.pieces if p.side == "ATK" and p.type == k) for k in "XOS"}
    assert counts == {"X": 5, "O": 1, "S": 1}
    js = to_json(pos)
    assert js["free_ball"] is None and "parity" in str(js["usable"])
    assert js["pieces"][6] == {"id": "ATK-X5", "side": "ATK", "type": "X", "square": "G5", "state": "able",
                               "ball": True}


def test_play_turn_and_illegal_apply() -> None:
    pos = standard_position()
    with pytest.raises(IllegalMove, match="X1 的合法行动"):
        apply(pos, api.Action("DEF-X1", "move", "C11", "C13"))
    after = play_turn(pos, [one(pos, piece="DEF-X1", to="A9")])
    assert after.to_move == "ATK" and after.turn == 2 and after.pa == 2
