"""The command line as a host meets it (issue 28): Chinese help with no ``<bool>`` or ``<list[str]>``, ``-`` as a
path refused at once, no shell-completion options, every command without ``fcntl`` (Windows), a GBK console,
``audit`` without its extra, and ``import anko_writer.cli`` loading no heavy library."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from anko_writer.cli import app

ROOT = Path(__file__).resolve().parents[2]
BALL = ROOT / "campaigns" / "ball" / "ball.yaml"


def short_ball(folder: Path) -> Path:
    """The shipped BALL campaign copied into ``folder`` with a 6-turn limit: a whole arc in a second (what these
    tests run is the commands, not the game)."""
    text = BALL.read_text(encoding="utf-8")
    assert "  turn_limit: 40 " in text
    (folder / "ball.yaml").write_text(text.replace("  turn_limit: 40 ", "  turn_limit: 6 ", 1), encoding="utf-8")
    return folder / "ball.yaml"
RECHT = ROOT / "campaigns" / "recht.yaml"
COMMANDS = sorted(get_command(app).commands)  # type: ignore[attr-defined]
CJK = re.compile(r"[\u4e00-\u9fff]")


def _env(**extra: str) -> dict[str, str]:
    """The environment of a child ``python -m anko_writer``: this worktree first, a wide terminal."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", **extra}


def _help(*args: str) -> str:
    """The help page of ``anko-writer ARGS --help``, as a wide terminal shows it."""
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_is_listed() -> None:
    assert COMMANDS == sorted(["check", "month", "season", "chapter", "arc", "verify", "export", "tally", "audit",
                               "new", "rulesets", "replay"])


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_no_type_after_a_flag_or_a_list(command: str) -> None:
    page = _help(*([command] if command else []))
    assert "<bool>" not in page and "<list" not in page, page
    assert "--help" in page and "显示本帮助并退出。" in page
    assert "用法：" in page and "Usage:" not in page


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_says_what_it_does_in_chinese(command: str) -> None:
    summary = get_command(app).commands[command].help  # type: ignore[attr-defined]
    assert summary is not None and CJK.search(summary), summary
    page = _help(command)
    rows = [line for line in page.splitlines() if re.search(r"│\s+\*?\s*--?[a-z]", line)]
    assert rows and all(CJK.search(row) for row in rows), page  # every option and argument is described in Chinese


def test_a_list_option_shows_what_to_write() -> None:
    assert re.search(r"--option\s+NAME=VALUE\s", _help("new"))


def test_the_top_page_lists_every_command_in_chinese() -> None:
    page = _help()
    assert "把 YAML 战役文件写成安科章节" in page
    for command in COMMANDS:
        row = next(line for line in page.splitlines() if re.match(rf"│ {command}\s", line))
        assert CJK.search(row), row


def test_no_shell_completion_is_offered() -> None:
    page = _help()
    assert "--install-completion" not in page and "--show-completion" not in page
    result = CliRunner().invoke(app, ["--install-completion"])
    assert result.exit_code == 2 and "没有选项 --install-completion" in result.output


@pytest.mark.parametrize("args", [
    ("check", "-"),
    ("month", "-", "--season", "1", "--month", "1"),
    ("arc", "-", "--arc", "1"),
    ("verify", "-"),
    ("export", "-", "--forum", "nga"),
    ("tally", str(RECHT), "-", "--chapter", "s1m1"),
    ("new", "-", "--city", "雷希特"),
    ("season", str(RECHT), "--season", "1", "--out", "-"),
])
def test_a_dash_for_standard_input_is_a_usage_error(args: tuple[str, ...], tmp_path: Path) -> None:
    result = CliRunner().invoke(app, list(args), input="")
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0].startswith("错误：") and "「-」（标准输入）不能当路径" in lines[0] and f" {args[0]} --help" in lines[0]
    assert not Path("-").exists()


def test_a_dash_does_not_wait_on_an_open_standard_input() -> None:
    """A child whose stdin stays open: reading it would hang until the timeout."""
    proc = subprocess.Popen([sys.executable, "-m", "anko_writer", "check", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=_env())
    assert proc.stdin is not None and proc.stderr is not None
    try:
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.stdin.close()
    assert code == 2 and "「-」（标准输入）" in proc.stderr.read().decode("utf-8")
    proc.stderr.close()
    assert proc.stdout is not None
    proc.stdout.close()


POSIX_ONLY = ("fcntl", "termios", "pwd", "grp", "resource")
"""Modules Windows has not: no command may need one."""


def _without_posix(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``sitecustomize`` hides :data:`POSIX_ONLY`, as on Windows."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in POSIX_ONLY), encoding="utf-8")
    return _env(PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))


def test_every_command_runs_without_posix_only_modules(tmp_path: Path) -> None:
    env = _without_posix(tmp_path)
    probe = subprocess.run([sys.executable, "-c", "import fcntl"], env=env, capture_output=True, text=True)
    assert probe.returncode == 1 and "ModuleNotFoundError" in probe.stderr  # the hiding works
    out, ball = tmp_path / "out", short_ball(tmp_path)
    runs = [("--version",), ("check", str(ball)), ("arc", str(ball), "--arc", "1", "--out", str(out)),
            ("verify", str(out)), ("export", str(out), "--forum", "nga")]
    for args in runs:
        res = subprocess.run([sys.executable, "-m", "anko_writer", *args], env=env, capture_output=True, text=True,
                             cwd=tmp_path, timeout=300)
        assert res.returncode == 0 and "Traceback" not in res.stderr, (args, res.stderr)
    assert (out / "g01").is_dir() and (out / "export" / "nga").is_dir()


def test_a_gbk_console_prints_a_chinese_error(tmp_path: Path) -> None:
    """A Windows console in GBK: an error naming characters GBK has and one it lacks (✘) is still one line."""
    res = subprocess.run([sys.executable, "-m", "anko_writer", "check", "雷希特✘.yaml"], capture_output=True,
                         cwd=tmp_path, env=_env(PYTHONIOENCODING="gbk"), timeout=120)
    err = res.stderr.decode("gbk")
    assert res.returncode == 1 and "Traceback" not in err and "UnicodeEncodeError" not in err
    assert err.startswith("错误：雷希特") and err.count("\n") == 1 and "找不到文件" in err


def test_a_gbk_console_prints_what_it_cannot_show_as_a_mark(tmp_path: Path) -> None:
    campaign = tmp_path / "ball.yaml"
    text = BALL.read_text(encoding="utf-8")
    campaign.write_text(re.sub(r"(?m)^title: .*$", 'title: "✘ 雷希特"', text, count=1), encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "anko_writer", "check", str(campaign)], capture_output=True,
                         cwd=tmp_path, env=_env(PYTHONIOENCODING="gbk"), timeout=120)
    assert res.returncode == 0, res.stderr.decode("gbk", "replace")
    assert res.stdout.decode("gbk") == f"通过：{campaign}（ball: ? 雷希特）\n"


def _hidden(modules: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """``anko-writer ARGS`` in a child where ``modules`` cannot be imported (an install without the extra)."""
    code = ("import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules)
            + f"sys.argv = ['anko-writer', *{list(args)!r}]\nfrom anko_writer.cli import main\nmain()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=300)


def test_audit_without_its_extra_is_a_one_line_hint(tmp_path: Path) -> None:
    res = _hidden(("matplotlib",), "audit", str(RECHT), "--seasons", "1", "--out", str(tmp_path / "a"))
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr == '错误：audit 要用绘图库 matplotlib，这里没有装：请运行 pip install "anko-writer[audit]"\n'
    assert not (tmp_path / "a").exists()


def test_audit_on_a_cluster_without_dask_is_a_one_line_hint(tmp_path: Path) -> None:
    res = _hidden(("distributed", "dask"), "audit", str(RECHT), "--seasons", "1", "--out", str(tmp_path / "a"),
                  "--scheduler", "tcp://127.0.0.1:9")
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert res.stderr.strip() == '错误：--scheduler 要用 Dask，这里没有装：请运行 pip install "anko-writer[cluster]"'


def test_writing_needs_no_plotting_library(tmp_path: Path) -> None:
    """Without matplotlib or Dask, ``check`` and ``arc`` work: they are the audit's extras only."""
    out, ball = tmp_path / "out", short_ball(tmp_path)
    for args in (("check", str(ball)), ("arc", str(ball), "--arc", "1", "--out", str(out))):
        res = _hidden(("matplotlib", "dask", "distributed"), *args)
        assert res.returncode == 0, res.stderr


HEAVY = ("matplotlib", "dask", "distributed", "numpy", "jinja2", "ruamel", "yaml", "markdown_it", "opencc", "rich",
         "filelock", "pydantic", "hashlib")
"""Libraries ``--version`` and ``--help`` need not load (issue 29: start-up is part of every command's time)."""


def test_importing_the_command_line_loads_no_heavy_library() -> None:
    code = f"import sys, anko_writer.cli; print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "[]", res.stdout + res.stderr


def test_new_names_the_file_it_wrote(tmp_path: Path) -> None:
    """The 群英杯 romanises the city (哈洛温 → halloween.yaml): ``new`` says which file the host works with."""
    result = CliRunner().invoke(app, ["new", str(tmp_path / "mine"), "--city", "哈洛温", "--seed", "123456789012"])
    assert result.exit_code == 0, result.output
    made = sorted(p.name for p in (tmp_path / "mine").iterdir())
    yaml_name = next(n for n in made if n.endswith(".yaml"))
    assert f"战役文件是 {tmp_path / 'mine' / yaml_name}，" in result.stdout
    assert f"anko-writer check {tmp_path / 'mine' / yaml_name}" in result.stdout
