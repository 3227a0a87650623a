"""Seasons that follow (issue 5): state-end.yaml, starting from it, editing it, and the chain in memory."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.campaign import load_campaign
from anko_writer.cli import app
from anko_writer.rulesets.purasbar import RULESET
from tests.util import RES, render_ctx

runner = CliRunner()


def _season(camp: Path, out: Path, season: int, *extra: str):  # noqa: ANN202
    return runner.invoke(app, ["season", str(camp), "--season", str(season), "--out", str(out), *extra])


def _files(out: Path, season: int) -> dict[str, bytes]:
    d = out / f"s{season:02d}"
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def two(season_245_cli: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Seasons 1 and 2 written one after the other (season 2 starts from s01/state-end.yaml). Season 1 is
    ``conftest.season_245_cli`` (the same CLI run test_e2e reads), copied here before season 2 is added."""
    camp, first = season_245_cli
    out = tmp_path_factory.mktemp("seasons") / "out"
    shutil.copytree(first, out, symlinks=True)
    res = _season(camp, out, 2)
    assert res.exit_code == 0, res.output
    return camp, out


def test_each_season_writes_its_state_file(two: tuple[Path, Path]) -> None:
    _, out = two
    for s in (1, 2):
        text = (out / f"s{s:02d}" / "state-end.yaml").read_text(encoding="utf-8")
        assert text.startswith(f"# 第 {s} 赛季结束时的存档") and f"\nseason: {s}\n" in text


def test_state_file_round_trips_through_its_schema(two: tuple[Path, Path], state_245: tuple[str, dict]) -> None:
    _, out = two
    path = out / "s01" / "state-end.yaml"
    text, state = state_245  # RULESET.load_state of this very text, parsed once per session
    assert path.read_text(encoding="utf-8") == text
    assert state["season"] == 1 and state["ending"] == "none"
    assert len(state["league"]) == 23 and all(11 <= len(c["players"]) <= 33 for c in state["league"])
    names = {p["name"] for p in state["players"]}
    assert len(names) == len(state["players"])


def test_season_two_from_the_file_equals_season_two_from_memory(two: tuple[Path, Path], tmp_path: Path) -> None:
    camp, out = two
    fresh = tmp_path / "fresh"
    res = _season(camp, fresh, 2)  # no s01/state-end.yaml here: season 1 is played in memory
    assert res.exit_code == 0, res.output
    assert _files(fresh, 2) == _files(out, 2)


def test_an_edited_state_file_is_where_the_next_season_starts(two: tuple[Path, Path], tmp_path: Path) -> None:
    camp, out = two
    copy = tmp_path / "out"
    shutil.copytree(out / "s01", copy / "s01")
    state = copy / "s01" / "state-end.yaml"
    text = state.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.startswith("  - {name: "))
    old = first.split("name: ", 1)[1].split(",", 1)[0]
    state.write_text(text.replace(f"name: {old},", "name: 新名字测试,", 1), encoding="utf-8")
    res = _season(camp, copy, 2, "--force")
    assert res.exit_code == 0, res.output
    chapters = "".join(p.read_text(encoding="utf-8") for p in sorted((copy / "s02").glob("m*.md")))
    assert "新名字测试" in chapters and f"{old}" not in chapters.replace("新名字测试", "")


def test_a_broken_state_file_is_one_located_error_and_writes_nothing(two: tuple[Path, Path], tmp_path: Path) -> None:
    camp, out = two
    copy = tmp_path / "out"
    shutil.copytree(out / "s01", copy / "s01")
    state = copy / "s01" / "state-end.yaml"
    lines = state.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("  - {name: "))
    lines[n] = lines[n].replace("position: ", "position: ST, was: ", 1)
    state.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = _season(camp, copy, 2)
    assert res.exit_code == 1
    assert f"state-end.yaml:{n + 1}:" in res.output and "players[0]" in res.output
    assert "Traceback" not in res.output
    assert not (copy / "s02").exists()


@pytest.fixture(scope="module")
def three_out(three: tuple[Path, int]) -> Path:
    """The output folder of the built-in campaign's three seasons (``conftest.three``)."""
    return three[0]


def test_three_seasons_read_in_order_and_verify(three_out: Path) -> None:
    from anko_writer.hidden import verify_dir
    for s in (1, 2, 3):
        d = three_out / f"s{s:02d}"
        for m in range(1, 13):
            head = (d / f"m{m:02d}.md").read_text(encoding="utf-8").splitlines()[0]
            assert head.startswith(f"# 第{'一二三'[s - 1]}赛季 · 第")
        end = (d / "end.md").read_text(encoding="utf-8")
        assert end.startswith(f"# 第{'一二三'[s - 1]}赛季 · 赛季结算")
        steps = ["一、联赛最终排名", "二、奖金发放", "三、球迷基数更新", "四、声望更新", "五、士气结转", "六、年龄增长与衰减",
                 "七、成就检查", "八、合同续约", "九、设施维护费扣除", "十、职员薪水支付", "十一、经营深度重置", "十二、新赛季准备"]
        pos = [end.index(f"## {t}") for t in steps]
        assert pos == sorted(pos)  # §4.4's twelve steps, in order
    report = verify_dir(three_out)
    assert report.ok, report.problems


def test_our_money_runs_on_from_month_to_month_and_season_to_season(three_out: Path) -> None:
    """Every month's cash-flow lines sum to the change in funds, and each month opens where the last closed,
    across the settlement and into the next season (the state file's funds)."""
    from anko_writer.yamlio import FastPathError, load_plain_fast, load_yaml
    from tests.purasbar.published import record
    closing = None
    for s in (1, 2, 3):
        d = three_out / f"s{s:02d}"
        months = [record(d / f"m{m:02d}.json") for m in range(1, 13)]
        for m in range(1, 13):
            cash = months[m - 1]["life"]["money"]["cashflow"]
            assert cash["closing"] == cash["opening"] + sum(e["amount"] for e in cash["lines"])
            if closing is not None and m > 1:
                assert cash["opening"] == closing
            closing = cash["closing"]
        end = record(d / "end.json")["settlement"]["season_money"]
        try:  # libyaml's plain reading of the state file (ruamel.yaml's took 1 s of each season here)
            state = load_plain_fast((d / "state-end.yaml").read_text(encoding="utf-8"))
        except FastPathError:
            state = load_yaml(d / "state-end.yaml")
        assert end["balance"] == state["club"]["funds"]
        for m in range(1, 13):  # no club ever holds more than 33 players (000 §3.2)
            clubs = months[m - 1]["clubs"]
            assert all(len(c["players"]) <= 33 for c in clubs)
        assert all(11 <= len(c["players"]) <= 33 for c in state["league"])


@pytest.mark.parametrize("ending", ["owner_retired", "bankruptcy"])
def test_an_ending_makes_the_settlement_the_final_chapter(two: tuple[Path, Path], season_245, ending: str) -> None:  # noqa: ANN001
    """§4.4 step 12: the story's end is told in the settlement, with no vote; no season follows it."""
    import copy

    from anko_writer.render import find_problems
    _, out = two
    end = season_245[1].chapters[-1]  # s01/end.json's chapter: templates render its results (the JSON is compact)
    assert end.name == "end"
    results = copy.deepcopy(end.results)
    results["ended"] = True
    results["settlement"]["next"]["ending"] = ending
    md = render_ctx(RES, "settlement.md.j2", {**results, "results": results, "seed": 1, "campaign": {}})
    assert md.startswith("# 第一赛季 · 赛季结算　终章") and "## 终章" in md and "夏窗" not in md
    assert find_problems(md) == []
    state = RULESET.load_state((out / "s01" / "state-end.yaml").read_text(encoding="utf-8").replace(
        "ending: none", f"ending: {ending}"), "state-end.yaml", RES)
    from anko_writer.errors import AnkoError
    with pytest.raises(AnkoError, match="故事在第 1 赛季之后结束了"):
        RULESET.play_season(load_campaign(season_245[0]), 2, 12, RES, start=(1, state))
