"""The league table (designed): 3 points a win, 1 a draw; ties by touchdown difference, casualties
inflicted, touchdowns scored, then the league's order.

>>> t = table(["甲", "乙"], [MatchScore("甲", "乙", 2, 1, 1, 0)])
>>> [(r.team, r.points, r.td_diff) for r in t]
[('甲', 3, 1), ('乙', 0, -1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from ....kit import league

WIN, DRAW = 3, 1
"""Points for a win and a draw (designed)."""


@dataclass(frozen=True)
class MatchScore:
    """A finished match as the table counts it."""

    home: str
    away: str
    td_home: int
    td_away: int
    cas_home: int
    """Casualties the home team inflicted."""
    cas_away: int


@dataclass
class Row(league.Row):
    """One team's line of the table (the kit's played / won / drawn / lost, then touchdowns, casualties and
    points)."""

    td_for: int = 0
    td_against: int = 0
    cas_for: int = 0
    cas_against: int = 0
    points: int = 0

    @property
    def td_diff(self) -> int:
        """Touchdowns scored minus conceded."""
        return self.td_for - self.td_against

    def add(self, td_for: int, td_against: int, cas_for: int, cas_against: int) -> None:
        """Count one match."""
        outcome = self.count(td_for, td_against)
        self.td_for += td_for
        self.td_against += td_against
        self.cas_for += cas_for
        self.cas_against += cas_against
        self.points += WIN if outcome == "win" else DRAW if outcome == "draw" else 0

    def to_json(self) -> dict[str, object]:
        """The row with its touchdown difference."""
        return {**asdict(self), "td_diff": self.td_diff}


def table(teams: Sequence[str], matches: Iterable[MatchScore]) -> list[Row]:
    """The table after ``matches``, ranked."""
    rows = {t: Row(t) for t in teams}
    for m in matches:
        rows[m.home].add(m.td_home, m.td_away, m.cas_home, m.cas_away)
        rows[m.away].add(m.td_away, m.td_home, m.cas_away, m.cas_home)
    return league.standings(teams, rows, key)


def key(r: Row) -> tuple[int, int, int, int]:
    """The ranking: points, touchdown difference, casualties inflicted, touchdowns scored (most first)."""
    return (-r.points, -r.td_diff, -r.cas_for, -r.td_for)


__all__ = ["DRAW", "MatchScore", "Row", "WIN", "key", "table"]
