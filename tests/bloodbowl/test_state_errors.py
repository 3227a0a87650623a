"""A hand-edited Blood Bowl state file (or campaign) that the rules cannot play is one located error line:
a carried seal without ``at``, a skill the engine does not play, a lasting injury no casualty leaves, and a
state file copied from another season's folder (issue 22)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app

SEAL = ('{"roll": {"id": "s1/r5/g1/h2/home3#4", "purpose": "伤亡", "expr": "D68", "dice": [6, 3], "total": 63, '
        '"hidden": true, "kind": "casualty"}, "due": [2, 1], "moment": null, "outcome": null}')


def _season_two(league: Path, season_one: Path, tmp_path: Path, edit: tuple[str, str], count: int = 1) -> tuple[str, str]:
    """``arc --arc 2`` after ``edit`` (old, new) of season 1's state file: the error output, and the edited text."""
    out = tmp_path / "out"
    shutil.copytree(season_one, out)
    state = out / "s01/state-end.yaml"
    text = state.read_text(encoding="utf-8")
    assert edit[0] in text
    text = text.replace(edit[0], edit[1], count)
    state.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["arc", str(league), "--arc", "2", "--out", str(out)])
    said = res.output + (res.stderr or "")
    assert res.exit_code == 1 and "Traceback" not in said and not (out / "s02").exists(), said
    lines = list(dict.fromkeys(ln for ln in said.splitlines() if ln.strip()))  # output and stderr may both hold it
    assert len(lines) == 1 and lines[0].startswith("错误："), lines
    return lines[0], text


def _add_seal(season_one: Path, seal: str) -> tuple[str, str]:
    """The edit that puts ``seal`` first among season 1's carried seals (an empty list, or before the seals
    the season itself carried)."""
    text = (season_one / "s01/state-end.yaml").read_text(encoding="utf-8")
    if "seals: []" in text:
        return "seals: []", "seals:\n  - " + seal
    return "\nseals:\n", "\nseals:\n  - " + seal + "\n"


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def test_a_carried_seal_without_at_is_located(league: Path, season_one: Path, tmp_path: Path) -> None:
    said, text = _season_two(league, season_one, tmp_path, _add_seal(season_one, SEAL))
    assert re.search(rf"state-end.yaml:{_line_of(text, SEAL)}:\d+: seals\[0\]: .*'at'", said), said


@pytest.mark.parametrize(("edit", "key"), [(('"dice": [6, 3]', '"dice": "63"'), r"seals\[0\]\.roll\.dice"),
                                         (('"expr": "D68"', '"expr": "D 68"'), r"seals\[0\]\.roll\.expr"),
                                         (('"due": [2, 1]', '"due": "soon"'), r"seals\[0\]\.due")])
def test_a_malformed_carried_seal_is_located(edit: tuple[str, str], key: str, league: Path, season_one: Path,
                                             tmp_path: Path) -> None:
    """The core's seal schema (seals.SEAL_RECORD) checks every field of a carried seal, not only ``at``."""
    seal = SEAL.replace('"due"', '"at": [1, 5], "due"').replace(*edit)
    said, text = _season_two(league, season_one, tmp_path, _add_seal(season_one, seal))
    assert re.search(rf"state-end.yaml:{_line_of(text, seal)}:\d+: {key}: ", said), said


def test_an_unknown_skill_is_located(league: Path, season_one: Path, tmp_path: Path) -> None:
    said, text = _season_two(league, season_one, tmp_path, ('"skills": [', '"skills": ["flying", '))
    assert re.search(r"state-end.yaml:\d+:\d+: team.players\[\d+\].skills\[0\]: 未知的技能 'flying'（可用的有：block、",
                     said), said


@pytest.mark.parametrize("injury", ["-1 XP", "cursed"])
def test_an_unknown_lasting_injury_is_located(injury: str, league: Path, season_one: Path, tmp_path: Path) -> None:
    said, _ = _season_two(league, season_one, tmp_path, ('"lasting": []', f'"lasting": ["{injury}"]'))
    assert re.search(rf"state-end.yaml:\d+:\d+: team.players\[0\].lasting\[0\]: 未知的永久伤病 '{injury}'"
                     r"（可用的有：-1 AG、-1 AV、-1 MA、-1 ST、niggling）", said), said


def test_a_state_file_of_another_season_is_located(league: Path, season_one: Path, tmp_path: Path) -> None:
    said, text = _season_two(league, season_one, tmp_path, ("\nseason: 1\n", "\nseason: 2\n"))
    line = _line_of(text, "\nseason: 2\n") + 1
    assert said.startswith(f"错误：{tmp_path / 'out/s01/state-end.yaml'}:{line}:9: season: ") or \
        re.search(rf"state-end.yaml:{line}:9: season: 这个状态文件在第 1 赛季的文件夹里，却是第 2 赛季的结尾", said), said


def test_the_campaign_refuses_an_unknown_skill_too(league: Path, tmp_path: Path) -> None:
    camp = tmp_path / "league.yaml"
    text = league.read_text(encoding="utf-8")
    assert '"skills": [' in text
    camp.write_text(text.replace('"skills": [', '"skills": ["telepathy", ', 1), encoding="utf-8")
    res = CliRunner().invoke(app, ["check", str(camp)])
    said = res.output + (res.stderr or "")
    assert res.exit_code == 1 and "未知的技能 'telepathy'" in said and "league.yaml:" in said, said
