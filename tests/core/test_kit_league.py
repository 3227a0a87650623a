"""The league kit: the circle method in both rulesets' variants (pinned to the orders they printed before the
move), and standings with a ruleset's key and tie split."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anko_writer.kit import league
from anko_writer.rulesets.bloodbowl.league import schedule as bb_schedule
from anko_writer.rulesets.bloodbowl.league import standings as bb_standings
from anko_writer.rulesets.purasbar.competition import schedule as pb_schedule
from anko_writer.rulesets.purasbar.competition import standings as pb_standings

BB_SIX = [[("A", "F"), ("E", "B"), ("C", "D")], [("E", "A"), ("D", "F"), ("B", "C")],
          [("A", "D"), ("C", "E"), ("F", "B")], [("C", "A"), ("B", "D"), ("E", "F")],
          [("A", "B"), ("F", "C"), ("D", "E")]]
"""Blood Bowl's six-team schedule as its own scheduler printed it before the kit."""
PB_SIX = [[("A", "F"), ("B", "E"), ("C", "D")], [("B", "A"), ("C", "F"), ("D", "E")],
          [("A", "C"), ("D", "B"), ("E", "F")], [("D", "A"), ("E", "C"), ("F", "B")],
          [("A", "E"), ("F", "D"), ("B", "C")]]
"""purasbar's six-team circle as its own scheduler printed it before the kit."""


def test_circle_variants_reproduce_both_rulesets() -> None:
    """Right-turning with odd pairs turned is Blood Bowl's order; left-turning is purasbar's."""
    assert league.circle(list("ABCDEF"), rotate="right", turn_odd_pairs=True) == BB_SIX
    assert league.circle(list("ABCDEF")) == PB_SIX


def test_rulesets_schedule_through_the_kit() -> None:
    """Both rulesets' schedulers print the pinned orders (and so go through the kit unchanged)."""
    assert [[(f.home, f.away) for f in r] for r in bb_schedule.round_robin(list("ABCDEF"))] == BB_SIX
    assert [[f.game for f in r] for r in bb_schedule.round_robin(list("ABCDEF"))] == [[1, 2, 3]] * 5
    assert pb_schedule.round_robin(list("ABCDEF")) == PB_SIX


@pytest.mark.parametrize("n", [0, 1, 3, 7])
def test_circle_refuses_an_odd_or_empty_league(n: int) -> None:
    """A round robin by the circle method needs an even number of teams (at least two)."""
    with pytest.raises(ValueError, match=f"got {n}"):
        league.circle([str(i) for i in range(n)])


@given(st.integers(1, 12), st.sampled_from(["left", "right"]), st.booleans())
def test_circle_every_pair_once(half: int, rotate: str, odd: bool) -> None:
    """Every pair meets exactly once, and every team plays once a round, in every variant."""
    teams = [f"t{i}" for i in range(2 * half)]
    rounds = league.circle(teams, rotate=rotate, turn_odd_pairs=odd)  # type: ignore[arg-type]
    assert len(rounds) == 2 * half - 1
    for r in rounds:
        assert sorted(t for p in r for t in p) == sorted(teams)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == len(set(pairs)) == half * (2 * half - 1)


def test_standings_key_then_league_order_then_split() -> None:
    """Level teams keep the league's order unless the ruleset's split ranks them."""
    rows = {t: league.Row(t) for t in "ABC"}
    rows["C"].count(1, 0)
    key = lambda r: (-r.won,)  # noqa: E731
    assert [r.team for r in league.standings("ABC", rows, key)] == ["C", "A", "B"]
    flipped = league.standings("ABC", rows, key, split=lambda g: g[::-1])
    assert [r.team for r in flipped] == ["C", "B", "A"]


def test_row_counts_outcomes() -> None:
    """A row counts played, won, drawn and lost, and says the outcome."""
    r = league.Row("A")
    assert [r.count(2, 1), r.count(0, 0), r.count(0, 3)] == ["win", "draw", "loss"]
    assert (r.played, r.won, r.drawn, r.lost) == (3, 1, 1, 1)


def test_bloodbowl_row_json_keeps_its_columns() -> None:
    """Blood Bowl's row (now a kit row) writes the same keys in the same order as before."""
    t = bb_standings.table(["甲", "乙"], [bb_standings.MatchScore("甲", "乙", 2, 1, 1, 0)])
    assert list(t[0].to_json()) == ["team", "played", "won", "drawn", "lost", "td_for", "td_against", "cas_for",
                                    "cas_against", "points", "td_diff"]
    assert t[0].to_json()["points"] == 3 and t[1].to_json()["lost"] == 1


def test_purasbar_head_to_head_still_splits_a_tie() -> None:
    """Level on points, GD and GF, the mini-league decides; its form line is kept."""
    results = [("A", "B", 1, 0), ("B", "C", 1, 0), ("C", "A", 1, 0)]
    rows = pb_standings.table(["A", "C", "B", "D"], [*results, ("D", "A", 0, 0)])
    assert [r.team for r in rows] == ["A", "B", "C", "D"]  # B and C level; B beat C
    assert pb_standings.table_rows(["A", "B"], [("A", "B", 2, 2)])["A"].form == ["平"]
