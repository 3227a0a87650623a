"""000 §5.7 injuries: the post-match check, in-match retirement, absences in weeks and the comeback.

Records are plain JSON; templates narrate them. Weeks are season weeks of :mod:`.calendar`.

>>> injury_risk(29, 60), injury_risk(30, 45), injury_risk(34, 25)
(2, 8, 17)
>>> minutes_played([1, 2, 3, 4, 5, 6]), minutes_played([5, 6]), minutes_played([4, 5, 6])
(88, 25, 44)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ....dice import Dice, DiceExpr, Roll, RollJson
from ..models import Player
from .records import ComebackRecord, InfirmaryState, InjuryRecord

SLICE_MINUTES: dict[int, int] = {1: 18, 2: 26, 3: 0, 4: 19, 5: 25, 6: 0, 7: 15, 8: 15}
"""Designed from 000 §5.2: 1′–18′, 20′–45′, 补时 0, 46′–64′, 66′–90′, 补时 0; extra-time slices 7–8 15 each."""
CHECK_MINUTES = 40
"""000 §5.7.1: only players on the pitch more than 40 minutes are checked."""
BASE_RISK = 2
"""000 §5.7.1: base injury risk 2%."""
VETERAN_AGE = 30
"""000 §5.7.1: from 30, +1% a year; 30 counts as +1 (the condition is ≥ 30), so the term is age − 29."""
TIRED_STAMINA, TIRED_RISK = 50, 5
"""000 §5.7.1: stamina after the match < 50 → +5%."""
SPENT_STAMINA, SPENT_RISK = 30, 10
"""000 §5.7.1: stamina after the match < 30 → +10% (instead of the +5%, not added to it)."""
WEEKS_TABLE: dict[int, int] = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 4}
"""000 §5.7.1: 1D6 → weeks out (1–2 → 1, 3–4 → 2, 5 → 3, 6 → 4)."""
MIN_WEEKS = 1
"""000 §5.7.1: the team doctor shortens an absence to at least 1 week."""
RETIRE_STAMINA = 20
"""000 §5.7.3: a player ending a slice under 20 stamina rolls 1D20."""
RETIRE_DIE = "1D20"
"""000 §5.7.3: the die a tired player rolls at a slice's end."""
RETIRE_FACE = 5
"""000 §5.7.3: 1D20 ≤ 5 → forced off injured."""
RETURN_STAMINA = 90
"""000 §5.7.4: stamina on return = 90 + 1D10 (this, not §3.4.3's "满值", is the specific rule)."""
MORALE_FLOOR = -100
"""Designed: personal morale never goes under −100, the team morale scale of 000 §5.1.3."""


def minutes_played(slices_on_pitch: Iterable[int]) -> int:
    """Minutes from the slices (1..8) a player was on the pitch; designed from 000 §5.2's table."""
    key = tuple(slices_on_pitch)
    minutes = MINUTES_MEMO.get(key)
    if minutes is None:
        minutes = MINUTES_MEMO[key] = _minutes(set(key))
    return minutes


def _minutes(slices: set[int]) -> int:
    """:func:`minutes_played` worked out (each slice counted once)."""
    try:
        return sum(SLICE_MINUTES[s] for s in slices)
    except KeyError:
        raise ValueError(f"no slice {sorted(slices - SLICE_MINUTES.keys())}") from None


MINUTES_MEMO: dict[tuple[int, ...], int] = {}
""":func:`minutes_played` of each sequence of slices met so far (a few dozen: most players play them all)."""


def injury_risk(age: int, stamina_after: int) -> int:
    """000 §5.7.1 risk in percent: 2 + (age − 29 from 30) + (+5 under 50 stamina, +10 under 30)."""
    age_term = max(0, age - VETERAN_AGE + 1)  # 000 §5.7.1 年龄 ≥ 30，每超 1 岁 +1%
    if stamina_after < SPENT_STAMINA:  # 000 §5.7.1: the larger band replaces the smaller
        stamina_term = SPENT_RISK
    elif stamina_after < TIRED_STAMINA:
        stamina_term = TIRED_RISK
    else:
        stamina_term = 0
    return BASE_RISK + age_term + stamina_term


def weeks_out(face: int, doctor_level: int) -> int:
    """000 §5.7.1: the 1D6 table, minus one week per doctor level, never under 1 week.

    >>> [weeks_out(f, 0) for f in range(1, 7)], weeks_out(6, 2), weeks_out(5, 9)
    ([1, 1, 2, 2, 3, 4], 2, 1)
    """
    return max(MIN_WEEKS, WEEKS_TABLE[face] - doctor_level)


def _absence(dice: Dice, key: str, player: Player, doctor_level: int, week: int,
             rolls: list[RollJson]) -> InjuryRecord:
    """000 §5.7.1 steps 4–5: roll 1D6 for the weeks out; the doctor applies at once."""
    r = dice.roll(key, "1D6", f"{player.name} 缺阵周数")
    rolls.append(r.to_json())
    weeks = weeks_out(r.total, doctor_level)
    return {"weeks_roll": r.total, "weeks_table": WEEKS_TABLE[r.total], "weeks": weeks,
            "out_until_week": week + weeks}


def _blank(player: Player, doctor_level: int, week: int, roll: Roll) -> InjuryRecord:
    return {"player": player.name, "week": week, "roll": roll.total, "weeks_roll": None,
            "weeks_table": None, "doctor": doctor_level, "weeks": None, "out_until_week": None,
            "rolls": [roll.to_json()]}


CHECK_DIE = DiceExpr.parse("1D100")
"""000 §5.7.1 step 2's 1D100, parsed once (22 checks a match)."""


def post_match_check(dice: Dice, key: str, player: Player, minutes: int, stamina_after: int,
                     doctor_level: int, week: int, bonus: int = 0, keep_clean: bool = True) -> InjuryRecord | None:
    """000 §5.7.1 check of one player: None at ≤ 40 minutes, else the record (injured or not; a clean
    check's record only with ``keep_clean``, the die thrown either way: an audit's match keeps none).

    ``stamina_after`` is the stamina at the final whistle, before §5.6 recovery (the modifier is
    named after §5.3.2's 体力惩罚 bands). An unrolled player (age unknown) has no age term. Callers
    skip a player already forced off by :func:`retirement_check` (one injury per match).
    """
    if minutes <= CHECK_MINUTES:  # 000 §5.7.1 上场时间超过 40 分钟
        return None
    risk = check_risk(player, stamina_after, bonus)
    roll = dice.roll(key, CHECK_DIE, f"{player.name} 伤病抽检")
    if roll.total > risk and not keep_clean:
        return None
    return check_record(dice, key, player, minutes, stamina_after, doctor_level, week, risk, roll)


def check_risk(player: Player, stamina_after: int, bonus: int) -> int:
    """000 §5.7.1 step 1's risk of ``player``: :func:`injury_risk` (no age term when unknown) + ``bonus`` (§6.4.3)."""
    age = player.age or 0
    risk = BASE_RISK + bonus + (age - VETERAN_AGE + 1 if age >= VETERAN_AGE else 0)
    if stamina_after < TIRED_STAMINA:
        risk += SPENT_RISK if stamina_after < SPENT_STAMINA else TIRED_RISK
    return risk


def check_record(dice: Dice, key: str, player: Player, minutes: int, stamina_after: int, doctor_level: int,
                 week: int, risk: int, roll: Roll) -> InjuryRecord:
    """The record of a §5.7.1 check whose 1D100 ``roll`` was thrown against ``risk``: a clean check's short
    record, or an injury's with its 1D6 absence thrown now (steps 3–5)."""
    if roll.total > risk:  # 000 §5.7.1 step 3: a clean check keeps a short record
        return {"player": player.name, "week": week, "minutes": minutes, "stamina_after": stamina_after,
                "risk": risk, "roll": roll.total, "injured": False}
    rec: InjuryRecord = {**_blank(player, doctor_level, week, roll), "minutes": minutes,
           "stamina_after": stamina_after, "risk": risk, "injured": True}
    rec.update(_absence(dice, key, player, doctor_level, week, rec["rolls"]))
    return rec


def retirement_check(dice: Dice, key: str, player: Player, slice_no: int, doctor_level: int,
                     week: int, keep_clean: bool = True) -> InjuryRecord | None:
    """000 §5.7.3 at a slice's end: under 20 stamina roll 1D20, ≤ 5 → forced off injured; else None (a
    check that did not force him off keeps its record only with ``keep_clean``, the die thrown either way).

    The text gives no absence for this injury: the §5.7.1 1D6 table with the doctor is used.
    """
    if player.stamina >= RETIRE_STAMINA:
        return None
    roll = dice.roll(key, RETIRE_DIE, f"{player.name} 赛中伤退")
    if not keep_clean and roll.total > RETIRE_FACE:
        return None
    rec: InjuryRecord = {**_blank(player, doctor_level, week, roll), "slice": slice_no,
           "stamina": player.stamina, "forced_off": roll.total <= RETIRE_FACE}
    if rec["forced_off"]:
        rec.update(_absence(dice, key, player, doctor_level, week, rec["rolls"]))
    return rec


def comeback(dice: Dice, key: str, player: Player, week: int) -> ComebackRecord:
    """000 §5.7.4 return: stamina 90 + 1D10, morale −1D4 (rolled on every return, §3.4.3)."""
    sta = dice.roll(key, "1D10", f"{player.name} 复出体力")
    mor = dice.roll(key, "1D4", f"{player.name} 复出士气")
    before = player.morale
    player.stamina = min(100, RETURN_STAMINA + sta.total)
    player.morale = max(MORALE_FLOOR, before - mor.total)
    return {"player": player.name, "week": week, "stamina_roll": sta.total, "stamina": player.stamina,
            "morale_roll": mor.total, "morale_before": before, "morale": player.morale,
            "rolls": [sta.to_json(), mor.to_json()]}


def weeks_left(out_until_week: int, week: int) -> int:
    """Weeks still out counting ``week`` itself: injured in w for n → n + 1 in w, n in w + 1, 0 from w + n + 1.

    >>> [weeks_left(10, w) for w in (7, 8, 10, 11)]
    [4, 3, 1, 0]
    """
    return max(0, out_until_week - week + 1)


SEALED_UNTIL = 10_000
"""000 §5.8.4: the last week out of a player whose absence is sealed (out until the reveal sets it)."""
SEALED_WEEKS = 99
"""What ``injured_weeks`` shows while an absence is sealed (the same whatever the sealed die says)."""


class Infirmary:
    """One club's absences: player name → last season week out (injured in w for n → w + n)."""

    def __init__(self, out_until: dict[str, int] | None = None, week: int = 0) -> None:
        self.out_until: dict[str, int] = dict(out_until or {})
        """Player name → last week missed; back from the week after."""
        self.week = week
        """The current season week (the last one passed to :meth:`advance`)."""

    @classmethod
    def from_players(cls, players: Iterable[Player], week: int) -> Infirmary:
        """Rebuild from ``injured_weeks`` counted from ``week`` (a loaded campaign)."""
        return cls({p.name: week - 1 + p.injured_weeks for p in players if p.injured_weeks > 0}, week)

    def set_injury(self, player: Player, out_until_week: int, week: int | None = None) -> None:
        """Mark ``player`` out through ``out_until_week`` (a longer absence already running is kept)."""
        until = max(out_until_week, self.out_until.get(player.name, 0))
        self.out_until[player.name] = until
        player.injured_weeks = weeks_left(until, self.week if week is None else week)

    def seal_injury(self, player: Player) -> None:
        """000 §5.8.4: ``player`` is out from now until the sealed length of his absence is revealed."""
        self.out_until[player.name] = SEALED_UNTIL
        player.injured_weeks = SEALED_WEEKS

    def sealed(self, name: str) -> bool:
        """Whether ``name``'s absence is sealed (its length not yet revealed)."""
        return self.out_until.get(name) == SEALED_UNTIL

    def unseal(self, player: Player, out_until_week: int, week: int) -> None:
        """The reveal: ``player`` is out through ``out_until_week`` (back at once if it has passed)."""
        self.out_until[player.name] = out_until_week
        player.injured_weeks = weeks_left(out_until_week, week)

    def apply(self, player: Player, record: InjuryRecord | None) -> bool:
        """Set the absence of a check record that injured ``player``; True if it did."""
        if not record or (until := record.get("out_until_week")) is None:
            return False
        self.set_injury(player, until, record["week"])
        return True

    def available(self, player: Player, week: int) -> bool:
        """000 §5.7.4: out through the recorded week, back the week after (asked from the injury on)."""
        return week > self.out_until.get(player.name, 0)

    def advance(self, players: Iterable[Player], week: int, dice: Dice, key: str) -> list[ComebackRecord]:
        """Move to ``week``: absences ended before it return (000 §5.7.4); the rest count down."""
        self.week = week
        records: list[ComebackRecord] = []
        for p in players:
            until = self.out_until.get(p.name)
            if until is None:
                continue
            if until < week:
                del self.out_until[p.name]
                p.injured_weeks = 0
                records.append({**comeback(dice, key, p, week), "out_until_week": until})
            else:
                p.injured_weeks = SEALED_WEEKS if until == SEALED_UNTIL else weeks_left(until, week)
        return records

    def to_json(self) -> InfirmaryState:
        """Plain record for the campaign state."""
        return {"week": self.week, "out_until": dict(self.out_until)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Infirmary:
        """Inverse of :meth:`to_json`."""
        return cls(data.get("out_until", {}), data.get("week", 0))


__all__ = ["SLICE_MINUTES", "CHECK_MINUTES", "WEEKS_TABLE", "minutes_played", "injury_risk", "weeks_out",
           "weeks_left", "post_match_check", "retirement_check", "comeback", "Infirmary", "SEALED_UNTIL",
           "SEALED_WEEKS"]
