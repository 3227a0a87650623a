"""Fan base and reputation (000 ch.13 §13.1–13.2, designed; numbers in ``tables/purasbar/fans.yaml``).

The opening values (the rulebook's step 8 "计算初始球迷基数、声望、士气") and the §4.4 steps 3–4
season updates. No dice: every term is a formula the chapter prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ....resources import Resources
from ....schema import Check, Field, Int, List, Map, Str
from ....tables import load_data
from ..money.finance import CUP_STAGES, LEAGUE_CLUBS
from .morale import rank_bands_problem
from .records import InitialValues, SeasonFans, SeasonReputation

REPUTATION_MIN, REPUTATION_MAX = 0, 100
"""Reputation runs from 0 to 100 (designed §13.2)."""


def _bands(value_key: str) -> Check:
    """League rank bands 1–24 → ``value_key``, contiguous and complete."""
    band = Map({"from": Field(Int(min=1)), "to": Field(Int(min=1, max=LEAGUE_CLUBS)), value_key: Field(Int())})

    return Check(List(band, min_len=1), lambda bands: rank_bands_problem(bands, LEAGUE_CLUBS))


def _cup(value: Int) -> Map:
    """One value per 群英杯 stage."""
    return Map({s: Field(value) for s in CUP_STAGES})


SCHEMA = Map({
    "source": Field(Str()),
    "initial": Field(Map({
        "fans_base": Field(Int(min=0)), "fans_per_pbs_permille": Field(Int(min=0)),
        "reputation_percent_of_total": Field(Int(min=0)), "morale": Field(Int(min=-100, max=100)),
    }), doc="Opening values (designed ch.13)."),
    "fans": Field(Map({
        "pivot_percent": Field(Int(min=0, max=100)), "per_point_permille": Field(Int(min=0)),
        "floor": Field(Int(min=0)), "max_per_seat": Field(Int(min=1)),
        "league": Field(_bands("percent")), "cup": Field(_cup(Int())),
    }), doc="§4.4 step 3 (designed §13.1)."),
    "reputation": Field(Map({
        "anchor": Field(Int(min=REPUTATION_MIN, max=REPUTATION_MAX)), "drift_percent": Field(Int(min=0, max=100)),
        "league": Field(_bands("points")), "cup": Field(_cup(Int())),
    }), doc="§4.4 step 4 (designed §13.2)."),
})
"""The shape of ``fans.yaml``."""


def load_fans_table(path: Path) -> dict[str, Any]:
    """``fans.yaml`` checked against :data:`SCHEMA` (TableError on a problem)."""
    table: dict[str, Any] = load_data(path, SCHEMA)
    return table


def load_fans(resources: Resources) -> dict[str, Any]:
    """The ruleset's ``fans.yaml`` (campaign folder first)."""
    return load_fans_table(resources.table_path("fans.yaml"))


def _toward_zero(value: int, num: int, den: int) -> int:
    """``value × num ÷ den`` rounded toward zero."""
    part = abs(value) * abs(num) // den
    return part if (value >= 0) == (num >= 0) else -part


def initial_fans(pbs: int, table: dict[str, Any]) -> int:
    """Designed ch.13 opening fan base: fans_base + PBS × 1.5 (down).

    >>> T = load_fans(Resources("purasbar", None))
    >>> initial_fans(15272, T), initial_fans(10705, T), initial_fans(160, T)
    (30908, 24057, 8240)
    """
    i: dict[str, int] = table["initial"]
    return i["fans_base"] + pbs * i["fans_per_pbs_permille"] // 1000


def initial_reputation(total: int, table: dict[str, Any]) -> int:
    """Designed ch.13 opening reputation: the §2.1 total ability × 40% (down), within 0–100.

    >>> T = load_fans(Resources("purasbar", None))
    >>> initial_reputation(150, T), initial_reputation(134, T), initial_reputation(36, T)
    (60, 53, 14)
    """
    i = table["initial"]
    return clamp(total * i["reputation_percent_of_total"] // 100)


def initial_values(pbs: int, total: int, table: dict[str, Any]) -> InitialValues:
    """The rulebook's step 8: opening fans, reputation and morale with their terms."""
    t = table
    i = t["initial"]
    return {"pbs": pbs, "total": total, "fans_base": i["fans_base"],
            "fans_per_pbs_permille": i["fans_per_pbs_permille"], "fans": initial_fans(pbs, t),
            "reputation_percent": i["reputation_percent_of_total"],
            "reputation": initial_reputation(total, t), "morale": i["morale"]}


def clamp(reputation: int) -> int:
    """Keep reputation within 0–100."""
    return max(REPUTATION_MIN, min(REPUTATION_MAX, reputation))


def attendance_percent(records: Iterable[Mapping[str, Any]], club: str) -> int | None:
    """The season's average league attendance at ``club``'s home (total crowd ÷ total seats, % down).

    ``records`` are finance.ticket_income records; ``None`` when the club played no league home match.

    >>> attendance_percent([{"competition": "league", "home": "A", "attendance": 9, "capacity": 10},
    ...                     {"competition": "league", "home": "A", "attendance": 5, "capacity": 10},
    ...                     {"competition": "swiss", "home": "A", "attendance": 0, "capacity": 10}], "A")
    70
    """
    home = [r for r in records if r["competition"] == "league" and r["home"] == club]
    seats = sum(r["capacity"] for r in home)
    return sum(r["attendance"] for r in home) * 100 // seats if seats else None


def _band(bands: list[dict[str, Any]], rank: int, key: str) -> int:
    """The value of the band holding ``rank``."""
    for b in bands:
        if b["from"] <= rank <= b["to"]:
            return int(b[key])
    raise ValueError(f"league rank {rank} is not 1–{LEAGUE_CLUBS}")


def _stage(cup: dict[str, int], stage: str) -> int:
    """The value of a 群英杯 stage."""
    if stage not in cup:
        raise ValueError(f"unknown cup stage {stage!r} (expected one of {', '.join(CUP_STAGES)})")
    return int(cup[stage])


def season_fans(fans: int, attendance: int | None, league_rank: int, cup_stage: str,
                table: dict[str, Any], capacity: int | None = None) -> SeasonFans:
    """§4.4 step 3 (designed §13.1): new fans = old + attendance, league and cup terms, floored (and capped).

    ``attendance`` is :func:`attendance_percent` (``None`` counts as the pivot: no term); ``capacity``
    (the home stadium) caps the base at capacity × max_per_seat when given.

    >>> r = season_fans(24057, 62, 12, "swiss", load_fans(Resources("purasbar", None)))
    >>> r["attendance_term"], r["league_term"], r["cup_term"], r["fans"]
    (144, 0, 0, 24201)
    """
    f = table["fans"]
    used = attendance if attendance is not None else f["pivot_percent"]
    att = _toward_zero(fans, (used - f["pivot_percent"]) * f["per_point_permille"], 1000)
    league_pct, cup_pct = _band(f["league"], league_rank, "percent"), _stage(f["cup"], cup_stage)
    league, cup = _toward_zero(fans, league_pct, 100), _toward_zero(fans, cup_pct, 100)
    raw = fans + att + league + cup
    cap = capacity * f["max_per_seat"] if capacity is not None else None
    new = max(f["floor"], raw if cap is None else min(raw, cap))
    return {"before": fans, "attendance": attendance, "attendance_used": used, "pivot": f["pivot_percent"],
            "per_point_permille": f["per_point_permille"], "attendance_term": att, "rank": league_rank,
            "league_percent": league_pct, "league_term": league, "cup_stage": cup_stage, "cup_percent": cup_pct,
            "cup_term": cup, "raw": raw, "floor": f["floor"], "max_per_seat": f["max_per_seat"], "cap": cap,
            "fans": new, "delta": new - fans}


def season_reputation(reputation: int, league_rank: int, cup_stage: str,
                      table: dict[str, Any]) -> SeasonReputation:
    """§4.4 step 4 (designed §13.2): old − drift toward the anchor + league band + cup stage, within 0–100.

    >>> r = season_reputation(53, 1, "champion", load_fans(Resources("purasbar", None)))
    >>> r["drift"], r["league"], r["cup"], r["reputation"]
    (0, 8, 8, 69)
    """
    t = table["reputation"]
    drift = _toward_zero(reputation - t["anchor"], t["drift_percent"], 100)
    league, cup = _band(t["league"], league_rank, "points"), _stage(t["cup"], cup_stage)
    raw = reputation - drift + league + cup
    new = clamp(raw)
    return {"before": reputation, "anchor": t["anchor"], "drift_percent": t["drift_percent"], "drift": -drift,
            "rank": league_rank, "league": league, "cup_stage": cup_stage, "cup": cup, "raw": raw,
            "reputation": new, "delta": new - reputation}


__all__ = [
    "REPUTATION_MIN", "REPUTATION_MAX", "SCHEMA", "load_fans_table", "load_fans", "initial_fans",
    "initial_reputation", "initial_values", "clamp", "attendance_percent", "season_fans", "season_reputation",
]
