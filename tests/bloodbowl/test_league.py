"""The league's own rules: the schedule, the table, the AI coach's plan."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from anko_writer.rulesets.bloodbowl.league.schedule import round_robin
from anko_writer.rulesets.bloodbowl.league.season import headline, part_of
from anko_writer.rulesets.bloodbowl.league.standings import MatchScore, table

NAMES = st.lists(st.text(alphabet="甲乙丙丁戊己庚辛壬癸子丑寅卯", min_size=1, max_size=3), min_size=2, max_size=12,
                 unique=True).filter(lambda xs: len(xs) % 2 == 0)


@given(NAMES)
def test_every_pair_meets_once_and_each_team_once_a_round(teams: list[str]) -> None:
    rounds = round_robin(teams)
    assert len(rounds) == len(teams) - 1
    pairs = [frozenset((f.home, f.away)) for r in rounds for f in r]
    assert sorted(pairs, key=sorted) == sorted((frozenset(p) for p in combinations(teams, 2)), key=sorted)
    for r in rounds:
        playing = [t for f in r for t in (f.home, f.away)]
        assert sorted(playing) == sorted(teams)


def test_six_teams_home_two_or_three_times() -> None:
    rounds = round_robin(list("ABCDEF"))
    homes = [sum(1 for r in rounds for f in r if f.home == t) for t in "ABCDEF"]
    assert all(h in (2, 3) for h in homes)


def test_standings_arithmetic_and_tie_breaks() -> None:
    games = [MatchScore("甲", "乙", 2, 1, 0, 1), MatchScore("丙", "丁", 1, 1, 2, 0),
             MatchScore("甲", "丙", 0, 0, 1, 0), MatchScore("乙", "丁", 3, 0, 0, 0)]
    rows = {r.team: r for r in table(["甲", "乙", "丙", "丁"], games)}
    assert (rows["甲"].points, rows["甲"].won, rows["甲"].drawn, rows["甲"].td_diff, rows["甲"].cas_for) == (4, 1, 1, 1, 1)
    assert (rows["丙"].points, rows["丙"].cas_for) == (2, 2)
    assert (rows["丁"].points, rows["丁"].lost, rows["丁"].td_against) == (1, 1, 4)
    assert [r.team for r in table(["甲", "乙", "丙", "丁"], games)] == ["甲", "乙", "丙", "丁"]
    # same points and touchdown difference: casualties inflicted decide
    tied = table(["甲", "乙"], [MatchScore("甲", "乙", 1, 1, 0, 2)])
    assert [r.team for r in tied] == ["乙", "甲"]


def test_part_numbers() -> None:
    assert [part_of(r, h) for r in range(1, 6) for h in (1, 2)] == list(range(1, 11))


def test_headline() -> None:
    assert headline({"turns": [{"team": "甲", "turnover": "touchdown"}]}, "甲") == "td_ours"
    assert headline({"turns": [], "casualties": [{"team": "乙"}]}, "甲") == "cas_theirs"
    assert headline({"turns": []}, "甲") == "grind"
