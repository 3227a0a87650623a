"""000 §4.2 / §4.4 step 1 league table: points > goal difference > goals for > head-to-head."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ....kit import league
from .records import StandingRow

WIN, DRAW, LOSS = 3, 1, 0
"""Points for a result (the usual 3–1–0; the rulebook counts 积分 without restating them)."""
FORM: dict[league.Outcome, str] = {"win": "胜", "draw": "平", "loss": "负"}
"""A result's mark in a club's form line."""


@dataclass
class Row(league.Row):
    """One club's line in the table (the kit's played / won / drawn / lost, then goals and form)."""

    gf: int = 0
    ga: int = 0
    form: list[str] = field(default_factory=list)

    @property
    def points(self) -> int:
        """3 a win, 1 a draw."""
        return self.won * WIN + self.drawn * DRAW

    @property
    def gd(self) -> int:
        """Goal difference."""
        return self.gf - self.ga

    def add(self, scored: int, conceded: int) -> None:
        """Count one result."""
        self.gf += scored
        self.ga += conceded
        self.form.append(FORM[self.count(scored, conceded)])

    def to_json(self) -> StandingRow:
        """DESIGN §5 standings record."""
        return {"team": self.team, "played": self.played, "won": self.won, "drawn": self.drawn,
                "lost": self.lost, "gf": self.gf, "ga": self.ga, "gd": self.gd, "points": self.points}


Result = tuple[str, str, int, int]
"""(home, away, home goals, away goals)."""


def table(teams: Iterable[str], results: list[Result]) -> list[Row]:
    """The ranked table. Ties on points, GD and GF are split by the mini-league of the tied clubs'
    matches among themselves (points, then GD, then GF); what is still tied keeps the given order
    of ``teams`` (000 §2.1, by PBS) — a choice, the text stops at head-to-head.
    """
    order = list(teams)
    rows = table_rows(order, results)
    return league.standings(order, rows, _main_key, split=lambda group: _head_to_head(group, results, order))


def _main_key(r: Row) -> tuple[int, int, int]:
    return (-r.points, -r.gd, -r.gf)


def _head_to_head(group: list[str], results: list[Result], order: list[str]) -> list[str]:
    if len(group) == 1:
        return group
    members = set(group)
    mini = table_rows(group, [r for r in results if r[0] in members and r[1] in members])
    return sorted(group, key=lambda t: (-mini[t].points, -mini[t].gd, -mini[t].gf, order.index(t)))


def table_rows(teams: list[str], results: list[Result]) -> dict[str, Row]:
    """Unranked rows for ``teams`` from ``results``."""
    rows = {t: Row(t) for t in teams}
    for h, a, hg, ag in results:
        rows[h].add(hg, ag)
        rows[a].add(ag, hg)
    return rows
