"""The AI side (placeholder until the game lands: issue 13)."""

from __future__ import annotations

from .api import Action, Position


def ai_turn(pos: Position) -> list[Action]:
    """Not written yet."""
    raise NotImplementedError("BALL's AI is not written yet")
