"""BALL (003): the game's contract with the rest of the ruleset — positions, legal actions, the recovery
phase, the short notation readers vote with, and the AI. No dice anywhere: the game is deterministic.

The anko side (campaign, chapters, JSON) calls only these names (:class:`..play.Game` states the part a
game must offer); this module only re-exports them. The types are in :mod:`.model`, the rules and the board
facts in :mod:`.rules`, the notation in :mod:`.notation`, the AI in :mod:`.ai`. Squares are written as the
seed writes them: a column letter A–M and a row 1–17 (``E5``).
"""

from __future__ import annotations

from .ai import EXPLANATIONS, STRENGTHS, ai_explain, ai_plan, ai_turn
from .model import Action, ActionKind, IllegalMove, Kind, Piece, Position, State, Team
from .notation import parse, write
from .rules import (
    action_to_json,
    apply,
    cards,
    end_phase,
    legal_actions,
    pe_table,
    play_turn,
    scoring_rows,
    standard_position,
    to_json,
    turn_limit,
    usable,
    usable_rule,
    winner,
)

__all__ = [
    "Action", "ActionKind", "IllegalMove", "Kind", "Piece", "Position", "State", "Team",
    "action_to_json", "apply", "end_phase", "legal_actions", "play_turn", "standard_position", "to_json", "winner",
    "cards", "pe_table", "scoring_rows", "turn_limit", "usable", "usable_rule",
    "parse", "write",
    "EXPLANATIONS", "STRENGTHS", "ai_explain", "ai_plan", "ai_turn",
]
