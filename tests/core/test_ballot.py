"""The core vote format (issue 16): a ballot's reply line, its record round trip, and reading what readers type."""

from __future__ import annotations

import pytest

from anko_writer.ballot import AnswerError, Ballot, BallotError, Option, Question, read_votes, vote_keys
from anko_writer.render import reply_line

FORMATION = Question("阵型", ("formation",), "choice",
                     (Option("4 4 2", ("A",)), Option("3 5 2", ("B",)), Option("4 3 3", ("C",))),
                     tie="keep", keep="3 5 2")
OWNER = Question("老板", ("owner",), "choice", (Option("delegate", ("放权",)), Option("inject", ("私人注资", "注资"))))
PENS = Question("点球", ("penalties",), "names", names=("扬·贝格尔", "保罗·穆勒", "斯文·诺伊曼"), max_items=2,
                example="扬·贝格尔、保罗·穆勒")
BUY = Question("买入", ("transfers", "buy"), "offers", names=("卡尔·施密特",), example="卡尔·施密特 500000")
BALLOT = Ballot("s1m4", ("decisions", "s1m4"), (FORMATION, OWNER, PENS, BUY), deadline="下一帖发出之前")


def test_reply_line_lists_every_question_with_its_example() -> None:
    assert BALLOT.reply_line() == "【安价 s1m4】阵型：A；老板：放权；点球：扬·贝格尔、保罗·穆勒；买入：卡尔·施密特 500000"


def test_record_round_trip_and_the_filter() -> None:
    rec = BALLOT.to_record()
    assert Ballot.from_record(rec) == BALLOT
    assert reply_line(rec) == BALLOT.reply_line()
    with pytest.raises(BallotError):
        Ballot.from_record({"key": "s1m4"})


@pytest.mark.parametrize("text, want", [
    ("【安价 s1m4】阵型：B", "3 5 2"),
    ("[安价 S1M4] 阵型: b", "3 5 2"),
    ("安价s1m4 阵型：C. 4 3 3 攻击", "4 3 3"),
    ("【安价　ｓ１ｍ４】阵型：ａ", "4 4 2"),
    ("【安价 s1m4】阵型：4 3 3", "4 3 3"),
])
def test_formation_answers_readers_type(text: str, want: str) -> None:
    (vote,) = read_votes(text, BALLOT)
    assert [(a.label, a.value) for a in vote.answers] == [("阵型", want)]
    assert vote.problems == ()


def test_lists_offers_and_problems_are_read_item_by_item() -> None:
    text = "支持！\n【安价 s1m4】阵型：Z；老板：注资；点球：保罗穆勒，斯文 · 诺伊曼；买入：卡尔·施密特 52万；教练：下课"
    (vote,) = read_votes(text, BALLOT)
    got = {a.label: a.value for a in vote.answers}
    assert got == {"老板": "inject", "点球": ["保罗·穆勒", "斯文·诺伊曼"],
                   "买入": [{"name": "卡尔·施密特", "amount": 520_000}]}
    assert [p[0] for p in vote.problems] == ["阵型：Z", "教练：下课"]
    assert "没有「Z」这个选项" in vote.problems[0][1]


def test_too_many_names_and_unknown_names_are_refused() -> None:
    with pytest.raises(AnswerError, match="最多 2 项"):
        PENS.read("扬·贝格尔、保罗·穆勒、斯文·诺伊曼")
    with pytest.raises(AnswerError, match="没有叫「张三」的人"):
        PENS.read("张三")


def test_only_this_ballots_lines_are_read() -> None:
    text = "【安价 s1m3】阵型：A\n【安价 s1m4】阵型：B\n【安价 s1m4】阵型：C"
    assert vote_keys(text) == ["s1m3", "s1m4", "s1m4"]
    assert [v.answers[0].value for v in read_votes(text, BALLOT)] == ["3 5 2", "4 3 3"]


def test_bad_question_definitions_are_refused() -> None:
    with pytest.raises(BallotError) as err:
        Question("阵型", ("formation",), "choice")
    assert str(err.value) == "问题 '阵型'：choice 问题需要 options"
    with pytest.raises(BallotError) as err:
        Question("阵型", ("formation",), "poll", (Option(1, ("A",)),))
    assert str(err.value) == "问题 '阵型'：kind 'poll' 不是「choice、names、offers、text」之一"  # issue 28: 「、」 joins
