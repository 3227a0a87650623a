"""``anko-writer tally`` on the 群英杯 (issue 16): every chapter's vote is a ballot whose reply line the chapter
prints and whose answers the campaign schema accepts; the month cycle — month 3's vote, the replies, ``tally
--write``, month 4 — works end to end with the host's comments intact."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from anko_writer.ballot import Ballot, Question
from anko_writer.campaign import load_campaign
from anko_writer.cli import app
from anko_writer.rulesets.purasbar.setup.campaign_schema import decision
from anko_writer.rulesets.purasbar.setup.tables import load_purasbar_tables
from anko_writer.schema import validate
from anko_writer.tally import count_votes, load_layout, split_replies, write_campaign
from anko_writer.tally.campaign import TallyError
from tests.purasbar.published import records
from tests.shared import opening_vote
from tests.util import RES

BUILT_IN = Path(__file__).parents[2] / "campaigns" / "recht.yaml"
REPLIES = Path(__file__).parents[1] / "data" / "replies"
UNTIL = "2026-12-01 20:00"


def _ballots(out: Path) -> list[tuple[Path, Ballot]]:
    """Every chapter JSON of season 1 with its ballot."""
    found = []
    for path, rec in records(out / "s01", "*.json"):
        vote = rec.get("vote")
        if vote:
            found.append((path, Ballot.from_record(vote["ballot"])))
    return found


def test_every_chapter_prints_its_ballots_reply_line_and_the_schema_takes_every_answer(three: tuple[Path, int]) -> None:
    out, _ = three
    owner_keys = [r.params["key"] for r in load_purasbar_tables(RES).owner_actions.rows]
    node = decision(owner_keys)
    found = _ballots(out)
    assert [p.stem for p, _ in found] == ["end"] + [f"m{m:02d}" for m in range(1, 12)]
    labels = set()
    for path, ballot in found:
        md = path.with_suffix(".md").read_text(encoding="utf-8")
        assert f"```\n{ballot.reply_line()}\n```" in md, path
        for q in ballot.questions:
            labels.add(q.label)
            values = [o.value for o in q.options] or [q.read(q.example.replace("球员名", q.names[0]).replace(
                "报价", "500000").replace("要价", "500000"))]
            for v in values:
                doc: dict = {}
                cur = doc
                for key in q.path[:-1]:
                    cur = cur.setdefault(key, {})
                cur[q.path[-1]] = v
                validate(doc, node, path)  # raises if the schema refused what the tally would write
    assert labels == {"阵型", "老板", "摊牌", "点球", "买入", "出售", "解约"}
    m06 = dict((p.stem, b) for p, b in found)["m06"]
    assert [q.label for q in m06.questions][-3:] == ["买入", "出售", "解约"]  # the winter window opens in month 7


def _cli(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr


def _after_month_3(three: tuple[Path, int], tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the built-in campaign and an output folder holding month 3's JSON, the chapter that asked for
    s1m4's vote (taken from the session's three seasons)."""
    camp = tmp_path / "recht.yaml"
    shutil.copy(BUILT_IN, camp)
    out = tmp_path / "out"
    (out / "s01").mkdir(parents=True)
    shutil.copy(three[0] / "s01" / "m03.json", out / "s01")
    return camp, out


def test_the_month_cycle_post_replies_tally_write_next_month(three: tuple[Path, int], tmp_path: Path) -> None:
    camp, out = _after_month_3(three, tmp_path)
    before = camp.read_text(encoding="utf-8")
    args = ["tally", str(camp), str(REPLIES / "nga-s1m4.txt"), "--chapter", "s1m4", "--until", UNTIL, "--out", str(out)]

    code, stdout, _ = _cli(*args)
    assert code == 0 and camp.read_text(encoding="utf-8") == before  # a count writes nothing
    assert "| A. 4 4 2 | 3 | 路人甲、咸鱼、张三 |" in stdout and "| B. 4 3 3 | 3 | 阿红、老王、小明 |" in stdout
    assert "- #11 李四 2026-12-01 20:03：【安价 s1m4】阵型：A" in stdout and "- #8 猫猫：安价 s1m3" in stdout
    assert "- #6 阿强：「阵型：Z」没有「Z」这个选项" in stdout and "（以 #4 小明 为准）" in stdout
    die = re.search(r"掷骰 「1D2＝([12])」 → ([AB])\. (\S+ \S+ \S+)", stdout)
    assert die and die.group(2) == "AB"[int(die.group(1)) - 1]
    winner = die.group(3)
    assert _cli(*args[:3], "--chapter", "s01/m03", *args[5:])[1] == stdout  # the chapter's path names it too

    code, stdout, _ = _cli(*args, "--write")
    assert code == 0, stdout
    after = camp.read_text(encoding="utf-8")
    kept = [line for line in before.splitlines() if line != "decisions: {}"]
    assert [line for line in after.splitlines() if line in kept] == kept  # every comment and key, in order
    assert f"    formation: {winner}  # anko-writer tally 计票：3 票，共 6 人投这一项，平票掷骰 「1D2＝{die.group(1)}」" in after
    assert load_campaign(camp).data["decisions"]["s1m4"] == {"formation": winner, "conflict": True}

    code, _, stderr = _cli(*args, "--write")  # the host's decision now: not overwritten silently
    assert code == 1 and stderr.startswith("错误：") and "decisions.s1m4.formation" in stderr and "--force" in stderr
    assert camp.read_text(encoding="utf-8") == after
    assert _cli(*args, "--write", "--force")[0] == 0 and camp.read_text(encoding="utf-8") == after

    code, stdout, stderr = _cli("month", str(camp), "--season", "1", "--month", "4", "--out", str(out))
    assert code == 0, stderr
    assert f"**安价结果：{winner}" in (out / "s01" / "m04.md").read_text(encoding="utf-8")


def test_bad_input_is_one_error_line(three: tuple[Path, int], tmp_path: Path) -> None:
    camp, out = _after_month_3(three, tmp_path)
    junk = tmp_path / "junk.txt"
    junk.write_text("随便写点什么\n没有楼层也没有冒号\n第三行\n", encoding="utf-8")
    code, _, stderr = _cli("tally", str(camp), str(junk), "--chapter", "s1m4", "--out", str(out))
    assert code == 1 and stderr.count("\n") == 1 and str(junk) in stderr and "'随便写点什么' / '没有楼层也没有冒号'" in stderr
    code, _, stderr = _cli("tally", str(camp), str(REPLIES / "plain-s1m4.txt"), "--chapter", "s1m9", "--out", str(out))
    assert code == 1 and "下没有章节发起投票" in stderr and "s1m4" in stderr  # names the votes it found
    code, _, stderr = _cli("tally", str(camp), str(junk), "--chapter", "s1m4", "--until", "tomorrow")
    assert code == 2 and stderr.startswith("错误：") and "--until" in stderr


def test_a_vote_that_breaks_the_campaign_is_refused(tmp_path: Path) -> None:
    camp = tmp_path / "recht.yaml"
    shutil.copy(BUILT_IN, camp)
    before = camp.read_bytes()
    pens = Question("点球", ("penalties",), "names", names=("不存在的人",), max_items=5)
    ballot = Ballot("s1m12", ("decisions", "s1m12"), (pens,))
    replies = split_replies("甲：【安价 s1m12】点球：不存在的人\n", load_layout("plain"))
    try:
        write_campaign(camp, count_votes(replies, ballot, 1), force=False)
    except TallyError as err:
        assert "写入后战役将不合法" in str(err) and "不存在的人" in str(err)
    else:
        raise AssertionError("an invalid vote was written")
    assert camp.read_bytes() == before


def test_month_1s_vote_is_counted_from_chapter_0(tmp_path: Path) -> None:
    """Chapter 0 has no JSON: the tally asks the ruleset for the vote it ends with (computed from the campaign as it
    stands), which is the vote the shipped chapter 0 prints, and writes it like any other."""
    camp = tmp_path / "recht.yaml"
    shutil.copy(BUILT_IN, camp)
    ballot = Ballot.from_record(opening_vote(camp)["ballot"])
    assert ballot.key == "s1m1"
    shipped = (BUILT_IN.parent / "recht-chapter0.md").read_text(encoding="utf-8")
    assert f"```\n{ballot.reply_line()}\n```" in shipped
    replies = tmp_path / "replies.txt"
    replies.write_text("小明：【安价 s1m1】阵型：B；摊牌：是\n阿红：【安价 s1m1】阵型：b\n老王：【安价 s1m1】阵型：C\n",
                       encoding="utf-8")
    res = CliRunner().invoke(app, ["tally", str(camp), str(replies), "--chapter", "s1m1", "--write"])
    assert res.exit_code == 0, res.output
    assert "投票出自 第〇章" in res.output and "| B. 4 3 3 | 2 | 小明、阿红 |" in res.output
    d = load_campaign(camp).data["decisions"]["s1m1"]
    assert d == {"formation": "4 3 3", "conflict": True}


def test_the_shipped_chapter_0_is_what_new_makes_of_the_campaigns_seed(tmp_path: Path) -> None:
    """``campaigns/recht-chapter0.md`` is not stale: ``new`` with the campaign's city and seed writes the shipped
    campaign file and chapter 0 byte for byte."""
    seed = load_campaign(BUILT_IN).seed
    res = CliRunner().invoke(app, ["new", str(tmp_path / "recht"), "--city", "雷希特", "--seed", str(seed)])
    assert res.exit_code == 0, res.output
    for name in ("recht.yaml", "recht-chapter0.md"):
        assert (tmp_path / "recht" / name).read_bytes() == (BUILT_IN.parent / name).read_bytes(), name
