"""The season's schedule: a single round robin by the circle method (every pair meets once).

>>> rounds = round_robin(["甲", "乙", "丙", "丁"])
>>> [[(f.home, f.away) for f in r] for r in rounds]
[[('甲', '丁'), ('丙', '乙')], [('丙', '甲'), ('乙', '丁')], [('甲', '乙'), ('丁', '丙')]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ....kit.league import circle


@dataclass(frozen=True)
class Fixture:
    """One match of a round."""

    round: int
    """The round, 1 to n − 1."""
    game: int
    """Its index in the round (1, 2, …): names the match's dice streams."""
    home: str
    away: str

    def has(self, team: str) -> bool:
        """Whether ``team`` plays in it."""
        return team in (self.home, self.away)

    def to_json(self) -> dict[str, object]:
        """``{round, game, home, away}``."""
        return {"round": self.round, "game": self.game, "home": self.home, "away": self.away}


def round_robin(teams: Sequence[str]) -> list[list[Fixture]]:
    """Rounds of a single round robin (an even number of teams): the kit's circle method with the ring
    turned right, the first pair swapping home every other round and every second pair turned, so with six
    teams each is at home two or three times."""
    return [[Fixture(r, i + 1, a, b) for i, (a, b) in enumerate(pairs)]
            for r, pairs in enumerate(circle(teams, rotate="right", turn_odd_pairs=True), start=1)]


__all__ = ["Fixture", "round_robin"]
