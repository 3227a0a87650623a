"""《布拉斯群英杯》(000): the flagship ruleset — a 24-club league season narrated month by month.

This file only registers the ruleset; the class and the season loop are in :mod:`.ruleset`, and the rules
live in the wings: ``match/``, ``competition/``, ``events/``, ``money/``, ``club/``, ``transfers/``,
``setup/`` and ``season/`` (README.md, "Map of the code").
"""

from .ruleset import Purasbar

RULESET = Purasbar()
"""The registered instance (entry point ``anko_writer.rulesets: purasbar``)."""

__all__ = ["RULESET", "Purasbar"]
