"""The team rosters as the league reads them: each race's positionals with their cost, cap and profile.

The roster table (``tables/bloodbowl/rosters.yaml``) is the match engine's, read and checked once by
the engine's reader (:func:`~..match.data.read_rosters`, the same schema the engine plays with); the
league keeps what it needs for ``new``, hiring and checks as typed records: per race its Chinese name,
the re-roll cost and the positionals (key, Chinese name, cost, how many a team may have, MA ST AG AV and
skills). A campaign folder's own ``rosters.yaml`` comes first, as for every table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ....errors import AnkoError
from ....resources import Resources
from ..match.data import read_rosters

ROSTERS = "rosters.yaml"
"""The match engine's roster table under ``tables/bloodbowl/`` (read by :func:`~..match.data.read_rosters`)."""


@dataclass(frozen=True)
class Positional:
    """One positional of a roster."""

    key: str
    """Latin key (``blitzer``)."""
    name: str
    """Chinese name, the one player records carry (``闪击手``)."""
    cost: int
    """Hiring cost in gold pieces."""
    max: int
    """How many a team may have."""
    MA: int
    ST: int
    AG: int
    AV: int
    skills: tuple[str, ...] = ()


@dataclass(frozen=True)
class Roster:
    """One race's roster."""

    race: str
    """The roster table's key (``human``)."""
    name: str
    """Chinese name (``人类``)."""
    reroll_cost: int
    positions: tuple[Positional, ...]

    def find(self, word: str) -> Positional | None:
        """The positional named ``word`` by key or Chinese name."""
        return next((p for p in self.positions if word in (p.key, p.name)), None)

    def cheapest(self) -> Positional:
        """The cheapest positional (the lineman an AI coach hires to fill gaps)."""
        return min(self.positions, key=lambda p: (p.cost, -p.max))


Rosters = dict[str, Roster]
"""Race key → roster."""


def parse_rosters(teams: Mapping[str, Any]) -> Rosters:
    """Rosters from the engine's checked roster data (:func:`~..match.data.read_rosters`)."""
    out: Rosters = {}
    for race, r in teams.items():
        positions = tuple(Positional(p["key"], p["name"], p["cost"], p["max"], p["MA"], p["ST"], p["AG"], p["AV"],
                                     tuple(p["skills"])) for p in r["positions"])
        out[str(race)] = Roster(str(race), r["name"], r["reroll_cost"], positions)
    return out


def load_rosters(resources: Resources) -> Rosters:
    """The rosters ``resources`` find (a campaign folder's ``tables/bloodbowl/rosters.yaml`` first)."""
    try:
        path = resources.table_path(ROSTERS)
    except AnkoError as exc:
        raise AnkoError(f"tables/bloodbowl/{ROSTERS}: 缺少名册表（它随比赛引擎一起提供）：{exc}") from None
    return parse_rosters(read_rosters(path))


__all__ = ["Positional", "ROSTERS", "Roster", "Rosters", "load_rosters", "parse_rosters"]
