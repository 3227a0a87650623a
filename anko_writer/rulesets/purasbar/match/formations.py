"""000 §7.1 formations: line-up numbers, % bonuses on players, and the counter table."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Ability


@dataclass(frozen=True)
class Formation:
    """A formation: its name, how many DF/MF/FW it fields, and its % bonuses (000 §7.1)."""

    name: str
    """``4 4 2`` etc., as the rulebook writes it."""
    label: str
    """平衡 / 攻击 / 防守 / 控球."""
    df: int
    mf: int
    fw: int
    bonus: dict[str, int]
    """Percent added to each ability of every player on the pitch."""
    beats: str
    """The formation this one counters (+2 to its attacks)."""

    @property
    def title(self) -> str:
        """``4 3 3 攻击``."""
        return f"{self.name} {self.label}"

    def counts(self) -> dict[str, int]:
        """Players needed by position, GK included."""
        return {"GK": 1, "DF": self.df, "MF": self.mf, "FW": self.fw}


# 000 §7.1 table and §7.1.1 counter relations.
FORMATIONS: dict[str, Formation] = {
    f.name: f
    for f in (
        Formation("4 4 2", "平衡", 4, 4, 2, {"ATK": 5, "DEF": 5, "MID": 0, "GK": 0}, "3 5 2"),
        Formation("4 3 3", "攻击", 4, 3, 3, {"ATK": 15, "DEF": -10, "MID": 5, "GK": 0}, "4 4 2"),
        Formation("5 4 1", "防守", 5, 4, 1, {"ATK": -15, "DEF": 20, "MID": 0, "GK": 5}, "4 3 3"),
        Formation("3 5 2", "控球", 3, 5, 2, {"ATK": 5, "DEF": -5, "MID": 15, "GK": 0}, "5 4 1"),
    )
}

COUNTER_BONUS = 2
"""000 §7.1.1: +2 to every attack of the side whose formation counters the other's, −2 to the other."""

STYLE_FORMATION: dict[Ability, str] = {"ATK": "4 3 3", "DEF": "5 4 1", "MID": "3 5 2", "GK": "4 4 2"}
"""Designed: a club's habitual formation follows its §2.2 first priority ("定义球队的初始风格")."""


def counter(ours: str, theirs: str) -> int:
    """The §7.1.1 modifier for the side playing ``ours`` against ``theirs``: +2, −2 or 0.

    >>> counter("4 3 3", "4 4 2"), counter("4 4 2", "4 3 3"), counter("4 4 2", "5 4 1")
    (2, -2, 0)
    """
    if FORMATIONS[ours].beats == theirs:
        return COUNTER_BONUS
    if FORMATIONS[theirs].beats == ours:
        return -COUNTER_BONUS
    return 0


def apply_bonus(value: int, ability: str, formation: str) -> int:
    """A player's value with the formation's % bonus, rounded down (000 §7.1: 43 × 1.15 = 49).

    >>> apply_bonus(43, "MID", "3 5 2")
    49
    """
    pct = FORMATIONS[formation].bonus.get(ability, 0)
    return value * (100 + pct) // 100


COUNTERS: dict[tuple[str, str], int] = {(a, b): counter(a, b) for a in FORMATIONS for b in FORMATIONS}
""":func:`counter` of every pair of formations (ours, theirs), looked up once per attack."""
