"""000 §4.1 phase 3 and §16.3 (designed): the head coach's monthly decision, weighted by personality."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ....dice import Dice
from ....tables import DiceTable, load_table
from .owner_actions import BASE_EFFECTS, Checked, check, pick
from .records import ActionPick, ScoutReport

COACH_EFFECTS = BASE_EFFECTS | {"one_on_one", "scout", "tactics"}
"""Kinds the coach table may name: the shared ones, §8.2 coaching, §5.8.2 scouting, §7.2.1 tactics."""
TEAM_TALK, ONE_ON_ONE, TACTICS_REVIEW, SQUAD_CONFLICT = "team_talk", "one_on_one", "tactics_review", "squad_conflict"
"""Keys of the four rows 000 §4.5.1 fixes."""
COACH_FIXED = {TEAM_TALK: (1, 5), ONE_ON_ONE: (36, 45), TACTICS_REVIEW: (56, 70), SQUAD_CONFLICT: (81, 90)}
"""000 §4.5.1: 全队心理建设 1–5, 一对一球员指导 36–45, 调整战术体系 56–70, 处理内部矛盾 81–90."""
SCOUT_OPPONENT = "scout_opponent"
"""Key of 战术研究：下个对手 (000 §5.8.2)."""
COACH_TRAITS = frozenset({"stubbornness", "passion", "tendency"})
"""Coach personality a weighting rule may read (stubbornness, passion 1–100; tendency of tactics.TENDENCIES)."""
SCOUT_BASE, SCOUT_PER_LEVEL = 50, 10
"""Designed §5.8.2 success: 50% + 10% per scout level (60–100% at levels 1–5)."""


@lru_cache(maxsize=32)
def coach_checked(table: DiceTable) -> Checked:
    """The coach table validated once per loaded table."""
    return check(table, COACH_FIXED, COACH_TRAITS, frozenset(), COACH_EFFECTS)


def load_coach_decisions(path: Path) -> DiceTable:
    """Load ``coach_decisions.yaml`` and run the action-table checks (a TableError on the first problem)."""
    table = load_table(path, COACH_EFFECTS)
    coach_checked(table)
    return table


def monthly_decision(dice: Dice, key: str, coach_traits: Mapping[str, Any], tables: Mapping[str, Any],
                     club_state: Mapping[str, Any] | None = None, vote: str | None = None) -> ActionPick:
    """000 §4.1 phase 3: the coach's D100 on the weighted §16.3 table; fallbacks only when ``club_state`` is given."""
    checked = coach_checked(tables["coach_decisions"])
    return pick(dice, key, checked, coach_traits, club_state, "主教练月度决策", vote)


def scout_chance(scout_level: int, base: int = SCOUT_BASE, per_level: int = SCOUT_PER_LEVEL,
                 factor: tuple[int, int] = (1, 1)) -> int:
    """Designed §5.8.2 success %: base + per_level × scout level, at most 100, times ``factor`` (floor)."""
    return min(100, base + per_level * scout_level) * factor[0] // factor[1]


def scout_opponent(dice: Dice, key: str, scout_level: int, base: int = SCOUT_BASE,
                   per_level: int = SCOUT_PER_LEVEL, factor: tuple[int, int] = (1, 1)) -> ScoutReport:
    """000 §5.8.2: 战术研究 succeeds on 1D100 ≤ chance; success reveals the next opponent's four abilities before the match."""
    chance = scout_chance(scout_level, base, per_level, factor)
    r = dice.roll(key, "1D100", "战术研究判定")
    ok = r.total <= chance
    return {"scout_level": scout_level, "chance": chance, "roll": r.to_json(), "success": ok,
            "reveal": "opponent_abilities" if ok else None}


__all__ = [
    "COACH_EFFECTS", "COACH_FIXED", "TEAM_TALK", "ONE_ON_ONE", "TACTICS_REVIEW", "SQUAD_CONFLICT",
    "SCOUT_OPPONENT", "coach_checked", "load_coach_decisions", "monthly_decision", "scout_chance",
    "scout_opponent",
]
