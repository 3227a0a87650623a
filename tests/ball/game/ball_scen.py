"""The tiny scenario builder of the BALL game tests: a position from a few pieces on named squares."""

from __future__ import annotations

from anko_writer.rulesets.ball.game.api import Action, Piece, Position
from anko_writer.rulesets.ball.game.rules import legal_actions


def board(pieces: dict[str, str], ball: str | None = None, free: str | None = None, to_move: str = "ATK",
          pa: int = 2, phase: str = "action", card_mode: bool = False, pe: dict[str, int] | None = None,
          formed: tuple[str, ...] = (), took: tuple[str, ...] = (), turn: int | None = None) -> Position:
    """Pieces as ``{"ATK-X1": "E5", "DEF-O1": "F6 down", "ATK-S1": "G7 top", "DEF-X2": "G7 bottom was_down"}``;
    ``ball`` the holder's id or ``free`` the free ball's square (default: the first piece holds it)."""
    states = {"down": "down", "top": "stack_top", "bottom": "stack_bottom"}
    made = []
    for pid, spec in pieces.items():
        words = spec.split()
        made.append(Piece(pid, pid[:3], pid[4], words[0], states.get(words[1], "able") if len(words) > 1  # type: ignore[arg-type]
                          else "able", False, "was_down" in words))
    if ball is None and free is None:
        ball = made[0].id
    made = [Piece(p.id, p.side, p.type, p.square, p.state, p.id == ball, p.was_down) for p in made]
    if turn is None:
        turn = 2 if to_move == "ATK" else 1
    return Position(tuple(made), free, to_move, turn, pa, pe or {"ATK": 0, "DEF": 0}, phase,  # type: ignore[arg-type]
                    frozenset(formed), frozenset(took), None, card_mode)


def acts(pos: Position, piece: str | None = None, kind: str | None = None) -> list[Action]:
    """The legal actions of ``pos``, of one piece and/or one kind."""
    return [a for a in legal_actions(pos) if (piece is None or a.piece == piece) and (kind is None or a.kind == kind)]


def one(pos: Position, **fields: object) -> Action:
    """The one legal action whose fields are ``fields``."""
    found = [a for a in legal_actions(pos) if all(getattr(a, k) == v for k, v in fields.items())]
    assert len(found) == 1, found
    return found[0]


def dests(pos: Position, piece: str, kind: str = "move") -> set[str]:
    """The destinations (``to``) of one piece's actions of one kind."""
    return {str(a.to) for a in acts(pos, piece, kind)}
