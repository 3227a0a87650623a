"""The d4 mapping over every face (E5 in §0.2) and Hypothesis invariants of the cohesion and morale checks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.dice import Dice
from anko_writer.rulesets.engage import checks
from anko_writer.rulesets.engage.units import TRAINING

LEVEL = st.sampled_from(TRAINING)


def test_k_quarters_succeed_on_exactly_k_faces() -> None:
    """002 一: a chance of k quarters is k of the d4's four faces (0/25/50/75/100 %)."""
    for k in range(5):
        wins = 0
        for face in range(1, 5):
            d = Dice(1)
            d.fix(face)
            wins += checks.check(k, d, "k").success
        assert wins == k


@settings(max_examples=50)
@given(LEVEL, st.integers(0, 8), st.booleans())
def test_more_casualty_steps_never_help_cohesion(training: str, steps: int, fire: bool) -> None:
    """E19: one more casualty step never raises the chance to keep 紧密; training never lowers it."""
    lo = checks.cohesion(training, steps=steps + 1, fire_arrows=fire).quarters
    hi = checks.cohesion(training, steps=steps, fire_arrows=fire).quarters
    assert 0 <= lo <= hi <= 4


@settings(max_examples=50)
@given(st.integers(1, 600), st.integers(0, 600), st.booleans())
def test_morale_grows_with_training(start: int, lost: int, commander: bool) -> None:
    """E20: a better-trained unit never has a smaller morale chance, all else equal."""
    lost = min(lost, start)
    ks = [checks.morale(t, start_men=start, lost=lost, commander=commander).quarters for t in TRAINING]
    assert all(0 <= k <= 4 for k in ks)
    assert ks == sorted(ks)
