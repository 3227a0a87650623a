"""The 接战 Engage ruleset (seed 002): the pure rule modules, the battle loop and the ruleset class.

``RULESET`` is found lazily (PEP 562), so a source checkout discovers the ruleset (the registry reads every
package's ``RULESET``) while the pure modules import nothing of the ruleset's.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """``RULESET``: the registered instance, imported on first use."""
    if name == "RULESET":
        from .ruleset import RULESET

        return RULESET
    raise AttributeError(name)
