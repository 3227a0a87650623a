"""Loading the 群英杯 tables from ``tables/purasbar/`` (campaign folder first) into one bundle."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...resources import Resources
from ...schema import Enum, Field, Int, List, Map, Str
from ...tables import DiceTable, load_data, load_table

CITY = Map({
    "city": Field(Str()), "pbs": Field(Int(min=0)), "total": Field(Int(min=4, max=396)),
    "tier": Field(Enum(["S", "A", "B", "C"])), "club": Field(Str()),
    "slug": Field(Str(pattern=r"[a-z][a-z0-9_-]*", pattern_doc="lower-case latin slug")),
    "stadium": Field(Str(), required=False),
})
CITIES = Map({
    "source": Field(Str()),
    "designed_columns": Field(List(Str()), required=False),
    "cities": Field(List(CITY, min_len=24, max_len=24)),
})
"""000 §2.1: exactly 24 city groups."""
NAMES = Map({
    "source": Field(Str()),
    "given": Field(List(Str(), min_len=2)),
    "family": Field(List(Str(), min_len=2)),
})
"""The designed name pools."""

EFFECTS = {
    "facilities.yaml": {"facility_level"},
    "stadiums.yaml": {"stadium_suffix"},
    "colours.yaml": {"colour"},
    "staff_levels.yaml": {"staff_level"},
}
"""Effect kinds each dice table may name (the code implements exactly these)."""


@dataclass(frozen=True)
class Tables:
    """Every table the ruleset reads, validated."""

    cities: list[dict[str, Any]]
    names: dict[str, list[str]]
    facilities: DiceTable
    stadiums: DiceTable
    colours: DiceTable
    staff_levels: DiceTable

    def city(self, name: str) -> dict[str, Any]:
        """The §2.1 row of ``name``."""
        for row in self.cities:
            if row["city"] == name:
                return row
        raise KeyError(name)

    def as_dict(self) -> dict[str, Any]:
        """The bundle as the season code reads it."""
        return {"cities": self.cities, "names": self.names, "facilities": self.facilities,
                "stadiums": self.stadiums, "colours": self.colours, "staff_levels": self.staff_levels}


def tables_stamp(resources: Resources) -> tuple[tuple[str, int], ...]:
    """Every table file on the search path with its modification time: the key of a per-run cache."""
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for d in resources.search_path("tables")
                        for p in d.glob("*.yaml")))


def load_tables(resources: Resources) -> Tables:
    """Load and validate every table; a broken one raises a located ``TableError``.

    Cached per set of files (path and modification time), so one run reads each table once.
    """
    names = ["cities.yaml", "names.yaml", *EFFECTS]
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in (resources.table_path(n) for n in names))
    return _load(stamp)


@lru_cache(maxsize=8)
def _load(stamp: tuple[tuple[str, int], ...]) -> Tables:
    path = {Path(p).name: Path(p) for p, _ in stamp}
    return _read(path)


def _read(path: dict[str, Path]) -> Tables:
    cities = load_data(path["cities.yaml"], CITIES)["cities"]
    names = load_data(path["names.yaml"], NAMES)
    dice_tables = {name: load_table(path[name], kinds) for name, kinds in EFFECTS.items()}
    return Tables(cities, {"given": names["given"], "family": names["family"]},
                  dice_tables["facilities.yaml"], dice_tables["stadiums.yaml"], dice_tables["colours.yaml"],
                  dice_tables["staff_levels.yaml"])
