"""BALL (003): the game's types — sides, pieces, positions, actions, the illegal-move error — and the card
catalogue an action names. Every game module imports them from here; :mod:`.api` re-exports them.

Squares are written as the seed writes them: a column letter A–M and a row 1–17 (``E5``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Team = Literal["ATK", "DEF"]
"""A side. DEF starts the game and plays the first turn (003 §1)."""
Kind = Literal["X", "O", "S"]
"""A piece type; ``S`` is the seed's □ (square piece)."""
State = Literal["able", "down", "stack_top", "stack_bottom"]
"""DESIGN §12's piece states."""
ActionKind = Literal["move", "dodge", "tactical_dodge", "block", "protect", "handoff", "short_pass", "long_pass",
                     "convert_pe", "card"]
"""DESIGN §12's action kinds."""


@dataclass(frozen=True)
class Piece:
    """One piece on the board."""

    id: str
    """Stable id, side and type and number: ``ATK-X1``, ``DEF-O2``, ``ATK-S1``."""
    side: Team
    type: Kind
    square: str
    state: State = "able"
    ball: bool = False
    was_down: bool = False
    """A stack's bottom piece: it was down when the stack formed, and is down again when released (003 §10)."""


@dataclass(frozen=True)
class Position:
    """A whole game state between two actions."""

    pieces: tuple[Piece, ...]
    free_ball: str | None
    to_move: Team
    turn: int
    """1, 2, …; DEF plays odd turns."""
    pa: int = 2
    """Action points left in this turn's action phase (003 §2)."""
    pe: dict[str, int] = field(default_factory=lambda: {"ATK": 0, "DEF": 0})
    """Card mode's PE per side (003 §11)."""
    phase: Literal["action", "recovery"] = "action"
    formed_this_turn: frozenset[str] = frozenset()
    """Squares of stacks formed this turn (never released this turn, 003 §10)."""
    took_ball_this_turn: frozenset[str] = frozenset()
    """Pieces that picked up a free ball or got it by a fumble this turn: no further ordinary action (003 §9)."""
    touchdown: Team | None = None
    card_mode: bool = False
    """Card mode (003 §11, an option, off by default): PE from the designed table, PA→PE conversion, cards."""


@dataclass(frozen=True)
class Action:
    """One action of the action phase (or a recovery task, with ``kind`` ``stand_up``/``release``)."""

    piece: str
    kind: str
    """An :data:`ActionKind`, or ``stand_up`` / ``release`` in the recovery phase."""
    frm: str | None = None
    to: str | None = None
    over: str | None = None
    """The square passed over (tactical dodge) or the intermediate square of a 2-square move."""
    target: str | None = None
    """The piece (id) acted on: dodged, blocked, protected, receiving the ball …"""
    push_to: str | None = None
    """Tactical dodge: where the acting coach pushes the opponent; release: where the bottom piece goes."""
    ball_to: str | None = None
    """Where the ball goes (short/long pass, a tactical dodge's ball displacement); release: who keeps it."""
    pa: int = 1
    land: str | None = None
    """Dodge: the opponent's square where the 2-square move ended (``to`` is the square stepped off to)."""
    card: str | None = None
    """Card mode: the card played (``kind`` ``card``), a key of :data:`CARDS`."""


class IllegalMove(ValueError):
    """A move the position does not allow, or a notation that names no legal action; the message lists
    the legal actions of the piece it named."""


CARDS: dict[str, tuple[str, int]] = {
    "sprint": ("冲刺", 2),
    "extra": ("加时", 3),
    "rise": ("起身", 1),
    "carry": ("继续", 1),
    "swap": ("换位", 2),
    "catch": ("接应", 1),
}
"""Designed (003 §11): card key → (Chinese name, PE cost). Each is a special action costing 0 PA.

sprint: an able own piece makes an ordinary move (1 or 2 squares by its type, ending on an empty square or the
free ball), even if it took the ball this turn. extra: +1 PA this turn. rise: stand an own down piece up now
(as in the recovery phase). carry: a piece that took the ball this turn may act again. swap: two diagonally
adjacent able own pieces swap squares (each keeps the ball if it had it). catch: an able own piece diagonally
adjacent to the free ball steps onto it and takes the ball (it took the ball: no further ordinary action)."""


__all__ = ["CARDS", "Action", "ActionKind", "IllegalMove", "Kind", "Piece", "Position", "State", "Team"]
