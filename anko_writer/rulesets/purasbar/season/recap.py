"""The season told in one paragraph at the head of the settlement chapter (issue 15): where we finished and
how far from the title, how far we went in the 群英杯, who scored our goals, and what the season did to the
money. Pure: it reads the month records and the settlement's own numbers, and decides nothing.

>>> table = [{"team": "米尤因", "points": 63, "won": 20, "drawn": 3, "lost": 0},
...          {"team": "雷希特", "points": 57, "won": 17, "drawn": 6, "lost": 0}]
>>> cup = {"qualifiers": ["雷希特", "朗格斯"], "champion": "朗格斯",
...        "bracket": [{"stage": "quarter_final", "home": "雷希特", "away": "朗格斯", "winner": "朗格斯"}]}
>>> r = recap(table, "雷希特", cup, {"name": "保罗·穆勒", "goals": 17}, 1_806_425, 4_726_425)
>>> r["league"], r["gap"], r["cup"]["reached"], r["band"]
({'rank': 2, 'points': 57, 'won': 17, 'drawn': 6, 'lost': 0}, 6, 'quarter_final', 'high')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

STAGES = ("swiss", "quarter_final", "semi_final", "final", "champion")
"""How far a club went in the 群英杯, in order: out in the Swiss rounds … won it (000 §4.3)."""
HIGH, MID = 4, 16
"""The rank bands the paragraph speaks of: the top four, the middle to 16th, the rest (the settlement's own
fans and reputation bands draw their lines at 4 and 16 too)."""


def cup_reached(cup: Mapping[str, Any] | None, club: str) -> str | None:
    """How far ``club`` went in the 群英杯 (:data:`STAGES`), None when the cup was not played.

    >>> cup_reached({"qualifiers": ["A"], "champion": "B", "bracket": []}, "C")
    'swiss'
    """
    if not cup:
        return None
    if cup.get("champion") == club:
        return "champion"
    if club not in cup.get("qualifiers", ()):
        return "swiss"
    played = [m["stage"] for m in cup.get("bracket", ()) if club in (m.get("home"), m.get("away"))]
    return max(played, key=STAGES.index) if played else "quarter_final"


def band(rank: int) -> str:
    """``champion``, ``high`` (2–4), ``mid`` (5–16) or ``low``: the paragraph's word for a final rank."""
    return "champion" if rank == 1 else "high" if rank <= HIGH else "mid" if rank <= MID else "low"


def recap(table: Sequence[Mapping[str, Any]], club: str, cup: Mapping[str, Any] | None,
          scorer: Mapping[str, Any] | None, net: int, balance: int) -> dict[str, Any]:
    """The season's recap from the final league ``table`` (ranked), the cup record, our season top scorer
    (the last month's cast), and the season's net money and closing balance."""
    rank = next(i for i, r in enumerate(table, 1) if r["team"] == club)
    ours, top = table[rank - 1], table[0]
    runner = table[1] if len(table) > 1 else None
    return {
        "league": {"rank": rank, "points": ours["points"], "won": ours["won"], "drawn": ours["drawn"],
                   "lost": ours["lost"]},
        "band": band(rank),
        "champion": top["team"],
        # we won: by how much over the runner-up; else: how far behind the champion
        "gap": (top["points"] - runner["points"] if runner else 0) if rank == 1 else top["points"] - ours["points"],
        "cup": {"reached": cup_reached(cup, club), "champion": cup.get("champion") if cup else None},
        "scorer": dict(scorer) if scorer else None,
        "net": net,
        "balance": balance,
    }


__all__ = ["HIGH", "MID", "STAGES", "band", "cup_reached", "recap"]
