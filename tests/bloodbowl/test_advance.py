"""Star-player advancement (designed from LRB6): thresholds, the 2D6 improvement roll, the coach's choice,
the MVP, and the league carrying it across seasons (the state file) and showing it with its die."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anko_writer.resources import Resources
from anko_writer.rulesets.bloodbowl import Bloodbowl
from anko_writer.rulesets.bloodbowl.league.advance import Ladder, advance, choose, ladder_from, mvp
from anko_writer.rulesets.bloodbowl.league.rosters import Roster, load_rosters
from anko_writer.rulesets.bloodbowl.league.teams import Team, load_league, new_player
from anko_writer.rulesets.bloodbowl.match.api import TeamSheet
from anko_writer.yamlio import load_yaml_text
from tests.bloodbowl.match.scen import dice


def _res(tmp: Path) -> Resources:
    return Bloodbowl().resources(tmp)


@pytest.fixture
def ladder(tmp_path: Path) -> Ladder:
    return ladder_from(load_league(_res(tmp_path)).advancement)


@pytest.fixture
def rosters(tmp_path: Path) -> dict[str, Roster]:
    return load_rosters(_res(tmp_path))


def test_the_published_numbers(ladder: Ladder) -> None:
    """LRB6: 6/16/31/51/76/176 SPP, MVP 5, a characteristic at most +2 over the positional's."""
    assert ladder.thresholds == (6, 16, 31, 51, 76, 176) and ladder.mvp == 5 and ladder.stat_limit == 2
    assert [ladder.level(n) for n in (5, 6, 15, 16, 30, 31, 50, 51, 75, 76, 175, 176)] == [0, 1, 1, 2, 2, 3, 3, 4,
                                                                                           4, 5, 5, 6]
    assert ladder.categories["human"]["catcher"] == ("GA", "SP") and ladder.categories["dwarf"]["blocker"] == ("GS", "AP")
    assert ladder.categories["orc"]["troll"] == ("S", "GAP")


@pytest.mark.parametrize("race,key,faces,had,took", [
    ("human", "lineman", (4, 5), [], "skill:block"),          # 9: a normal (General) skill
    ("human", "lineman", (4, 5), ["block"], "skill:sure_hands"),
    ("human", "lineman", (3, 3), ["block"], "skill:dodge"),   # doubles: Agility is a double category
    ("human", "lineman", (6, 6), [], "+1 ST"),
    ("human", "lineman", (5, 6), [], "+1 AG"),
    ("human", "lineman", (4, 6), [], "+1 AV"),                # 10: AV for a positional without Agility
    ("human", "catcher", (4, 6), [], "+1 MA"),                # 10: MA for a catcher (GA)
    ("human", "catcher", (1, 2), ["catch", "dodge"], "skill:block"),
    ("dwarf", "blocker", (1, 3), ["block", "thick_skull"], "skill:guard"),
    ("orc", "troll", (2, 3), ["loner", "really_stupid", "mighty_blow"], "skill:guard"),  # Strength only
])
def test_the_coach_takes(ladder: Ladder, rosters: dict[str, Roster], race: str, key: str, faces: tuple[int, int],
                         had: list[str], took: str) -> None:
    pos = rosters[race].find(key)
    assert pos is not None
    p = new_player("X-01", "某", pos)
    p.skills = list(had)
    assert choose(ladder, race, pos, p, faces) == took


def test_a_characteristic_rises_at_most_twice(ladder: Ladder, rosters: dict[str, Roster]) -> None:
    pos = rosters["human"].find("lineman")
    assert pos is not None
    p = new_player("X-01", "某", pos)
    p.ST = pos.ST + 2
    assert choose(ladder, "human", pos, p, (6, 6)) == "skill:block"  # the 12 falls back to a skill


def test_improvement_rolls_are_due_per_level_and_shown(ladder: Ladder, rosters: dict[str, Roster]) -> None:
    """A player at 16 SPP with no advance rolls twice (visible 2D6 each); the sheet takes them."""
    roster = rosters["human"]
    pos = roster.find("blitzer")
    assert pos is not None
    p = new_player("H-01", "甲", pos)
    p.spp = 16
    team = Team(TeamSheet("甲队", "human", True, 3, [p]), "老罗")
    d = dice(6, 6, 2, 3)
    recs = advance(ladder, d, "t", team, roster)
    assert [r["took"] for r in recs] == ["+1 ST", "skill:guard"]
    assert p.ST == 4 and "guard" in p.skills and p.advances == ["+1 ST", "skill:guard"]
    assert [r["roll"]["dice"] for r in recs] == [[6, 6], [2, 3]] and recs[0]["doubles"] is True
    assert advance(ladder, d, "t", team, roster) == []  # nothing more due
    assert advance(ladder, dice(1, 2), "t", Team(TeamSheet("乙", "human", False, 3, [new_player("Z", "乙", pos)]), "x"),
                   roster) == []


def test_the_mvp_is_one_of_those_fielded(ladder: Ladder, rosters: dict[str, Roster]) -> None:
    pos = rosters["human"].find("lineman")
    assert pos is not None
    players = [new_player(f"H-{i:02d}", f"甲{i}", pos) for i in range(1, 5)]
    team = Team(TeamSheet("甲队", "human", True, 3, players), "老罗")
    rec = mvp(ladder, dice(2), "t", team, ["H-01", "H-03", "H-04"])
    assert rec is not None and rec["player"] == "H-03" and players[2].spp == 5 and rec["roll"]["expr"] == "1D3"


def test_the_league_advances_and_carries_it(season_one: Path) -> None:
    """Season 1: every improvement is in a chapter with its die; the state file carries each player's
    advances, one per level his SPP reached (the sealed and the dead aside)."""
    shown = 0
    for md_path in sorted((season_one / "s01").glob("h*.md")):
        rec = json.loads(md_path.with_suffix(".json").read_text(encoding="utf-8"))
        md = md_path.read_text(encoding="utf-8")
        post = rec.get("post") or {}
        ups = list((post.get("growth") or {}).get("advances", [])) + [
            a for o in post.get("others", []) for a in o["growth"]["advances"]]
        for a in ups:
            shown += 1
            assert f"{a['name']}（{a['team']}，明星点数 {a['spp']}" in md and a["roll"]["id"] in md
    assert shown
    state = load_yaml_text((season_one / "s01" / "state-end.yaml").read_text(encoding="utf-8"), "state")
    th = (6, 16, 31, 51, 76, 176)
    sealed = {str((s.get("outcome") or {}).get("player")) for s in state.get("seals", [])}
    for team in [state["team"], *state["league"]]:
        for p in team["players"]:
            if p["id"] in sealed:  # his improvement waits for the reveal
                continue
            assert len(p.get("advances", [])) == sum(1 for t in th if p["spp"] >= t), (team["name"], p["name"])
