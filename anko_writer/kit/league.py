"""A league: the round robin by the circle method, and a table ranked by a key the ruleset supplies.

The circle method keeps the first team in place and turns the others one seat a round. Rulesets differ in
which way the ring turns and which pairs are turned round (who is listed first, i.e. at home), so both are
parameters; the first pair is turned every second round in every variant, so the fixed team is not always
listed first.

>>> circle(["甲", "乙", "丙", "丁"], rotate="right", turn_odd_pairs=True)
[[('甲', '丁'), ('丙', '乙')], [('丙', '甲'), ('乙', '丁')], [('甲', '乙'), ('丁', '丙')]]
>>> circle(["甲", "乙", "丙", "丁"], rotate="left")
[[('甲', '丁'), ('乙', '丙')], [('乙', '甲'), ('丙', '丁')], [('甲', '丙'), ('丁', '乙')]]

A table counts results into rows (:class:`Row` or a ruleset's subclass with its own columns) and
:func:`standings` ranks them by the ruleset's key, ties kept in the league's order or split by the
ruleset's own rule (a head-to-head mini-league, say):

>>> rows = {t: Row(t) for t in ("甲", "乙", "丙")}
>>> rows["乙"].count(2, 0), rows["甲"].count(0, 2), rows["丙"].count(1, 1)
('win', 'loss', 'draw')
>>> [r.team for r in standings(["甲", "乙", "丙"], rows, lambda r: (-3 * r.won - r.drawn,))]
['乙', '丙', '甲']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Literal, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

Outcome = Literal["win", "draw", "loss"]
"""A match's result for one side."""


def circle(teams: Sequence[str], *, rotate: Literal["left", "right"] = "left",
           turn_odd_pairs: bool = False) -> list[list[tuple[str, str]]]:
    """The ``n − 1`` rounds of a single round robin (an even number of teams), each a list of pairs.

    Round ``k`` (from 0) seats ``teams[0]`` and then the others turned ``k`` seats (``left``: the ring
    starts at ``teams[1 + k]``; ``right``: at ``teams[n − 1 − k]``, wrapping); pair ``i`` is the ``i``-th
    seat against the ``i``-th from the end. The first pair is turned round in odd rounds; with
    ``turn_odd_pairs`` every odd-numbered pair (the 2nd, 4th, …) is turned too, which spreads home games.
    """
    n = len(teams)
    if n < 2 or n % 2:
        raise ValueError(f"a round robin needs an even number of teams, got {n}")
    fixed, ring = teams[0], list(teams[1:])
    m = len(ring)
    rounds: list[list[tuple[str, str]]] = []
    for k in range(n - 1):
        shift = k if rotate == "left" else -k
        seats = [fixed, *(ring[(j + shift) % m] for j in range(m))]
        pairs = []
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if (k % 2 == 1) if i == 0 else (turn_odd_pairs and i % 2 == 1):
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
    return rounds


@dataclass
class Row:
    """One team's line of a table: games played, won, drawn and lost (a ruleset adds its own columns)."""

    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0

    def count(self, scored: int, conceded: int) -> Outcome:
        """Count one match by its score and say how it ended for this team."""
        self.played += 1
        if scored > conceded:
            self.won += 1
            return "win"
        if scored == conceded:
            self.drawn += 1
            return "draw"
        self.lost += 1
        return "loss"


RowT = TypeVar("RowT")


def standings(teams: Sequence[str], rows: Mapping[str, RowT], key: Callable[[RowT], SupportsRichComparison], *,
              split: Callable[[list[str]], list[str]] | None = None) -> list[RowT]:
    """``rows`` ranked by ``key`` (smallest first: give ``-points`` for most points first).

    Teams level on the key keep their order in ``teams``, unless ``split`` is given: it gets each group of
    two or more level teams (in ``teams``' order) and returns them ranked by the ruleset's tie-break.
    """
    ranked = sorted(teams, key=lambda t: key(rows[t]))
    if split is None:
        return [rows[t] for t in ranked]
    out: list[str] = []
    for _, level in groupby(ranked, key=lambda t: key(rows[t])):
        group = list(level)
        out.extend(group if len(group) == 1 else split(group))
    return [rows[t] for t in out]


__all__ = ["Outcome", "Row", "circle", "standings"]
