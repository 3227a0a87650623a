"""``anko-writer tally`` on real-looking forum pages (issue 22): an NGA month (copied text and the page saved
as HTML in GBK), counted by hand; the host never votes; quotes as NGA renders them; 繁體; the forgiving
matcher; encodings; every line that looks like a vote is counted or listed."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from anko_writer.ballot import Ballot, Option, Question
from anko_writer.tally import count_votes, format_count, read_replies
from anko_writer.tally.count import Count

DATA = Path(__file__).parent.parent / "data" / "replies"
UNTIL = datetime.datetime(2026, 12, 1, 20, 0)
SEED = 7
FORMATION = Question("阵型", ("formation",), "choice",
                     tuple(Option(v, (letter, label)) for letter, v, label in (
                         ("A", "4 4 2", "平衡"), ("B", "4 3 3", "攻击"), ("C", "5 4 1", "防守"), ("D", "3 5 2", "控球"))),
                     tie="keep", keep="3 5 2", example="C")
OWNER = Question("老板", ("owner",), "choice", tuple(Option(k, (n,)) for k, n in (
    ("delegate", "放权"), ("private_investment", "私人注资"), ("transfer_budget", "追加转会预算"),
    ("inspect_training", "视察训练"))))
CONFLICT = Question("摊牌", ("conflict",), "choice", (Option(True, ("是",)), Option(False, ("否",))), example="否")
BALLOT = Ballot("s1m3", ("decisions", "s1m3"), (FORMATION, OWNER, CONFLICT), deadline="下一帖发出之前")
"""The month-3 vote of the review's 哈洛温灯火 campaign: its reply line is 【安价 s1m3】阵型：C；老板：放权；摊牌：否."""

HAND_COUNT = {
    # 20 readers; not counted: the host (#0, #23), 冰可乐 (only quotes 老周), 杠精本精's #4 (unreadable: his #5
    # counts, B once), 壬 (no 【安价】), 癸 (s1m2), 子 (B and C in one vote), 迟到的人 (late)
    "阵型": {"A. 4 4 2": ["辛", "丑", "巳"], "B. 4 3 3": ["小红", "杠精本精", "乙"],
           "C. 5 4 1": ["霍比特人", "甲", "丙", "庚", "寅", "辰", "申", "酉"],
           "D. 3 5 2": ["丁", "戊", "己", "卯", "未", "老周"]},
    "老板": {"放权": ["甲", "辛", "酉"], "私人注资": ["霍比特人", "丙", "己", "庚", "卯", "辰", "申", "老周"],
           "追加转会预算": ["乙", "未"], "视察训练": ["戊"]},
    "摊牌": {"是": ["丁", "卯", "酉"], "否": ["甲", "庚", "寅", "巳", "申"]},
}


def _votes(count: Count) -> dict[str, dict[str, list[str]]]:
    """Question label → shown answer → voters (answers with votes only)."""
    return {r.question.label: {c.shown: list(c.voters) for c in r.candidates if c.voters} for r in count.results}


def _count(name: str) -> Count:
    _, replies = read_replies(DATA / name)
    return count_votes(replies, BALLOT, SEED, UNTIL)


@pytest.mark.parametrize("name", ["nga-s1m3.txt", "nga-s1m3-gbk.html"])
def test_the_nga_month_is_counted_as_by_hand(name: str) -> None:
    count = _count(name)
    assert _votes(count) == HAND_COUNT
    assert len(count.counted) == 20 and count.hosts == ("哈洛温记者",)
    assert [r.value for r in count.results] == ["5 4 1", "private_investment", False]
    assert [c.reply.where() for c in count.superseded] == ["#1 老周"]
    assert [c.reply.where() for c in count.late] == ["#27 迟到的人"]
    assert [c.reply.where() for c in count.unreadable] == ["#4 杠精本精", "#17 子"]
    assert [(p.reply.where(), p.kind) for p in count.problems] == [
        ("#4 杠精本精", "option"), ("#5 杠精本精", "repeat"), ("#5 杠精本精", "repeat"), ("#5 杠精本精", "repeat"),
        ("#5 杠精本精", "repeat"), ("#17 子", "ambiguous"), ("#18 丑", "option")]
    assert [(r.where(), k) for r, k in count.other_keys] == [("#16 癸", "s1m2")]
    aside = [(a.reply.where() if a.reply else None, a.kind) for a in count.set_aside]
    assert aside == [("#0 哈洛温记者", "host"), ("#2 冰可乐", "quote"), ("#6 霍比特人", "quote"),
                     ("#15 壬", "loose"), ("#23 哈洛温记者", "host")]


def test_the_encoding_and_the_host_are_reported() -> None:
    text = format_count(_count("nga-s1m3-gbk.html"), "s01/m02.md", "nga", UNTIL)
    assert "文件编码 GB18030" in text and "主持人 哈洛温记者（不计票）" in text and "计票 20 人" in text
    assert "- #0 哈洛温记者：【安价 s1m3】阵型：C；老板：放权；摊牌：否（主持人（楼主）的回复）" in text
    # the second page's chrome (pagination, title, nav) after #19 is nobody's vote, and not blamed on 寅
    assert "上一页" not in text and "NGA玩家社区" not in text and "- #19" not in text
    assert format_count(_count("nga-s1m3.txt"), "s01/m02.md", "nga", UNTIL).replace("UTF-8", "GB18030") == text
