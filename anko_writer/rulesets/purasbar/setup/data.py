"""The 群英杯 setup tables (cities, names, facilities, stadiums, colours, staff levels) and the stamp of
the table files; :mod:`.tables` loads them with every other table into :class:`~.tables.PurasbarTables`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ....dice import MAX_SIDES
from ....resources import Resources
from ....schema import Check, Enum, Field, Int, List, Map, Name, Problem, Str
from ....tables import DiceTable, load_data, load_table

NAME_POOL_MAX = MAX_SIDES
"""The most entries a name pool may hold: a name is picked with 1D{pool size}, a die of at most
:data:`~anko_writer.dice.MAX_SIDES` faces."""

CITY = Map({
    "city": Field(Name()), "pbs": Field(Int(min=0)), "total": Field(Int(min=4, max=396)),
    "tier": Field(Enum(["S", "A", "B", "C"])), "club": Field(Name()),
    "slug": Field(Str(pattern=r"[a-z][a-z0-9_-]*", pattern_doc="lower-case latin slug")),
    "stadium": Field(Str(), required=False),
})


def _unique_cities(rows: list[dict[str, Any]]) -> Problem:
    """No city, club or slug twice (clubs are told apart by name, cities by name and slug)."""
    for key in ("city", "club", "slug"):
        seen: dict[str, int] = {}
        for i, row in enumerate(rows):
            if row[key] in seen:
                return ((i, key), f"{row[key]!r} 与 cities[{seen[row[key]]}] 重复")
            seen[row[key]] = i
    return None


CITIES = Map({
    "source": Field(Str()),
    "designed_columns": Field(List(Str()), required=False),
    "cities": Field(Check(List(CITY, min_len=24, max_len=24), _unique_cities)),
})
"""000 §2.1: exactly 24 city groups."""
NAMES = Map({
    "source": Field(Str()),
    "given": Field(List(Name(), min_len=2, max_len=NAME_POOL_MAX)),
    "family": Field(List(Name(), min_len=2, max_len=NAME_POOL_MAX)),
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
    """The setup tables, validated (part of :class:`~.tables.PurasbarTables`)."""

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


def tables_stamp(resources: Resources) -> tuple[tuple[str, int], ...]:
    """Every table file on the search path with its modification time: the key of a per-run cache."""
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for d in resources.search_path("tables")
                        for p in d.glob("*.yaml")))


def load_tables(resources: Resources) -> Tables:
    """Load and validate the setup tables; a broken one raises a located ``TableError``.

    Not cached: :func:`~.tables.load_purasbar_tables` reads every table once per set of files.
    """
    tables = Tables(*_read(resources))
    register_cities(tables.cities)
    return tables


def register_cities(cities: list[dict[str, Any]]) -> None:
    """Remember the rows of a loaded ``cities.yaml`` for :func:`city_slugs` and :func:`city_clubs`."""
    _ROWS[tuple(c["city"] for c in cities)] = {c["city"]: c for c in cities}


_ROWS: dict[tuple[str, ...], dict[str, dict[str, Any]]] = {}
"""The rows of each ``cities.yaml`` :func:`load_tables` loaded, by its cities (in order): the schemas,
which are given the city names only, read the slugs and club names from here."""


def city_slugs(cities: Sequence[str]) -> dict[str, str] | None:
    """City → slug of the ``cities.yaml`` last loaded by :func:`load_tables` with exactly these cities
    (in this order), or None if no such table was loaded."""
    rows = _ROWS.get(tuple(cities))
    return None if rows is None else {city: row["slug"] for city, row in rows.items()}


def city_clubs(cities: Sequence[str]) -> dict[str, str] | None:
    """City → club name, like :func:`city_slugs`."""
    rows = _ROWS.get(tuple(cities))
    return None if rows is None else {city: row["club"] for city, row in rows.items()}


def _read(resources: Resources) -> tuple[Any, ...]:
    cities = load_data(resources.table_path("cities.yaml"), CITIES)["cities"]
    names = load_data(resources.table_path("names.yaml"), NAMES)
    dice_tables = {name: load_table(resources.table_path(name), kinds) for name, kinds in EFFECTS.items()}
    return (cities, {"given": names["given"], "family": names["family"]},
            dice_tables["facilities.yaml"], dice_tables["stadiums.yaml"], dice_tables["colours.yaml"],
            dice_tables["staff_levels.yaml"])
