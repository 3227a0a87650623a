"""The records the competitions write (000 ch.4): fixtures, table rows, the 群英杯 stages, draw and roll-off.

Records are plain dicts at runtime (JSON for the chapters); these types name their keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypedDict
else:  # the shapes are for mypy: none is built when this runs
    from ..models import RecordShape as TypedDict

from ....dice import RollJson


class FixtureRecord(TypedDict):
    """One league pairing (000 §4.2.2): the published pair, the 1D2 and the home side it gave."""

    round: int
    a: str
    b: str
    home_roll: int
    roll_id: str
    home: str
    away: str


class StandingRow(TypedDict):
    """One club's line in a table (DESIGN §5 standings record)."""

    team: str
    played: int
    won: int
    drawn: int
    lost: int
    gf: int
    ga: int
    gd: int
    points: int


class SwissRow(StandingRow):
    """A Swiss table line: the standings and 对手积分总和, the fourth criterion (000 §4.3.1)."""

    opp_points: int


class Stage(TypedDict):
    """One match day of the cup month (DESIGN §5 ``round``: Swiss 1–5; knockout 1 QF, 2 SF, 3 final)."""

    competition: str
    round: int
    stage: str
    matches: int
    neutral: bool


class DrawGroup(TypedDict):
    """A score group of the Swiss draw, shuffled by visible dice (000 §4.3.1)."""

    points: int
    teams: list[str]
    rolls: list[RollJson]


class Floater(TypedDict):
    """A cross-group pair of the Swiss draw: ``team`` floats down ``groups_down`` groups to meet ``opponent``."""

    team: str
    points: int
    opponent: str
    opponent_points: int
    groups_down: int


class SwissDraw(TypedDict):
    """One Swiss round's draw (000 §4.3.1): groups, seeding, pairs and the floats they needed."""

    round: int
    groups: list[DrawGroup]
    seeding: list[str]
    pairs: list[list[str]]
    floaters: list[Floater]
    float_steps: int
    float_steps_free: int
    """The least float cost were rematches allowed."""


class RollOffThrow(TypedDict):
    """One club's 1D100 in the 8th-place roll-off (000 §4.3.1)."""

    team: str
    roll: RollJson


class RollOff(TypedDict):
    """The 8th-place roll-off (000 §4.3.1): who was level, the places left, each round of throws."""

    tied: list[str]
    slots: int
    throws: list[list[RollOffThrow]]
    advanced: list[str]
    eliminated: list[str]
