"""``anko-writer tally`` (issue 16), the pure parts: forum layouts split pasted pages into replies (quotes
cut), and the count follows its stated rules. The replies files in ``tests/data/replies`` hold duplicates,
late votes, typos, an unknown option, a quoted vote, a vote for another key and a tie; the counts are pinned."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from ruamel.yaml.comments import CommentedMap

from anko_writer.ballot import Ballot, Option, Question
from anko_writer.dice import Dice
from anko_writer.tally import count_votes, format_count, load_layout, read_replies, set_decisions, split_replies
from anko_writer.tally.campaign import TallyError
from anko_writer.tally.count import Count, tie_die
from anko_writer.tally.replies import LayoutError, html_text, parse_time
from anko_writer.yamlio import dump_yaml, load_yaml_text

DATA = Path(__file__).parent.parent / "data" / "replies"
UNTIL = datetime.datetime(2026, 12, 1, 20, 0)
SEED = 213889199080781085
FORMATION = Question("阵型", ("formation",), "choice",
                     tuple(Option(v, (letter, label)) for letter, v, label in (
                         ("A", "4 4 2", "平衡"), ("B", "4 3 3", "攻击"), ("C", "5 4 1", "防守"), ("D", "3 5 2", "控球"))),
                     tie="keep", keep="3 5 2", example="D")
OWNER = Question("老板", ("owner",), "choice", tuple(Option(k, (n,)) for k, n in (
    ("delegate", "放权"), ("staff_talk", "与职员谈心"), ("inspect_training", "视察训练"))))
CONFLICT = Question("摊牌", ("conflict",), "choice", (Option(True, ("是",)), Option(False, ("否",))), example="否")
BALLOT = Ballot("s1m4", ("decisions", "s1m4"), (FORMATION, OWNER, CONFLICT), deadline="下一帖发出之前")
"""The vote the 群英杯's month 3 of ``campaigns/recht.yaml`` asks for (fewer owner actions)."""


def _count(name: str, until: datetime.datetime | None = UNTIL, seed: int = SEED) -> Count:
    layout, replies = read_replies(DATA / name)
    return count_votes(replies, BALLOT, seed, until)


def _votes(count: Count) -> dict[str, dict[str, list[str]]]:
    """Question label → shown answer → voters (answers with votes only)."""
    return {r.question.label: {c.shown: list(c.voters) for c in r.candidates if c.voters} for r in count.results}


def test_nga_page_splits_into_replies_with_floors_and_times() -> None:
    layout, replies = read_replies(DATA / "nga-s1m4.txt")
    assert layout.name == "nga"
    assert [(r.floor, r.author) for r in replies][:5] == [("0", "雷希特记者"), ("1", "小明"), ("2", "阿红"), ("3", "老王"),
                                                        ("4", "小明")]
    assert len(replies) == 13 and replies[-1].time == datetime.datetime(2026, 12, 1, 20, 30)
    # the host's reply template in [code] and 小明's vote quoted by 路人甲 are not their votes
    assert "【安价" not in replies[0].body
    assert "阵型：B" not in replies[5].body and "阵型：A" in replies[5].body
    assert "阵型: b" not in replies[10].body  # 张三 quotes 阿红 (Reply to … Post by …)


def test_nga_count_is_pinned() -> None:
    count = _count("nga-s1m4.txt")
    assert _votes(count) == {
        "阵型": {"A. 4 4 2": ["路人甲", "咸鱼", "张三"], "B. 4 3 3": ["阿红", "老王", "小明"]},
        "老板": {"放权": ["小明", "路人甲"], "视察训练": ["老王", "阿强"]},
        "摊牌": {"是": ["阿红", "小明", "阿强"], "否": ["张三"]},
    }
    assert [c.reply.where() for c in count.superseded] == ["#1 小明"]
    assert [c.reply.where() for c in count.late] == ["#11 李四", "#12 小明"]
    assert [(p.reply.where(), p.item, p.kind) for p in count.problems] == [
        ("#6 阿强", "阵型：Z", "option"), ("#9 大卫", "第二个吧", "format")]
    assert [c.reply.where() for c in count.unreadable] == ["#9 大卫"]
    assert [(r.where(), k) for r, k in count.other_keys] == [("#8 猫猫", "s1m3")]
    formation, owner, conflict = count.results
    # A and B tie, the current 3 5 2 is not among them: a visible die in option order
    face, die = tie_die(SEED, BALLOT, FORMATION, 2)
    assert formation.decided and formation.value == ("4 4 2", "4 3 3")[face - 1] and formation.die == die
    assert not owner.decided and "按没人投处理" in owner.how  # 老板's tie falls back to the month's D100
    assert conflict.decided and conflict.value is True


def test_the_tie_die_is_the_seeds_and_the_ballots() -> None:
    """Same seed, key and label: the same die; it is a die of the campaign's streams (never its seed shown)."""
    roll = Dice(SEED).roll("tally/s1m4/阵型", "1D2", "阵型平票")
    assert tie_die(SEED, BALLOT, FORMATION, 2) == (roll.total, f"「1D2＝{roll.total}」")
    faces = {tie_die(seed, BALLOT, FORMATION, 2)[0] for seed in range(40)}
    assert faces == {1, 2}
    assert str(SEED) not in format_count(_count("nga-s1m4.txt"), "s01/m03.md", "nga", UNTIL)


def test_discuz_count_keeps_the_current_formation_on_a_tie() -> None:
    layout, replies = read_replies(DATA / "discuz-s1m4.txt")
    assert layout.name == "discuz"
    assert [(r.floor, r.author) for r in replies] == [("楼主", "雷希特记者"), ("沙发", "球迷老周"), ("板凳", "阿飞"),
                                                      ("地板", "球迷老周"), ("5", "小林"), ("6", "阿杰"), ("7", "晚来的")]
    count = count_votes(replies, BALLOT, SEED, UNTIL)
    assert _votes(count) == {"阵型": {"C. 5 4 1": ["球迷老周", "阿杰"], "D. 3 5 2": ["阿飞", "小林"]},
                             "老板": {}, "摊牌": {"是": ["球迷老周"]}}
    formation = count.results[0]
    assert formation.value == "3 5 2" and formation.die == "" and "沿用" in formation.how
    assert [c.reply.where() for c in count.superseded] == ["沙发 球迷老周"]
    assert [c.reply.where() for c in count.late] == ["#7 晚来的"]
    assert [(p.item, p.kind) for p in count.problems] == [("老板：开除主教练", "option")]


def test_plain_lines_count_only_without_a_deadline() -> None:
    count = _count("plain-s1m4.txt", until=None)
    assert _votes(count) == {"阵型": {"A. 4 4 2": ["老王", "小明"], "B. 4 3 3": ["阿红"]}, "老板": {"放权": ["小明"]},
                             "摊牌": {}}
    assert [c.reply.where() for c in count.superseded] == ["第1条 小明"]
    assert [k for _, k in count.other_keys] == ["s1m5"]
    dated = _count("plain-s1m4.txt")  # no reply has a time: with a deadline, none can be shown to be in time
    assert dated.counted == () and len(dated.undated) == 4


def test_plain_headers_with_times() -> None:
    text = "小明 2026-11-30 20:15\n【安价 s1m4】\n阵型：B\n\n阿红 2026-12-01 21:00\n【安价 s1m4】阵型：C\n"
    replies = split_replies(text, load_layout("plain"))
    count = count_votes(replies, BALLOT, SEED, UNTIL)
    assert _votes(count)["阵型"] == {"B. 4 3 3": ["小明"]} and [c.reply.author for c in count.late] == ["阿红"]


def test_a_saved_html_page_reads_like_its_text(tmp_path: Path) -> None:
    page = ("<!DOCTYPE html><html><head><title>帖子</title><script>var x = '【安价 s1m4】阵型：C';</script></head>"
            "<body><table><tr><td>球迷老周</td><td><strong>沙发</strong><div>发表于 2026-11-30 20:12:40 | 只看该作者</div>"
            "<div class='pct'>【安价 s1m4】阵型：c</div></td></tr>"
            "<tr><td>阿飞</td><td><strong>板凳</strong><div>发表于 2026-11-30 20:40:02</div><div class='pct'>"
            "<div class='quote'><blockquote>球迷老周 发表于 2026-11-30 20:12<br>【安价 s1m4】阵型：c</blockquote></div>"
            "控球就好<br>【安价 s1m4】阵型：D&nbsp;</div></td></tr></table></body></html>")
    path = tmp_path / "thread.html"
    path.write_text(page, encoding="utf-8")
    layout, replies = read_replies(path)
    assert layout.name == "discuz" and [r.author for r in replies] == ["球迷老周", "阿飞"]
    count = count_votes(replies, BALLOT, SEED, UNTIL)
    assert _votes(count)["阵型"] == {"C. 5 4 1": ["球迷老周"], "D. 3 5 2": ["阿飞"]}
    assert "[quote]" in html_text(page) and "var x" not in html_text(page)


def test_a_file_no_layout_reads_names_its_first_lines(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("\n这不是论坛的回复\n只是几行字\n第三行\n第四行\n", encoding="utf-8")
    with pytest.raises(LayoutError) as err:
        read_replies(path)
    message = str(err.value)
    assert str(path) in message and "'这不是论坛的回复' / '只是几行字' / '第三行'" in message and "第四行" not in message


def test_a_hosts_own_layout(tmp_path: Path) -> None:
    own = tmp_path / "my.yaml"
    own.write_text("name: mine\nheaders:\n  - '^【(?P<floor>\\d+)楼】(?P<author>\\S+) @ (?P<time>[\\d\\- :]+)$'\n"
                   "quotes:\n  lines: ['^引:']\n", encoding="utf-8")
    replies_file = tmp_path / "r.txt"
    replies_file.write_text("【1楼】小明 @ 2026-11-30 20:00\n引:【安价 s1m4】阵型：C\n【安价 s1m4】阵型：A\n", encoding="utf-8")
    layout, replies = read_replies(replies_file, str(own))
    assert layout.name == "mine" and [(r.floor, r.author) for r in replies] == [("1", "小明")]
    assert _votes(count_votes(replies, BALLOT, SEED))["阵型"] == {"A. 4 4 2": ["小明"]}
    own.write_text("name: bad\nheaders: ['(?P<author>[']\n", encoding="utf-8")
    with pytest.raises(LayoutError, match="headers"):
        load_layout(str(own))
    with pytest.raises(LayoutError, match="没有名为 'weibo' 的论坛版式"):
        load_layout("weibo")


def test_each_counted_lists_keep_names_a_majority_wrote() -> None:
    buy = Question("买入", ("transfers", "buy"), "offers", names=("甲", "乙", "丙"), count="each",
                   offer_keys=("player", "offer"))
    ballot = Ballot("s1m7", ("decisions", "s1m7"), (buy,))
    text = ("a：【安价 s1m7】买入：甲 50万、乙 10万\nb：【安价 s1m7】买入：甲 45万\nc：【安价 s1m7】买入：甲 50万, 丙 1万\n"
            "d：【安价 s1m7】买入：甲 45万、乙 12万\n")
    count = count_votes(split_replies(text, load_layout("plain")), ballot, SEED)
    (r,) = count.results
    # 甲 by all four (450k and 500k tie: the lower); 乙 by two of four (not more than half); 丙 by one
    assert r.value == [{"player": "甲", "offer": 450_000}] and r.answered == 4


def test_parse_time_forms() -> None:
    assert parse_time("2026年12月1日 20:00") == UNTIL == parse_time("2026/12/01 20:00:00")
    assert parse_time("明天") is None and parse_time("2026-13-01 20:00") is None


def test_set_decisions_refuses_a_hosts_decision_and_comments_the_written_one() -> None:
    doc = load_yaml_text("# 战役\ndecisions:  # 投票\n  s1m4:\n    formation: 5 4 1  # 主持人定的\n", "c.yaml")
    count = _count("nga-s1m4.txt")
    with pytest.raises(TallyError, match=r"decisions\.s1m4\.formation（现为 '5 4 1'）") as err:
        set_decisions(doc, count, force=False)
    assert "conflict" not in str(err.value)  # only what is taken is named
    written = set_decisions(doc, count, force=True)
    assert [w.split(" = ")[0] for w in written] == ["decisions.s1m4.formation", "decisions.s1m4.conflict"]
    text = dump_yaml(doc)
    assert text.startswith("# 战役\ndecisions:  # 投票\n") and "conflict: true  # anko-writer tally 计票：3 票" in text
    assert "「1D2＝" in text.split("formation:")[1].split("\n")[0]


def test_an_empty_flow_mapping_grows_into_a_block() -> None:
    doc = load_yaml_text("title: x\ndecisions: {}  # 读者的投票\n", "c.yaml")
    set_decisions(doc, _count("plain-s1m4.txt", until=None), force=False)
    assert isinstance(doc["decisions"], CommentedMap)
    assert "decisions:" in dump_yaml(doc) and "{" not in dump_yaml(doc)
    assert "  s1m4:\n    formation: 4 4 2  # anko-writer tally 计票：2 票，共 3 人投这一项\n" in dump_yaml(doc)


def test_an_nga_page_saved_as_html(tmp_path: Path) -> None:
    """NGA's saved page: the author and level lines (left cell) before the floor and time (right cell), the
    post's text right after the time, a quote in a ``quote`` element."""
    page = ("<html><body><table><tr><td class=c1><a class=author>小明</a><div>级别: 新手上路</div><div>威望: 0</div></td>"
            "<td class=c2><a>#1</a> <span>2026-11-30 20:15</span><span class='postcontent ubbcode'>【安价 s1m4】阵型：A"
            "<div class=quote>Post by 阿红 (2026-11-30 20:10):<br>【安价 s1m4】阵型：B</div></span></td></tr>"
            "<tr><td class=c1><a class=author>阿红</a><div>级别: 学徒</div></td><td class=c2><a>#2</a> "
            "<span>2026-11-30 20:20</span><span>【安价 s1m4】阵型：C</span></td></tr></table></body></html>")
    path = tmp_path / "read.php.html"
    path.write_text(page, encoding="utf-8")
    layout, replies = read_replies(path)
    assert layout.name == "nga" and [(r.floor, r.author) for r in replies] == [("1", "小明"), ("2", "阿红")]
    assert _votes(count_votes(replies, BALLOT, SEED, UNTIL))["阵型"] == {"A. 4 4 2": ["小明"], "C. 5 4 1": ["阿红"]}
