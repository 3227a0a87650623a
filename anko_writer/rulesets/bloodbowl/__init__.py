"""Blood Bowl (004): a league of matches as an anko, every block die on the page.

This file only registers the ruleset; the class is in :mod:`.ruleset`, the league in ``league/``, the
campaign file, ``new`` and the state file in ``setup/``, and the match engine in ``match/``.
"""

from .ruleset import Bloodbowl

RULESET = Bloodbowl()
"""The registered instance (entry point ``anko_writer.rulesets: bloodbowl``)."""

__all__ = ["RULESET", "Bloodbowl"]
