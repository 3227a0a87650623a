"""The vote a BALL chapter asks for, in the core vote format (issue 16; :mod:`anko_writer.ballot`).

Its answers land at ``moves.g<game>t<part>`` exactly as the campaign schema (``setup/schema.py``) takes them:
行动, the readers' moves in order in the game's notation, is the whole vote (a list); when the turn offers a
choice in the recovery phase, 恢复 is asked too and the vote is the mapping ``{actions, recovery}``. The
campaign schema replays the moves, so an illegal one is refused there, at its line and key. BALL throws no
dice, so a tie is never decided by one: it counts as no vote, and the AI plays the turn for the readers.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...ballot import Ballot, Question

TIE = "fallback"
"""Both questions' tie rule: no decision, the AI plays for the readers (a diceless game rolls no die)."""
MAX_MOVES = 32
"""The most moves one answer may list (the schema's ``moves`` lists hold at most 32)."""
RECOVERY_SEPARATORS = "、"
"""What separates recovery tasks: a release's notation holds a comma (``解除 F8 → E7, G9``)."""


def ball_ballot(key: str, deadline: str, actions: Sequence[str], recovery: Sequence[str] | None) -> Ballot:
    """The ballot of vote ``key`` (``g1t3``): 行动 with ``actions`` as its example, and 恢复 (its example
    ``recovery``) when the turn offers a recovery choice (``recovery`` None: it does not)."""
    if recovery is None:
        return Ballot(key, ("moves", key), (
            Question("行动", (), "text", max_items=MAX_MOVES, tie=TIE, example="、".join(actions)),), deadline)
    return Ballot(key, ("moves", key), (
        Question("行动", ("actions",), "text", max_items=MAX_MOVES, tie=TIE, example="、".join(actions)),
        Question("恢复", ("recovery",), "text", max_items=MAX_MOVES, tie=TIE, separators=RECOVERY_SEPARATORS,
                 example="、".join(recovery)),
    ), deadline)


__all__ = ["MAX_MOVES", "RECOVERY_SEPARATORS", "TIE", "ball_ballot"]
