"""What crosses from one season to the next (000 §4.4 step 12): carried fortunes and sealed rolls.

Months of the season are 1–12 and the §4.4 settlement chapter counts as month 13 for reveals; a roll
due later is carried into the next season's month ``due − 13``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....chapters import ChapterKey
from ....seals import Seal, SealBook
from ..club.achievements import check_month, month_facts
from ..club.records import MonthAchievements
from ..competition.calendar import SETTLEMENT_MONTH
from ..money.bankruptcy import Bankruptcy
from .world import World

if TYPE_CHECKING:
    from ..setup.tables import PurasbarTables


def carried_seals(book: SealBook) -> list[dict[str, Any]]:
    """Hidden rolls still sealed at the season's end, moved into the next season (``due`` a month of it), in
    the core's format (:meth:`~anko_writer.seals.Seal.to_json`); a moment or outcome without its empty values."""
    out = []
    for record in book.carry(SETTLEMENT_MONTH):
        notes = {k: _present(record.pop(k)) for k in ("moment", "outcome") if record.get(k)}
        out.append({k: v for k, v in record.items() if k not in ("moment", "outcome")} | notes)
    return out


def _present(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` without its empty (None) values, as the state file writes it."""
    return {k: _present(v) if isinstance(v, dict) else v for k, v in record.items() if v is not None}


def seal_of(record: dict[str, Any], season: int) -> Seal:
    """A carried seal read back for season ``season``: the core's format, or the one state files written before
    issue 23 hold (``sealed_in: {season, month}`` and ``due``, a month of ``season``)."""
    if "sealed_in" not in record:
        return Seal.from_json(record)
    at = record["sealed_in"]
    return Seal(dict(record["roll"]), ChapterKey(at["season"], at["month"]), ChapterKey(season, record["due"]),
                record.get("moment"), record.get("outcome"))


def carry_over(world: World, state: dict[str, Any] | None, book: SealBook) -> None:
    """Start a season from the previous one's state: sealed rolls and fortunes that carry over."""
    if state is None:
        return
    for record in state["seals"]:
        book.add(seal_of(record, world.season))
    fort = state["fortunes"]
    world.life.depth["external"].value = fort.get("external_depth", 0)
    world.life.achievements = set(fort.get("achievements", []))
    world.life.bankruptcy = Bankruptcy.from_json(fort.get("bankruptcy"))


def fortunes_of(world: World) -> dict[str, Any]:
    """The fortunes ``state-end.yaml`` carries (§4.4 step 11: business depth resets, external stays)."""
    return {"external_depth": world.life.depth["external"].value,
            "achievements": sorted(world.life.achievements), "bankruptcy": world.life.bankruptcy.to_json()}


def month_achievements(world: World, record: dict[str, Any], tables: PurasbarTables) -> MonthAchievements:
    """§4.1 phase 5 (designed Appendix E): the in-season achievements the month's facts unlock."""
    life = world.life
    facts = month_facts(record, world.ours.name, life.facts)
    life.facts = facts
    rec = check_month(facts, life.achievements, tables.achievements)
    life.provisional += [e["key"] for e in rec["unlocked"]]
    return rec
