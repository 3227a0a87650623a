"""The money 000 §6.2.3 reads: the season's bill and the funding-pressure coefficient R (designed
numbers in ``tables/purasbar/finance.yaml``; the full ledger of ch.11 is a later issue)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ...schema import Field, Int, Map, Str
from .models import Club

START = Map({"base": Field(Int(min=0)), "die": Field(Str()), "per_face": Field(Int(min=0))})
FINANCE = Map({
    "source": Field(Str()),
    "start_funds": Field(START, doc="Opening funds: base + die × per_face."),
    "staff_salary_per_level": Field(Int(min=0)),
    "maintenance_per_level": Field(Int(min=0)),
})
"""Schema of finance.yaml."""


@dataclass(frozen=True)
class FinanceRules:
    """The designed money numbers."""

    base: int
    die: str
    per_face: int
    staff_salary_per_level: int
    maintenance_per_level: int

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "FinanceRules":
        """From the validated finance.yaml."""
        s = data["start_funds"]
        return cls(s["base"], s["die"], s["per_face"], data["staff_salary_per_level"], data["maintenance_per_level"])


def season_bill(club: Club, staff_levels: Iterable[int], rules: FinanceRules) -> dict[str, int]:
    """Everything due at the season's end (000 §4.1 phase 5 item 6: wages and upkeep are paid then):
    player wages (§3.2.2, §3.3.1), staff salaries and facility maintenance (designed)."""
    wages = sum(p.wage for p in club.players if p.rolled)
    staff = sum(staff_levels) * rules.staff_salary_per_level
    upkeep = sum(club.facilities.values()) * rules.maintenance_per_level
    return {"wages": wages, "staff": staff, "maintenance": upkeep, "total": wages + staff + upkeep}


def r_coefficient(funds: int, bill: int) -> float:
    """000 §6.2.3: R = current funds / (the season's remaining spending + wages due), rounded to 2 places.

    >>> r_coefficient(3_000_000, 1_500_000), r_coefficient(0, 1)
    (2.0, 0.0)
    """
    return round(funds / bill, 2) if bill > 0 else 99.0


def r_band(r: float) -> str:
    """000 §6.2.3's four bands: 充裕 (≥ 2.0), 平衡 (1.0–2.0), 偏紧 (0.5–1.0), 极度缺钱 (< 0.5).

    >>> [r_band(x) for x in (2.0, 1.99, 1.0, 0.5, 0.49)]
    ['rich', 'balanced', 'balanced', 'tight', 'broke']
    """
    if r >= 2.0:
        return "rich"
    if r >= 1.0:
        return "balanced"
    if r >= 0.5:
        return "tight"
    return "broke"
