"""A Blood Bowl state file holding a control character or nested too deep is one located line through the
real CLI (issue 22), and the next season writes nothing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def arc_two(league: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``arc --arc 2`` of ``league`` from ``out``'s first season."""
    return subprocess.run([sys.executable, "-m", "anko_writer", "arc", str(league), "--arc", "2", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize(("edit", "message"), [
    pytest.param(lambda t: t.replace("\n", "\n# \x00\n", 1), r":2:3: YAML 不允许控制字符 U\+0000（NUL）",
                 id="NUL"),
    pytest.param(lambda t: t + "# \x1b[31m\n", r":\d+:3: YAML 不允许控制字符 U\+001B（ESC）", id="ESC"),
    pytest.param(lambda t: t + "deep: " + "[" * 100_000 + "]" * 100_000 + "\n",
                 r":\d+:\d+: 映射和列表嵌套超过 64 层", id="deep"),
])
def test_a_hostile_state_file_is_one_located_line(league: Path, season_one: Path, tmp_path: Path, edit, message) -> None:  # noqa: ANN001
    out = tmp_path / "out"
    shutil.copytree(season_one, out)
    (state,) = out.glob("s01/state-end.yaml")
    state.write_text(edit(state.read_text(encoding="utf-8")), encoding="utf-8")
    res = arc_two(league, out)
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(rf"错误：{re.escape(str(state))}{message}", lines[0]), res.stderr
    assert not (out / "s02").exists()
