"""000 §4.2 league calendar: a 23-round single round robin, home sides by 1D2, rounds by month."""

from __future__ import annotations

from dataclasses import dataclass

from ....dice import Dice, shuffle
from ....kit.league import circle
from .records import FixtureRecord

ROUNDS_BY_MONTH: dict[int, tuple[int, ...]] = {
    **{m: (2 * m - 1, 2 * m) for m in range(1, 11)},
    11: (21, 22, 23),
}
"""000 §4.2.1: two rounds a month in months 1–10, three in month 11 (2 × 10 + 3 = 23)."""


@dataclass(frozen=True)
class Fixture:
    """One league pairing: round, the published pair (A, B), and the 1D2 that gave the home side."""

    round: int
    a: str
    b: str
    home_roll: int
    roll_id: str

    @property
    def home(self) -> str:
        """1 = at A's ground, 2 = at B's (000 §4.2.2)."""
        return self.a if self.home_roll == 1 else self.b

    @property
    def away(self) -> str:
        """The other side."""
        return self.b if self.home_roll == 1 else self.a

    def to_json(self) -> FixtureRecord:
        """Plain record."""
        return {"round": self.round, "a": self.a, "b": self.b, "home_roll": self.home_roll,
                "roll_id": self.roll_id, "home": self.home, "away": self.away}


def round_robin(teams: list[str]) -> list[list[tuple[str, str]]]:
    """Circle method: ``n - 1`` rounds in which every team meets every other exactly once (the kit's
    circle turned left; the fixed team's pair alternates which side is listed first, so it is not always "A").

    >>> rounds = round_robin(["甲", "乙", "丙", "丁"])
    >>> len(rounds), sorted(len(r) for r in rounds)
    (3, [2, 2, 2])
    """
    return circle(teams, rotate="left")


def make_schedule(dice: Dice, key: str, clubs: list[str]) -> tuple[list[Fixture], list[str]]:
    """The season's league schedule, published before month 1 (000 §4.2.2).

    The order of clubs in the circle is shuffled by visible dice (1D24, 1D23, …), then every pairing
    gets its 1D2 home roll in round order.
    """
    order, _ = shuffle(dice, f"{key}/order", clubs, "赛程抽签", kind="schedule_draw")
    fixtures = []
    for r, pairs in enumerate(round_robin(order), start=1):
        for a, b in pairs:
            roll = dice.roll(f"{key}/home", "1D2", f"第{r}轮 {a}—{b} 主客场")
            fixtures.append(Fixture(r, a, b, roll.total, roll.id))
    return fixtures, order
