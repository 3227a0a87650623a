"""Hypothesis invariants of speeds, closing and disengagement (E16–E18)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anko_writer.rulesets.engage import movement
from anko_writer.rulesets.engage.units import Armour

SPEED = st.integers(0, 5)


@settings(max_examples=50)
@given(SPEED, SPEED, st.integers(0, 3), st.integers(0, 2), st.booleans())
def test_closing_never_adds_distance(closer: int, retreat: int, distance: int, obstacles: int, holds: bool) -> None:
    """E17: a closing move never leaves the units farther apart, and contact means 近战."""
    c = movement.close(closer=closer, retreat=retreat, distance=distance, obstacles=obstacles, holds=holds)
    assert 0 <= c.distance_after <= distance and 0 <= c.obstacles_after <= obstacles
    assert c.closed == (c.distance_after == 0 and c.obstacles_after == 0) or distance == 0
    assert c.wasted >= 0


@settings(max_examples=50)
@given(SPEED, SPEED)
def test_a_faster_leaver_never_does_worse(leaver: int, other: int) -> None:
    """E18: one level faster never lowers the chance of 脱离接战 nor adds 脱离久战 dice."""
    a = movement.disengage(leaver=leaver, other=other, phase="接战")
    b = movement.disengage(leaver=leaver + 1, other=other, phase="接战")
    assert a.quarters <= b.quarters
    la = movement.disengage(leaver=leaver, other=other, phase="久战")
    lb = movement.disengage(leaver=leaver + 1, other=other, phase="久战")
    assert la.extra_dice >= lb.extra_dice and la.success and lb.success


@settings(max_examples=50)
@given(st.sampled_from(["静止", "半速", "全速"]), st.booleans(), st.booleans(), st.booleans())
def test_speeds_stay_in_range_and_order(move: str, heavy: bool, untrained: bool, forest: bool) -> None:
    """E16: every speed is 0–5, and 静止 ≤ 半速 ≤ 全速."""
    full = movement.full_speed(training="未受训" if untrained else "受训",
                               armour=Armour("重甲" if heavy else "轻甲"), complex_zone=forest)
    got = [movement.mode_speed(full, m).value for m in ("静止", "半速", "全速")]
    assert got == sorted(got) and all(0 <= v <= 5 for v in got)
    assert movement.mode_speed(full, move).value in got
