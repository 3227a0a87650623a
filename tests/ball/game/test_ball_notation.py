"""BALL (003): the readers' notation — canonical texts, loose input, and located errors."""

from __future__ import annotations

import pytest
from ball_scen import board, one

from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.game.api import IllegalMove
from anko_writer.rulesets.ball.game.notation import parse, write
from anko_writer.rulesets.ball.game.rules import end_phase, legal_actions, standard_position


def test_canonical_forms() -> None:
    pos = board({"ATK-X3": "E5", "DEF-X1": "G7", "DEF-O1": "F8", "ATK-S2": "C3", "ATK-O1": "D4"}, ball="ATK-O1")
    assert write(one(pos, piece="ATK-X3", to="F6", kind="move"), pos) == "X3 E5-F6"
    assert write(one(pos, piece="ATK-X3", kind="dodge", to="H8"), pos) == "X3 闪避 E5-G7 离 H8"
    assert write(one(pos, piece="ATK-O1", kind="protect", to="E5"), pos) == "O1 保护 E5"
    assert write(one(pos, kind="handoff", target="ATK-S2"), pos) == "递球 → □2"
    assert write(one(pos, kind="short_pass", target="ATK-S2", ball_to="B2"), pos) == "短传 → □2 放 B2"
    assert write(one(pos, kind="long_pass", ball_to="H12"), pos) == "长传 放 H12"
    tac = board({"ATK-X3": "E5", "DEF-X1": "F6", "ATK-O1": "A1"}, ball="ATK-O1")
    assert write(one(tac, kind="tactical_dodge", push_to="G5"), tac) == "X3 战术闪避 E5-G7 推 F6-G5"
    blk = board({"ATK-O1": "E7", "DEF-X1": "F8"})
    assert write(one(blk, kind="block"), blk) == "O1 阻挡 F8"
    rec = board({"ATK-X2": "C5 down", "ATK-O1": "F8 top", "DEF-X1": "F8 bottom"}, ball="ATK-O1",
                phase="recovery")
    assert write(one(rec, piece="ATK-X2", to="D6"), rec) == "扶起 X2 → D6"
    assert write(one(rec, kind="release", to="E7", push_to="G9", ball_to="ATK-O1"), rec) == "解除 F8 → E7, G9 球 上"
    card = board({"ATK-X1": "E5", "DEF-X1": "M17"}, card_mode=True, pe={"ATK": 3, "DEF": 0})
    assert write(one(card, kind="convert_pe", pa=1), card) == "转换 1PE"
    assert write(one(card, card="extra"), card) == "卡 加时"
    assert write(one(card, card="sprint", to="G7"), card) == "卡 冲刺 X1 E5-G7"


@pytest.mark.parametrize("pos", [standard_position(), end_phase(end_phase(standard_position())),
                                 standard_position(card_mode=True)])
def test_every_legal_action_round_trips(pos: api.Position) -> None:
    texts = [write(a, pos) for a in legal_actions(pos)]
    assert len(set(texts)) == len(texts)
    assert all(write(parse(t, pos), pos) == t for t in texts)


def test_loose_input() -> None:
    pos = end_phase(end_phase(standard_position()))
    assert write(parse("x1  c7 -> b8", pos), pos) == "X1 C7-B8"
    assert write(parse("S1 H6-J8", pos), pos) == "□1 H6-J8"
    assert write(parse("短传→□1 放 G7", pos), pos) == "短传 → □1 放 G7"
    assert write(parse("X1 B8", pos), pos) == "X1 C7-B8"  # the only X1 action ending on B8


def test_illegal_and_ambiguous_texts_list_the_options() -> None:
    pos = end_phase(end_phase(standard_position()))
    with pytest.raises(IllegalMove, match="X1 的合法行动：X1 C7-A5、") as err:
        parse("X1 C7-C9", pos)
    assert "X2" not in str(err.value)
    with pytest.raises(IllegalMove, match="歧义"):
        parse("X1", pos)
    with pytest.raises(IllegalMove, match="合法行动"):
        parse("O1 阻挡 K11", pos)
