"""BALL (003): the AI — deterministic, fast, explained, and an AI-vs-AI game that reaches a result."""

from __future__ import annotations

import re

from ball_scen import board
from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.game.ai import EXPLANATION, EXPLANATIONS, PART_NAMES, SEARCH, STRENGTHS, Choice, choose, explain, score_parts
from anko_writer.rulesets.ball.game.engine import Board
from anko_writer.rulesets.ball.game.notation import parse
from anko_writer.rulesets.ball.game.rules import (
    apply,
    end_phase,
    game_over,
    legal_actions,
    perform,
    play_turn,
    standard_position,
    validate,
)
from anko_writer.rulesets.ball.game.search import END, Search, evaluate
from anko_writer.rulesets.ball.play import DEFAULT_STRENGTH


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
    chosen = choose(pos)  # ai_turn is choose's actions: two searches of the same position agree
    assert api.ai_turn(pos) == chosen.actions
    text = api.ai_explain(pos)
    assert text.startswith(EXPLANATION) and str(chosen.score) in text


def test_score_parts() -> None:
    pos = board({"ATK-X1": "E5", "DEF-X1": "G7"}, ball="ATK-X1")
    # ATK holds on row 5: 20 + 4 × 10; DEF's X1 is a 2-square move away: −15; one able piece each
    assert score_parts(pos, "ATK") == {"ball": 20, "progress": 40, "threat": -15, "able": 0, "total": 45}
    assert score_parts(pos, "DEF")["total"] == -45


# -- the searching AI (strength 2 and 3) ---------------------------------------------------------------------

# The performance review's case (ballai, turn 2): after DEF's opening X1 C11-A9, dodge to B6 (ATK's X1 down on C7)
REVIEW_TURN_2 = {"ATK-X1": "C7 down", "ATK-X2": "E7", "ATK-X3": "I7", "ATK-X4": "K7", "ATK-O1": "F6", "ATK-S1": "H6",
                 "ATK-X5": "G5", "DEF-X1": "B6", "DEF-X2": "E11", "DEF-X3": "I11", "DEF-X4": "K11", "DEF-O1": "F12",
                 "DEF-S1": "H12", "DEF-X5": "G13"}


def _atk_keeps_it_from_def(strength: int) -> tuple[list[api.Action], bool]:
    pos = board(REVIEW_TURN_2, ball="ATK-X5")
    mine = api.ai_turn(pos, strength)
    pos = play_turn(pos, mine)
    for reply_strength in (1, 2):  # DEF's reply by either AI
        after = play_turn(pos, api.ai_turn(pos, reply_strength))
        if any(p.ball and p.side == "DEF" for p in after.pieces):  # DEF has it: given away
            return mine, False
    return mine, True


def test_the_one_turn_ai_gives_the_ball_away() -> None:
    mine, kept = _atk_keeps_it_from_def(1)
    assert any(a.kind == "long_pass" and a.ball_to == "A11" for a in mine) and not kept  # the review's flaw


def test_the_searching_ai_keeps_the_ball() -> None:
    for strength in (2, 3):
        mine, kept = _atk_keeps_it_from_def(strength)
        assert not any(a.kind == "long_pass" for a in mine) and kept, (strength, mine)


def parse_or_none(text: str, pos: api.Position) -> api.Action | None:
    try:
        return parse(text, pos)
    except api.IllegalMove:
        return None


def test_the_reason_states_the_score_of_the_position_it_expects() -> None:
    for k, pos in enumerate((board(REVIEW_TURN_2, ball="ATK-X5"), end_phase(end_phase(standard_position())),
                             standard_position())):
        c = choose(pos, 2)
        assert c.leaf is not None and (bool(c.replies) or k == 2)  # DEF's opening: the budget ends in turn 1
        parts = score_parts(c.leaf, pos.to_move)
        assert c.parts == parts and parts["total"] == c.score  # the claimed value is the evaluation's sum
        text = explain(c, rule=False, strength=2)
        stated = {k: int(v.replace("−", "-")) for k, v in re.findall(r"(\w+) ([+−]\d+)", text.split("（")[-1])}
        names = {v: k for k, v in PART_NAMES.items()}
        assert {names[k]: v for k, v in stated.items()} == {k: v for k, v in parts.items() if k != "total"}
        assert f"评分 {c.score if c.score >= 0 else '−' + str(-c.score)}" in text
        # the leaf is the position the chosen turn and the stated replies lead to, by the checked rules
        leaf = _replay_leaf(pos, c)
        assert score_parts(leaf, pos.to_move) == parts


def _replay_leaf(pos: api.Position, c: Choice) -> api.Position:
    """Play the AI's own turn, then each expected reply's actions and tasks in order (the last turn's action
    phase only: where the search stopped)."""
    pos = play_turn(pos, c.actions)
    for k, (_, text) in enumerate(c.replies):
        for word in text.split("，"):
            a = parse_or_none(word, pos)
            if a is None:
                pos = end_phase(pos)
                a = parse(word, pos)
            pos = apply(pos, a)
        if k < len(c.replies) - 1:
            pos = end_phase(end_phase(pos) if pos.phase == "action" else pos)
    return pos


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_board_scores_as_score_parts(data: st.DataObject) -> None:
    pos = standard_position()
    for _ in range(40):
        if game_over(pos):
            break
        b = Board.of(pos)
        for side in (0, 1):
            assert evaluate(b, side) == score_parts(pos, ("ATK", "DEF")[side])["total"]
        acts = legal_actions(pos)
        i = data.draw(st.integers(min_value=-1, max_value=len(acts) - 1))
        if i < 0 or not acts:
            if pos.phase == "recovery" and acts:
                continue
            pos = end_phase(pos)
        else:
            pos = perform(pos, acts[i])


def test_the_search_is_deterministic_and_bounded() -> None:
    pos = end_phase(end_phase(standard_position()))
    a, b = Search(pos, *SEARCH[2]).run(), Search(pos, *SEARCH[2]).run()
    assert a == b and a.nodes <= SEARCH[2][1] + 1
    assert SEARCH == {2: (2, 40_000), 3: (3, 400_000)}  # the designed depths and budgets (docs/rules-coverage.md)
    assert STRENGTHS == (1, 2, 3) and DEFAULT_STRENGTH == 2
    for strength, (_, budget) in SEARCH.items():  # the rules post states each budget as it is
        assert f"最多 {budget} 步" in EXPLANATIONS[strength]


def test_a_touchdown_in_reach_at_every_strength() -> None:
    pos = board({"ATK-X1": "G13", "DEF-X1": "A1"}, ball="ATK-X1")
    for strength in STRENGTHS:
        c = choose(pos, strength)
        assert c.score == 1000 and play_turn(pos, c.actions).touchdown == "ATK"


def _line_leaf(pos: api.Position, line: tuple[object, ...]) -> api.Position:
    """A search's line replayed by the rules (its last closing only marks the leaf)."""
    b = Board.of(pos)
    for k, m in enumerate(line):
        if m == END:
            if k == len(line) - 1:
                break
            pos = end_phase(pos)
        else:
            pos = perform(pos, b.action(m))  # type: ignore[arg-type]
    return pos


def test_a_budget_that_runs_out_anywhere_leaves_the_line_true() -> None:
    # DEF has a piece down and a stack to release: the budget can run out inside a recovery phase of the search
    pos = board({"ATK-X1": "E5", "ATK-O1": "G9 top", "DEF-X1": "G9 bottom", "DEF-X2": "F10 down", "DEF-S1": "I11",
                 "ATK-X2": "D8 down", "DEF-X3": "C11"}, ball="ATK-X1")
    for budget in (1, 7, 60, 400, 3000, 20000):
        found = Search(pos, 2, budget).run()
        assert found.nodes <= budget + 1 and found.leaf == _line_leaf(pos, found.line)
        assert evaluate(Board.of(found.leaf), 0) == found.value == score_parts(found.leaf, "ATK")["total"]
        assert Board.of(pos).position() == pos and found.steps[0][0] == pos if found.steps else True
