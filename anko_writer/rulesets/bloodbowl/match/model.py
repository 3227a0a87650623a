"""The pitch and what is on it: 26 × 15 squares, players with their states, the ball, the turn's bookkeeping."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ....kit import grid
from ....kit.grid import Square
from .sheets import Plan, Side

LENGTH = 26
"""Squares along the pitch (x)."""
WIDTH = 15
"""Squares across the pitch (y)."""
PITCH = grid.Grid(LENGTH, WIDTH, x0=1, y0=1, top_row_first=True)
"""The pitch on the grid kit: x 1–26 are columns A–Z, y 1–15 rows 1–15, drawn with y = 1 at the top."""
ATTACKS: dict[Side, int] = {"home": LENGTH, "away": 1}
"""The end zone each side scores in: home attacks x = 26, away attacks x = 1 (both halves)."""
LOS: dict[Side, int] = {"home": 13, "away": 14}
"""Each side's line-of-scrimmage column (the line runs between x 13 and 14)."""
DIRS: tuple[Square, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
"""The eight neighbours, in the D8 template's order."""
ON_PITCH = ("standing", "prone", "stunned")
"""States of a player who is on a square."""
Roll = dict[str, Any]
"""A ROLL record of DESIGN §12."""


def other(side: Side) -> Side:
    """The opposing side."""
    return "away" if side == "home" else "home"


on_pitch = PITCH.on
"""True for a square inside the 26 × 15 pitch."""
distance = grid.chebyshev
"""Squares a player needs to walk from ``a`` to ``b`` (diagonals cost one)."""


def adjacent(a: Square, b: Square) -> bool:
    """True when two distinct squares touch (8-neighbourhood)."""
    return a != b and distance(a, b) <= 1


def neighbours(sq: Square) -> list[Square]:
    """The on-pitch squares touching ``sq`` (a fresh list; the AI asks often, so they are computed once)."""
    near = _NEAR.get(sq)
    if near is None:
        near = _NEAR[sq] = tuple(PITCH.neighbours(sq, DIRS))
    return list(near)


_NEAR: dict[Square, tuple[Square, ...]] = {}
"""Square → its on-pitch neighbours (filled on first use)."""


def in_wide_zone(sq: Square) -> bool:
    """The wide zones: y 1–4 and 12–15."""
    return sq[1] <= 4 or sq[1] >= 12


def own_half(side: Side, sq: Square) -> bool:
    """True if ``sq`` lies in the half ``side`` defends (home: x 1–13, away: x 14–26)."""
    return sq[0] <= 13 if side == "home" else sq[0] >= 14


def forward(side: Side) -> int:
    """+1 for home (towards x = 26), −1 for away."""
    return 1 if side == "home" else -1


@dataclass
class Player:
    """A player in a match: his sheet's numbers and where he is."""

    id: str
    name: str
    position: str
    side: Side
    ma: int
    st: int
    ag: int
    av: int
    skills: frozenset[str] = frozenset()
    niggling: int = 0
    """Niggling injuries carried: +1 to each injury roll against him (004 §4)."""
    state: str = "reserve"
    """standing | prone | stunned | ko | casualty | dead | reserve."""
    sq: Square | None = None
    stun_fresh: bool = False
    """Stunned during his own team's turn: that turn's end does not turn him over (004 §4)."""
    acted: bool = False
    """Has taken his action this team turn."""
    moved: int = 0
    """Squares of movement used in this action (standing up counts 3, a blitz's block 1)."""
    sent_off: bool = False
    """Sent off for a foul: in the dug-out for the rest of the match."""
    spp: int = 0
    """Star player points earned in this half."""
    casualty: str | None = None
    """The D68 effect if he became a casualty in this half."""

    def has(self, skill: str) -> bool:
        """True if he has ``skill``."""
        return skill in self.skills

    @property
    def standing(self) -> bool:
        """Standing on the pitch (has tackle zones)."""
        return self.state == "standing"


@dataclass
class Ball:
    """Where the ball is: on a square (``carrier`` None) or in a player's hands."""

    sq: Square | None = None
    carrier: str | None = None
    """The carrying player's id."""


@dataclass
class TurnFlags:
    """What a team has used in its current turn (004 §1's once-per-turn limits, designed re-roll limit)."""

    blitz: bool = False
    pass_: bool = False
    handoff: bool = False
    foul: bool = False
    reroll: bool = False
    """A team re-roll was used this turn (designed: one per turn)."""
    used_skill: set[str] = field(default_factory=set)
    """``player/skill`` pairs whose once-per-turn skill re-roll is spent (Dodge, Sure Feet)."""


@dataclass
class State:
    """A match in progress."""

    key: str
    """Dice key prefix of the half."""
    players: dict[str, Player]
    plans: dict[Side, Plan]
    half: int = 1
    ball: Ball = field(default_factory=Ball)
    grid: dict[Square, str] = field(default_factory=dict)
    """Square → id of the player on it."""
    active: Side = "home"
    """Whose team turn it is."""
    turn: dict[Side, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    """Each side's turn marker (1–8) in this half."""
    rerolls: dict[Side, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    """Team re-rolls left this half."""
    flags: TurnFlags = field(default_factory=TurnFlags)
    score: list[int] = field(default_factory=lambda: [0, 0])
    apothecary: dict[Side, bool] = field(default_factory=lambda: {"home": False, "away": False})
    """Whether each side's apothecary is still unused this match (designed, LRB6: once a match)."""
    ref_bribe: dict[Side, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    """Get the Ref (kick-off 2): sendings-off each team may ignore this half."""
    rolls: list[Roll] = field(default_factory=list)
    """The current action's ROLL records."""
    stream: str = ""
    """The current dice stream (under :attr:`key`)."""
    ours: Side | None = None
    """The readers' side: the D68 of one of ours is thrown hidden (sealed until a later chapter)."""
    turnover: str | None = None
    """Set when the current team turn ends early (see :data:`rules.TURNOVERS`)."""
    touchdown: Side | None = None
    """Set when a side scored (the drive ends)."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """Decisive moments (casualties, touchdowns, sendings-off) for diagrams and the record."""
    coach: Any = None
    """The decisions the rules ask for (block face, push square, follow-up, re-rolls): :class:`rules.Coach`."""
    on_event: Callable[[str], None] | None = None
    """Called with a moment's name when something decisive happens (the engine takes a diagram)."""

    # ------------------------------------------------------------ queries
    def at(self, sq: Square) -> Player | None:
        """The player on ``sq``, if any."""
        pid = self.grid.get(sq)
        return self.players[pid] if pid is not None else None

    def team(self, side: Side) -> list[Player]:
        """A side's players, by id."""
        return [p for p in self.players.values() if p.side == side]

    def on_field(self, side: Side) -> list[Player]:
        """A side's players on the pitch, by id."""
        return [p for p in self.players.values() if p.side == side and p.sq is not None]

    def carrier(self) -> Player | None:
        """The ball carrier, if the ball is held."""
        return self.players[self.ball.carrier] if self.ball.carrier else None

    def ball_sq(self) -> Square | None:
        """The ball's square (the carrier's when held)."""
        c = self.carrier()
        return c.sq if c is not None else self.ball.sq

    def tackle_zones(self, sq: Square, side: Side, ignore: Player | None = None) -> int:
        """How many standing players of ``side``'s opponents put a tackle zone on ``sq`` (004 §2)."""
        n = 0
        x, y = sq
        for dx, dy in DIRS:
            pid = self.grid.get((x + dx, y + dy))
            if pid is not None:
                q = self.players[pid]
                if q.side != side and q.state == "standing" and q is not ignore:
                    n += 1
        return n

    def marked_by(self, p: Player) -> list[Player]:
        """Standing opponents adjacent to ``p``."""
        assert p.sq is not None
        out = []
        for sq in neighbours(p.sq):
            q = self.at(sq)
            if q is not None and q.side != p.side and q.standing:
                out.append(q)
        return out

    # ------------------------------------------------------------ changes
    def place(self, p: Player, sq: Square | None, state: str | None = None) -> None:
        """Put ``p`` on ``sq`` (None: to the dug-out), keeping the grid and a carried ball in step."""
        if p.sq is not None and self.grid.get(p.sq) == p.id:
            del self.grid[p.sq]
        p.sq = sq
        if sq is not None:
            assert sq not in self.grid, f"{sq} is taken"
            self.grid[sq] = p.id
        if state is not None:
            p.state = state

    def log(self, roll: Roll) -> Roll:
        """Add a ROLL record to the current action."""
        self.rolls.append(roll)
        return roll


__all__ = ["Square", "LENGTH", "WIDTH", "PITCH", "ATTACKS", "LOS", "DIRS", "ON_PITCH", "Roll", "Player", "Ball",
           "TurnFlags", "State", "other", "on_pitch", "adjacent", "distance", "neighbours", "in_wide_zone",
           "own_half", "forward"]
