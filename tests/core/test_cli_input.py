"""The command line's handling of bad input: usage errors, out-of-range numbers, paths and links.

Usage errors are one ``error:`` line with exit status 2; bad input is one ``error:`` line with exit
status 1, found before anything is simulated or written.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from anko_writer import __version__, cli, resources
from anko_writer import ruleset as ruleset_mod
from anko_writer.errors import InputError
from anko_writer.resources import Resources
from anko_writer.schema import Field, Int, Map, Str
from tests.core.test_cli import CAMPAIGN, FakeRuleset, files_under, write_templates

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
PLAYED: list[int] = []


class CountingRuleset(FakeRuleset):
    """The CLI tests' fake ruleset, counting every simulated season (none may run on bad input)."""

    def play(self, campaign: Any, until: Any, resources: Any, start: Any = None) -> Any:
        PLAYED.append(until.arc)
        return super().play(campaign, until, resources, start)


class OptionsRuleset(CountingRuleset):
    """A fake ruleset whose campaigns name their output folder under ``options:``."""

    name = "fake-options"

    def campaign_schema(self, resources: Any) -> Map:
        return Map({"ruleset": Field(Str()), "seed": Field(Int()), "title": Field(Str()),
                    "options": Field(Map({"output": Field(Str(), required=False)}), default={})})


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    PLAYED.clear()
    monkeypatch.setattr(ruleset_mod, "_REGISTRY", {"fake": CountingRuleset(), "fake-options": OptionsRuleset()})


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """A valid campaign in ``tmp_path/camp/`` (so ``tmp_path`` is outside the campaign folder)."""
    folder = tmp_path / "camp"
    write_templates(folder)
    path = folder / "campaign.yaml"
    path.write_text(CAMPAIGN, encoding="utf-8")
    return path


def invoke(*args: str | Path) -> Result:
    return runner.invoke(cli.app, [str(a) for a in args])


def one_line(result: Result, code: int) -> str:
    """The single stderr line of a failed run (nothing on stdout), after checking the exit status."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.endswith("\n"), result.stderr
    return result.stderr[:-1]


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """Call ``cli.main()`` (the console entry point) with ``sys.argv`` set; its exit status and output."""
    monkeypatch.setattr(sys, "argv", ["anko-writer", *map(str, args)])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    out, err = capsys.readouterr()
    code = stop.value.code
    return (code if isinstance(code, int) else 0 if code is None else 1), out, err


# --- usage errors: one line, exit 2 -------------------------------------------------------------


def test_subprocess_missing_option_is_one_line_exit_2(camp: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "anko_writer", "month", str(camp), "--season", "1"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "错误：缺少选项 '--month'（见 'python -m anko_writer month --help'）\n"


def test_subprocess_unknown_command_is_one_line_exit_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "anko_writer", "frobnicate"], capture_output=True, text=True, cwd=ROOT)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "错误：没有命令 'frobnicate'（见 'python -m anko_writer --help'）\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [(("season", "{camp}"), "错误：缺少选项 '--season'（见 'anko-writer season --help'）"),
     (("month",), "错误：缺少参数 'CAMPAIGN'（见 'anko-writer month --help'）"),
     (("season", "{camp}", "--season"), "错误：选项 '--season' 后面缺少它的值（见 'anko-writer season --help'）"),
     (("month", "{camp}", "--seson", "1", "--month", "1"),
      "错误：没有选项 --seson；是否想用 --season？（见 'anko-writer month --help'）"),
     (("seasn",), "错误：没有命令 'seasn'；是否想用 'season'？（见 'anko-writer --help'）"),
     (("--bogus",), "错误：没有选项 --bogus（见 'anko-writer --help'）"),
     (("season", "{camp}", "--season", "1", "extra"),
      "错误：多余的参数（extra）（见 'anko-writer season --help'）")],
)
def test_usage_errors_are_one_line_exit_2(camp: Path, args: tuple[str, ...], message: str) -> None:
    result = invoke(*(a.format(camp=camp) for a in args))
    assert one_line(result, 2) == message
    assert PLAYED == [] and not (camp.parent / "out").exists()


def test_non_integer_season_is_a_usage_error(camp: Path) -> None:
    line = one_line(invoke("season", camp, "--season", "x"), 2)
    assert line.startswith("错误：'--season' 的值无效：")
    assert line.endswith("（见 'anko-writer season --help'）")
    assert PLAYED == [] and not (camp.parent / "out").exists()


def test_main_reports_usage_errors_in_one_line(camp: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, "month", camp, "--season", "two", "--month", "1")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("错误：'--season' 的值无效：")
    assert err.endswith(" month --help'）\n")


def test_main_help_and_version_exit_0(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(monkeypatch, capsys, "--version") == (0, f"anko-writer {__version__}\n", "")
    code, out, err = run_main(monkeypatch, capsys, "--help")
    assert (code, err) == (0, "") and "season" in out and "verify" in out
    code, out, err = run_main(monkeypatch, capsys, "season", "--help")
    assert (code, err) == (0, "") and "--season" in out and "--force" in out


def test_main_bad_input_still_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.yaml"
    assert run_main(monkeypatch, capsys, "check", missing) == (1, "", f"错误：{missing}: 找不到文件\n")


def test_bare_command_prints_help() -> None:
    result = invoke()
    assert result.exit_code == 2
    assert "用法：anko-writer" in result.output and "season" in result.output
    assert "error" not in result.output.lower()


# --- --season / --month out of range: one line, exit 1, nothing simulated or written ---------------


@pytest.mark.parametrize(
    ("args", "message"),
    [(("season", "--season", "0"), "错误：--season: 应为 1–99，实际是 0"),
     (("season", "--season", "-1"), "错误：--season: 应为 1–99，实际是 -1"),
     (("season", "--season=-7"), "错误：--season: 应为 1–99，实际是 -7"),
     (("season", "--season", "100"), "错误：--season: 应为 1–99，实际是 100"),
     (("month", "--season", "0", "--month", "1"), "错误：--season: 应为 1–99，实际是 0"),
     (("month", "--season", "-1", "--month", "1"), "错误：--season: 应为 1–99，实际是 -1"),
     (("month", "--season", "100", "--month", "1"), "错误：--season: 应为 1–99，实际是 100"),
     (("month", "--season", "1", "--month", "0"), "错误：--month: 应为 1–3，实际是 0"),
     (("month", "--season", "1", "--month", "-2"), "错误：--month: 应为 1–3，实际是 -2"),
     (("month", "--season", "1", "--month", "13"), "错误：--month: 应为 1–3，实际是 13")],
)
def test_out_of_range_is_refused_before_simulating(camp: Path, args: tuple[str, ...], message: str) -> None:
    command, *options = args
    assert one_line(invoke(command, camp, *options), 1) == message
    assert PLAYED == []
    assert not (camp.parent / "out").exists()


def test_range_edges_are_accepted(camp: Path) -> None:
    assert invoke("month", camp, "--season", "99", "--month", "3").exit_code == 0
    assert files_under(camp.parent / "out") == {"s99/m03.md", "s99/m03.json", "manifest.json"}


def test_month_range_follows_the_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from anko_writer.rulesets.purasbar import RULESET
    from tests.util import campaign_file

    monkeypatch.setitem(ruleset_mod._REGISTRY, "purasbar", RULESET)
    path = campaign_file(tmp_path)
    monkeypatch.setattr(RULESET.__class__, "play_season", lambda *a, **k: PLAYED.append(0))
    assert one_line(invoke("month", path, "--season", "1", "--month", "13"), 1) == "错误：--month: 应为 1–12，实际是 13"
    assert one_line(invoke("month", path, "--season", "1", "--month", "0"), 1) == "错误：--month: 应为 1–12，实际是 0"
    assert PLAYED == [] and not (tmp_path / "out").exists()


# --- output: must stay inside the campaign folder unless --out says otherwise ---------------------


def _with_output(camp: Path, value: str) -> int:
    """Add ``output: value`` to the campaign; the line it is on."""
    camp.write_text(CAMPAIGN + f"output: {value}\n", encoding="utf-8")
    return CAMPAIGN.count("\n") + 1


@pytest.mark.parametrize("command", [("month", "--season", "1", "--month", "1"), ("season", "--season", "1")])
def test_output_outside_the_campaign_folder_is_refused(camp: Path, tmp_path: Path, command: tuple[str, ...]) -> None:
    line = _with_output(camp, "../elsewhere")
    assert one_line(invoke(command[0], camp, *command[1:]), 1) == (
        f"错误：{camp}:{line}:9: output: '../elsewhere' 指向战役文件夹之外；"
        "要写到那里，请用 --out 指定")
    assert PLAYED == []
    assert not (tmp_path / "elsewhere").exists() and not (camp.parent / "out").exists()


def test_absolute_output_is_refused(camp: Path, tmp_path: Path) -> None:
    target = tmp_path / "abs"
    line = _with_output(camp, str(target))
    assert one_line(invoke("season", camp, "--season", "1"), 1) == (
        f"错误：{camp}:{line}:9: output: '{target}' 指向战役文件夹之外；要写到那里，请用 --out 指定")
    assert not target.exists()


def test_output_through_a_symlink_out_is_refused(camp: Path, tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (camp.parent / "posts").symlink_to(tmp_path / "outside", target_is_directory=True)
    line = _with_output(camp, "posts/fake")
    assert one_line(invoke("season", camp, "--season", "1"), 1) == (
        f"错误：{camp}:{line}:9: output: 'posts/fake' 指向战役文件夹之外；要写到那里，请用 --out 指定")
    assert files_under(tmp_path / "outside") == set()


def test_default_out_symlinked_outside_is_refused(camp: Path, tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (camp.parent / "out").symlink_to(tmp_path / "outside", target_is_directory=True)
    assert one_line(invoke("season", camp, "--season", "1"), 1) == (
        f"错误：{camp}: 默认的输出文件夹 {camp.parent / 'out'} 是指向战役文件夹之外的链接；"
        "要写到那里，请用 --out 指定")
    assert files_under(tmp_path / "outside") == set()


def test_out_option_may_point_anywhere(camp: Path, tmp_path: Path) -> None:
    _with_output(camp, "../elsewhere")
    result = invoke("month", camp, "--season", "1", "--month", "2", "--out", camp.parent / ".." / "elsewhere")
    assert result.exit_code == 0, result.output
    assert files_under(tmp_path / "elsewhere") == {"s01/m02.md", "s01/m02.json", "manifest.json"}


def test_output_inside_after_dotdot_is_accepted(camp: Path) -> None:
    _with_output(camp, "posts/../published")
    assert invoke("month", camp, "--season", "1", "--month", "1").exit_code == 0
    assert files_under(camp.parent / "published") == {"s01/m01.md", "s01/m01.json", "manifest.json"}


def test_check_accepts_an_outside_output(camp: Path) -> None:
    """``check`` validates the file; where chapters go depends on ``--out`` of the writing command."""
    _with_output(camp, "../elsewhere")
    assert invoke("check", camp).exit_code == 0


def test_options_output_is_located_at_its_own_key(tmp_path: Path) -> None:
    write_templates(tmp_path / "camp")
    camp = tmp_path / "camp" / "c.yaml"
    camp.write_text("ruleset: fake-options\nseed: 1\ntitle: x\noptions:\n  output: /tmp/x\n", encoding="utf-8")
    from anko_writer.campaign import load_campaign

    with pytest.raises(InputError) as err:
        load_campaign(camp).output_dir()
    assert str(err.value) == (f"{camp}:5:11: options.output: '/tmp/x' 指向战役文件夹之外；"
                              "要写到那里，请用 --out 指定")


# --- symlinks in a campaign's override folders ----------------------------------------------------


def test_symlinked_template_out_of_the_folder_is_refused(camp: Path, tmp_path: Path) -> None:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "key.txt").write_text("top secret\n", encoding="utf-8")
    folder = camp.parent / "templates" / "fake"
    link = folder / "chapter.md.j2"
    link.unlink()
    link.symlink_to(tmp_path / "secret" / "key.txt")
    line = one_line(invoke("month", camp, "--season", "1", "--month", "1"), 1)
    assert line == (f"错误：{link}: 符号链接指向 {tmp_path / 'secret' / 'key.txt'}，在 {folder} 之外；"
                    "战役的覆盖文件必须在它的覆盖文件夹里")
    assert not (camp.parent / "out").exists()


def test_symlinked_override_folder_is_refused(camp: Path, tmp_path: Path) -> None:
    folder = camp.parent / "templates" / "fake"
    folder.rename(tmp_path / "shared")
    folder.symlink_to(tmp_path / "shared", target_is_directory=True)
    line = one_line(invoke("season", camp, "--season", "1"), 1)
    assert line == (f"错误：{folder}: 符号链接指向 {tmp_path / 'shared'}，在战役文件夹 {camp.parent} 之外；"
                    "覆盖用的文件夹必须在它的战役文件夹里")
    assert not (camp.parent / "out").exists()


def test_symlink_inside_the_override_folder_is_fine(camp: Path) -> None:
    folder = camp.parent / "templates" / "fake"
    (folder / "real.md.j2").write_text((folder / "chapter.md.j2").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "chapter.md.j2").unlink()
    (folder / "chapter.md.j2").symlink_to("real.md.j2")
    assert invoke("month", camp, "--season", "1", "--month", "1").exit_code == 0


def test_symlinked_table_is_refused_and_builtin_links_are_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "elsewhere.yaml").write_text("a: 1\n", encoding="utf-8")
    tables = tmp_path / "camp" / "tables" / "fake"
    tables.mkdir(parents=True)
    (tables / "t.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(InputError, match=r"t\.yaml: 符号链接指向 .*elsewhere\.yaml，在 .*tables/fake 之外"):
        Resources("fake", tmp_path / "camp").table_path("t.yaml")
    builtin = tmp_path / "pkg"
    (builtin / "tables" / "fake").mkdir(parents=True)
    (builtin / "tables" / "fake" / "b.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    monkeypatch.setattr(resources, "builtin_dir", lambda kind: builtin / kind)
    assert Resources("fake", None).table_path("b.yaml") == builtin / "tables" / "fake" / "b.yaml"


def test_symlink_loop_in_override_folder_is_one_error(camp: Path) -> None:
    folder = camp.parent / "templates" / "fake"
    os.symlink(folder / "b", folder / "a")
    os.symlink(folder / "a", folder / "b")
    line = one_line(invoke("month", camp, "--season", "1", "--month", "1"), 1)
    assert line.startswith(f"错误：{folder / 'a'}: 无法跟随符号链接：")


# --- files read and unexpected errors -------------------------------------------------------------


def test_gbk_state_file_is_a_located_error(camp: Path) -> None:
    state = camp.parent / "out" / "s01" / "state-end.yaml"
    state.parent.mkdir(parents=True)
    data = "season: 1\nclub: 雷希特\n".encode("gbk")
    state.write_bytes(data)
    assert one_line(invoke("season", camp, "--season", "2"), 1) == (
        f"错误：{state}: 不是 UTF-8 文本（第 2 行的字节 0x{'雷'.encode('gbk')[0]:02x}）")
    assert PLAYED == []
    assert files_under(camp.parent / "out") == {"s01/state-end.yaml"}


def test_unexpected_unicode_and_os_errors_are_one_line(camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def bad_text(path: Any) -> Any:
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    monkeypatch.setattr("anko_writer.campaign.load_campaign", bad_text)
    assert one_line(invoke("check", camp), 1) == (
        "错误：文本编码错误：'utf-8' codec can't decode byte 0xff in position 0: invalid start byte")

    def denied(path: Any) -> Any:
        raise PermissionError(13, "Permission denied", "/srv/x.yaml")

    monkeypatch.setattr("anko_writer.campaign.load_campaign", denied)
    assert one_line(invoke("check", camp), 1) == "错误：/srv/x.yaml: Permission denied"


def test_os_error_outside_a_command_block_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify`` prints its report after its error block: an OSError there is still one line."""
    def broken(report: Any) -> str:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("anko_writer.hidden.format_report", broken)
    assert one_line(invoke("verify", tmp_path), 1) == "错误：Input/output error"
