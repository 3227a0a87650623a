"""The league table read as races (issue 15): the title race, the lines where league rank changes what a club
gets, our place between our neighbours, and the bottom.

Data only, never prose: the 「积分榜」 section of a month chapter phrases it (``race_*`` phrase keys). What
rank decides comes from the tables, not from here: 000 §4.4 steps 2–5 pay the league prize by place
(``prizes.yaml``, every place its own sum) and move fans, reputation and morale by band of places
(``fans.yaml``, ``morale.yaml`` ``offseason``); a *line* is where one of those bands ends. 000 has no
relegation, and the 群英杯's draw does not read league rank (§4.3.1: the Swiss round 1 is drawn at random).

A club is *within reach* of the leader when its gap is at most 3 points × the league matches left (it can
still draw level on points; the tie-breaks of §4.4 step 1 decide after that).

>>> rows = [{"team": t, "points": p, "played": 20} for t, p in (("甲", 50), ("乙", 44), ("丙", 40), ("丁", 30))]
>>> r = races(rows, 3, "丙", [stake(1, 9, 0, 0, 0), stake(2, 5, 0, 0, 0), stake(3, 3, 0, 0, 0), stake(4, 1, 0, 0, 0)])
>>> r["leader"]["team"], [c["team"] for c in r["chasers"]], r["decided"]
('甲', ['乙'], False)
>>> r["ours"]["above"]["gap"], r["ours"]["below"]["gap"], r["ours"]["prize"]
(4, 10, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypedDict
else:  # a shape is mypy's alone: no class is built (issue 29)
    from ..models import RecordShape as TypedDict

POINTS_FOR_WIN = 3
"""League points of a win (000 §4.2): the most a club can gain per match left."""


class Stake(TypedDict):
    """What a final league place brings at the §4.4 settlement."""

    rank: int
    prize: int
    """League prize, P$ (§4.4 step 2, ``prizes.yaml`` ``league``)."""
    reputation: int
    """Reputation points (§4.4 step 4, ``fans.yaml`` ``reputation.league``)."""
    fans: int
    """Fan base change, percent (§4.4 step 3, ``fans.yaml`` ``fans.league``)."""
    morale: int
    """Morale carried into next season (§4.4 step 5, ``morale.yaml`` ``offseason.ranks``)."""


class Place(TypedDict):
    """A club at its place in the table."""

    rank: int
    team: str
    points: int


class Chaser(TypedDict):
    """A club behind the leader, and how far."""

    rank: int
    team: str
    points: int
    gap: int
    """Points behind the leader."""


class Line(TypedDict):
    """A line in the table where the settlement's bands change: the last club inside and the first outside."""

    last: int
    """The last place inside (4: places 1–4 against 5 and below)."""
    inside: Place
    outside: Place
    gap: int
    """Points between them (0: level, split by the tie-breaks)."""
    stake_in: Stake
    stake_out: Stake


class Neighbour(TypedDict):
    """The club next to ours, and the points between."""

    team: str
    points: int
    gap: int
    """Points between us (never negative: the club above has at least ours)."""


class Ours(TypedDict):
    """Our place, our neighbours and what the place is worth."""

    rank: int
    points: int
    above: Neighbour | None
    below: Neighbour | None
    prize: int
    """The league prize of our place if the season ended now."""
    prize_up: int
    """How much more the place above pays (0 at the top)."""
    behind_leader: int
    """Points behind the leader (0 when we lead)."""
    in_reach: bool
    """Whether we can still catch the leader (True when we lead and it is not decided)."""


class Races(TypedDict):
    """The month's table as races."""

    left: int
    """League matches each club has left."""
    leader: Place
    decided: bool
    """No club can reach the leader any more (always once the league is over)."""
    over: bool
    """The league is over: the leader is the champion."""
    chasers: list[Chaser]
    """Every club within reach of the leader, closest first (none once decided)."""
    lead: int
    """The leader's margin over the second."""
    lines: list[Line]
    """The lines below the top, from the top down (the title is the race above)."""
    ours: Ours | None
    bottom: Place
    """The last club."""
    bottom_gap: int
    """Points between the last club and the one above it."""


def stake(rank: int, prize: int, reputation: int, fans: int, morale: int) -> Stake:
    """One place's stake (a constructor for tests and tables)."""
    return {"rank": rank, "prize": prize, "reputation": reputation, "fans": fans, "morale": morale}


def _band(rank: int, rows: Sequence[Mapping[str, Any]], field: str) -> int:
    """The value of the band of ``rank`` in a ``from``/``to`` table."""
    return next(int(r[field]) for r in rows if int(r["from"]) <= rank <= int(r["to"]))


def stakes_from(prizes: Mapping[str, Any], fans: Mapping[str, Any], morale: Mapping[str, Any]) -> list[Stake]:
    """Each league place's stake from ``prizes.yaml``, ``fans.yaml`` and ``morale.yaml``."""
    league = list(prizes["league"])
    return [stake(i + 1, int(p), _band(i + 1, fans["reputation"]["league"], "points"),
                  _band(i + 1, fans["fans"]["league"], "percent"),
                  _band(i + 1, morale["offseason"]["ranks"], "adjust")) for i, p in enumerate(league)]


def _place(rows: Sequence[Mapping[str, Any]], i: int) -> Place:
    """Row ``i`` as a place."""
    return {"rank": i + 1, "team": str(rows[i]["team"]), "points": int(rows[i]["points"])}


def _banded(a: Stake, b: Stake) -> bool:
    """Whether two places fall in different bands (prize aside: every place pays its own)."""
    return (a["reputation"], a["fans"], a["morale"]) != (b["reputation"], b["fans"], b["morale"])


def races(rows: Sequence[Mapping[str, Any]], left: int, club: str, stakes: Sequence[Stake]) -> Races:
    """The table ``rows`` (ranked, each with ``team`` and ``points``) as races, with ``left`` league matches
    left for every club, ``club`` ours and ``stakes`` the places' stakes (first place first)."""
    reach = POINTS_FOR_WIN * left
    top = int(rows[0]["points"])
    chasers: list[Chaser] = [{"rank": i + 1, "team": str(r["team"]), "points": int(r["points"]),
                              "gap": top - int(r["points"])}
                             for i, r in enumerate(rows) if i > 0 and top - int(r["points"]) <= reach and left > 0]
    by_rank = {s["rank"]: s for s in stakes}
    lines: list[Line] = []
    for i in range(1, len(rows) - 1):  # the line under place i + 1; the title (under place 1) is the race
        a, b = by_rank.get(i + 1), by_rank.get(i + 2)
        if a is not None and b is not None and _banded(a, b):
            lines.append({"last": i + 1, "inside": _place(rows, i), "outside": _place(rows, i + 1),
                          "gap": int(rows[i]["points"]) - int(rows[i + 1]["points"]), "stake_in": a, "stake_out": b})
    ours: Ours | None = None
    mine = next((i for i, r in enumerate(rows) if r["team"] == club), None)
    if mine is not None:
        pts = int(rows[mine]["points"])
        above: Neighbour | None = None if mine == 0 else {
            "team": str(rows[mine - 1]["team"]), "points": int(rows[mine - 1]["points"]),
            "gap": int(rows[mine - 1]["points"]) - pts}
        below: Neighbour | None = None if mine == len(rows) - 1 else {
            "team": str(rows[mine + 1]["team"]), "points": int(rows[mine + 1]["points"]),
            "gap": pts - int(rows[mine + 1]["points"])}
        prize = by_rank[mine + 1]["prize"] if mine + 1 in by_rank else 0
        up = by_rank[mine]["prize"] - prize if mine in by_rank else 0
        ours = {"rank": mine + 1, "points": pts, "above": above, "below": below, "prize": prize, "prize_up": up,
                "behind_leader": top - pts, "in_reach": left > 0 and (mine == 0 or top - pts <= reach)}
    last = len(rows) - 1
    return {"left": left, "leader": _place(rows, 0), "decided": not chasers, "over": left == 0, "chasers": chasers,
            "lead": top - int(rows[1]["points"]) if len(rows) > 1 else 0, "lines": lines, "ours": ours,
            "bottom": _place(rows, last),
            "bottom_gap": int(rows[last - 1]["points"]) - int(rows[last]["points"]) if last > 0 else 0}


__all__ = ["Chaser", "Line", "Neighbour", "Ours", "POINTS_FOR_WIN", "Place", "Races", "Stake", "races", "stake",
           "stakes_from"]
