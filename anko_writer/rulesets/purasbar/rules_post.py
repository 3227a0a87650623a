"""The rule numbers the 开帖 (rules post, ``rules.md.j2``) prints, read from the code that plays them,
so the recap cannot disagree with the rules it recaps.

>>> numbers()["shot"], numbers()["goal"], numbers()["event_odds"]["pre"]
(15, 20, 40)
"""

from __future__ import annotations

from .competition.cup import QUALIFIERS, SWISS_ROUNDS
from .events.match_events import POINTS, PRE, RESPONSE_FUMBLE, RESPONSE_THRESHOLD
from .match.engine import COMPETITION_DIE, FINISH_DIE, GOAL_THRESHOLD, MORALE_CAP, SHOOTER_WEIGHTS, SHOT_THRESHOLD, VENUE_BONUS
from .match.formations import COUNTER_BONUS
from .match.injuries import RETIRE_DIE, RETIRE_FACE, RETIRE_STAMINA
from .match.side import AI_SUB_STAMINA, SUBS_NORMAL
from .match.tactics import (
    ADAPT_DIE,
    ADAPT_PENALTY,
    AI_TRAIL,
    FLEXIBLE,
    MORALE_BOOST,
    PLAYER_BOOST,
    STUBBORN,
    TIMEOUTS_EXTRA,
    TIMEOUTS_NORMAL,
)


def _shooter_bands() -> list[tuple[str, int, int]]:
    """000 §5.1.2 step 1 as 1D100 bands: (group, low, high)."""
    bands, low = [], 1
    for group, weight in SHOOTER_WEIGHTS:
        bands.append((group, low, low + weight - 1))
        low += weight
    return bands


def numbers() -> dict[str, object]:
    """Every number the rules post states, by name."""
    return {
        "shot": SHOT_THRESHOLD, "goal": GOAL_THRESHOLD, "finish_die": f"1D{FINISH_DIE}",
        "league_die": f"1D{COMPETITION_DIE['league']}", "knockout_die": f"1D{COMPETITION_DIE['knockout']}",
        "venue": VENUE_BONUS, "morale_cap": MORALE_CAP, "counter": COUNTER_BONUS,
        "shooter_bands": _shooter_bands(),
        "subs": SUBS_NORMAL, "timeouts": TIMEOUTS_NORMAL, "timeouts_extra": TIMEOUTS_EXTRA,
        "retire_stamina": RETIRE_STAMINA, "retire_die": RETIRE_DIE, "retire_face": RETIRE_FACE,
        "event_odds": {"pre": POINTS[PRE], "open": POINTS[1], "middle": POINTS[2], "extra": POINTS[7]},
        "response_threshold": RESPONSE_THRESHOLD, "response_fumble": RESPONSE_FUMBLE,
        "adapt_die": ADAPT_DIE, "adapt_penalty": ADAPT_PENALTY, "flexible": FLEXIBLE, "stubborn": STUBBORN,
        "ai_trail": AI_TRAIL, "ai_sub_stamina": AI_SUB_STAMINA,
        "morale_boost": MORALE_BOOST, "player_boost": PLAYER_BOOST,
        "swiss_rounds": SWISS_ROUNDS, "qualifiers": QUALIFIERS,
    }


__all__ = ["numbers"]
