"""Issue 27 for 接战: each shipped battle reads as a story — the round told first (who charged whom, which formation
broke), varied sentence templates, the casualty dice in folds, a look ahead before each vote — and every claim of
the story (who closed, losses, a broken formation, a unit lost, the winner, the forces left) agrees with the
round's JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from tests.main_text import main_lines
from tests.variety import measure_folder

SHIPPED = Path(__file__).resolve().parents[2] / "campaigns/engage/river.yaml"
DISTANCES = ("近战", "短距", "中距", "长距")
CLOSED = re.compile(r"接敌成功|接上了敌|终于接敌|撞进|扎进|撞在一起|撞上了|冲锋得手|贴了上去|交上了手")
FATE = {"destroyed": re.compile(r"全灭|全军覆没|一个不剩|被歼灭"), "routed": re.compile(r"溃散而逃|四散奔逃|溃不成军"),
        "retreated": re.compile(r"撤出了战场|退出了这一战|离开了战场")}
LOOSE = re.compile(r"阵型散开|松散")


@pytest.fixture(scope="module")
def battles(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Both shipped battles as written: their folders."""
    out = tmp_path_factory.mktemp("shipped") / "out"
    for arc in (1, 2):
        res = CliRunner().invoke(app, ["arc", str(SHIPPED), "--arc", str(arc), "--out", str(out)])
        assert res.exit_code == 0, res.output
    return [out / "b01", out / "b02"]


def _rounds(folder: Path) -> list[tuple[list[str], dict[str, Any]]]:
    """Each round's main-text sentences and its JSON."""
    out = []
    for p in sorted(folder.glob("r*.md")):
        text = "\n".join(ln for ln in main_lines(p.read_text(encoding="utf-8")) if ln.strip() and ln[0] not in "|#〔")
        out.append(([s for s in re.split(r"[。！？\n]", text) if s.strip()],
                    json.loads(p.with_suffix(".json").read_text(encoding="utf-8"))))
    return out


def test_each_battle_reads_varied(battles: list[Path]) -> None:
    """At least 85 % of a battle's sentence templates are distinct and none comes back more than three times."""
    for folder in battles:
        v = measure_folder(folder)
        assert v.sentences >= 15 and v.share >= 0.85, (folder.name, v.share, v.top)
        assert v.top[0][1] <= 3, v.top


def test_the_round_is_told_first(battles: list[Path]) -> None:
    """The first lines under the title are the story: no seal, no reveal, no die, no list, no board."""
    for folder in battles:
        for p in sorted(folder.glob("r*.md")):
            lines = [ln for ln in main_lines(p.read_text(encoding="utf-8")) if ln.strip()]
            first = next(ln for ln in lines[1:] if ln != "战前整编：" and not ln.startswith("- "))
            assert not re.match(r"[〔「|`!-]", first) and "骰" not in first, (p.name, first)


def test_the_story_is_true_to_the_records(battles: list[Path]) -> None:
    for folder in battles:
        for said, rec in _rounds(folder):
            def naming(*names: str, said: list[str] = said) -> list[str]:
                return [s for s in said if all(n in s for n in names)]

            for c in rec["closings"]:
                told = naming(c["unit"], c["target"])
                if c["closed"]:
                    assert any(CLOSED.search(s) for s in told), (c, told)
                else:
                    assert any(DISTANCES[c["distance_after"]] in s and not CLOSED.search(s) for s in told), (c, told)
            for e in rec["engagements"]:
                if e["casualties"]:
                    assert any(f" {e['casualties']} 人" in s for s in naming(e["attacker"], e["defender"])), e
            lost = {u["id"]: u["lost"] for u in rec["after"] if u["id"] in {x["id"] for x in rec["units"]}}
            for s in said:
                for fate, words in FATE.items():
                    if words.search(s) and "战场" not in s[:2]:
                        assert any(lost.get(uid) == fate and s.startswith(uid) for uid in lost), (s, lost)
            for uid, fate in lost.items():
                if fate:
                    assert any(s.startswith(uid) and FATE[fate].search(s) for s in said), (uid, fate)
            loose = {c["unit"] for c in rec["checks"] if c.get("effect") == "松散"}
            for s in said:
                if LOOSE.search(s) and "变阵" not in s and "换成" not in s and "队形" not in s:
                    assert any(s.startswith(u) for u in loose), (s, loose)
            if rec["vote"]:
                ahead = said[-1]
                for u in rec["after"]:
                    if not u["lost"]:
                        assert f"{u['id']} {u['men']} 人" in ahead, (u["id"], ahead)
        end = json.loads((folder / "end.json").read_text(encoding="utf-8"))
        winner = end["result"]["winner"]
        text = (folder / "end.md").read_text(encoding="utf-8")
        assert winner is None or f"{winner}守住了战场" in text
        units = end["battle_end"]["units"]
        for mine in (True, False):
            side = [u for u in units if (u["side"] == end["readers"]) == mine]
            told = f"伤 {sum(u['wounded'] for u in side)} 人、亡 {sum(u['dead'] for u in side)} 人"
            toll = next(ln for ln in main_lines(text) if "亡" in ln and "轮" in ln)
            parts = {m.group(1): m.group(0) for m in re.finditer(r"(我方|敌方)[^我敌]*", toll)}
            assert told in parts["我方" if mine else "敌方"], (told, toll)
