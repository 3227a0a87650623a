"""Blood Bowl chapters (chapter 0 included) offer their votes in the core vote format (issue 16): each chapter's
published vote record carries a ballot whose reply line the chapter prints verbatim; that line, read back the way ``anko-writer tally``
reads replies and written at the ballot's root and paths, is a decision the real campaign schema accepts and the
league plays."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path
from typing import Any, cast

from anko_writer.ballot import DEADLINE, Ballot, read_votes
from anko_writer.campaign import load_campaign
from anko_writer.rulesets.bloodbowl import Bloodbowl
from anko_writer.rulesets.bloodbowl.match.api import HalfInput
from anko_writer.rulesets.bloodbowl.setup.schema import REROLLS, SETUPS, STYLES
from tests.bloodbowl.conftest import SEED, run
from tests.shared import opening_vote


def put(data: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    """``value`` written at ``path`` under ``data`` (mappings made on the way), as the tally writes a winner."""
    for step in path[:-1]:
        data = data.setdefault(step, {})
    data[path[-1]] = value


@cache
def chapter0_vote() -> dict[str, Any]:
    """Chapter 0's vote record as ``new`` built it for the test league (chapter 0 has no JSON beside it)."""
    bb = Bloodbowl()
    res = bb.resources(None)
    made = bb.new_campaign({"team": "银鹰队", "race": "human", "coach": "老罗"}, int(SEED), res)
    return cast(dict[str, Any], made.chapter0.results["vote"])


def ballots(league: Path, season_one: Path) -> list[tuple[str, dict[str, Any], Ballot]]:
    """Chapter 0 and each chapter of season 1: its Markdown, its vote record, and the ballot in it."""
    vote0 = chapter0_vote()
    out = [((league.parent / "league-chapter0.md").read_text(encoding="utf-8"), vote0,
            Ballot.from_record(vote0["ballot"]))]
    for n in range(1, 11):
        vote = json.loads((season_one / f"s01/h{n:02d}.json").read_text(encoding="utf-8"))["vote"]
        md = (season_one / f"s01/h{n:02d}.md").read_text(encoding="utf-8")
        out.append((md, vote, Ballot.from_record(vote["ballot"])))
    return out


def with_decisions(league: Path, tmp: Path, decisions: dict[str, Any]) -> Path:
    """A copy of the shared campaign whose ``decisions`` are ``decisions``."""
    camp = tmp / "league.yaml"
    text = league.read_text(encoding="utf-8")
    assert "decisions: {}" in text
    camp.write_text(text.replace("decisions: {}", "decisions: " + json.dumps(decisions, ensure_ascii=False)),
                    encoding="utf-8")
    return camp


def test_every_chapter_prints_its_ballots_reply_line(league: Path, season_one: Path) -> None:
    for md, vote, ballot in ballots(league, season_one):
        assert ballot.key == vote["key"] and ballot.root == ("decisions", vote["key"])
        assert f"```\n{ballot.reply_line()}\n```" in md
        assert f"截止 **{ballot.deadline}**" in md
        labels = [q.label for q in ballot.questions]
        before = ["轮休", "招募"] if vote["prematch"] else []
        assert labels == ["打法", "先强袭", "重掷", "站位", "首发", *before]
        ours = {p["name"] for p in vote["roster"] if p["state"] != "sealed"}
        assert set(ballot.questions[4].names) == ours and not any(p["state"] == "sealed" and p["name"] in md.split(
            "```")[-2] for p in vote["roster"])


def test_the_reply_lines_read_back_are_decisions_the_schema_accepts(league: Path, season_one: Path,
                                                                   tmp_path: Path) -> None:
    decisions: dict[str, Any] = {}
    for _, vote, ballot in ballots(league, season_one):
        (read,) = read_votes("顶！楼主加油\n" + ballot.reply_line(), ballot)
        assert read.problems == () and len(read.answers) == len(ballot.questions)
        for q, a in zip(ballot.questions, read.answers, strict=False):
            put(decisions, (*ballot.root, *q.path)[1:], a.value)
        got = decisions[vote["key"]]
        assert got["plan"] == {"style": STYLES[0], "blitz_first": ballot.questions[1].shown(), "rerolls": REROLLS[0],
                               "setup": SETUPS[0]}
        assert 0 < len(got["lineup"]) <= 11 and set(got["lineup"]) <= set(ballot.questions[4].names)
        if vote["prematch"]:
            assert got["rest"] == [] and got["hire"] == []
    assert list(decisions) == [f"s1h{n}" for n in range(1, 11)] + ["s2h1"]
    data = load_campaign(with_decisions(league, tmp_path, decisions)).data
    assert data["decisions"]["s1h3"]["plan"]["style"] == "cage" and "hire" not in data["decisions"]["s1h4"]


def test_an_edited_reply_reaches_the_engine(league: Path, season_one: Path, tmp_path: Path,
                                            recorded_halves: list[HalfInput]) -> None:
    """A reader's own answers in the reply line (a letter with its name, a name of theirs, a bench player, two
    positionals) are what the next chapter plays."""
    _, vote, ballot = ballots(league, season_one)[2]
    assert vote["key"] == "s1h3"
    target = ballot.questions[1].options[-1].value
    rested = vote["roster"][-1]["name"]
    reply = f"【安价 s1h3】打法：乙 传球打法；先强袭：{target}；重掷：丙；站位：进攻站位；轮休：{rested}；招募：闪击手、前锋"
    (read,) = read_votes(reply, ballot)
    assert read.problems == ()
    decisions: dict[str, Any] = {}
    for a in read.answers:
        q = ballot.question(a.label)
        assert q is not None
        put(decisions, (*ballot.root, *q.path)[1:], a.value)
    assert decisions == {"s1h3": {"plan": {"style": "pass", "blitz_first": target, "rerolls": "late",
                                           "setup": "offensive"},
                                  "rest": [rested], "hire": [{"position": "闪击手"}, {"position": "前锋"}]}}
    out = tmp_path / "out"
    run("chapter", with_decisions(league, tmp_path, decisions), "--arc", "1", "--part", "3", "--out", out)
    ours = [c for c in recorded_halves if c.key.startswith("s1/r2/") and "银鹰队" in (c.home.name, c.away.name)]
    side = "home" if ours[0].home.name == "银鹰队" else "away"
    plan = ours[0].plans[side]
    sheet = ours[0].home if side == "home" else ours[0].away
    other = ours[0].away if side == "home" else ours[0].home
    assert (plan["style"], plan["rerolls"], plan["setup"]) == ("pass", "late", "offensive")
    assert plan["blitz_first"] == next(p.id for p in other.players if p.name == target)
    assert next(p.id for p in sheet.players if p.name == rested) not in plan["lineup"]
    md = (out / "s01/h03.md").read_text(encoding="utf-8")
    assert f"按投票轮休：{rested}" in md


def test_the_deadline_is_the_campaigns(league: Path, tmp_path: Path) -> None:
    camp = tmp_path / "league.yaml"
    shutil.copy(league, camp)
    text = camp.read_text(encoding="utf-8")
    assert f"vote_deadline: {DEADLINE}" in text  # new writes the default
    camp.write_text(text.replace(f"vote_deadline: {DEADLINE}", "vote_deadline: 周五晚上八点"), encoding="utf-8")
    out = tmp_path / "out"
    run("chapter", camp, "--arc", "1", "--part", "1", "--out", out)
    vote = json.loads((out / "s01/h01.json").read_text(encoding="utf-8"))["vote"]
    assert vote["ballot"]["deadline"] == "周五晚上八点"
    assert "截止 **周五晚上八点**" in (out / "s01/h01.md").read_text(encoding="utf-8")
    assert "截止 **周五晚上八点**" in (out / "rules.md").read_text(encoding="utf-8")


def test_tally_counts_chapter_0s_vote_as_the_campaign_stands(league: Path, tmp_path: Path) -> None:
    """Chapter 0 has no JSON: the tally asks the ruleset for its vote, which is the one ``new`` put into chapter 0
    (its reply line printed there verbatim) and follows the campaign when the host renames players; the count is
    written into the campaign, which still validates."""
    vote = opening_vote(league)
    assert vote == chapter0_vote()
    ballot = Ballot.from_record(vote["ballot"])
    chapter0 = (league.parent / "league-chapter0.md").read_text(encoding="utf-8")
    assert ballot.key == "s1h1" and f"```\n{ballot.reply_line()}\n```" in chapter0
    style, blitz, _, setup = ballot.questions[:4]
    ours, theirs = vote["roster"][0], blitz.example
    camp = tmp_path / "league.yaml"
    text = league.read_text(encoding="utf-8")
    assert text.count(f'"name": "{theirs}"') == 1
    ours_line = f'"id": "{ours["id"]}", "name": "{ours["name"]}"'
    text = text.replace(ours_line, ours_line.replace(ours["name"], "新来的"))
    camp.write_text(text.replace(f'"name": "{theirs}"', '"name": "对面的"'), encoding="utf-8")
    renamed = Ballot.from_record(opening_vote(camp)["ballot"])
    assert "新来的" in renamed.questions[4].names and ours["name"] not in renamed.questions[4].names
    offered = [o.value for o in renamed.questions[1].options]
    assert renamed.questions[1].example == "对面的" and theirs not in offered
    chosen, third = style.options[1], setup.options[2]
    replies = tmp_path / "replies.txt"
    replies.write_text(f"小明：【安价 s1h1】打法：{chosen.words[0]}；先强袭：对面的；轮休：新来的\n"
                       f"阿红：【安价 s1h1】打法：{chosen.words[1]}；站位：{third.words[0]}\n"
                       f"老王：【安价 s1h1】打法：{style.options[2].words[0]}；先强袭：对面的\n", encoding="utf-8")
    out = run("tally", camp, replies, "--chapter", "s1h1", "--write")
    assert "投票出自 第〇章" in out
    decided = load_campaign(camp).data["decisions"]["s1h1"]
    assert decided == {"plan": {"style": chosen.value, "blitz_first": "对面的", "setup": third.value},
                       "rest": ["新来的"]}
