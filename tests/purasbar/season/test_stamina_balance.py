"""The designed weekly recovery (a third of §5.6's amount) lets fatigue act in league months too, and
leaves the eight-match cup month with squads (docs/rules-coverage.md, "Weekly recovery")."""

from __future__ import annotations

from typing import Any

from anko_writer.rulesets.purasbar.season.matchday import REST_SHARE


def _starts(run: Any) -> tuple[list[int], list[int]]:
    """The kick-off stamina of every starter: (league matches, cup matches)."""
    league: list[int] = []
    cup: list[int] = []
    for ch in run.chapters:
        for m in ch.results.get("matches") or []:
            for side in ("home", "away"):
                starts = [e["stamina"] for e in m["lineups"][side][:11]]
                (league if m["competition"] == "league" else cup).extend(starts)
    return league, cup


def test_league_starts_are_not_all_fresh_and_cup_squads_survive(season_245) -> None:  # noqa: ANN001
    """Season 1 of the seed-245 campaign: fewer than 60 % of league starts at 100 (95 % with the full
    weekly amount), at least 1 % of them under §5.3.2's 50, and under 15 % of cup starts below 30."""
    assert REST_SHARE == 3
    league, cup = _starts(season_245[1])
    assert len(league) > 5000 and len(cup) > 1000
    fresh = sum(s == 100 for s in league) / len(league)
    tired = sum(s < 50 for s in league) / len(league)
    spent = sum(s < 30 for s in cup) / len(cup)
    assert 0.1 < fresh < 0.6, fresh
    assert tired > 0.01, tired
    assert spent < 0.15, spent
