"""BALL (003): a deterministic board game played by readers' votes (the ruleset registers itself here).

The class is in :mod:`.ruleset`, the game in ``game/``, the chapters' records in :mod:`.play`, the board's
pictures in :mod:`.board`, the campaign file and ``new`` in ``setup/``.
"""

from .ruleset import Ball

RULESET = Ball()
"""The registered instance (entry point ``anko_writer.rulesets: ball``)."""

__all__ = ["RULESET", "Ball"]
