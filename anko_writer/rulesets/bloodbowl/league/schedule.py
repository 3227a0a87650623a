"""The season's schedule: a single round robin by the circle method (every pair meets once).

>>> rounds = round_robin(["甲", "乙", "丙", "丁"])
>>> [[(f.home, f.away) for f in r] for r in rounds]
[[('甲', '丁'), ('丙', '乙')], [('丙', '甲'), ('乙', '丁')], [('甲', '乙'), ('丁', '丙')]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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
    """Rounds of a single round robin (an even number of teams): the first team stays, the others rotate;
    the first pair swaps home every other round and every second pair is turned, so with six teams
    each is at home two or three times."""
    n = len(teams)
    if n < 2 or n % 2:
        raise ValueError(f"a round robin needs an even number of teams, got {n}")
    ring = list(teams[1:])
    rounds: list[list[Fixture]] = []
    for r in range(1, n):
        order = [teams[0], *ring]
        games = []
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            if (r % 2 == 0) if i == 0 else (i % 2 == 1):
                a, b = b, a
            games.append(Fixture(r, i + 1, a, b))
        rounds.append(games)
        ring = [ring[-1], *ring[:-1]]
    return rounds


__all__ = ["Fixture", "round_robin"]
