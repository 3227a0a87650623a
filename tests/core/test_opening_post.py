"""The thread's opening posts (issue 28): chapter 0, which ``new`` writes beside the campaign, is copied under OUT
with every chapter the CLI writes, so ``export`` posts it right after the rules post and ``verify`` reads its seals
(a hidden card committed in chapter 0 is checked against its reveal)."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.hidden import scan, verify_dir

CAMPAIGNS = Path(__file__).resolve().parents[2] / "campaigns"


def _run(*args: str | Path) -> str:
    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code == 0, res.output
    return res.output


def test_chapter_0_is_the_second_post_of_the_export(tmp_path: Path) -> None:
    for name in ("ball.yaml", "ball-chapter0.md"):
        shutil.copy(CAMPAIGNS / "ball" / name, tmp_path / name)
    out = tmp_path / "out"
    _run("chapter", tmp_path / "ball.yaml", "--arc", "1", "--part", "1", "--out", out)
    assert (out / "chapter0.md").read_bytes() == (tmp_path / "ball-chapter0.md").read_bytes()
    _run("export", out, "--forum", "markdown")
    order = (out / "export" / "markdown" / "发帖顺序.txt").read_text(encoding="utf-8")
    posts = [ln for ln in order.splitlines() if ln.strip()]
    first, second = next(i for i, ln in enumerate(posts) if "开帖" in ln), next(
        i for i, ln in enumerate(posts) if "序章" in ln)
    assert first < second < next(i for i, ln in enumerate(posts) if "g01" in ln or "第一局" in ln)


def test_a_seal_of_chapter_0_is_verified_against_its_reveal(tmp_path: Path) -> None:
    for name in ("river.yaml", "river-chapter0.md"):
        shutil.copy(CAMPAIGNS / "engage" / name, tmp_path / name)
    out = tmp_path / "out"
    _run("arc", tmp_path / "river.yaml", "--arc", "1", "--out", out)
    seals, _ = scan((out / "chapter0.md").read_text(encoding="utf-8"))
    assert seals
    report = verify_dir(out)
    assert report.ok and report.checked >= len(seals)
    assert not {s.roll_id for s in seals} & {rid for rid, _ in report.sealed}  # every chapter-0 seal revealed


def test_an_edited_chapter_0_is_copied_as_edited_and_a_missing_one_is_not_invented(tmp_path: Path) -> None:
    shutil.copy(CAMPAIGNS / "ball" / "ball.yaml", tmp_path / "ball.yaml")
    out = tmp_path / "out"
    _run("chapter", tmp_path / "ball.yaml", "--arc", "1", "--part", "1", "--out", out)
    assert not (out / "chapter0.md").exists()
    (tmp_path / "ball-chapter0.md").write_text("# 序章\n\n主持人改过的开场白。\n", encoding="utf-8")
    _run("chapter", tmp_path / "ball.yaml", "--arc", "1", "--part", "1", "--out", out)
    assert "主持人改过" in (out / "chapter0.md").read_text(encoding="utf-8")
