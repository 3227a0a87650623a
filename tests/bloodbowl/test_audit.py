"""Blood Bowl's audit plug-in: a season's counts per race add up to the league's own table, and the report
marks which reference figures are approximate."""

from __future__ import annotations

from pathlib import Path

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.rulesets.bloodbowl.audit import REFERENCE, BloodbowlAudit, _match, measure_run
from tests.bloodbowl.seasons import season_run


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANKO_WRITER_CACHE", "off")


def test_one_match_counts_both_sides() -> None:
    """A 2–1 with one casualty of each side and one more of the loser's: wins count two half-wins."""
    acc: dict[str, dict[str, int]] = {}
    _match(acc, {"A": "human", "B": "orc"}, "A", "B", [2, 1], [{"team": "B"}, {"team": "B"}, {"team": "A"}])
    assert {k: acc["human"][k] for k in ("matches", "td", "td_against", "cas", "wins", "zero")} == {
        "matches": 1, "td": 2, "td_against": 1, "cas": 2, "wins": 2, "zero": 0}
    assert (acc["orc"]["cas"], acc["orc"]["wins"]) == (1, 0)
    _match(acc, {"A": "human", "B": "orc"}, "A", "B", [0, 0], [])
    assert acc["human"]["zero"] == acc["orc"]["zero"] == 1 and acc["orc"]["wins"] == 1


def test_a_season_adds_up_to_the_league_table(league: Path) -> None:
    run = season_run(league)  # the season, played once per worker for the files that read it
    got = measure_run(run)
    standings = run.chapters[-1].results["post"]["standings"]
    assert sum(r["matches"] for r in got.values()) == 2 * 15 == sum(s["played"] for s in standings)
    assert sum(r["td"] for r in got.values()) == sum(r["td_against"] for r in got.values())
    assert sum(r["recorded"] for r in got.values()) == 2 * 5
    for r in got.values():
        assert r["completions"] <= r["passes"]
    passes = sum(1 for ch in run.chapters for t in ch.results["turns"] for a in t["actions"] if a["kind"] == "pass")
    assert sum(r["passes"] for r in got.values()) == passes
    [section] = BloodbowlAudit().aggregate([{"races": got}], load_campaign(league).resources())
    assert section.data["matches"] == 15 and section.tables[0].rows
    cells = {row[0]: row for row in section.tables[0].rows}
    for race, row in cells.items():
        assert row[3] == f"{REFERENCE[race]['td'][0]:g}（约）" and "约" not in str(row[8])
