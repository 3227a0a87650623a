"""The apothecary's lighter result is the one that counts, everywhere a reader or a program looks (004 §4 and
the designed LRB6 apothecary): the fold's printed rows, the reveal's JSON ``outcome`` and ``back``, the vote's
roster, the next match's ``pre.absent`` and who plays in it.

The test league's chapter 3 seals a casualty of ours (布洛克·老树) with the apothecary's roll beside it. Its
D68 is forced to 41 (严重受伤，缺席下一场); the apothecary's to 23 (重伤: he saves the next match) or to 45
(严重受伤 again: the first stands and he misses it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from anko_writer import ruleset as registry
from anko_writer.campaign import load_campaign
from anko_writer.chapters import ChapterKey, Run
from tests.bloodbowl.seasons import season_run
from tests.contract.sealing import chapter_files, forcing, play

SEALED_PART = 3
"""The chapter that seals the casualty (a first half: revealed in chapter 4, the match's second half)."""


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced dice must reach the engine: no checkpoint from an earlier, unforced run."""
    monkeypatch.setenv("ANKO_WRITER_CACHE", "off")


def _acted(record: dict[str, Any], pid: str) -> bool:
    return any(a.get("player") == pid for t in record.get("turns", []) for a in t.get("actions", []))


def _the_casualty(run: Run) -> dict[str, Any]:
    ch = next(c for c in run.chapters if c.part == SEALED_PART).results
    cas = [x for x in ch["casualties"] if x["team"] == ch["team"] and x["outcome"].get("apothecary")]
    assert cas, "the test league's chapter 3 has no sealed casualty of ours with the apothecary: re-pin"
    return cas[0]


@pytest.mark.parametrize("second,saved", [((2, 3), True), ((4, 5), False)], ids=["saved", "not-saved"])
def test_the_kept_casualty_row_decides_the_next_match(league: Path, tmp_path: Path, second: tuple[int, int],
                                                      saved: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = registry.get("bloodbowl")
    path = tmp_path / "league.yaml"
    path.write_text(league.read_text(encoding="utf-8"), encoding="utf-8")
    base = _the_casualty(season_run(path))  # the unforced whole season, shared: its chapter 3 is the one played to 6
    forcing(monkeypatch, base["roll"]["id"], (4, 1))
    forcing(monkeypatch, base["outcome"]["apothecary"]["id"], second)
    run = play(rs, path, ChapterKey(1, 6))
    c = _the_casualty(run)
    pid, name = c["player"], c["name"]
    ch = {x.part: x for x in run.chapters}
    reveal = next(r for r in ch[SEALED_PART + 1].results["reveals"] if r["id"] == c["roll"]["id"])
    out, back = reveal["outcome"], reveal["back"]
    assert out["code"] == 41 and out["apothecary"]["code"] == 10 * second[0] + second[1]
    assert out["apothecary"]["kept"] == ("second" if saved else "first")
    assert out["result"] == ("badly_hurt" if saved else "serious")
    # the JSON's outcome, the roster's truth (back) and the vote's roster agree
    assert out["miss_next"] is back["miss_next"] is (not saved)
    roster = {r["id"]: r for r in ch[SEALED_PART + 1].results["vote"]["roster"]}
    assert roster[pid]["state"] == ("fit" if saved else "missing")
    # the fold prints both rows and says which one counts; the kept row ends the line
    md = chapter_files(load_campaign(path), ch[SEALED_PART + 1])
    text = next(t for rel, t in md.items() if rel.endswith(".md"))
    line = next(ln for ln in text.splitlines() if ln.startswith(f"{name}：伤亡骰「D68＝41」"))
    assert "严重受伤，缺席下一场" in line and "取较轻的一次" in line
    assert line.endswith("重伤，本场无法再上场。" if saved else "严重受伤，缺席下一场。")
    # the story's reveal sentence is told from the roster's truth
    kinds = [r["kind"] for r in ch[SEALED_PART + 1].results["story"]["reveals"]]
    assert ("reveal_fine" if saved else "reveal_miss") in kinds
    # the next match: absent or not, plays or not
    nxt = ch[SEALED_PART + 2].results
    absent = {a["team"]: a["names"] for a in nxt["pre"]["absent"]}
    assert (name in absent[nxt["team"]]) is (not saved)
    lineup = nxt["plans"][nxt["ours_side"]]["lineup"]
    assert (pid in lineup) is saved
    if not saved:
        assert not _acted(nxt, pid) and not _acted(ch[SEALED_PART + 3].results, pid)
        assert name in ch[SEALED_PART + 3].results["post"]["ours"]["recovered"]


def test_an_open_casualty_line_says_the_apothecary_follows(season_one: Path) -> None:
    """In a turn's fold, an open D68 the apothecary rolled again says so (「队医随后重掷」), and the next line is
    the apothecary's die with the row that counts, so the first row's 「缺席下一场」 is never the last word."""
    seen = 0
    for md in sorted(season_one.glob("s01/h*.md")):
        lines = md.read_text(encoding="utf-8").splitlines()
        data = json.loads(md.with_suffix(".json").read_text(encoding="utf-8"))
        rolled = sum(1 for c in data["casualties"] if c["outcome"].get("apothecary") and not c["outcome"].get("sealed_by"))
        marked = [i for i, ln in enumerate(lines) if "，队医随后重掷」" in ln]
        assert len(marked) == rolled, md.name
        for i in marked:
            assert "「队医重掷伤亡骰：D68＝" in lines[i + 1] and ("取这一次" in lines[i + 1] or "保留第一次" in lines[i + 1])
        seen += rolled
    assert seen, "the test league's season 1 has no open casualty the apothecary rolled again: re-pin"
