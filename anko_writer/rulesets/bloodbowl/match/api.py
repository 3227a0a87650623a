"""The match engine's contract with the rest of the Blood Bowl ruleset (004): one half at a time.

The league (schedule, campaign, state file, chapters) calls :func:`play_half` once per chapter. The
engine owns everything on the pitch; it never formats prose. Its record follows DESIGN §12's
``bloodbowl`` chapter contract (``teams``, ``turns`` with their actions and ``ROLL`` records), so a
template prints from it and an independent checker can replay every target number.

This module only re-exports: the sheets and plans are in :mod:`.sheets`, the half in :mod:`.engine`.
"""

from .engine import play_half
from .sheets import HalfInput, HalfResult, Plan, PlayerSheet, PlayerStatus, Side, TeamSheet

__all__ = ["HalfInput", "HalfResult", "Plan", "PlayerSheet", "PlayerStatus", "Side", "TeamSheet", "play_half"]
