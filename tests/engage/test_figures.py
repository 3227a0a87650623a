"""The note's figures (benchmarks/engage_figures.py) on a few seeds: every engagement is counted once against its
exact distribution, and every battle ends within the round cap with a known winner or none."""

from __future__ import annotations

from fractions import Fraction

from benchmarks.engage_figures import figures, report


def test_the_figures_count_every_engagement_against_its_exact_distribution() -> None:
    f = figures(3)
    assert sum(f["exact"].values()) == Fraction(sum(f["observed"].values())) > 0
    assert set(f["observed"]) <= set(range(0, 101, 10)) and all(1 <= r <= 12 for r in f["rounds"])
    assert sum(f["winners"].values()) == 3 and set(f["winners"]) <= {"边防军", "巨魔", "（无）"}
    assert "casualty result" in report(f)
