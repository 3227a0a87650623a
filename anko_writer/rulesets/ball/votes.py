"""The vote a BALL chapter asks for, in the core vote format (issue 16; :mod:`anko_writer.ballot`).

Its answers land at ``moves.g<game>t<part>`` exactly as the campaign schema (``setup/schema.py``) takes them:
行动, the readers' moves in order in the game's notation, is the whole vote (a list); when the turn offers a
choice in the recovery phase, 恢复 is asked too and the vote is the mapping ``{actions, recovery}``. BALL throws
no dice, so a tie is never decided by one: it counts as no vote, and the AI plays the turn for the readers.

行动 names the notation :data:`ACTIONS` (issue 23): the tally reads each answer's moves in order from the
position the vote was cast in (:func:`actions_parser`), so an illegal or ambiguous move is listed with the
legal moves of the piece it names, and ``X3 G7`` and ``X3 E5-G7`` count as one answer, written in the
canonical form. 恢复 stays text: which recovery tasks are legal depends on the actions that win the vote,
which the tally cannot know reader by reader; the campaign schema replays the written vote and refuses an
illegal task at its line and key.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

from ...ballot import Ballot, Illegal, OrderParser, Question
from .game.api import Action, IllegalMove, Position

TIE = "fallback"
"""Both questions' tie rule: no decision, the AI plays for the readers (a diceless game rolls no die)."""
MAX_MOVES = 32
"""The most moves one answer may list (the schema's ``moves`` lists hold at most 32)."""
RECOVERY_SEPARATORS = "、"
"""What separates recovery tasks: a release's notation holds a comma (``解除 F8 → E7, G9``)."""
ACTIONS = "ball.actions"
"""The notation of 行动: the action phase's moves in the readers' notation (:mod:`.game.notation`)."""
RECOVERY_KINDS = ("stand_up", "release")
"""Action kinds of the recovery phase."""
CARD_KINDS = ("convert_pe", "card")
"""Action kinds only card mode allows."""
PIECE = re.compile(r"\s*([XOSxos□■])\s*(\d+)")
"""The piece a move's text names first (``X3 E5-G7`` → X3)."""


class Notation(Protocol):
    """The game functions reading a move needs (:mod:`.game.api`, or a test's fake game)."""

    def legal_actions(self, pos: Position) -> list[Action]:
        """Every legal action."""

    def apply(self, pos: Position, action: Action) -> Position:
        """The position after ``action``."""

    def parse(self, text: str, pos: Position) -> Action:
        """The legal action ``text`` names, or :class:`IllegalMove`."""

    def write(self, action: Action, pos: Position) -> str:
        """The canonical notation of ``action``."""


def ball_ballot(key: str, deadline: str, actions: Sequence[str], recovery: Sequence[str] | None) -> Ballot:
    """The ballot of vote ``key`` (``g1t3``): 行动 with ``actions`` as its example, and 恢复 (its example
    ``recovery``) when the turn offers a recovery choice (``recovery`` None: it does not)."""
    if recovery is None:
        return Ballot(key, ("moves", key), (
            Question("行动", (), "text", max_items=MAX_MOVES, tie=TIE, example="、".join(actions),
                     notation=ACTIONS),), deadline)
    return Ballot(key, ("moves", key), (
        Question("行动", ("actions",), "text", max_items=MAX_MOVES, tie=TIE, example="、".join(actions),
                 notation=ACTIONS),
        Question("恢复", ("recovery",), "text", max_items=MAX_MOVES, tie=TIE, separators=RECOVERY_SEPARATORS,
                 example="、".join(recovery)),
    ), deadline)


def named_piece(text: str, pos: Position) -> str | None:
    """The id of the own piece ``text`` names first (``X3 …`` → ``ATK-X3``), or None."""
    m = PIECE.match(text)
    if not m:
        return None
    return f"{pos.to_move}-{m.group(1).upper().replace('□', 'S').replace('■', 'S')}{m.group(2)}"


def _refusal(game: Notation, pos: Position, cards: bool, text: str, why: str) -> Illegal:
    """``text`` refused for ``why``, with the legal moves of the piece it names (or of every piece), unless
    ``why`` already names them all (the game's notation lists them itself)."""
    piece = named_piece(text, pos)
    legal = [(a, game.write(a, pos)) for a in game.legal_actions(pos)
             if (cards or a.kind not in CARD_KINDS) and a.kind not in RECOVERY_KINDS]
    mine = [w for a, w in legal if a.piece == piece]
    shown = mine or [w for _, w in legal]
    return Illegal(why, () if all(w in why for w in shown) else tuple(shown))


def actions_parser(game: Notation, start: Position | None, cards: bool) -> OrderParser:
    """The parser of 行动 answers cast at ``start`` (None: the game ended before this vote): each move read by
    the game's notation in the position the moves before it leave, written back in its canonical form."""
    def parse(items: tuple[str, ...]) -> tuple[Any, ...] | Illegal:
        """The canonical moves, or the first one refused."""
        if start is None:
            return Illegal("这一局在这一轮之前已经结束，没有行动可投")
        pos, out = start, []
        for text in items:
            if pos.touchdown:
                return Illegal(f"「{text}」：前一步已经达阵，这一轮到此为止")
            if pos.phase != "action":
                return Illegal(f"「{text}」：行动点已经用完，行动阶段结束了")
            try:
                action = game.parse(text, pos)
            except IllegalMove as exc:
                return _refusal(game, pos, cards, text, str(exc))
            if action.kind in CARD_KINDS and not cards:
                return _refusal(game, pos, cards, text, f"「{text}」要开卡牌模式（options.cards）")
            if action.kind in RECOVERY_KINDS:
                return Illegal(f"「{text}」是恢复阶段的任务，写在「恢复」一项里")
            out.append(game.write(action, pos))
            try:
                pos = game.apply(pos, action)
            except IllegalMove as exc:
                return _refusal(game, pos, cards, text, f"「{text}」：{exc}")
        return tuple(out)
    return parse


__all__ = ["ACTIONS", "CARD_KINDS", "MAX_MOVES", "Notation", "PIECE", "RECOVERY_KINDS", "RECOVERY_SEPARATORS", "TIE",
           "actions_parser", "ball_ballot", "named_piece"]
