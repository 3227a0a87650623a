"""004 §4: a casualty who is seriously hurt (or worse than badly hurt) misses the next match too.

The test league's season 1 is played with one casualty roll of ours forced to 41 (严重受伤，缺席下一场):
an open one (delay 2 throws second-half casualties in the open) and a sealed one (delay 1, revealed in the
next chapter). Either way the player is in the next match's ``pre.absent``, takes no action in it, and is
back (``recovered``) after it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from anko_writer import ruleset as registry
from anko_writer.chapters import ChapterKey, Run
from tests.bloodbowl.seasons import season_run
from tests.contract.sealing import forcing, play, with_delay

SERIOUS = (4, 1)
"""D68 = 41: the designed table's first 严重受伤 row (miss_next: true)."""


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced dice must reach the engine: no checkpoint from an earlier, unforced run."""
    monkeypatch.setenv("ANKO_WRITER_CACHE", "off")


def _ours(run: Run) -> list[tuple[int, dict[str, Any]]]:
    """(part, casualty) for each casualty of ours in the run, in order."""
    return [(c.part, x) for c in run.chapters for x in c.results.get("casualties", [])
            if x["team"] == c.results["team"]]


def _acted(record: dict[str, Any], pid: str) -> bool:
    """Whether player ``pid`` took an action in a half."""
    return any(a.get("player") == pid for t in record.get("turns", []) for a in t.get("actions", []))


def _next_match(part: int) -> int:
    """The first chapter of the match after the one chapter ``part`` belongs to (a match is two chapters)."""
    return next(p for p in range(part + 1, 11) if p % 2 == 1)


def _check_absent_next_match(run: Run, part: int, pid: str, name: str) -> None:
    nxt = _next_match(part)
    ch = {c.part: c.results for c in run.chapters}
    ours = ch[nxt]["team"]
    absent = {a["team"]: a["names"] for a in ch[nxt]["pre"]["absent"]}
    assert name in absent[ours]
    assert not _acted(ch[nxt], pid) and not _acted(ch[nxt + 1], pid)
    assert pid not in ch[nxt]["plans"][ch[nxt]["ours_side"]]["lineup"]
    assert name in ch[nxt + 1]["post"]["ours"]["recovered"]


@pytest.mark.parametrize("delay,sealed", [(2, False), (1, True)], ids=["open", "sealed"])
def test_a_seriously_hurt_player_of_ours_misses_the_next_match(league: Path, tmp_path: Path, delay: int,
                                                               sealed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = registry.get("bloodbowl")
    (tmp_path / "league.yaml").write_text(league.read_text(encoding="utf-8"), encoding="utf-8")
    path = with_delay(tmp_path / "league.yaml", delay)
    base = season_run(path)  # the unforced season, shared with test_sealed_option.py's default leagues
    picks = [(part, c) for part, c in _ours(base) if part < 9 and bool(c["outcome"].get("sealed_by")) == sealed]
    assert picks, "the test league has no such casualty of ours before round 5: re-pin the seed"
    part, c = picks[0]
    forcing(monkeypatch, c["roll"]["id"], SERIOUS)
    # played up to the end of the next match, all the claim reads (a sealed casualty is revealed in the chapter
    # after it, at the latest the next match's first): the chapters after it are not played
    run = play(rs, path, ChapterKey(1, _next_match(part) + 1))
    forced = next(x for p, x in _ours(run) if x["roll"]["id"] == c["roll"]["id"])
    if sealed:
        reveal = next(r for ch in run.chapters for r in ch.results.get("reveals", []) if r["id"] == c["roll"]["id"])
        assert reveal["outcome"]["miss_next"] is True and reveal["back"]["miss_next"] is True
    else:
        assert forced["outcome"]["code"] == 41 and forced["outcome"]["miss_next"] is True
    _check_absent_next_match(run, part, c["player"], c["name"])
