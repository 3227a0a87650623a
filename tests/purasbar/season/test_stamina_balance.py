"""The designed weekly recovery (half of §5.6's amount) lets fatigue act in league months too, and
leaves the eight-match cup month with squads (docs/rules-coverage.md, "Weekly recovery")."""

from __future__ import annotations

from typing import Any

from anko_writer.rulesets.purasbar.season.matchday import REST_SHARE


def _matches(run: Any, league: bool) -> list[dict[str, Any]]:
    """Every match of the season, league or cup."""
    return [m for ch in run.chapters for m in ch.results.get("matches") or []
            if (m["competition"] == "league") == league]


def test_fatigue_acts_in_league_months(season_245) -> None:  # noqa: ANN001
    """Season 1 of the seed-245 campaign: under 75 % of league starts at 100 (95 % with the full weekly
    amount), over 10 % of league players end a match under §5.3.2's 50, and §5.7.3's retirement check
    (stamina under 20 after a slice) is rolled in league matches."""
    assert REST_SHARE == 2
    league = _matches(season_245[1], league=True)
    starts = [e["stamina"] for m in league for s in ("home", "away") for e in m["lineups"][s][:11]]
    ends = [e["stamina_end"] for m in league for s in ("home", "away") for e in m["lineups"][s]]
    checks = sum(r.get("kind") == "retired" for m in league for r in m["injuries"])
    assert len(starts) > 5000
    assert sum(s == 100 for s in starts) / len(starts) < 0.75
    assert sum(e < 50 for e in ends) / len(ends) > 0.10
    assert checks > 10


def test_cup_month_squads_survive(season_245) -> None:  # noqa: ANN001
    """The eight-match cup month: under 10 % of its starts below 30 stamina."""
    cup = _matches(season_245[1], league=False)
    starts = [e["stamina"] for m in cup for s in ("home", "away") for e in m["lineups"][s][:11]]
    assert len(starts) > 1000
    assert sum(s < 30 for s in starts) / len(starts) < 0.10
