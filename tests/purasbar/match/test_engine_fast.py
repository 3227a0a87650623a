"""Issue 29 round 3: the match engine's shortcuts compute what the plain rules compute (000 §5.1, §5.6)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Weighted
from anko_writer.rulesets.purasbar.match.abilities import effective_all, effective_total
from anko_writer.rulesets.purasbar.match.engine import (
    _SHOOTER_DRAWS,
    SHOOTER_WEIGHTS,
    recoveries,
    recovery,
)
from anko_writer.rulesets.purasbar.match.formations import COUNTERS, FORMATIONS, counter
from anko_writer.rulesets.purasbar.match.injuries import SLICE_MINUTES, minutes_played
from anko_writer.rulesets.purasbar.match.lineup import need, needs
from tests.util import club, player, side

FORMS = st.sampled_from(sorted(FORMATIONS))
ATTRS = st.sampled_from(["ATK", "DEF", "MID", "GK"])


@st.composite
def _group(draw: st.DrawFn) -> list:
    n = draw(st.integers(0, 5))
    return [player(f"p{i}", "MF", atk=draw(st.integers(1, 99)), df=draw(st.integers(1, 99)),
                   mid=draw(st.integers(1, 99)), gk=draw(st.integers(1, 99)), stamina=draw(st.integers(0, 100)))
            for i in range(n)]


@settings(max_examples=200, deadline=None)
@given(_group(), ATTRS, FORMS, st.booleans(), st.data())
def test_side_mean_is_the_floored_mean_of_values(players: list, attr: str, formation: str, adapting: bool,
                                                 data: st.DataObject) -> None:
    """000 §5.1.1: a group's mean over Side.value (stand-ins, training bonus, boosts and all), rounded down."""
    s = side(club("甲", players), {"GK": [], "DF": [], "MF": players, "FW": []}, formation, 0)
    s.adapting = adapting
    for p in players:
        kind = data.draw(st.sampled_from(["none", "temp", "pre", "boost"]))
        if kind == "temp":
            s.temp[p.name] = (data.draw(ATTRS), data.draw(st.integers(1, 80)))
        elif kind == "pre":
            s.pre_bonus[p.name] = (data.draw(ATTRS), 2)
        elif kind == "boost":
            s.boost[p.name] = 3
    values = [s.value(p, attr) for p in players]
    assert s.mean(players, attr) == (sum(values) // len(values) if values else 0)
    assert effective_total(players, attr, formation, -2) == sum(effective_all(players, attr, formation, -2))


def test_shooter_draws_pick_as_weighted() -> None:
    """000 §5.1.2 step 1: every face of every kept set of groups picks the group Weighted.pick picks."""
    for present, draw in _SHOOTER_DRAWS.items():
        if not any(present):
            continue
        weights = Weighted(tuple((g, w) for (g, w), here in zip(SHOOTER_WEIGHTS, present, strict=True) if here))
        assert draw.expr.text == f"1D{weights.total}" and draw.options == weights.options
        assert draw.reweighted == (not all(present))
        assert [draw.pick(f) for f in range(1, weights.total + 1)] == \
            [weights.pick(f) for f in range(1, weights.total + 1)]
    assert _SHOOTER_DRAWS[True, True, True].expr.text == "1D100"  # 50 + 30 + 20


def test_counter_table_is_counter() -> None:
    """000 §7.1.1: the looked-up modifier of every pair is the rule's."""
    assert COUNTERS == {(a, b): counter(a, b) for a in FORMATIONS for b in FORMATIONS}
    assert COUNTERS["4 3 3", "4 4 2"] == 2 and COUNTERS["4 4 2", "4 3 3"] == -2


@given(st.integers(-100, 100), st.integers(0, 5), st.integers(0, 5), st.integers(1, 6), st.integers(17, 40))
def test_recoveries_are_recovery(morale: int, medical: int, doctor: int, match_no: int, age: int) -> None:
    """000 §5.6: the per-side pair gives each player's recovery."""
    c = club("甲", [], morale=morale, doctor=doctor)
    c.facilities["medical"] = medical
    p = player("乙", "FW", age=age)
    young, other = recoveries(c, match_no)
    assert recovery(c, p, match_no) == (young if age <= 23 else other)


@given(st.lists(st.sampled_from(sorted(SLICE_MINUTES)), max_size=10))
def test_minutes_played_cached(slices: list[int]) -> None:
    """Designed from 000 §5.2: each slice counted once, the same on the second call (cached)."""
    expected = sum(SLICE_MINUTES[s] for s in set(slices))
    assert minutes_played(slices) == expected == minutes_played(iter(slices))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["GK", "DF", "MF", "FW"]), st.booleans(), st.booleans()), max_size=24))
def test_needs_by_census_is_need(squad: list) -> None:
    """Designed 000 §3.4: the cached needs of a squad are each formation's need counted afresh."""
    players = []
    for i, (pos, rolled, injured) in enumerate(squad):
        p = player(f"p{i}", pos)
        if not rolled:
            p.attrs = {}
        p.injured_weeks = 2 if injured else 0
        players.append(p)
    c = club("甲", players)
    assert needs(c) == {f: need(c, f) for f in FORMATIONS} == needs(c)


@settings(max_examples=200, deadline=None)
@given(_group(), _group(), _group(), FORMS, st.booleans(), st.data())
def test_line_means_are_the_group_means(fw: list, mf: list, df: list, formation: str, adapting: bool,
                                        data: st.DataObject) -> None:
    """000 §5.1.1: Side.line_means is Side.mean of FW ATK, MF MID and DF DEF, stand-ins and boosts or none."""
    for i, p in enumerate(fw + mf + df):
        p.name = f"q{i}"
    s = side(club("甲", fw + mf + df), {"GK": [], "DF": df, "MF": mf, "FW": fw}, formation, 0)
    s.adapting = adapting
    if data.draw(st.booleans()) and fw + mf + df:
        s.boost[data.draw(st.sampled_from(fw + mf + df)).name] = 3
    assert s.line_means() == (s.mean(fw, "ATK"), s.mean(mf, "MID"), s.mean(df, "DEF"))
