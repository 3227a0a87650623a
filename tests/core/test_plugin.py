"""The ruleset contract proved from outside: the coinduel plug-in (tests/coinduel/, its own package with
its own templates and tables) registered by entry point, as an installed plug-in would be, and run
through the real command line: ``new``, ``check``, ``chapter``, ``arc``, ``verify``, and bad input.

The plug-in is not installed into the environment: a ``coinduel-0.1.dist-info`` folder written to a
temporary folder on ``PYTHONPATH`` declares its entry point, so ``importlib.metadata`` finds it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anko_writer.render import find_problems

PLUGIN = Path(__file__).resolve().parent.parent / "coinduel"
SEED = "271828182845904523"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the plug-in's distribution metadata (METADATA and entry_points.txt)."""
    site = tmp_path_factory.mktemp("site")
    dist = site / "coinduel-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: coinduel\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[anko_writer.rulesets]\ncoinduel = coinduel:RULESET\n", encoding="utf-8")
    return site


def cli(site: Path, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m anko_writer ARGS`` of this tree with the plug-in discoverable (and only there)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(PLUGIN), str(PLUGIN.parent.parent)])}
    return subprocess.run([sys.executable, "-m", "anko_writer", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def duel(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new coinduel campaign folder, made by ``anko-writer new``."""
    folder = tmp_path_factory.mktemp("duel")
    made = cli(site, "new", folder, "--ruleset", "coinduel", "--option", "name=阿尔托", "--seed", SEED, cwd=folder)
    assert made.returncode == 0, made.stderr
    assert "已写入 duel.yaml" in made.stdout and "已写入 duel-chapter0.md" in made.stdout
    return folder


def test_not_installed_here() -> None:
    from anko_writer import ruleset

    assert "coinduel" not in ruleset.names()


def test_rulesets_lists_the_plugin(site: Path, tmp_path: Path) -> None:
    listed = cli(site, "rulesets", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "coinduel  掷币决斗\n  章节：--arc 是场（duel），--part 是局（bout）；d01/b01.md …\n" in listed.stdout
    assert "  new --option name=…  our duellist's name（必填）" in listed.stdout
    assert "purasbar" in listed.stdout


def test_new_and_check(site: Path, duel: Path) -> None:
    text = (duel / "duel.yaml").read_text(encoding="utf-8")
    assert "ruleset: coinduel" in text and 'name: "阿尔托"' in text
    chapter0 = (duel / "duel-chapter0.md").read_text(encoding="utf-8")
    assert "10枚金币" in chapter0 and "「1D4＝" in chapter0
    ok = cli(site, "check", "duel.yaml", cwd=duel)
    assert ok.returncode == 0 and ok.stdout == "通过：duel.yaml（coinduel: 阿尔托的掷币决斗）\n", ok.stderr


def test_chapter_arcs_and_verify(site: Path, duel: Path) -> None:
    one = cli(site, "chapter", "duel.yaml", "--arc", "1", "--part", "2", cwd=duel)
    assert one.returncode == 0, one.stderr
    assert sorted(one.stdout.splitlines()) == ["已写入 out/d01/b02.json", "已写入 out/d01/b02.md"]
    for arc in (1, 2):
        whole = cli(site, "arc", "duel.yaml", "--arc", str(arc), cwd=duel)
        assert whole.returncode == 0, whole.stderr
    out = duel / "out"
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert [n for n in names if n.startswith("d01/")] == [
        "d01/b01.json", "d01/b01.md", "d01/b02.json", "d01/b02.md", "d01/b03.json", "d01/b03.md",
        "d01/index.md", "d01/state-end.yaml"]
    # the last bout's seal crosses into the next duel through the state file, and is revealed there
    sealed = json.loads((out / "d01/b03.json").read_text(encoding="utf-8"))
    assert sealed["toss"] == {"roll": {**sealed["toss"]["roll"], "dice": None, "total": None},
                              "result": {"sealed_by": sealed["toss"]["roll"]["id"]}}
    opened = json.loads((out / "d02/b01.json").read_text(encoding="utf-8"))
    assert [r["id"] for r in opened["reveals"]] == ["d1/b3/toss#1"]
    assert opened["reveals"][0]["sealed_arc"] == 1 and opened["reveals"][0]["sealed_in"] == 3
    report = cli(site, "verify", out, cwd=duel)
    assert report.returncode == 0, report.stdout + report.stderr
    assert "核对了 5 次揭晓" in report.stdout and "d2/b3/toss#1" in report.stdout
    for md in out.rglob("*.md"):
        text = md.read_text(encoding="utf-8")
        assert find_problems(text, {"DUEL"}) == [], md
        assert "P$" not in text
    assert any("DUEL" in p for p in find_problems((out / "d01/b01.md").read_text(encoding="utf-8")))
    # the core exports any ruleset's chapters, and the export still verifies
    for forum in ("nga", "discuz", "html"):
        exported = cli(site, "export", out, "--forum", forum, cwd=duel)
        assert exported.returncode == 0, exported.stderr
    posts = sorted(p.relative_to(out / "export/nga").as_posix() for p in (out / "export/nga").rglob("*.bbcode"))
    assert posts[:2] == ["d01/001-b01-1.bbcode", "d01/002-b02-1.bbcode"] and "d02/003-b03-1.bbcode" in posts
    assert (out / "export/html/d01.html").is_file()
    again = cli(site, "verify", out, cwd=duel)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "枚金币" in (out / "d02/b01.md").read_text(encoding="utf-8")


def test_month_and_season_aliases(site: Path, duel: Path, tmp_path: Path) -> None:
    alias = cli(site, "month", "duel.yaml", "--season", "1", "--month", "1", "--out", tmp_path, cwd=duel)
    assert alias.returncode == 0, alias.stderr
    assert (tmp_path / "d01" / "b01.md").is_file()


def test_bad_input(site: Path, duel: Path, tmp_path: Path) -> None:
    bad = tmp_path / "duel.yaml"
    bad.write_text((duel / "duel.yaml").read_text(encoding="utf-8").replace("purse: 10", "purse: -5"),
                   encoding="utf-8")
    checked = cli(site, "check", bad, cwd=tmp_path)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    assert checked.stderr.startswith("错误：") and "purse" in checked.stderr and len(checked.stderr.splitlines()) == 1
    far = cli(site, "chapter", "duel.yaml", "--arc", "1", "--part", "4", cwd=duel)
    assert (far.returncode, far.stderr) == (1, "错误：--part: 应为 1–3，实际是 4\n")
    nameless = cli(site, "new", tmp_path / "x", "--ruleset", "coinduel", cwd=tmp_path)
    assert nameless.returncode == 2
    assert nameless.stderr == ("错误：缺少选项 '--option name=…'（our duellist's name）"
                               "（见 'python -m anko_writer new --help'）\n")
    unknown = cli(site, "new", tmp_path / "x", "--ruleset", "coinduel", "--option", "name=甲", "--option",
                  "nmae=乙", cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown option 'nmae'" in unknown.stderr
