"""The half loop (placeholder until the engine lands: issue 12)."""

from __future__ import annotations

from ....dice import Dice
from .api import HalfInput, HalfResult


def play_half(given: HalfInput, dice: Dice) -> HalfResult:
    """Not written yet."""
    raise NotImplementedError("the Blood Bowl match engine is not written yet")
