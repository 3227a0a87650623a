"""The real 群英杯 ruleset through the command line: the issue's "done when" end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from tests.util import campaign_file

runner = CliRunner()


def _season(camp: Path, out: Path, *extra: str):  # noqa: ANN202
    return runner.invoke(app, ["season", str(camp), "--season", "1", "--out", str(out), *extra])


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def first(season_245_cli: tuple[Path, Path]) -> tuple[Path, Path]:
    """The seed-245 campaign's season 1 through the CLI (``conftest.season_245_cli``, shared: read only)."""
    return season_245_cli


def test_season_writes_months_1_to_12_with_json(first: tuple[Path, Path]) -> None:
    _, out = first
    names = sorted(p.name for p in (out / "s01").iterdir())
    assert [f"m{m:02d}.md" for m in range(1, 13)] == [n for n in names if n.startswith("m") and n.endswith(".md")]
    assert [f"m{m:02d}.json" for m in range(1, 13)] == [n for n in names if n.startswith("m") and n.endswith(".json")]
    assert {"index.md", "end.md", "end.json", "state-end.yaml"} <= set(names)


def test_two_runs_are_byte_identical(first: tuple[Path, Path], tmp_path: Path) -> None:
    camp, out = first
    again = tmp_path / "again"
    assert _season(camp, again).exit_code == 0
    assert _files(out) == _files(again)


def test_vote_in_month_five_leaves_months_one_to_four_identical(first: tuple[Path, Path], tmp_path: Path) -> None:
    _, out = first
    camp2 = campaign_file(tmp_path, extra="decisions:\n  s1m5: {formation: 3 5 2}\n")
    out2 = tmp_path / "out"
    assert _season(camp2, out2).exit_code == 0
    a, b = _files(out), _files(out2)
    for m in range(1, 5):
        for ext in ("md", "json"):
            assert a[f"s01/m{m:02d}.{ext}"] == b[f"s01/m{m:02d}.{ext}"]
    assert a["s01/m05.md"] != b["s01/m05.md"]
    assert "3 5 2" in b["s01/m05.md"].decode()


@pytest.mark.parametrize("month", [3, 12])
def test_month_command_matches_season_output(first: tuple[Path, Path], tmp_path: Path, month: int) -> None:
    """`month` alone writes the same bytes as `season` for that month (12: the 群英杯), and nothing else."""
    camp, out = first
    one = tmp_path / "one"
    res = runner.invoke(app, ["month", str(camp), "--season", "1", "--month", str(month), "--out", str(one)])
    assert res.exit_code == 0, res.output
    for ext in ("md", "json"):
        rel = f"s01/m{month:02d}.{ext}"
        assert (one / rel).read_bytes() == (out / rel).read_bytes()
    assert not (one / f"s01/m{month - 1:02d}.md").exists()


def test_hand_edited_chapter_is_not_overwritten(tmp_path: Path) -> None:
    camp = campaign_file(tmp_path)
    out = tmp_path / "out"
    assert runner.invoke(app, ["month", str(camp), "--season", "1", "--month", "2", "--out", str(out)]).exit_code == 0
    chapter = out / "s01/m02.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n主持人补充：感谢各位投票！\n", encoding="utf-8")
    edited = chapter.read_bytes()
    res = runner.invoke(app, ["month", str(camp), "--season", "1", "--month", "2", "--out", str(out)])
    assert res.exit_code == 1 and "m02.md" in res.output and "被手工改过" in res.output
    assert chapter.read_bytes() == edited
    res = runner.invoke(app, ["month", str(camp), "--season", "1", "--month", "2", "--out", str(out), "--force"])
    assert res.exit_code == 0 and chapter.read_bytes() != edited


@pytest.mark.parametrize(
    "old,new,needle",
    [
        ("city: 雷希特", "city: 雷希持", "club.city: 应为以下之一："),
        ("position: GK", "position: ST", ".position: 应为以下之一：FW、MF、DF、GK，实际是 'ST'"),
        ("title: ", "title: [", "YAML 语法错误"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, old: str, new: str, needle: str) -> None:
    camp = campaign_file(tmp_path)
    camp.write_text(camp.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    out = tmp_path / "out"
    res = _season(camp, out)
    assert res.exit_code == 1
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"错误：{camp}:") and needle in lines[0]
    assert "Traceback" not in res.output and not out.exists()


def test_table_with_a_gap_in_the_campaign_folder(tmp_path: Path) -> None:
    """A campaign folder's tables override the built-in ones, and a broken one is a located error."""
    camp = campaign_file(tmp_path)
    tables = tmp_path / "tables" / "purasbar"
    tables.mkdir(parents=True)
    src = Path(__file__).resolve().parents[3] / "tables/purasbar/facilities.yaml"
    (tables / "facilities.yaml").write_text(
        src.read_text(encoding="utf-8").replace("range: 31-75", "range: 32-75"), encoding="utf-8")
    out = tmp_path / "out"
    res = _season(camp, out)
    assert res.exit_code == 1 and not out.exists()
    assert f"{tables / 'facilities.yaml'}:" in res.output and "没有一行包含 31" in res.output


def test_campaign_template_override(tmp_path: Path) -> None:
    camp = campaign_file(tmp_path)
    tdir = tmp_path / "templates" / "purasbar"
    tdir.mkdir(parents=True)
    (tdir / "chapter.md.j2").write_text("# 第{{ month | cn_num }}月\n\n{{ club }}本月{{ matches | length }}场。\n",
                                        encoding="utf-8")
    out = tmp_path / "out"
    assert _season(camp, out).exit_code == 0
    assert (out / "s01/m11.md").read_text(encoding="utf-8") == "# 第十一月\n\n雷希特竞技本月36场。\n"
    assert (out / "s01/m12.md").read_text(encoding="utf-8") == "# 第十二月\n\n雷希特竞技本月67场。\n"


def test_new_then_check(tmp_path: Path) -> None:
    res = runner.invoke(app, ["new", str(tmp_path / "c"), "--city", "米尤因", "--seed", "5"])
    assert res.exit_code == 0, res.output
    camp = tmp_path / "c" / "miyuin.yaml"
    assert camp.exists() and (tmp_path / "c" / "miyuin-chapter0.md").exists()
    res = runner.invoke(app, ["check", str(camp)])
    assert res.exit_code == 0 and res.output.startswith("通过：")
    res = runner.invoke(app, ["new", str(tmp_path / "d"), "--city", "火星", "--seed", "5"])
    assert res.exit_code == 1 and "--city: 未知的城市 '火星'（000 §2.1 列出的有：" in res.output
