"""The core vote format's list answers (issue 16): items wrapped under a key (招募 → ``[{"position": …}]``),
a word for the empty list (无), a question's own separators (a notation that holds a comma), and the
backquotes of copied inline code."""

from __future__ import annotations

from anko_writer.ballot import Ballot, Question, read_votes

HIRE = Question("招募", ("hire",), "names", names=("闪击手", "锋线兵"), item_key="position", nothing="无", example="无")
RECOVERY = Question("恢复", ("recovery",), "text", separators="、", example="扶起 X2 → D6")
MOVES = Question("行动", ("actions",), "text", example="X3 E5-G7")
BALLOT = Ballot("g1t3", ("moves", "g1t3"), (MOVES, RECOVERY, HIRE))


def test_item_key_wraps_each_item_and_survives_the_record() -> None:
    assert HIRE.read("锋线兵、闪击手，锋线兵") == [{"position": "锋线兵"}, {"position": "闪击手"},
                                                  {"position": "锋线兵"}]
    assert Ballot.from_record(BALLOT.to_record()) == BALLOT
    assert "item_key" not in MOVES.to_record() and MOVES.read("X3 E5-G7") == ["X3 E5-G7"]


def test_a_questions_separators_keep_a_comma_inside_an_item() -> None:
    (vote,) = read_votes("【安价 g1t3】行动：`X3 E5-G7`，O1 阻挡 F8；恢复：解除 F8 → E7, G9 球 上、扶起 X2 → D6", BALLOT)
    got = {a.label: a.value for a in vote.answers}
    assert got == {"行动": ["X3 E5-G7", "O1 阻挡 F8"], "恢复": ["解除 F8 → E7, G9 球 上", "扶起 X2 → D6"]}
    assert MOVES.read("解除 F8 → E7, G9") == ["解除 F8 → E7", "G9"]


def test_the_nothing_word_is_an_empty_list_and_only_for_its_question() -> None:
    (vote,) = read_votes("【安价 g1t3】招募： 无 ；恢复：无", BALLOT)
    assert [(a.label, a.value) for a in vote.answers] == [("招募", []), ("恢复", ["无"])]
    assert BALLOT.reply_line() == "【安价 g1t3】行动：X3 E5-G7；恢复：扶起 X2 → D6；招募：无"
