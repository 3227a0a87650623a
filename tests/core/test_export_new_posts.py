"""The posting helper (issue 28): ``export`` says which posts are new or changed since the last export and marks
them in 发帖顺序.txt, so a host posts only those."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from anko_writer.cli import app

CAMPAIGNS = Path(__file__).resolve().parents[2] / "campaigns"


def _run(*args: str | Path) -> str:
    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code == 0, res.output
    return res.output


def test_only_the_posts_a_new_chapter_adds_are_new(tmp_path: Path) -> None:
    shutil.copy(CAMPAIGNS / "ball" / "ball.yaml", tmp_path / "ball.yaml")
    out = tmp_path / "out"
    _run("chapter", tmp_path / "ball.yaml", "--arc", "1", "--part", "1", "--out", out)
    first = _run("export", out, "--forum", "markdown")
    assert "新出或改过的帖子" in first and "g01/001-t01" in first
    assert "（新）" in (out / "export" / "markdown" / "发帖顺序.txt").read_text(encoding="utf-8")
    again = _run("export", out, "--forum", "markdown")
    assert "没有新帖" in again
    _run("chapter", tmp_path / "ball.yaml", "--arc", "1", "--part", "2", "--out", out)
    third = _run("export", out, "--forum", "markdown")
    listed = [ln.strip() for ln in third.splitlines() if ln.startswith("  ")]
    assert listed and all("t02" in ln for ln in listed)
    index = (out / "export" / "markdown" / "发帖顺序.txt").read_text(encoding="utf-8")
    assert all(("t02" in ln) == ("（新）" in ln) for ln in index.splitlines() if ln[:1].isdigit())
