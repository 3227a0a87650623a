"""Every 群英杯 table in one typed bundle, loaded and validated once per set of table files.

:func:`load_purasbar_tables` reads ``tables/purasbar/`` (a campaign folder's ``tables/purasbar/`` first)
and returns a frozen :class:`PurasbarTables`. Rule functions take the table they read as a required
argument: nothing falls back to the shipped files, so a campaign's override cannot be skipped by a
call site that forgets it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from .... import cache, prebuilt
from ....errors import TableError
from ....resources import Resources, builtin_dir
from ....tables import DiceTable
from ....textfile import read_bytes
from ..club.people import PeopleTables
from ..events.pool import EventTables
from ..money.finance import FinanceRules
from ..transfers.market import TransferTables
from .data import Tables, load_tables, register_cities, tables_stamp

# The loaders are imported by _read alone: a bundle from the disk cache needs only the classes it holds
# (issue 29: ``check`` and ``month`` start without the modules that parse a table).


@dataclass(frozen=True)
class PurasbarTables(Tables):
    """Every table the ruleset reads, validated (the campaign folder's files first): the setup tables
    of :class:`~.data.Tables` (cities, names, facilities, stadiums, colours, staff levels) and these."""

    people: PeopleTables
    """owner*, coach*, staff*, affinity* tables (ch.15, 16, 12, §15.5)."""
    business: EventTables
    """Appendix B and its 黄金时代 / 至暗时刻 tables (000 §6.2)."""
    match_events: EventTables
    """Appendix A and its ±3 tables (000 §6.3)."""
    external: EventTables
    """Appendix C and its 黄金纪元 / 至暗纪元 tables (000 §6.4)."""
    owner_actions: DiceTable
    coach_decisions: DiceTable
    morale: dict[str, Any]
    finance: FinanceRules
    prizes: dict[str, Any]
    fans: dict[str, Any]
    ageing: dict[str, Any]
    youth: dict[str, Any]
    achievements: list[dict[str, Any]]
    seasons: dict[str, Any]
    """seasons.yaml: the off-season rules (poaching, the owner's retirement)."""
    transfers: TransferTables
    """transfers.yaml (windows, valuation, market, negotiation, tags) with contracts.yaml."""

    @property
    def contracts(self) -> dict[str, Any]:
        """contracts.yaml as plain data (the same object as ``transfers.contracts``)."""
        return self.transfers.contracts

    @property
    def windows(self) -> dict[str, int]:
        """transfers.yaml ``windows``: window name → the month it opens in."""
        return dict(self.transfers.rules["windows"])

    def window_of(self, month: int) -> str | None:
        """The transfer window that opens in ``month`` (transfers.yaml), or None."""
        return next((name for name, m in self.windows.items() if m == month), None)


_CACHE: dict[tuple[tuple[str, int], ...], PurasbarTables] = {}
"""Bundles by the (path, mtime) stamp of every table file on the search path."""
_CACHE_MAX = 8


def load_purasbar_tables(resources: Resources) -> PurasbarTables:
    """Load and validate every table (a broken one raises a located ``TableError``).

    Cached per set of table files (path and modification time): one run reads each file once, and an
    edited or added file is read again. Across runs the bundle is kept in the disk cache
    (:mod:`anko_writer.cache`) under the path and bytes of every file, so only a changed file is parsed again.
    """
    stamp = tables_stamp(resources)
    found = _CACHE.get(stamp)
    if found is None or prebuilt.recording():
        found = cache.cached(KIND, _contents(stamp), lambda: _shipped_or_read(resources, stamp), _valid)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[stamp] = found
    register_cities(found.cities)  # the schemas read the slugs and clubs of the cities last loaded
    return found


def table_contents(resources: Resources) -> list[bytes | str]:
    """Every table file on the search path: its path and its bytes, in the stamp's order (the disk cache's key,
    and what a month's checkpoint is keyed by, :mod:`..season.checkpoint`)."""
    return _contents(tables_stamp(resources))


def _contents(stamp: tuple[tuple[str, int], ...]) -> list[bytes | str]:
    """:func:`table_contents` for the files ``stamp`` names, read once a process per stamp (as :data:`_CACHE`
    trusts a file's path and modification time within a run: the bundle and the checkpoint's key read one copy)."""
    found = _CONTENTS.get(stamp)
    if found is None:
        found = [part for path, _ in stamp for part in (path, read_bytes(path, TableError))]
        if len(_CONTENTS) >= _CACHE_MAX:
            _CONTENTS.pop(next(iter(_CONTENTS)))
        _CONTENTS[stamp] = found
    return list(found)


_CONTENTS: dict[tuple[tuple[str, int], ...], list[bytes | str]] = {}
"""The table files' paths and bytes, by their stamp."""


def forget() -> None:
    """Drop what this process has read of the table files (:data:`_CACHE` and :data:`_CONTENTS`), as a new
    process starts: the one call a test makes to stand for one."""
    _CACHE.clear()
    _CONTENTS.clear()


def _valid(value: Any) -> bool:
    """True when a stored bundle is one."""
    return isinstance(value, PurasbarTables)


def _shipped_or_read(resources: Resources, stamp: tuple[tuple[str, int], ...]) -> PurasbarTables:
    """The bundle the package ships for its own table files (every file on the search path shipped: a campaign
    without overrides), keyed by their paths inside the tables' folder and their bytes; else :func:`_read`."""
    root = builtin_dir("tables")
    contents = _contents(stamp)
    parts: list[bytes | str] = []
    for i in range(0, len(contents), 2):
        path = Path(str(contents[i]))
        if not path.is_relative_to(root):
            return _read(resources)
        parts += [path.relative_to(root).as_posix(), contents[i + 1]]
    found: PurasbarTables = prebuilt.shipped(KIND, parts, root, lambda: _read(resources), _valid)
    return found


KIND = "purasbar-tables"
"""The bundle's kind, in the cache folder and in the package's ``_prebuilt``."""


def _read(resources: Resources) -> PurasbarTables:
    """Parse and validate every table file (the disk cache's build step)."""
    from ..club.achievements import load_achievements
    from ..club.ageing import load_ageing
    from ..club.coach_decisions import load_coach_decisions
    from ..club.fans import load_fans
    from ..club.morale import load_morale
    from ..club.offseason import load_seasons
    from ..club.owner_actions import load_owner_actions
    from ..club.people import load_people_tables
    from ..club.youth import load_youth
    from ..events.business import load_business_tables
    from ..events.environment import load_external
    from ..events.match_events import load_match_event_tables
    from ..money.finance import load_finance, load_prizes
    from ..transfers.market import load_transfer_tables

    base: Tables = load_tables(resources)
    return PurasbarTables(
        **{f.name: getattr(base, f.name) for f in fields(Tables)},
        people=load_people_tables(resources), business=load_business_tables(resources),
        match_events=load_match_event_tables(resources), external=load_external(resources),
        owner_actions=load_owner_actions(resources.table_path("owner_actions.yaml")),
        coach_decisions=load_coach_decisions(resources.table_path("coach_decisions.yaml")),
        morale=load_morale(resources), finance=load_finance(resources), prizes=load_prizes(resources),
        fans=load_fans(resources), ageing=load_ageing(resources), youth=load_youth(resources),
        achievements=load_achievements(resources), seasons=load_seasons(resources),
        transfers=load_transfer_tables(resources))


__all__ = ["PurasbarTables", "load_purasbar_tables", "table_contents"]
