"""Team morale (000 §5.1.3): the month-end adjustment and the season carry (designed §13.3)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ....resources import Resources
from ....schema import Check, Field, Int, List, Map, Problem, Str
from ....tables import load_data
from .records import MoraleAdjustment

MORALE_MIN, MORALE_MAX = -100, 100
"""000 §5.1.3: team morale runs from −100 to 100."""
MODIFIER_CAP = 5
"""000 §5.1.3: the attack modifier floor(morale / 10) gives at most +5."""
OVERFLOW_FROM = 60
"""000 §5.6: morale ≥ 60 turns every 10 points above 50 into +1 post-match recovery."""
RESULTS = ("win", "draw", "loss")
"""A match result from one club's side."""

MONTHLY = Map({
    "win": Field(Int(min=0)), "draw": Field(Int()), "loss": Field(Int(max=0)),
    "sweep": Field(Int(min=0), doc="Extra when every match of the month was won."),
    "slump": Field(Int(max=0), doc="Extra when every match of the month was lost."),
    "sweep_min": Field(Int(min=1), doc="Matches a month needs for sweep or slump."),
    "swing_cap": Field(Int(min=1), doc="The results part moves morale by at most this much."),
    "drift_percent": Field(Int(min=0, max=100), doc="Share of morale lost toward 0 each month."),
    "drift_min": Field(Int(min=0), doc="Smallest drift while morale is not 0."),
}, doc="000 §4.1 phase 5 item 2 (designed §13.3).")
BAND = Map({"from": Field(Int(min=1)), "to": Field(Int(min=1)), "adjust": Field(Int())})


def rank_bands_problem(bands: list[dict[str, Any]], last: int | None = None) -> Problem:
    """Rank bands run from 1 upward without gaps or overlaps (and, given ``last``, end at it)."""
    expect = 1
    for i, band in enumerate(bands):
        if band["from"] != expect or band["to"] < band["from"]:
            return (i, f"这一段应从第 {expect} 名开始，且不能在开始之前结束")
        expect = band["to"] + 1
    if last is not None and expect != last + 1:
        return f"各段止于第 {expect - 1} 名，应止于第 {last} 名"
    return None


SCHEMA = Map({
    "source": Field(Str()),
    "monthly": Field(MONTHLY),
    "offseason": Field(Map({
        "ranks": Field(Check(List(BAND, min_len=1), rank_bands_problem), doc="Final league rank → adjustment."),
        "cup_winner": Field(Int(), doc="Extra for the 群英杯 winner."),
    }), doc="000 §4.4 step 5 休赛期成绩调整 (designed §13.3)."),
})
"""The shape of ``morale.yaml``."""


def load_morale_table(path: Path) -> dict[str, Any]:
    """``morale.yaml`` checked against :data:`SCHEMA` (TableError on a problem)."""
    table: dict[str, Any] = load_data(path, SCHEMA)
    return table


def load_morale(resources: Resources) -> dict[str, Any]:
    """The ruleset's ``morale.yaml`` (campaign folder first)."""
    return load_morale_table(resources.table_path("morale.yaml"))


def clamp(morale: int) -> int:
    """Keep morale within −100…100 (000 §5.1.3)."""
    return max(MORALE_MIN, min(MORALE_MAX, morale))


def modifier(morale: int) -> int:
    """000 §5.1.3 attack modifier: min(5, floor(morale / 10)); match.py applies the same formula.

    >>> [modifier(m) for m in (-100, -1, 0, 9, 10, 49, 50, 100)]
    [-10, -1, 0, 0, 1, 4, 5, 5]
    """
    return min(MODIFIER_CAP, morale // 10)


def overflow(morale: int) -> int:
    """000 §5.6: extra post-match recovery, (morale − 50) // 10 once morale ≥ 60 (as match.recovery).

    >>> [overflow(m) for m in (59, 60, 75, 100)]
    [0, 1, 2, 5]
    """
    return (morale - 50) // 10 if morale >= OVERFLOW_FROM else 0


def _toward_zero(value: int, percent: int) -> int:
    """``value × percent / 100`` rounded toward zero."""
    part = abs(value) * percent // 100
    return part if value >= 0 else -part


def monthly_adjustment(results: list[str], morale: int, table: dict[str, Any], bonus: int = 0) -> MoraleAdjustment:
    """000 §4.1 phase 5 item 2 (designed §13.3): drift toward 0, the month's results (capped), ``bonus``.

    ``bonus`` is the external environment's morale modifier (environment.morale_bonus). The record
    keeps every part so a chapter can print the sum.

    >>> t = {"monthly": {"win": 4, "draw": 1, "loss": -4, "sweep": 2, "slump": -2, "sweep_min": 2,
    ...                  "swing_cap": 12, "drift_percent": 15, "drift_min": 1}}
    >>> monthly_adjustment(["win", "win"], 0, t)["morale"], monthly_adjustment(["loss", "draw"], 40, t)["morale"]
    (10, 31)
    """
    m = table["monthly"]
    unknown = [r for r in results if r not in RESULTS]
    if unknown:
        raise ValueError(f"unknown results {unknown} (expected {', '.join(RESULTS)})")
    count = Counter(results)
    drift = _toward_zero(morale, m["drift_percent"])
    if morale and abs(drift) < m["drift_min"]:
        drift = min(m["drift_min"], abs(morale)) * (1 if morale > 0 else -1)  # never past 0
    streak = 0
    if len(results) >= m["sweep_min"]:
        streak = m["sweep"] if count["win"] == len(results) else m["slump"] if count["loss"] == len(results) else 0
    raw = count["win"] * m["win"] + count["draw"] * m["draw"] + count["loss"] * m["loss"] + streak
    swing = max(-m["swing_cap"], min(m["swing_cap"], raw))
    after = clamp(morale - drift + swing + bonus)
    return {
        "before": morale, "results": {r: count[r] for r in RESULTS}, "drift": -drift, "streak": streak,
        "raw_swing": raw, "swing": swing, "bonus": bonus, "delta": after - morale, "morale": after,
        "clamped": after != morale - drift + swing + bonus,
        "modifier_before": modifier(morale), "modifier": modifier(after),
    }


def season_carry(morale: int, offseason_adjustment: int) -> int:
    """000 §4.4 step 5: old × 0.5 (rounded toward zero, so ±15 → ±7) + the offseason adjustment, clamped.

    >>> season_carry(15, 3), season_carry(-15, 0), season_carry(100, 10), season_carry(-7, -10)
    (10, -7, 60, -13)
    """
    return clamp(_toward_zero(morale, 50) + offseason_adjustment)


def offseason_adjustment(rank: int, table: dict[str, Any], cup_winner: bool = False) -> int:
    """Designed §13.3 休赛期成绩调整: the band of the final league rank, plus the cup winner's extra."""
    for band in table["offseason"]["ranks"]:
        if band["from"] <= rank <= band["to"]:
            adjust: int = band["adjust"] + (table["offseason"]["cup_winner"] if cup_winner else 0)
            return adjust
    raise ValueError(f"no offseason band for rank {rank}")


__all__ = [
    "MORALE_MIN", "MORALE_MAX", "MODIFIER_CAP", "RESULTS", "SCHEMA", "load_morale", "load_morale_table",
    "clamp", "modifier", "overflow", "monthly_adjustment", "season_carry", "offseason_adjustment",
    "rank_bands_problem",
]
