"""Season weeks (designed): 12 months × 4 weeks, and the week of every league and cup match day.

000 ch.4 gives a season of twelve months and the rounds of each month (§4.2.1, §4.3) but never the
week of a match; weeks exist because §5.7 counts absences in weeks. The placement below is designed.

>>> league_week(1), league_week(2), league_week(20), league_week(23)
(1, 3, 39, 44)
>>> cup_week(0), cup_week(5), cup_week(7), month_of(cup_week(7))
(45, 47, 48, 12)
"""

from __future__ import annotations

from .schedule import ROUNDS_BY_MONTH

MONTHS = 12
"""000 ch.4: a season is twelve game months."""
WEEKS_PER_MONTH = 4
"""Designed: four weeks a month (the text counts injuries in weeks, months in rounds)."""
SEASON_WEEKS = MONTHS * WEEKS_PER_MONTH
"""Designed: season weeks are numbered 1..48."""
CUP_MONTH = 12
"""000 §4.3: the 群英杯 is played in month 12."""
SETTLEMENT_MONTH = 13
"""The §4.4 settlement counts as month 13: the ledger books its lines there (ledger.Entry.month), and the
reveal calendar places the settlement chapter after the 群英杯 month (a roll due later is carried into the
next season's month ``due − 13``)."""

LEAGUE_WEEKS_IN_MONTH: dict[int, tuple[int, ...]] = {
    **{m: (1, 3) for m in range(1, 11)},
    11: (1, 2, 4),
}
"""Designed: week-in-month of each league round (000 §4.2.1 gives two rounds in months 1–10, three in 11)."""

CUP_STAGES: tuple[str, ...] = (
    "瑞士轮第1轮", "瑞士轮第2轮", "瑞士轮第3轮", "瑞士轮第4轮", "瑞士轮第5轮",
    "四分之一决赛", "半决赛", "决赛",
)
"""000 §4.3: five Swiss rounds, then quarter-finals, semi-finals and the final (8 match days)."""
CUP_WEEKS_IN_MONTH: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4)
"""Designed: week-in-month of each cup stage (Swiss 1–2, 3–4, 5 + QF, SF + final)."""


def week_of(month: int, week_in_month: int) -> int:
    """Season week 1..48 of week ``week_in_month`` (1..4) of ``month`` (1..12); designed calendar."""
    if not (1 <= month <= MONTHS and 1 <= week_in_month <= WEEKS_PER_MONTH):
        raise ValueError(f"no week {week_in_month} in month {month}")
    return (month - 1) * WEEKS_PER_MONTH + week_in_month


MONTH_WEEKS: dict[int, tuple[int, ...]] = {
    m: tuple(week_of(m, w) for w in range(1, WEEKS_PER_MONTH + 1)) for m in range(1, MONTHS + 1)
}
"""Designed: the season weeks of each month (month 3 → weeks 9..12)."""


def month_of(week: int) -> int:
    """The month (1..12) holding season week ``week`` (designed calendar)."""
    if not 1 <= week <= SEASON_WEEKS:
        raise ValueError(f"season week {week} outside 1..{SEASON_WEEKS}")
    return (week - 1) // WEEKS_PER_MONTH + 1


def week_in_month(week: int) -> int:
    """Week 1..4 within its month of season week ``week`` (designed calendar)."""
    return week - (month_of(week) - 1) * WEEKS_PER_MONTH


def league_week(round_no: int) -> int:
    """Season week of league round ``round_no`` (1..23): designed, weeks 1 and 3; month 11 weeks 1, 2, 4."""
    for month, rounds in ROUNDS_BY_MONTH.items():  # 000 §4.2.1 rounds by month
        if round_no in rounds:
            return week_of(month, LEAGUE_WEEKS_IN_MONTH[month][rounds.index(round_no)])
    raise ValueError(f"no league round {round_no}")


def cup_week(stage_index: int) -> int:
    """Season week of cup match day ``stage_index`` (0..7, see ``CUP_STAGES``): designed placement."""
    if not 0 <= stage_index < len(CUP_STAGES):
        raise ValueError(f"no cup stage {stage_index}")
    return week_of(CUP_MONTH, CUP_WEEKS_IN_MONTH[stage_index])


__all__ = ["MONTHS", "WEEKS_PER_MONTH", "SEASON_WEEKS", "CUP_MONTH", "SETTLEMENT_MONTH", "LEAGUE_WEEKS_IN_MONTH", "CUP_STAGES",
           "CUP_WEEKS_IN_MONTH", "MONTH_WEEKS", "week_of", "month_of", "week_in_month", "league_week",
           "cup_week"]
