"""The league table read as races (issue 15, ``season/races.py``) on hand-built tables: who is within reach of
the leader, the lines where the settlement's bands change, our neighbours with the gaps, the bottom."""

from __future__ import annotations

from typing import Any

from anko_writer.resources import Resources
from anko_writer.rulesets.purasbar.season.races import Stake, races, stake, stakes_from
from anko_writer.rulesets.purasbar.setup.tables import load_purasbar_tables

# Bands: 1 | 2–3 | 4–5 | 6; prizes fall by 10 a place.
STAKES: list[Stake] = [stake(1, 60, 8, 15, 10), stake(2, 50, 5, 8, 6), stake(3, 40, 5, 8, 6), stake(4, 30, 0, 0, 0),
                       stake(5, 20, 0, 0, 0), stake(6, 10, -6, -10, -10)]


def _rows(*points: int) -> list[dict[str, Any]]:
    """A ranked table of clubs A, B, C… with these points."""
    return [{"team": chr(ord("A") + i), "points": p, "played": 20} for i, p in enumerate(points)]


def test_within_reach_is_three_points_a_match_left_ties_included() -> None:
    r = races(_rows(30, 27, 24, 23, 20, 5), 2, "D", STAKES)
    assert [c["team"] for c in r["chasers"]] == ["B", "C"]  # 6 = 3 × 2 is still in reach, 7 is not
    assert [c["gap"] for c in r["chasers"]] == [3, 6]
    assert not r["decided"] and not r["over"] and r["lead"] == 3
    assert r["ours"] is not None and not r["ours"]["in_reach"] and r["ours"]["behind_leader"] == 7


def test_a_decided_title_and_the_end_of_the_league() -> None:
    r = races(_rows(40, 30, 29, 20, 20, 1), 3, "B", STAKES)
    assert r["decided"] and r["chasers"] == [] and not r["over"] and r["lead"] == 10
    over = races(_rows(40, 39, 29, 20, 20, 1), 0, "B", STAKES)
    assert over["decided"] and over["over"] and over["leader"]["team"] == "A" and over["chasers"] == []


def test_lines_sit_where_the_bands_change_with_ties_on_points() -> None:
    r = races(_rows(30, 27, 24, 24, 20, 5), 4, "C", STAKES)
    assert [(line["last"], line["inside"]["team"], line["outside"]["team"], line["gap"]) for line in r["lines"]] == [
        (3, "C", "D", 0), (5, "E", "F", 15)]
    top3 = r["lines"][0]
    assert (top3["stake_in"]["reputation"], top3["stake_out"]["reputation"]) == (5, 0)
    ours = r["ours"]
    assert ours is not None and ours["rank"] == 3 and ours["prize"] == 40 and ours["prize_up"] == 10
    assert ours["above"] == {"team": "B", "points": 27, "gap": 3}
    assert ours["below"] == {"team": "D", "points": 24, "gap": 0}
    assert r["bottom"] == {"rank": 6, "team": "F", "points": 5} and r["bottom_gap"] == 15


def test_our_club_top_and_our_club_bottom() -> None:
    top = races(_rows(30, 30, 10, 9, 8, 7), 1, "A", STAKES)["ours"]
    assert top is not None and top["rank"] == 1 and top["above"] is None and top["prize_up"] == 0
    assert top["below"] == {"team": "B", "points": 30, "gap": 0} and top["in_reach"] and top["behind_leader"] == 0
    bottom = races(_rows(30, 20, 10, 9, 8, 7), 5, "F", STAKES)["ours"]
    assert bottom is not None and bottom["rank"] == 6 and bottom["below"] is None and bottom["prize"] == 10
    assert bottom["above"] == {"team": "E", "points": 8, "gap": 1} and bottom["behind_leader"] == 23
    assert not bottom["in_reach"]  # 23 > 3 × 5


def test_the_shipped_tables_give_every_place_its_stake() -> None:
    t = load_purasbar_tables(Resources("purasbar", None))
    s = stakes_from(t.prizes, t.fans, t.morale)
    assert len(s) == 24 and [x["rank"] for x in s] == list(range(1, 25))
    assert s[0]["prize"] > s[1]["prize"] and s[0]["reputation"] > s[1]["reputation"]
    r = races(_rows(*range(48, 0, -2)) + [], 5, "A", s)
    assert [line["last"] for line in r["lines"]] == [4, 8, 16, 20, 23]  # fans.yaml / morale.yaml bands
