"""How rare a story beat really is (issue 27): the shipped table ``tables/purasbar/beat_frequency.yaml``, measured
by ``anko-writer audit`` over the whole league, turned into the headlines' salience. A beat a club sees less
often gets a higher salience; one it sees once a season or more is no 奇景.

>>> salience(1.0), salience(0.5), salience(4.0), salience(0.001), salience(100.0)
(60, 70, 40, 95, 20)
>>> rare("defender_goal"), rare("keeper_goal")
(False, False)
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

from ....resources import builtin_dir
from ....yamlio import load_yaml

TABLE = "beat_frequency.yaml"
"""The frequency table's file under ``tables/purasbar/`` (DESIGNED: the shipped table, not a campaign's copy)."""
AT_ONCE = 60
"""Salience of a beat a club sees once a season."""
PER_DOUBLING = 10
"""Salience lost each time the beat is twice as common."""
LOWEST, HIGHEST = 20, 95
"""Bounds of a beat's salience from the table."""
RARE_BELOW = 1.0
"""A beat rarer than this many times a club-season may be told as rare (稀罕)."""


@cache
def frequency(path: Path | None = None) -> dict[str, float]:
    """Beat kind → club-matches with it per club-season, from the table."""
    data = load_yaml(path or builtin_dir("tables") / "purasbar" / TABLE)
    return {str(k): float(v) for k, v in data["per_club_season"].items()}


def salience(per_season: float) -> int:
    """The salience of a beat seen ``per_season`` times a club-season: :data:`AT_ONCE`, minus
    :data:`PER_DOUBLING` for each doubling, within :data:`LOWEST`–:data:`HIGHEST`."""
    value = AT_ONCE - PER_DOUBLING * math.log2(max(per_season, 1e-9))
    return max(LOWEST, min(HIGHEST, round(value)))


def of(kind: str) -> int:
    """The salience of a beat kind of the table."""
    return salience(frequency()[kind])


def rare(kind: str) -> bool:
    """True when a club sees the beat less than :data:`RARE_BELOW` times a season."""
    return frequency()[kind] < RARE_BELOW


__all__ = ["AT_ONCE", "HIGHEST", "LOWEST", "PER_DOUBLING", "RARE_BELOW", "TABLE", "frequency", "of", "rare",
           "salience"]
