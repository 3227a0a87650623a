"""The readers' short notation (placeholder until the game lands: issue 13)."""

from __future__ import annotations

from .api import Action, Position


def parse(text: str, pos: Position) -> Action:
    """Not written yet."""
    raise NotImplementedError("BALL's notation is not written yet")


def write(action: Action, pos: Position) -> str:
    """Not written yet."""
    raise NotImplementedError("BALL's notation is not written yet")
