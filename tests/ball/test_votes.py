"""BALL chapters offer their votes in the core vote format (issue 16): each chapter's published vote record carries
a ballot whose reply line the chapter prints verbatim; that line, read back the way ``anko-writer tally`` reads
replies and written at the ballot's root and paths, is a vote the real campaign schema accepts (it replays the
moves). The line is filled with the AI's own plan, so copying it plays what the AI would have played."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from anko_writer.ballot import DEADLINE, Ballot, read_votes
from anko_writer.campaign import load_campaign
from anko_writer.rulesets.ball.game import api
from anko_writer.rulesets.ball.play import Setup, opening
from tests.ball.conftest import run
from tests.ball.test_cli import copy
from tests.shared import opening_vote

FIRST = 5
"""Chapters whose lines are replayed together (the schema replays the game: each chapter costs AI searches)."""


def put(data: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    """``value`` written at ``path`` under ``data`` (mappings made on the way), as the tally writes a winner."""
    for step in path[:-1]:
        data = data.setdefault(step, {})
    data[path[-1]] = value


def cast_line(line: str, ballot: Ballot, into: dict[str, Any]) -> None:
    """A reader's reply ``line`` read back and each answer written at the ballot's root and path under ``into``."""
    (vote,) = read_votes(line, ballot)
    assert vote.problems == ()
    for a in vote.answers:
        q = ballot.question(a.label)
        assert q is not None
        put(into, (*ballot.root, *q.path), a.value)


def with_moves(campaign: Path, tmp: Path, moves: dict[str, Any], deadline: str = DEADLINE) -> Path:
    """A copy of the shared campaign whose ``moves`` are ``moves`` (and whose vote deadline is ``deadline``)."""
    camp = copy(campaign, tmp)
    text = camp.read_text(encoding="utf-8")
    assert "moves: {}\n" in text and f"vote_deadline: {DEADLINE}" in text
    text = text.replace("moves: {}\n", "moves: " + json.dumps(moves, ensure_ascii=False) + "\n")
    camp.write_text(text.replace(f"vote_deadline: {DEADLINE}", f"vote_deadline: {deadline}"), encoding="utf-8")
    return camp


@cache
def chapter0_vote() -> dict[str, Any]:
    """Chapter 0's vote record as ``new`` built it (chapter 0 has no JSON beside it): the real game's opening."""
    return opening(api, Setup("ATK"))["vote"]


def test_every_chapter_prints_its_ballots_reply_line(campaign: Path, game_one: Path) -> None:
    chapters = sorted((game_one / "g01").glob("t*.json"))
    shown = [(campaign.parent / "ball-chapter0.md", chapter0_vote())]
    shown += [(p.with_suffix(".md"), json.loads(p.read_text(encoding="utf-8"))["vote"]) for p in chapters]
    asked = set()
    for md_path, vote in shown:
        if vote is None:
            continue
        ballot = Ballot.from_record(vote["ballot"])
        md = md_path.read_text(encoding="utf-8")
        assert ballot.key == vote["key"] and ballot.root == ("moves", vote["key"])
        assert f"```\n{ballot.reply_line()}\n```" in md and f"截止 **{DEADLINE}**" in md
        assert all(q.tie == "fallback" for q in ballot.questions) and "平票按没人投处理" in md
        labels = tuple(q.label for q in ballot.questions)
        asked.add(labels)
        assert [q.path for q in ballot.questions] == {("行动",): [()],
                                                      ("行动", "恢复"): [("actions",), ("recovery",)]}[labels]
        assert ("「恢复」按顺序写" in md) == (labels == ("行动", "恢复"))
    assert asked == {("行动",), ("行动", "恢复")}  # the game's chapters ask both kinds


def test_the_reply_lines_read_back_are_moves_the_schema_accepts(campaign: Path, game_one: Path,
                                                                 tmp_path: Path) -> None:
    """The first chapters' lines as printed (a bare list and a mapping with recovery among them): the AI's plan at
    each position of the game without votes, so together they replay that game and the schema accepts them."""
    data: dict[str, Any] = {}
    for p in sorted((game_one / "g01").glob("t*.json"))[:FIRST]:
        vote = json.loads(p.read_text(encoding="utf-8"))["vote"]
        if vote is not None:
            ballot = Ballot.from_record(vote["ballot"])
            cast_line("支持楼主\n" + ballot.reply_line(), ballot, data)
    moves = data["moves"]
    assert len(moves) == FIRST and all(isinstance(v, list) or set(v) == {"actions", "recovery"} for v in moves.values())
    assert any(isinstance(v, dict) for v in moves.values())
    loaded = load_campaign(with_moves(campaign, tmp_path, moves)).data
    assert loaded["moves"] == moves


def test_copying_the_line_plays_what_the_ai_would(campaign: Path, game_one: Path, tmp_path: Path) -> None:
    """Chapter 0's line, copied unchanged (but a full-width comma), makes chapter 1's readers' turn the AI's
    moves: the same notation and the same board as the game without votes."""
    ai = json.loads((game_one / "g01/t01.json").read_text(encoding="utf-8"))
    ours = next(t for t in ai["turns"] if t["vote"] == "g1t1")
    assert ours["fallback"] and len(ours["actions"]) >= 1
    ballot = Ballot.from_record(chapter0_vote()["ballot"])
    data: dict[str, Any] = {}
    cast_line(ballot.reply_line().replace("、", "，", 1), ballot, data)
    voted = data["moves"]["g1t1"]
    assert (voted if isinstance(voted, list) else voted["actions"]) == [a["notation"] for a in ours["actions"]]
    out = tmp_path / "out"
    run("chapter", with_moves(campaign, tmp_path, data["moves"]), "--arc", "1", "--part", "1", "--out", out)
    mine = next(t for t in json.loads((out / "g01/t01.json").read_text(encoding="utf-8"))["turns"]
                if t["vote"] == "g1t1")
    assert mine["coach"] == "readers" and not mine["fallback"]
    assert [a["notation"] for a in mine["actions"]] == [a["notation"] for a in ours["actions"]]
    assert mine["after"] == ours["after"]


def test_an_edited_line_and_the_deadline(campaign: Path, tmp_path: Path) -> None:
    """A reader's own first move, copied from the chapter's list with its backquotes, is the vote; the campaign's
    deadline is the one the chapter and the rules post state."""
    vote = chapter0_vote()
    ballot = Ballot.from_record(vote["ballot"])
    move = vote["pieces"][-1]["moves"][-1]
    data: dict[str, Any] = {}
    cast_line(f"[安价 {vote['key'].upper()}] 行动: `{move}`", ballot, data)
    path = ballot.questions[0].path
    want: Any = [move] if path == () else {"actions": [move]}
    assert data == {"moves": {vote["key"]: want}}
    out = tmp_path / "out"
    camp = with_moves(campaign, tmp_path, data["moves"], "周五晚上八点")
    assert load_campaign(camp).data["options"]["vote_deadline"] == "周五晚上八点"
    run("chapter", camp, "--arc", "1", "--part", "1", "--out", out)
    assert "截止 **周五晚上八点**" in (out / "g01/t01.md").read_text(encoding="utf-8")
    assert "截止 **周五晚上八点**" in (out / "rules.md").read_text(encoding="utf-8")
    assert json.loads((out / "g01/t01.json").read_text(encoding="utf-8"))["vote"]["ballot"]["deadline"] == "周五晚上八点"


def test_tally_counts_chapter_0s_vote_as_the_campaign_stands(campaign: Path, tmp_path: Path) -> None:
    """Chapter 0 has no JSON: the tally asks the ruleset for its vote, which is the one ``new`` put into chapter 0
    (its reply line printed there verbatim) but for the campaign's deadline as it stands; the count is written
    into the campaign, whose schema replays the moves."""
    camp = with_moves(campaign, tmp_path, {}, "周五晚上八点")
    vote, made = opening_vote(camp), chapter0_vote()
    assert vote == {**made, "deadline": "周五晚上八点", "ballot": {**made["ballot"], "deadline": "周五晚上八点"}}
    ballot = Ballot.from_record(vote["ballot"])
    chapter0 = (campaign.parent / "ball-chapter0.md").read_text(encoding="utf-8")
    assert ballot.key == "g1t1" and f"```\n{ballot.reply_line()}\n```" in chapter0
    move, other = vote["pieces"][-1]["moves"][-1], vote["pieces"][0]["moves"][0]
    replies = tmp_path / "replies.txt"
    replies.write_text(f"小明：【安价 g1t1】行动：{move}\n阿红：【安价 g1t1】行动：{move}\n"
                       f"老王：【安价 g1t1】行动：{other}\n", encoding="utf-8")
    out = run("tally", camp, replies, "--chapter", "g1t1", "--write")
    assert "投票出自 第〇章" in out and "周五晚上八点" in out
    (voted,) = load_campaign(camp).data["moves"].values()
    if ballot.questions[0].path == ():
        assert voted == [move]
    else:  # nobody voted 恢复: the AI recovers for the readers
        assert voted["actions"] == [move] and not voted.get("recovery")


def _tally_orders(campaign: Path, lines: list[tuple[str, str]]) -> tuple[Any, dict[str, Any]]:
    """Chapter 0's vote counted with 行动 read by the game's notation where the game stands: the count, the vote."""
    from anko_writer.ballot import order_parsers
    from anko_writer.tally.count import count_votes
    from anko_writer.tally.replies import Reply

    vote = chapter0_vote()
    ballot = Ballot.from_record(vote["ballot"])
    replies = [Reply(who, None, str(i + 2), body, i + 1, i + 1) for i, (who, body) in enumerate(lines)]
    return count_votes(replies, ballot, 1, orders=order_parsers(ballot, load_campaign(campaign))), vote


def test_the_ballot_names_the_notation_of_its_moves() -> None:
    questions = chapter0_vote()["ballot"]["questions"]
    assert questions[0]["label"] == "行动" and questions[0]["notation"] == "ball.actions"
    assert all("notation" not in q for q in questions[1:])  # 恢复 depends on the winning actions: text


def test_tally_counts_two_spellings_of_one_move_as_one_and_lists_an_illegal_move(campaign: Path) -> None:
    vote = chapter0_vote()
    piece = vote["pieces"][-1]
    move = next(m for m in piece["moves"] if re.fullmatch(r"\S+ [A-Z]\d+-[A-Z]\d+", m))
    spelled = "  ".join(move.lower().replace("-", " - ").split(" "))  # 「x3  e5  -  g7」: case and spacing
    count, _ = _tally_orders(campaign, [("小明", f"【安价 g1t1】行动：{move}"),
                                        ("阿红", f"【安价 g1t1】行动：{spelled}"),
                                        ("老王", f"【安价 g1t1】行动：{piece['label']} A1")])
    result = count.results[0]
    assert [(c.value, c.voters) for c in result.candidates] == [([move], ("小明", "阿红"))]
    (problem,) = count.problems
    assert problem.reply.author == "老王" and f"「{piece['label']} A1」" in problem.reason
    assert all(m in problem.reason for m in piece["moves"])  # the legal moves of the piece it names


def test_a_move_is_read_where_the_moves_before_it_leave_the_game(campaign: Path) -> None:
    """The same move twice: the second is refused, the piece has left its square."""
    vote = chapter0_vote()
    move = next(m for p in vote["pieces"] for m in p["moves"] if re.fullmatch(r"\S+ [A-Z]\d+-[A-Z]\d+", m))
    count, _ = _tally_orders(campaign, [("小明", f"【安价 g1t1】行动：{move}、{move}")])
    (problem,) = count.problems
    assert f"「{move}」" in problem.reason and "合法" in problem.reason
    assert count.results[0].candidates == ()


def test_tally_writes_the_canonical_move_and_names_the_legal_ones(campaign: Path, tmp_path: Path) -> None:
    camp = with_moves(campaign, tmp_path, {})
    vote = chapter0_vote()
    move = vote["pieces"][0]["moves"][0]
    replies = tmp_path / "replies.txt"
    illegal = f"{vote['pieces'][0]['label']} A1"
    replies.write_text(f"小明：【安价 g1t1】行动：{move.lower()}\n老王：【安价 g1t1】行动：{illegal}\n", encoding="utf-8")
    out = run("tally", camp, replies, "--chapter", "g1t1", "--write")
    assert f"「{illegal}」" in out and vote["pieces"][0]["moves"][-1] in out
    (voted,) = load_campaign(camp).data["moves"].values()
    assert (voted if isinstance(voted, list) else voted["actions"]) == [move]
    assert 'title: "BALL 安科：读者执 ATK"\n' in camp.read_text(encoding="utf-8")  # the rewrite keeps the quotes
