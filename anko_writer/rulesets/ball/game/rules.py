"""The rules of BALL (placeholder until the game lands: issue 13)."""

from __future__ import annotations

from .api import Action, Position


def standard_position() -> Position:
    """Not written yet."""
    raise NotImplementedError("BALL's rules are not written yet")


def legal_actions(pos: Position) -> list[Action]:
    """Not written yet."""
    raise NotImplementedError("BALL's rules are not written yet")


def apply(pos: Position, action: Action) -> Position:
    """Not written yet."""
    raise NotImplementedError("BALL's rules are not written yet")


def end_phase(pos: Position) -> Position:
    """Not written yet."""
    raise NotImplementedError("BALL's rules are not written yet")


def to_json(pos: Position) -> dict[str, object]:
    """Not written yet."""
    raise NotImplementedError("BALL's rules are not written yet")
