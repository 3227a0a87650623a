"""The command line, driven through Typer's CliRunner with a tiny fake ruleset (no football)."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from anko_writer import __version__, resources
from anko_writer import ruleset as ruleset_mod
from anko_writer.cli import app
from anko_writer.dice import Dice
from anko_writer.ruleset import Chapter, ChapterKey, NewCampaign, NewOption, Ruleset, RulesetInfo, SeasonRun
from anko_writer.schema import Enum, Field, Int, List, Map, Str

CHAPTER = """\
# 第{{ season | cn_num }}赛季 · 第{{ month | cn_num }}月　{{ campaign.title }}

{% for r in rolls %}
{{ r.purpose }}{{ r | dice }}{% if r.hidden %}{{ r | seal }}{% endif %}

{% endfor %}

{% for r in reveals %}
{{ r | reveal }}
{% endfor %}
{{ phrase('end', month) }}
"""

INDEX = "# 第{{ season | cn_num }}赛季总结\n\n共{{ months | cn_num }}月。\n"

PHRASES = "end:\n  - 本月到此结束。\n  - 下月再会。\n"

CAMPAIGN = """\
# 测试战役
ruleset: fake
seed: 7
title: 雷希特
players:
  - name: 穆勒
    position: FW
"""


class FakeRuleset(Ruleset):
    """Three months a season, two rolls a month; month 1 hides one roll and month 2 reveals it."""

    name = "fake"
    info = RulesetInfo("fake", new_options=(NewOption("city", "home city"),))  # type: ignore[assignment]

    def campaign_schema(self, resources: Any) -> Map:
        player = Map({"name": Field(Str()), "position": Field(Enum(["FW", "MF", "DF", "GK"]))})
        return Map(
            {
                "ruleset": Field(Str()),
                "seed": Field(Int()),
                "title": Field(Str()),
                "output": Field(Str(), required=False),
                "players": Field(List(player), default=[]),
            }
        )

    def new_campaign(self, options: Any, seed: int, resources: Any) -> NewCampaign:
        city = options["city"]
        dice = Dice(seed)
        roll = dice.roll("s0/create", "1D100", "俱乐部总值")
        text = f"# 新俱乐部\nruleset: fake\nseed: {seed}\ntitle: {city}\n"
        results = {"ruleset": "fake", "season": 0, "month": 0, "rolls": [roll.to_json()], "reveals": []}
        return NewCampaign("club.yaml", text, Chapter(0, 0, results, "chapter.md.j2"))

    def play(self, campaign: Any, until: ChapterKey, resources: Any, start: Any = None) -> SeasonRun:
        season, last_month = until.arc, until.part
        dice = Dice(campaign.seed)
        chapters = [self._month(dice, campaign.seed, season, m) for m in range(1, last_month + 1)]
        return SeasonRun(chapters, {"season": season, "months": len(chapters)})

    def _month(self, dice: Dice, seed: int, season: int, month: int) -> Chapter:
        key = f"s{season}/m{month}"
        rolls = [dice.roll(key, "1D30", "攻势骰"), dice.roll(key, "D100", "重伤判定", hidden=month == 1)]
        reveals = [dice.log[1].to_json()] if month == 2 else []
        results = {"ruleset": "fake", "season": season, "month": month,
                   "rolls": [r.to_json() for r in rolls], "reveals": reveals}
        return Chapter(season, month, results)

    def months(self) -> int:
        return 3


runner = CliRunner()


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ruleset_mod, "_REGISTRY", {"fake": FakeRuleset()})


def write_templates(root: Path) -> None:
    folder = root / "templates" / "fake"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {"chapter.md.j2": CHAPTER, "index.md.j2": INDEX, "phrases.yaml": PHRASES}.items():
        (folder / name).write_text(text, encoding="utf-8")


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """A valid campaign file with the fake ruleset's templates beside it."""
    write_templates(tmp_path)
    path = tmp_path / "campaign.yaml"
    path.write_text(CAMPAIGN, encoding="utf-8")
    return path


def invoke(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def assert_one_line_error(result: Result, *needles: str) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("错误："), result.stderr
    for needle in needles:
        assert needle in lines[0]


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} if folder.exists() else set()


# --- basics ---------------------------------------------------------------------------------------


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout == f"anko-writer {__version__}\n"


def test_help_is_english() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("new", "check", "month", "season", "verify"):
        assert command in result.stdout


def test_check_ok(camp: Path) -> None:
    result = invoke("check", camp)
    assert result.exit_code == 0
    assert result.stdout == f"通过：{camp}（fake: 雷希特）\n"


def test_check_never_prints_the_seed(camp: Path) -> None:
    """Neither the ok line nor the weak-seed warning shows the seed (a screenshot would open every sealed die)."""
    for seed in ("506843264357733541", "1267"):
        camp.write_text(CAMPAIGN.replace("seed: 7", f"seed: {seed}"), encoding="utf-8")
        result = invoke("check", camp)
        assert result.exit_code == 0 and result.stdout == f"通过：{camp}（fake: 雷希特）\n"
        assert seed not in result.stdout + result.stderr
    assert "seed: 种子只有 4 位数字" in result.stderr


def test_check_bad_value_is_one_located_line(camp: Path) -> None:
    camp.write_text(CAMPAIGN.replace("position: FW", "position: ST"), encoding="utf-8")
    result = invoke("check", camp)
    assert_one_line_error(result, f"{camp}:7:15:", "players[0].position", "应为以下之一：FW、MF、DF、GK", "'ST'")


def test_missing_ruleset_key(camp: Path) -> None:
    camp.write_text(CAMPAIGN.replace("ruleset: fake\n", ""), encoding="utf-8")
    assert_one_line_error(invoke("check", camp), "ruleset", "missing")


def test_unknown_ruleset(camp: Path) -> None:
    camp.write_text(CAMPAIGN.replace("ruleset: fake", "ruleset: chess"), encoding="utf-8")
    assert_one_line_error(invoke("check", camp), f"{camp}:2:10:", "'chess'", "fake")


def test_missing_file_and_bad_yaml(tmp_path: Path) -> None:
    assert_one_line_error(invoke("check", tmp_path / "nope.yaml"), "nope.yaml", "找不到文件")
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: fake\nseed: [1\n", encoding="utf-8")
    assert_one_line_error(invoke("check", bad), "bad.yaml:")


def test_real_entry_point_prints_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "anko_writer", "check", str(tmp_path / "missing.yaml")],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 1
    assert proc.stdout == "" and proc.stderr.count("\n") == 1 and proc.stderr.startswith("错误：")


# --- month and season -----------------------------------------------------------------------------


def test_month_writes_chapter_and_json(camp: Path) -> None:
    result = invoke("month", camp, "--season", "1", "--month", "2")
    assert result.exit_code == 0, result.output
    out = camp.parent / "out"
    assert files_under(out) == {"s01/m02.md", "s01/m02.json", "manifest.json"}
    assert result.stdout.splitlines() == [f"已写入 {out / 's01/m02.json'}", f"已写入 {out / 's01/m02.md'}"]
    md = (out / "s01/m02.md").read_text(encoding="utf-8")
    assert md.startswith("# 第一赛季 · 第二月　雷希特\n") and "〔揭晓｜编号 s1/m1#2｜1D100＝" in md
    data = json.loads((out / "s01/m02.json").read_text(encoding="utf-8"))
    assert (data["season"], data["month"]) == (1, 2) and "seed" not in data


def test_month_is_reproducible_and_unchanged_files_are_not_rewritten(camp: Path) -> None:
    assert invoke("month", camp, "--season", "1", "--month", "1").exit_code == 0
    before = (camp.parent / "out/s01/m01.md").read_bytes()
    again = invoke("month", camp, "--season", "1", "--month", "1")
    assert again.exit_code == 0 and again.stdout.startswith("未改动：") and "的 2 个文件" in again.stdout
    assert (camp.parent / "out/s01/m01.md").read_bytes() == before


def test_season_writes_every_chapter_and_index_then_verifies(camp: Path) -> None:
    result = invoke("season", camp, "--season", "1")
    assert result.exit_code == 0, result.output
    out = camp.parent / "out"
    expected = {f"s01/m0{m}.{ext}" for m in (1, 2, 3) for ext in ("md", "json")} | {"s01/index.md", "manifest.json"}
    assert files_under(out) == expected
    assert len(result.stdout.splitlines()) == 7
    assert (out / "s01/index.md").read_text(encoding="utf-8") == "# 第一赛季总结\n\n共三月。\n"
    assert "「1D100＝？？？」〔封存｜编号 s1/m1#2｜" in (out / "s01/m01.md").read_text(encoding="utf-8")
    verified = invoke("verify", out)
    assert verified.exit_code == 0, verified.output
    assert verified.stdout == "核对了 1 次揭晓；0 项仍在封存\n"


def test_verify_catches_a_changed_reveal(camp: Path) -> None:
    assert invoke("season", camp, "--season", "1").exit_code == 0
    m02 = camp.parent / "out/s01/m02.md"
    text = m02.read_text(encoding="utf-8")
    start = text.index("〔揭晓")
    value = text[start:].split("＝")[1].split("｜")[0]
    m02.write_text(text.replace(f"＝{value}｜", f"＝{int(value) % 100 + 1}｜"), encoding="utf-8")
    result = invoke("verify", camp.parent / "out")
    assert result.exit_code == 1
    assert "的揭晓与" in result.stdout and "的承诺不符" in result.stdout


def test_verify_missing_dir(tmp_path: Path) -> None:
    assert_one_line_error(invoke("verify", tmp_path / "nothing"), "不是文件夹")


def test_bad_campaign_writes_nothing(camp: Path) -> None:
    camp.write_text(CAMPAIGN.replace("seed: 7", "seed: seven"), encoding="utf-8")
    for args in (("month", camp, "--season", "1", "--month", "1"), ("season", camp, "--season", "1")):
        assert_one_line_error(invoke(*args), "seed", "应为整数")
    assert not (camp.parent / "out").exists()


def test_template_error_writes_nothing(camp: Path) -> None:
    (camp.parent / "templates/fake/index.md.j2").write_text("{{ no_such_thing }}\n", encoding="utf-8")
    assert_one_line_error(invoke("season", camp, "--season", "1"), "index.md.j2:1", "no_such_thing")
    assert not (camp.parent / "out").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [(("--season", "0", "--month", "1"), "--season: 应为 1–99，实际是 0"),
     (("--season", "1", "--month", "4"), "--month: 应为 1–3，实际是 4"),
     (("--season", "1", "--month", "0"), "--month: 应为 1–3，实际是 0")],
)
def test_month_range(camp: Path, args: tuple[str, ...], needle: str) -> None:
    assert_one_line_error(invoke("month", camp, *args), needle)
    assert not (camp.parent / "out").exists()


def test_hand_edit_protection(camp: Path) -> None:
    assert invoke("season", camp, "--season", "1").exit_code == 0
    m01 = camp.parent / "out/s01/m01.md"
    m01.write_text(m01.read_text(encoding="utf-8") + "主持人的补充。\n", encoding="utf-8")
    edited = m01.read_bytes()
    camp.write_text(CAMPAIGN.replace("title: 雷希特", "title: 新雷希特"), encoding="utf-8")
    result = invoke("season", camp, "--season", "1")
    assert_one_line_error(result, "m01.md", "被手工改过", "--force")
    assert m01.read_bytes() == edited
    assert "新雷希特" not in (camp.parent / "out/s01/m02.md").read_text(encoding="utf-8")
    forced = invoke("season", camp, "--season", "1", "--force")
    assert forced.exit_code == 0
    assert "新雷希特" in m01.read_text(encoding="utf-8") and "主持人的补充" not in m01.read_text(encoding="utf-8")


# --- output folder --------------------------------------------------------------------------------


def test_output_key_is_relative_to_campaign(camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    camp.write_text(CAMPAIGN + "output: posts/fake\n", encoding="utf-8")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert invoke("month", camp, "--season", "1", "--month", "1").exit_code == 0
    assert files_under(camp.parent / "posts/fake") == {"s01/m01.md", "s01/m01.json", "manifest.json"}
    assert not (camp.parent / "out").exists() and files_under(elsewhere) == set()


def test_out_option_wins(camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    camp.write_text(CAMPAIGN + "output: posts\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = invoke("month", camp, "--season", "1", "--month", "3", "--out", "elsewhere")
    assert result.exit_code == 0, result.output
    assert files_under(tmp_path / "elsewhere") == {"s01/m03.md", "s01/m03.json", "manifest.json"}
    assert result.stdout.splitlines()[0] == "已写入 elsewhere/s01/m03.json"
    assert not (tmp_path / "posts").exists()


# --- new ------------------------------------------------------------------------------------------


def test_new_writes_campaign_and_chapter0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    builtin = tmp_path / "pkg"
    write_templates(builtin)
    monkeypatch.setattr(resources, "builtin_dir", lambda kind: builtin / kind)
    target = tmp_path / "mine"
    result = invoke("new", target, "--city", "雷希特", "--seed", "11", "--ruleset", "fake")
    assert result.exit_code == 0, result.output
    assert files_under(target) == {"club.yaml", "club-chapter0.md"}
    assert (target / "club-chapter0.md").read_text(encoding="utf-8").startswith("# 第零赛季 · 第零月　雷希特\n")
    assert invoke("check", target / "club.yaml").stdout == f"通过：{target / 'club.yaml'}（fake: 雷希特）\n"
    (target / "club.yaml").write_text("# 主持人改过\n" + CAMPAIGN, encoding="utf-8")
    again = invoke("new", target, "--city", "雷希特", "--seed", "11", "--ruleset", "fake")
    assert_one_line_error(again, "club.yaml", "已存在", "--force")
    assert (target / "club.yaml").read_text(encoding="utf-8").startswith("# 主持人改过")
    forced = invoke("new", target, "--city", "雷希特", "--seed", "11", "--ruleset", "fake", "--force")
    assert forced.exit_code == 0 and (target / "club.yaml").read_text(encoding="utf-8").startswith("# 新俱乐部")


def test_new_unknown_ruleset(tmp_path: Path) -> None:
    assert_one_line_error(invoke("new", tmp_path / "x", "--city", "雷希特", "--seed", "1", "--ruleset", "chess"), "chess")
    assert not (tmp_path / "x").exists()


def test_rulesets_lists_each_sealable_kind_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rulesets`` names the chapter words in Chinese and every roll kind ``options.sealed`` may name, with what
    it seals and whether it is sealed when the key is left out."""
    kinds = {"injury": "伤病的应对骰", "toss": "掷币"}
    monkeypatch.setattr(FakeRuleset, "sealable", property(lambda self: kinds))
    monkeypatch.setattr(FakeRuleset, "sealed_by_default", property(lambda self: ("toss",)))
    result = invoke("rulesets")
    assert result.exit_code == 0, result.output
    assert result.stdout == ("fake\n  章节：--arc 是赛季（season），--part 是月（month）；s01/m01.md …\n"
                             "  new --option city=…  home city（必填）\n"
                             "  options.sealed 可写 injury：伤病的应对骰\n"
                             "  options.sealed 可写 toss：掷币（不写这个键时封存）\n")


BUILT_IN_RULESETS = ["ball", "bloodbowl", "engage", "purasbar", "sanguo"]


@pytest.mark.parametrize("name", BUILT_IN_RULESETS)
def test_each_built_in_rulesets_new_options_are_explained_in_chinese(name: str) -> None:
    """Issue 28: the help ``rulesets`` prints for each ``new --option`` is Chinese (option names and values such as
    ``ATK`` or ``rosters.yaml`` stay as they are written), with full-width punctuation next to Chinese text."""
    options = importlib.import_module(f"anko_writer.rulesets.{name}.ruleset").INFO.new_options
    assert options
    for option in options:
        assert re.search(r"[\u4e00-\u9fff]", option.help), option
        assert not re.search(r"[\u4e00-\u9fff][,;:?!()]|[,;:?!()][\u4e00-\u9fff]", option.help), option
        assert not re.search(r"\b(the|of|our|a|an|or|on|from)\b [a-z]", option.help), option
