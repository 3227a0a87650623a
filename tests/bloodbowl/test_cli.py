"""The Blood Bowl league end to end through the real command line, the real match engine and the real
roster table: new, check, chapter, arc, the next season from the state file, verify, export; votes
reaching the engine's plans, determinism, state edits, sealed casualties, no secrets."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.render import find_problems
from anko_writer.rulesets.bloodbowl.match.api import HalfInput
from anko_writer.rulesets.bloodbowl.ruleset import INFO
from tests.bloodbowl.conftest import SEED, new_league, run


def prose(md: str) -> list[str]:
    """Prose problems of a chapter (the core's check skips the pitch diagrams' code fences)."""
    return find_problems(md, INFO.allowed_words)


def copy_league(league: Path, tmp: Path) -> Path:
    """A private copy of the shared campaign file."""
    camp = tmp / "league.yaml"
    shutil.copy(league, camp)
    return camp


def test_new_writes_a_commented_league(league: Path) -> None:
    text = league.read_text(encoding="utf-8")
    assert "ruleset: bloodbowl" in text and "# 读者投票" in text and text.count('"name": ') >= 6 * 11
    chapter0 = (league.parent / "league-chapter0.md").read_text(encoding="utf-8")
    assert "银鹰队" in chapter0 and "「1D20＝" in chapter0 and "老罗" in chapter0
    assert prose(chapter0) == []
    assert run("check", league).startswith(f"通过：{league}")


def test_new_refuses_an_unknown_race(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["new", str(tmp_path), "--ruleset", "bloodbowl", "--option", "team=甲队",
                                   "--option", "race=elf", "--seed", SEED])
    assert res.exit_code == 1 and "--option race: 未知的种族 'elf'（rosters.yaml 里有：" in res.output + (res.stderr or "")


@pytest.mark.parametrize(("team", "said"), [("", "--option team: '' 不能为空"),
                                           ("甲 队", "--option team: '甲 队' 不能含有空格")])
def test_new_refuses_a_team_name_a_roll_id_cannot_hold(tmp_path: Path, team: str, said: str) -> None:
    res = CliRunner().invoke(app, ["new", str(tmp_path), "--ruleset", "bloodbowl", "--option", f"team={team}",
                                   "--option", "race=human", "--seed", SEED])
    assert res.exit_code == 1 and said in res.output + (res.stderr or ""), res.output


def test_one_chapter(league: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    written = run("chapter", league, "--arc", "1", "--part", "1", "--out", out)
    assert "s01/h01.md" in written and "rules.md" in written
    md = (out / "s01/h01.md").read_text(encoding="utf-8")
    assert md.startswith("# 第一赛季 · 第一轮上半场") and "## 赛程" in md and "::: vote" in md
    assert "（s1h1）" in md and "AI 教练" in md  # no vote: the AI coach's plan is stated
    assert prose(md) == []


def test_a_season(season_one: Path) -> None:
    s01 = season_one / "s01"
    assert sorted(p.name for p in s01.glob("h*.md")) == [f"h{n:02d}.md" for n in range(1, 11)]
    assert (s01 / "index.md").is_file() and (s01 / "state-end.yaml").is_file()
    for n in range(1, 11):
        md = (s01 / f"h{n:02d}.md").read_text(encoding="utf-8")
        assert prose(md) == [], (n, prose(md))
        assert "```\n" in md and "::: vote" in md
        rec = json.loads((s01 / f"h{n:02d}.json").read_text(encoding="utf-8"))
        assert (rec["ruleset"], rec["arc"], rec["part"]) == ("bloodbowl", 1, n)
        assert {"teams", "turns", "kickoffs", "score", "attacks", "casualties", "diagrams"} <= rec.keys()
        for row in rec["diagrams"][0]["rows"]:
            assert len(row) <= 26
    last = json.loads((s01 / "h10.json").read_text(encoding="utf-8"))
    assert len(last["post"]["standings"]) == 6 and sum(r["played"] for r in last["post"]["standings"]) == 30


def test_seals_and_verify(season_one: Path) -> None:
    """The pinned seed's season seals a casualty of ours (chapter 4) and reveals it in the next chapter."""
    text = "".join(p.read_text(encoding="utf-8") for p in sorted((season_one / "s01").glob("h*.md")))
    assert "〔封存｜" in text and "〔揭晓｜" in text
    verified = run("verify", season_one)
    assert re.search(r"核对了 [1-9]\d* 次揭晓", verified)


def test_sealed_casualty_is_masked_in_json(season_one: Path) -> None:
    found = False
    for path in sorted((season_one / "s01").glob("h*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        sealed = {r["id"] for r in rec["sealed"]}
        for c in rec["casualties"]:
            if c["roll"]["id"] in sealed:
                found = True
                assert c["roll"]["total"] is None and c["outcome"] == {"sealed_by": c["roll"]["id"]}
                assert not {"text", "lasting", "miss_next"} & c["roll"].keys() and c["roll"]["result"] is None
                victim = next(p for t in rec["teams"] for p in t["players"] if p["id"] == c["player"])
                assert victim["state"] == "casualty" and victim["MA"] is None
        for t in rec["turns"]:
            for a in t["actions"]:
                for r in a["rolls"]:
                    if r.get("id") in sealed:
                        assert r["dice"] is None and r["result"] is None and "text" not in r
        for r in rec["rolls"]:
            if r["id"] in sealed:
                assert r["expr"] == "D68" and r["dice"] is None and r["total"] is None
        md = path.with_suffix(".md").read_text(encoding="utf-8")
        for r in rec["sealed"]:
            assert r["total"] is None and f"〔封存｜编号 {r['id']}｜D68＝？？？｜" in md and "伤情封存" in md
    assert found


def test_no_seed_in_publishable_files(season_one: Path) -> None:
    for path in season_one.rglob("*"):
        if path.is_file() and path.name not in ("state-end.yaml", "manifest.json"):
            assert SEED not in path.read_text(encoding="utf-8"), path


def test_next_season_from_state_and_a_rename(league: Path, season_one: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(season_one, out)
    state = out / "s01/state-end.yaml"
    text = state.read_text(encoding="utf-8")
    old = re.search(r'"id": "银鹰队-01", "name": "([^"]+)"', text)
    assert old is not None
    state.write_text(text.replace(f'"name": "{old.group(1)}"', '"name": "新名字·改"', 1), encoding="utf-8")
    run("arc", league, "--arc", "2", "--out", out, "--force")
    s02 = "".join(p.read_text(encoding="utf-8") for p in sorted((out / "s02").glob("h*.md")))
    assert "新名字·改" in s02 and old.group(1) not in s02
    assert (out / "s02/h10.md").is_file() and (out / "s02/state-end.yaml").is_file()
    assert "次揭晓" in run("verify", out)


def test_season_two_in_memory_equals_from_file(league: Path, season_one: Path, tmp_path: Path) -> None:
    """Season 2 started from the written state file reads as season 2 played on from season 1 in memory."""
    from_file = tmp_path / "a"
    shutil.copytree(season_one, from_file)
    run("chapter", league, "--arc", "2", "--part", "2", "--out", from_file)
    fresh = tmp_path / "b"
    run("chapter", league, "--arc", "2", "--part", "2", "--out", fresh)
    for name in ("h02.md", "h02.json"):
        assert (from_file / "s02" / name).read_bytes() == (fresh / "s02" / name).read_bytes(), name


@pytest.mark.parametrize("forum", ["nga", "discuz"])
def test_export(season_one: Path, tmp_path: Path, forum: str) -> None:
    out = tmp_path / "out"
    shutil.copytree(season_one, out)
    said = run("export", out, "--forum", forum)
    assert "帖（写入" in said
    assert "次揭晓" in run("verify", out)


def test_bad_vote_is_located(league: Path, tmp_path: Path) -> None:
    camp = copy_league(league, tmp_path)
    text = camp.read_text(encoding="utf-8").replace("decisions: {}", "decisions:\n  s1h2: {rest: [某人]}\n")
    camp.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["check", str(camp)])
    line = text.splitlines().index("  s1h2: {rest: [某人]}") + 1
    assert res.exit_code == 1
    assert f"league.yaml:{line}:" in res.output + (res.stderr or "")
    assert "s1h2.rest" in res.output + (res.stderr or "")


def test_bad_style_is_located(league: Path, tmp_path: Path) -> None:
    camp = copy_league(league, tmp_path)
    text = camp.read_text(encoding="utf-8").replace("decisions: {}", "decisions:\n  s1h1: {plan: {style: passs}}\n")
    camp.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["check", str(camp)])
    said = res.output + (res.stderr or "")
    assert res.exit_code == 1 and "decisions.s1h1.plan.style: 应为以下之一：" in said and "是不是想写 'pass'" in said


def test_a_vote_reaches_the_engine(league: Path, tmp_path: Path, recorded_halves: list[HalfInput]) -> None:
    camp = copy_league(league, tmp_path)
    text = camp.read_text(encoding="utf-8").replace(
        "decisions: {}", "decisions:\n  s1h1: {plan: {style: pass, rerolls: late}}\n")
    camp.write_text(text, encoding="utf-8")
    run("chapter", camp, "--arc", "1", "--part", "1", "--out", tmp_path / "out")
    ours = [c for c in recorded_halves if "银鹰队" in (c.home.name, c.away.name)]
    side = "home" if ours[0].home.name == "银鹰队" else "away"
    assert ours[0].plans[side]["style"] == "pass" and ours[0].plans[side]["rerolls"] == "late"
    assert len(ours[0].plans[side]["lineup"]) == 11
    md = (tmp_path / "out/s01/h01.md").read_text(encoding="utf-8")
    assert "按读者的安价" in md or "读者拍板" in md or "投票结果出炉" in md


def test_hire_and_rest(league: Path, tmp_path: Path, recorded_halves: list[HalfInput]) -> None:
    camp = copy_league(league, tmp_path)
    text = camp.read_text(encoding="utf-8")
    rested = re.search(r'"id": "银鹰队-02", "name": "([^"]+)"', text)
    assert rested is not None
    camp.write_text(text.replace("decisions: {}", f"decisions:\n  s1h3: {{hire: [{{position: 闪击手, name: 新人·甲}}], "
                                                  f"rest: [{rested.group(1)}]}}\n"), encoding="utf-8")
    out = tmp_path / "out"
    run("chapter", camp, "--arc", "1", "--part", "3", "--out", out)
    md = (out / "s01/h03.md").read_text(encoding="utf-8")
    assert "招募闪击手一名" in md and "新人·甲" in md and f"按投票轮休：{rested.group(1)}" in md
    ours = [c for c in recorded_halves if c.key.startswith("s1/r2/") and "银鹰队" in (c.home.name, c.away.name)]
    side = "home" if ours[0].home.name == "银鹰队" else "away"
    assert "银鹰队-02" not in ours[0].plans[side]["lineup"]


def test_deterministic_and_edit_leaves_earlier_parts(league: Path, season_one: Path, tmp_path: Path) -> None:
    """The same campaign plays the same dice (parts 1–4 byte for byte); a vote for part 5 changes part 5
    and nothing before it."""
    camp = copy_league(league, tmp_path)
    camp.write_text(camp.read_text(encoding="utf-8").replace(
        "decisions: {}", "decisions:\n  s1h5: {plan: {style: bash, setup: offensive}}\n"), encoding="utf-8")
    edited = tmp_path / "edited"
    run("arc", camp, "--arc", "1", "--out", edited)
    for n in range(1, 5):
        for ext in ("md", "json"):
            name = f"h{n:02d}.{ext}"
            assert (edited / "s01" / name).read_bytes() == (season_one / "s01" / name).read_bytes(), name
    assert (edited / "s01/h05.json").read_bytes() != (season_one / "s01/h05.json").read_bytes()
    assert "按读者的安价" in (edited / "s01/h05.md").read_text(encoding="utf-8") or \
        "读者拍板" in (edited / "s01/h05.md").read_text(encoding="utf-8") or \
        "投票结果出炉" in (edited / "s01/h05.md").read_text(encoding="utf-8")


def test_state_file_errors_are_located(league: Path, season_one: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(season_one, out)
    state = out / "s01/state-end.yaml"
    text = state.read_text(encoding="utf-8").replace('"rerolls": 3', '"rerolls": 3', 1).replace("rerolls: 3", "rerolls: 30", 1)
    state.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["arc", str(league), "--arc", "2", "--out", str(out)])
    said = res.output + (res.stderr or "")
    assert res.exit_code == 1 and "state-end.yaml:" in said and "team.rerolls: 应在 0 到 8 之间" in said


def test_new_league_is_reproducible(tmp_path: Path, league: Path) -> None:
    again = new_league(tmp_path)
    assert again.read_text(encoding="utf-8") == league.read_text(encoding="utf-8")


def test_the_rules_post_marks_the_designed_sections(season_one: Path) -> None:
    """The seed's §5–§10 are empty: the post says which rules are designed (passing, re-rolls, assists,
    fouls, the kick-off table, the apothecary, the big guys, advancement)."""
    md = (season_one / "rules.md").read_text(encoding="utf-8")
    assert "## 设计补充" in md
    for part in ("传球", "重掷", "协助", "犯规", "开球表", "队医", "大个子", "升级"):
        assert f"**{part}（设计）**" in md, part


def test_the_rules_post_states_the_ai_plans_with_their_numbers(season_one: Path) -> None:
    """Issue 26: the AI coaches' race plans are in the post's 设计补充, each number as the code has it."""
    from anko_writer.rulesets.bloodbowl.match import ai, plans

    md = (season_one / "rules.md").read_text(encoding="utf-8")
    design = md.split("## 设计补充", 1)[1].split("\n## ", 1)[0]
    assert "**AI 教练的打法（设计）**" in design
    for part in ("时钟", "传球得分（人类、鼠人", "越线传球（人类、鼠人）", "递球得分", "笼阵（矮人、兽人）", "值得的犯规（所有种族）"):
        assert f"**{part}" in design, part
    stated = {"至少一半": plans.PASS_ODDS == 0.5, "只要百分之十五": plans.LAST_TURN_ODDS == 0.15,
              "至少六成": plans.ADVANCE_ODDS == 0.6, "至少向前推进四格": plans.ADVANCE_GAIN == 4,
              "最多两名接球手": plans.DEEP == 2, "至少多一个": plans.FOUL_ASSISTS == 1,
              "破甲的机会至少四成": plans.FOUL_BREAK == 0.4, "四名空闲队友三格以内": ai.CAGE_MATES == 4,
              "掷一次闪避或冲刺": plans.SCORE_ROLLS == 1}
    for words, same in stated.items():
        assert words in design and same, words
    assert plans.PASS_STYLES == ("pass",) and plans.CAGE_STYLES == ("cage",)
