"""``anko-writer replay`` (issue 28, a thread the host cannot fudge): the rules post commits to the seed; with the
seed and the campaign published, an untouched thread replays byte for byte, and one changed die, one changed vote
or another seed is found."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.provenance import read_commitment, seed_commitment

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns" / "sanguo"


def _run(*args: str | Path) -> tuple[int, str]:
    res = CliRunner().invoke(app, [str(a) for a in args])
    return res.exit_code, res.output


@pytest.fixture
def thread(tmp_path: Path) -> Path:
    """Scene 1 of the shipped 三国 campaign with one voted turn, written under ``tmp_path/out``."""
    camp = tmp_path / "changshe.yaml"
    text = (SHIPPED / "changshe.yaml").read_text(encoding="utf-8")
    camp.write_text(text.replace("orders: {}", "orders:\n  j1t01: {皇甫嵩: 移 H6}"), encoding="utf-8")
    shutil.copy(SHIPPED / "changshe-chapter0.md", tmp_path / "changshe-chapter0.md")
    code, out = _run("arc", camp, "--arc", "1")
    assert code == 0, out
    return camp


def test_an_untouched_thread_replays_byte_for_byte(thread: Path) -> None:
    rules = (thread.parent / "out" / "rules.md").read_text(encoding="utf-8")
    seed = int(re.search(r"^seed: (\d+)", thread.read_text(encoding="utf-8"), re.M)[1])  # type: ignore[index]
    assert read_commitment(rules) is not None and read_commitment(rules)[1] == seed_commitment(seed)  # type: ignore[index]
    assert str(seed) not in rules
    code, out = _run("replay", thread)
    assert code == 0, out
    assert "逐字节一致" in out and "种子承诺与公开的种子一致" in out and "不一致" not in out


def test_one_changed_die_is_found(thread: Path) -> None:
    chapter = next(p for p in sorted((thread.parent / "out" / "j01").glob("t*.md")) if "「1D3＝" in p.read_text("utf-8"))
    text = chapter.read_text(encoding="utf-8")
    face = re.search(r"「1D3＝(\d)」", text)
    assert face is not None
    chapter.write_text(text.replace(face[0], f"「1D3＝{int(face[1]) % 3 + 1}」", 1), encoding="utf-8")
    code, out = _run("replay", thread)
    assert code == 1 and f"不一致：j01/{chapter.name}" in out


def test_one_changed_vote_is_found(thread: Path) -> None:
    thread.write_text(thread.read_text(encoding="utf-8").replace("皇甫嵩: 移 H6", "皇甫嵩: 移 I5"), encoding="utf-8")
    code, out = _run("replay", thread)
    assert code == 1 and "不一致：j01/t01.md" in out


def test_another_seed_breaks_the_commitment(thread: Path) -> None:
    text = thread.read_text(encoding="utf-8")
    thread.write_text(re.sub(r"^seed: (\d+)", lambda m: f"seed: {int(m[1]) + 1}", text, flags=re.M), encoding="utf-8")
    code, out = _run("replay", thread, "--out", thread.parent / "out")
    assert code == 1 and "种子承诺与公开的种子不符" in out
