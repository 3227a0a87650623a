"""BALL (003): the game's contract with the rest of the ruleset — positions, legal actions, the recovery
phase, the short notation readers vote with, and the AI. No dice anywhere: the game is deterministic.

The anko side (campaign, chapters, JSON) calls only these names; the game side (:mod:`.rules`,
:mod:`.notation`, :mod:`.ai`) implements them. Squares are written as the seed writes them: a column
letter A–M and a row 1–17 (``E5``).
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
    """Card mode: the card played (``kind`` ``card``), a key of :data:`.rules.CARDS`."""


class IllegalMove(ValueError):
    """A move the position does not allow, or a notation that names no legal action; the message lists
    the legal actions of the piece it named."""


# The functions the anko side calls (implemented in the game modules; imported lazily so this file stays the
# contract):

def standard_position(card_mode: bool = False) -> Position:
    """The standard formation (designed, 003 §3 is missing): ATK X5 holds the ball; DEF to move, turn 1."""
    from .rules import standard_position as impl
    return impl(card_mode)


def legal_actions(pos: Position) -> list[Action]:
    """Every legal action (action phase) or recovery task (recovery phase) in a fixed order."""
    from .rules import legal_actions as impl
    return impl(pos)


def apply(pos: Position, action: Action) -> Position:
    """The position after ``action``; raises :class:`IllegalMove` if it is not legal."""
    from .rules import apply as impl
    return impl(pos, action)


def end_phase(pos: Position) -> Position:
    """Close the action phase (unused PA lost or converted already) or the recovery phase (next turn)."""
    from .rules import end_phase as impl
    return impl(pos)


def parse(text: str, pos: Position) -> Action:
    """The action a reader's short notation names (``X3 E5-G7``, ``O1 阻挡 F8``, ``短传 → □2``)."""
    from .notation import parse as impl
    return impl(text, pos)


def write(action: Action, pos: Position) -> str:
    """The short notation of ``action`` (the inverse of :func:`parse`)."""
    from .notation import write as impl
    return impl(action, pos)


def ai_turn(pos: Position) -> list[Action]:
    """The AI's actions for the turn to move, recovery tasks included, by its stated search."""
    from .ai import ai_turn as impl
    return impl(pos)


def to_json(pos: Position) -> dict[str, object]:
    """DESIGN §12's ``POSITION``: ``pieces`` with id, side, type, square, state, ball; ``free_ball``; ``usable``."""
    from .rules import to_json as impl
    return impl(pos)


def ai_explain(pos: Position) -> str:
    """The one sentence that explains the AI's choice for the turn to move, with the chosen line's score."""
    from .ai import ai_explain as impl
    return impl(pos)


def ai_plan(pos: Position) -> tuple[list[Action], str]:
    """:func:`ai_turn` and :func:`ai_explain` from one search: the AI's actions and the sentence explaining them."""
    from .ai import ai_plan as impl
    return impl(pos)


def play_turn(pos: Position, actions: list[Action]) -> Position:
    """Play a whole turn's list (action-phase actions, then recovery tasks) and close both phases."""
    from .rules import play_turn as impl
    return impl(pos, actions)


def winner(pos: Position) -> Team | None:
    """The side that won (a touchdown, or DEF after the designed turn limit); None while the game runs."""
    from .rules import winner as impl
    return impl(pos)


def action_to_json(action: Action) -> dict[str, object]:
    """DESIGN §12's action record: piece, kind, from, to, over, target, pa (and the fields that fix it)."""
    from .rules import action_to_json as impl
    return impl(action)


# Board and game facts the anko prints (additive: the rules module holds the data):

def usable(square: str) -> bool:
    """Is ``square`` (``E5``) a striped, usable square of the board (designed, see :mod:`.rules`)?"""
    from .rules import USABLE
    return square in USABLE


def scoring_rows(side: Team) -> tuple[int, int]:
    """The rows of the end zone ``side`` scores in: ATK attacks towards rows 16–17, DEF towards rows 1–2."""
    from .rules import SCORING_ROWS
    return SCORING_ROWS[side]


def usable_rule() -> str:
    """DESIGN §12's ``usable``: the usable squares, end zones and attack direction in words."""
    from .rules import USABLE_RULE
    return USABLE_RULE


def turn_limit() -> int:
    """The designed turn limit: after this turn without a touchdown the game ends and DEF wins."""
    from .rules import TURN_LIMIT
    return TURN_LIMIT


def cards() -> dict[str, tuple[str, int]]:
    """Card mode's cards: key → (Chinese name, PE cost); each a special action costing 0 PA."""
    from .rules import CARDS
    return dict(CARDS)


def pe_table() -> dict[str, int]:
    """Card mode's PE table (designed): PE earned by each action kind."""
    from .rules import PE_TABLE
    return dict(PE_TABLE)


__all__ = ["action_to_json", "ai_explain", "play_turn", "winner", "Action", "ActionKind", "IllegalMove", "Kind", "Piece", "Position", "State", "Team", "ai_turn", "apply",
           "end_phase", "legal_actions", "parse", "standard_position", "to_json", "write",
           "ai_plan", "usable", "scoring_rows", "usable_rule", "turn_limit", "cards", "pe_table"]
