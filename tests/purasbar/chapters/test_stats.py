"""Statistical checks with fixed seeds: the dice are fair and goals come as often as §5.1.2 says."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from anko_writer.campaign import load_campaign
from anko_writer.dice import Stream
from anko_writer.rulesets.purasbar import RULESET
from tests.util import RES, campaign_file, season_run

CHI2_999 = {29: 58.30, 49: 85.35, 99: 148.23}
"""χ² critical values at p = 0.001 for the degrees of freedom used here."""


def _chi2(counts: Counter, sides: int) -> float:
    n = sum(counts.values())
    e = n / sides
    return sum((counts.get(f, 0) - e) ** 2 / e for f in range(1, sides + 1))


@pytest.mark.parametrize("sides", [30, 50, 100])
def test_stream_faces_are_uniform(sides: int) -> None:
    s = Stream(12345, f"uniform/{sides}")
    counts = Counter(s.randint(sides) for _ in range(sides * 400))
    assert _chi2(counts, sides) < CHI2_999[sides - 1]


@pytest.fixture(scope="module")
def attacks(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """Every attack of the league months (1 to 11) of two seasons: seed 245's is ``season_run``'s, shared with
    other files (months 1 to 11 of a whole season are those of a season played to month 11)."""
    out = []
    for seed in (245, 98):
        if seed == 245:
            months = season_run(seed).months[:11]
        else:
            path = campaign_file(tmp_path_factory.mktemp(f"s{seed}"), seed=seed)
            months = RULESET.play_season(load_campaign(path), 1, 11, RES).months
        assert [ch.month for ch in months] == list(range(1, 12))
        out += [a for ch in months for m in ch.results["matches"] for a in m["attacks"]]
    return out


def test_league_attack_dice_are_uniform_1d30(attacks: list[dict]) -> None:
    """Every league attack uses a 1D30 (000 §5.1.1), and its faces are uniform (χ², p = 0.001)."""
    assert {a["die_sides"] for a in attacks} == {30}
    counts = Counter(a["die"] for a in attacks)
    assert len(attacks) == 2 * 276 * 12
    assert _chi2(counts, 30) < CHI2_999[29]


def p_goal(atk: int, gk: int) -> float:
    """§5.1.2: P(1D50 + floor((ATK − GK)/2) > 20)."""
    need = 20 - (atk - gk) // 2  # the die must exceed this
    return min(50, max(0, 50 - need)) / 50


def test_goal_rate_matches_the_finish_formula(attacks: list[dict]) -> None:
    """Observed goals per shot agree with the sum of the §5.1.2 probabilities within 4 standard deviations."""
    shots = [a for a in attacks if a["shot"]]
    assert len(shots) > 1000
    expected = sum(p_goal(a["shooter_atk"], a["keeper_gk"]) for a in shots)
    var = sum(p * (1 - p) for p in (p_goal(a["shooter_atk"], a["keeper_gk"]) for a in shots))
    observed = sum(a["goal"] for a in shots)
    assert abs(observed - expected) < 4 * math.sqrt(var)
    finish = Counter(a["finish_die"] for a in shots)
    assert _chi2(finish, 50) < CHI2_999[49]


def test_shooter_groups_follow_50_30_20(attacks: list[dict]) -> None:
    """With every group on the pitch the D100 sends 50% of shots to FW, 30% to MF, 20% to DF/GK."""
    shots = [a for a in attacks if a["shot"]]
    n = len(shots)
    got = Counter(a["shooter_pick"]["group"] for a in shots)
    for group, p in (("FW", 0.5), ("MF", 0.3), ("OTHER", 0.2)):
        assert abs(got[group] - n * p) < 4 * math.sqrt(n * p * (1 - p))
