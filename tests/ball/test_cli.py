"""BALL through the real command line on the real game: new, check, chapter, arc, verify, export; votes played,
illegal votes located, missing votes played by the AI, determinism, the JSON contract, prose without English."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.ball.conftest import fails, new_campaign, prose, run
from tests.main_text import main_lines
from tests.shared import shared

TURN_KEYS = {"n", "side", "coach", "kickoff", "before", "actions", "recovery", "after", "pe", "touchdown"}
ACTION_KEYS = {"piece", "kind", "from", "to", "over", "target", "pa"}
POSITION_KEYS = {"pieces", "free_ball", "usable"}


def with_moves(camp: Path, moves: str, turn_limit: int = 40) -> Path:
    """The campaign with ``moves: {}`` replaced by ``moves`` (YAML text) and the turn limit set."""
    text = camp.read_text(encoding="utf-8").replace("moves: {}\n", moves)
    text = text.replace("turn_limit: 40", f"turn_limit: {turn_limit}")
    camp.write_text(text, encoding="utf-8")
    return camp


def copy(camp: Path, tmp: Path) -> Path:
    """A private copy of the shared campaign file."""
    shutil.copy(camp, tmp / "ball.yaml")
    return tmp / "ball.yaml"


def test_new_writes_a_commented_campaign_and_chapter0(campaign: Path) -> None:
    text = campaign.read_text(encoding="utf-8")
    assert "ruleset: ball" in text and "side: ATK" in text and "# 读者投票" in text and "不掷骰" in text
    ch0 = (campaign.parent / "ball-chapter0.md").read_text(encoding="utf-8")
    assert "## 标准阵型" in ch0 and "```\n   A  B  C" in ch0 and "## 记谱法" in ch0 and ":::: vote" in ch0
    # the readers play ATK: DEF's opening is shown
    assert "【安价 g1t1】" in ch0 and "安价：第一轮" in ch0 and "第一回合 · AI（DEF）" in ch0
    assert prose(ch0) == []
    assert run("check", campaign).startswith(f"通过：{campaign}")


def test_new_refuses_a_bad_side(tmp_path: Path) -> None:
    out = fails("new", tmp_path, "--ruleset", "ball", "--option", "side=MID", "--seed", "604215938477120365")
    assert "side: 应为 ATK 或 DEF" in out and not (tmp_path / "ball.yaml").exists()


@pytest.fixture(scope="session")
def chapter_one(tmp_path_factory: pytest.TempPathFactory, campaign: Path) -> Path:
    """``chapter --arc 1 --part 1`` of the shared campaign (no vote, the default AI strength 2): the folder, its
    output in ``out`` and what the command said in ``said.txt`` (shared: read only)."""
    def build(tmp: Path) -> None:
        said = run("chapter", campaign, "--arc", "1", "--part", "1", "--out", tmp / "out")
        (tmp / "said.txt").write_text(said, encoding="utf-8")
    return shared(tmp_path_factory, "ball-chapter-one", build)


def test_one_chapter_without_a_vote(chapter_one: Path) -> None:
    out = chapter_one / "out"
    written = (chapter_one / "said.txt").read_text(encoding="utf-8")
    assert "g01/t01.md" in written and "g01/t01.svg" in written and "rules.md" in written
    md = (out / "g01/t01.md").read_text(encoding="utf-8")
    assert md.startswith("# 第一局 · 第一轮") and ":::: vote" in md and "::: fold 全部合法行动" in md
    assert "【安价 g1t2】" in md and "![第一轮之后的棋盘](t01.svg)" in md
    assert not re.search(r"g\dt\d", "\n".join(main_lines(md)))  # issue 27: no internal key in the prose
    rec = json.loads((out / "g01/t01.json").read_text(encoding="utf-8"))
    ours = [t for t in rec["turns"] if t["side"] == "ATK"]
    assert [t["n"] for t in rec["turns"]] == [1, 2, 3] and ours[0]["fallback"] and ours[0]["coach"] == "ai"
    assert any(p in md for p in ("由 AI 代我方行动", "由 AI 代走", "AI 暂时替我方执子"))
    assert prose(md) == [] and prose((out / "rules.md").read_text(encoding="utf-8")) == []
    assert (out / "g01/t01.svg").read_text(encoding="utf-8").startswith("<svg")


def test_a_whole_game(game_one: Path) -> None:
    g01 = game_one / "g01"
    chapters = sorted(g01.glob("t*.md"))
    assert chapters and (g01 / "index.md").is_file()
    for md_path in chapters:
        md = md_path.read_text(encoding="utf-8")
        assert prose(md) == [], (md_path, prose(md))
        assert (g01 / f"{md_path.stem}.svg").is_file()
        rec = json.loads(md_path.with_suffix(".json").read_text(encoding="utf-8"))
        assert (rec["ruleset"], rec["arc"], rec["part"]) == ("ball", 1, int(md_path.stem[1:]))
        for t in rec["turns"]:
            assert TURN_KEYS <= t.keys() and t["coach"] in ("readers", "ai") and set(t["pe"]) == {"ATK", "DEF"}
            assert POSITION_KEYS <= t["before"].keys() and POSITION_KEYS <= t["after"].keys()
            for a in t["actions"]:
                assert ACTION_KEYS <= a.keys()
    last = json.loads(chapters[-1].with_suffix(".json").read_text(encoding="utf-8"))
    # pinned (the game is deterministic): the default AI (strength 2) on both sides, DEF scores on turn 39
    assert last["end"] == {"winner": "DEF", "how": "touchdown", "turn": 39} and last["vote"] is None
    assert len(chapters) == 19
    assert "## 终局" in chapters[-1].read_text(encoding="utf-8")
    assert "达阵" in (g01 / "index.md").read_text(encoding="utf-8")


def test_verify_and_export(game_one: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(game_one, out)
    run("verify", out)
    assert "帖（写入" in run("export", out, "--forum", "nga")
    posts = sorted((out / "export/nga").rglob("*.bbcode"))
    assert posts and "[collapse=全部合法行动]" in "".join(p.read_text(encoding="utf-8") for p in posts)
    run("export", out, "--forum", "html")
    page = (out / "export/html/g01.html").read_text(encoding="utf-8")
    assert '<img src="data:image/svg+xml;base64,' in page  # the board picture travels inside the page
    assert 'src="t01.svg"' not in page and "<details><summary>全部合法行动</summary>" in page
    run("verify", out)


def test_votes_are_played(campaign: Path, tmp_path: Path) -> None:
    camp = with_moves(copy(campaign, tmp_path), 'moves:\n  g1t1: ["X5 G5-F4", "X2 E7-D6"]\n')
    run("chapter", camp, "--arc", "1", "--part", "1")
    md = (tmp_path / "out/g01/t01.md").read_text(encoding="utf-8")
    rec = json.loads((tmp_path / "out/g01/t01.json").read_text(encoding="utf-8"))
    ours = rec["turns"][1]
    assert ours["coach"] == "readers" and not ours["fallback"] and ours["vote"] == "g1t1"
    assert [a["notation"] for a in ours["actions"]] == ["X5 G5-F4", "X2 E7-D6"]
    assert ours["actions"][0]["from"] == "G5" and ours["actions"][0]["to"] == "F4" and ours["actions"][0]["pa"] == 1
    assert "`X5 G5-F4`、`X2 E7-D6`" in md and prose(md) == []


def test_an_illegal_vote_is_located(campaign: Path, tmp_path: Path) -> None:
    camp = with_moves(copy(campaign, tmp_path), 'moves:\n  g1t1:\n    - "X5 G5-F4"\n    - "X5 F4-F6"\n')
    for command in (("check", camp), ("chapter", camp, "--arc", "1", "--part", "1")):
        out = fails(*command)
        line = camp.read_text(encoding="utf-8").splitlines().index('    - "X5 F4-F6"') + 1
        assert re.search(rf"ball\.yaml:{line}:7: moves\.g1t1\[1\]: 「X5 F4-F6」不是合法行动", out), out
        # the named piece's legal moves, in the game's notation (an X moves diagonally: F4-F6 is not one)
        assert "X5 的合法行动：X5 F4-D2、X5 F4-D6、X5 F4-E3" in out and "短传 → X3 放 J8" in out
    assert not (tmp_path / "out").exists()


def test_an_illegal_recovery_or_piece_is_located(campaign: Path, tmp_path: Path) -> None:
    camp = with_moves(copy(campaign, tmp_path),
                      'moves:\n  g1t2:\n    actions: ["X9 C7-D8"]\n    recovery: []\n')
    out = fails("check", camp)
    line = camp.read_text(encoding="utf-8").splitlines().index('    actions: ["X9 C7-D8"]') + 1
    assert f"ball.yaml:{line}:15: moves.g1t2.actions[0]:" in out and "没有棋子 X9" in out


def test_a_vote_after_the_end_is_refused(campaign: Path, tmp_path: Path) -> None:
    camp = with_moves(copy(campaign, tmp_path), 'moves:\n  g1t3: ["X5 G5-F4"]\n', 4)
    out = fails("check", camp)
    assert "moves.g1t3:" in out and "第 1 局在第 2 章结束（到了回合上限）" in out


def test_the_turn_limit_is_won_by_def(campaign: Path, tmp_path: Path) -> None:
    camp = with_moves(copy(campaign, tmp_path), "moves: {}\n", 5)
    run("arc", camp, "--arc", "1")
    chapters = sorted((tmp_path / "out/g01").glob("t*.md"))
    assert [p.stem for p in chapters] == ["t01", "t02"]
    last = chapters[-1].read_text(encoding="utf-8")
    assert "防守成功，AI（DEF）赢下了这一局" in last and ":::: vote" not in last and "平局" not in last
    assert json.loads(chapters[-1].with_suffix(".json").read_text(encoding="utf-8"))["end"] == \
        {"winner": "DEF", "how": "limit", "turn": 5}
    assert "防守成功，AI（DEF）获胜" in (tmp_path / "out/g01/index.md").read_text(encoding="utf-8")


def test_schema_errors_are_located(campaign: Path, tmp_path: Path) -> None:
    camp = copy(campaign, tmp_path)
    camp.write_text(camp.read_text(encoding="utf-8").replace("side: ATK", "side: MID"), encoding="utf-8")
    assert re.search(r"ball\.yaml:\d+:7: side: 应为以下之一：ATK、DEF，实际是 'MID'", fails("check", camp))
    camp = with_moves(copy(campaign, tmp_path), 'moves:\n  g1x3: ["X5 G5-F4"]\n')
    assert re.search(r"ball\.yaml:\d+:3: moves: 键 'g1x3' 不符合格式 g<game>t<part>", fails("check", camp))
    camp = with_moves(copy(campaign, tmp_path), "moves:\n  g1t1: 3\n")
    assert "moves.g1t1: 应为行动的列表，或含 actions 和 recovery 的映射" in fails("check", camp)


def test_a_bad_ai_strength_is_located(campaign: Path, tmp_path: Path) -> None:
    text = campaign.read_text(encoding="utf-8")
    assert "  ai_strength: 2 " in text  # new writes the default, with its comment
    line = text.splitlines().index(next(x for x in text.splitlines() if x.startswith("  ai_strength:"))) + 1
    for bad, why in (("4", "应在 1 到 3 之间，实际是 4"), ("strong", "应为整数，实际是 'strong'")):
        camp = copy(campaign, tmp_path)
        camp.write_text(text.replace("  ai_strength: 2 ", f"  ai_strength: {bad} "), encoding="utf-8")
        assert f"ball.yaml:{line}:16: options.ai_strength: {why}" in fails("check", camp)
    out = fails("new", tmp_path / "n", "--ruleset", "ball", "--option", "ai_strength=5", "--seed", "604215938477120365")
    assert "--option ai_strength: 应为以下之一：1、2、3，实际是 '5'" in out


def test_the_ai_strength_changes_the_ai(campaign: Path, chapter_one: Path, tmp_path: Path) -> None:
    text = campaign.read_text(encoding="utf-8")
    assert "  ai_strength: 2 " in text  # the shared campaign's chapter 1 is strength 2's
    reasons = {}
    for strength in (1, 2):
        folder = tmp_path / str(strength) if strength == 1 else chapter_one
        if strength == 1:
            folder.mkdir()
            camp = folder / "ball.yaml"
            camp.write_text(text.replace("  ai_strength: 2 ", f"  ai_strength: {strength} "), encoding="utf-8")
            run("chapter", camp, "--arc", "1", "--part", "1")
        rec = json.loads((folder / "out/g01/t01.json").read_text(encoding="utf-8"))
        reasons[strength] = [t["reason"] for t in rec["turns"] if t["coach"] == "ai"]
        rules = (folder / "out/rules.md").read_text(encoding="utf-8")
        assert f"（强度 {strength}，" in rules and prose(rules) == []
    assert all("预计接下来" not in r for r in reasons[1]) and any(re.search("预计接下来 (ATK|DEF)「", r) for r in reasons[2])


def test_determinism_and_votes_only_change_what_follows(campaign: Path, tmp_path: Path) -> None:
    first = with_moves(copy(campaign, tmp_path), 'moves:\n  g1t1: ["X5 G5-F4"]\n', 6)
    run("chapter", first, "--arc", "1", "--part", "2")  # part 2's vote is all this run is read for
    offered = json.loads((tmp_path / "out/g01/t02.json").read_text(encoding="utf-8"))["vote"]
    assert offered["key"] == "g1t3"
    a, b = offered["pieces"][-1]["moves"][:2]  # two of the legal moves the chapter offers for part 3
    outs = []
    for k, vote in enumerate((a, b, b)):
        folder = tmp_path / str(k)
        folder.mkdir()
        camp = with_moves(copy(campaign, folder), f'moves:\n  g1t1: ["X5 G5-F4"]\n  g1t3: ["{vote}"]\n', 6)
        run("arc", camp, "--arc", "1")
        outs.append(folder / "out/g01")
    files = sorted(p.name for p in outs[1].iterdir())
    assert files == sorted(p.name for p in outs[2].iterdir())
    for name in files:
        assert (outs[1] / name).read_bytes() == (outs[2] / name).read_bytes(), name
    for part in range(1, 3):
        for ext in ("md", "json", "svg"):
            name = f"t{part:02d}.{ext}"
            assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    assert (outs[0] / "t03.json").read_bytes() != (outs[1] / "t03.json").read_bytes()


def test_readers_as_def_play_the_first_turn(tmp_path: Path) -> None:
    camp = new_campaign(tmp_path, "DEF")
    ch0 = (tmp_path / "ball-chapter0.md").read_text(encoding="utf-8")
    assert "### 第一回合" not in ch0 and "安价：第一轮（第一回合），我方（DEF）" in ch0
    run("chapter", camp, "--arc", "1", "--part", "2")
    rec = json.loads((tmp_path / "out/g01/t02.json").read_text(encoding="utf-8"))
    assert [(t["n"], t["side"]) for t in rec["turns"]] == [(3, "DEF"), (4, "ATK")]
