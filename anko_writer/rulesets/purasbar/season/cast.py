"""The month's people (issue 15): who the chapter follows and why, remembered from month to month.

Data only, never prose: the opening's people paragraph phrases it (``cast_*`` phrase keys). A month's cast
names our season top scorer, our biggest signing of the season, the season's record signing (the biggest
fee of the season's windows, any club's), our injured core player, the coach when he is under pressure and the rival club of the month, each
with the numbers a sentence states. What runs across months (goals for us, the record signing and his goals
for his new club, when each injury began, last month's leader and rival, our run of defeats) is a
:class:`CastMemo`; :func:`cast` is pure and returns the next memo, and :class:`Casting` keeps it on the world,
so a month resumed from a checkpoint casts as a full replay does.

>>> rec = {"month": 2, "club": "甲", "our_matches": [0], "standings": [{"team": "乙", "points": 6},
...        {"team": "甲", "points": 4}], "matches": [{"home": "甲", "away": "乙", "score": [1, 2], "competition": "league",
...        "attacks": [{"team": "甲", "shooter": "张", "goal": True}]}]}
>>> c, memo = cast(rec, [], None, fresh())
>>> c["scorer"]["name"], c["scorer"]["goals"], c["rival"]["team"], c["rival"]["why"], memo["loss_run"]
('张', 1, '乙', 'beat_us', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..competition.calendar import SEASON_WEEKS, month_of

if TYPE_CHECKING:
    from typing import TypedDict
else:  # a shape is mypy's alone: no class is built (issue 29)
    from ..models import RecordShape as TypedDict

Record = dict[str, Any]

RECORD_FEE = 100_000
"""The smallest fee (P$) that makes a signing the season's star (as the headlines' red-letter transfer)."""
LOSING = 2
"""Our matches lost in a row that put the coach under pressure."""
COLD = 30
"""The owner's regard for the coach (§15.5, 0–100) at or below which the coach is under pressure (the top of
the designed 疏远 tier)."""


class Squad(TypedDict):
    """One of our players as the cast reads him."""

    name: str
    position: str
    core: bool
    injured_weeks: int | None
    """Weeks still out; None while the absence is sealed (000 §5.8.4)."""


class CoachState(TypedDict):
    """Our coach and the two lines of §15.5 affinity between him and the owner."""

    name: str
    owner_to: int
    """The owner's regard for the coach."""
    to_owner: int
    """The coach's regard for the owner."""
    tier: str
    """The designed tier name of ``owner_to``."""


class Scorer(TypedDict):
    """Our season top scorer."""

    name: str
    goals: int
    """Goals for us this season, this month's included."""
    month: int
    """Goals this month."""
    last: str | None
    """Last month's top scorer (None in his first month at the top of a season that had none)."""
    last_goals: int
    """Last month's top scorer's tally at the time."""


class Star(TypedDict):
    """A signing of the season's windows and what he has done for his new club since."""

    name: str
    club: str
    fee: int
    signed: int
    """The month of his window."""
    goals: int
    """Goals for his new club since, this month's included."""
    month: int
    """Goals this month."""
    ours: bool
    against: bool
    """Whether he played against us this month."""


class Injured(TypedDict):
    """Our injured core player (the longest out)."""

    name: str
    position: str
    since: int
    """The month he was first out."""
    weeks: int | None
    """Weeks still to miss (None: sealed)."""
    back: int | None
    """The month he is due back (None: sealed or not this season)."""
    returned: bool
    """He came back this month (``weeks`` 0)."""


class Pressure(TypedDict):
    """The coach under pressure, and why."""

    name: str
    why: str
    """What weighs most: ``conflict`` (with the owner this month), ``losing`` (defeats in a row) or ``cold``
    (the owner's regard)."""
    loss_run: int
    """Our matches lost in a row."""
    conflict: str | None
    """This month's §4.5 conflict with the owner: who won (owner, coach, tie)."""
    conflicts: int
    """Conflicts with the owner this season, this month's included."""
    owner_to: int
    to_owner: int
    tier: str


class Rival(TypedDict):
    """The club the month sets against us."""

    team: str
    why: str
    """``again`` (met again this month), ``beat_us`` (beat us this month), ``neighbour`` (next in the table)."""
    rank: int
    points: int
    gap: int
    """Their points minus ours."""
    met: list[list[int]]
    """Our meetings this season before this month: [month, our goals, theirs]."""
    now: list[list[int]]
    """This month's meetings: [month, our goals, theirs]."""
    months: int
    """Months in a row (this one included) the same club was the rival for the same reason."""


class Cast(TypedDict):
    """The month's people."""

    scorer: Scorer | None
    signing: Star | None
    """Our biggest signing of the season."""
    star: Star | None
    """The league's record signing of the season, when he is not ours (then he is ``signing``)."""
    injured: Injured | None
    coach: Pressure | None
    rival: Rival | None


class CastMemo(TypedDict):
    """What the cast carries from one month of a season to the next."""

    goals: dict[str, int]
    """Our player → goals for us this season."""
    top: list[Any] | None
    """[name, goals] of last month's top scorer."""
    star: Star | None
    signing: Star | None
    out: dict[str, int]
    """Our injured core player → the month he was first out."""
    met: dict[str, list[list[int]]]
    """Club → our meetings this season: [month, our goals, theirs]."""
    rival: list[Any] | None
    """[club, months in a row, why] of last month's rival."""
    loss_run: int
    conflicts: int


def fresh() -> CastMemo:
    """The memo before a season's first month."""
    return {"goals": {}, "top": None, "star": None, "signing": None, "out": {}, "met": {}, "rival": None, "loss_run": 0,
            "conflicts": 0}


def _score(m: Record, club: str) -> list[int]:
    """The score with ``club``'s goals first."""
    return [int(m["score"][0]), int(m["score"][1])] if m["home"] == club else [int(m["score"][1]), int(m["score"][0])]


def _opponent(m: Record, club: str) -> str:
    """The other club of a match."""
    return str(m["away"] if m["home"] == club else m["home"])


def _lost(m: Record, club: str) -> bool:
    """Whether ``club`` lost (a knockout decided after a draw counts by its winner)."""
    if m.get("winner"):
        return bool(m["winner"] != club)
    us, them = _score(m, club)
    return us < them


def _scorer(ms: list[Record], club: str, memo: CastMemo) -> tuple[Scorer | None, dict[str, int]]:
    """Our season top scorer after this month's matches (most goals, then most this month, then name)."""
    month: dict[str, int] = {}
    for m in ms:
        for a in m["attacks"]:
            if a["goal"] and a["team"] == club:
                month[a["shooter"]] = month.get(a["shooter"], 0) + 1
    goals = dict(memo["goals"])
    for name, n in month.items():
        goals[name] = goals.get(name, 0) + n
    if not goals:
        return None, goals
    name = min(goals, key=lambda n: (-goals[n], -month.get(n, 0), n))
    last = memo["top"]
    return {"name": name, "goals": goals[name], "month": month.get(name, 0), "last": last[0] if last else None,
            "last_goals": int(last[1]) if last else 0}, goals


def _played(m: Record, club: str) -> list[str]:
    """The players of ``club`` who took the pitch in a match."""
    side = "home" if m["home"] == club else "away"
    return [str(p["name"]) for p in (m.get("lineups") or {}).get(side, [])]


def _deals(record: Record) -> list[Record]:
    """The month's completed purchases, any club's."""
    window = ((record.get("life") or {}).get("window")) or {}
    return [d for d in window.get("deals") or [] if d.get("kind") == "buy" and d.get("done") and d.get("fee")]


def _signing(record: Record, club: str, last: Star | None, ours: bool) -> Star | None:
    """The season's biggest signing after this month (ours, or the league's record of at least
    :data:`RECORD_FEE`): a bigger fee this month replaces last month's; with his goals for his new club."""
    star = last
    deals = [d for d in _deals(record) if not ours or d["to"] == club]
    top = max(deals, key=lambda d: (int(d["fee"]), str(d["player"])), default=None)
    if top is not None and (ours or int(top["fee"]) >= RECORD_FEE) and (star is None or int(top["fee"]) > star["fee"]):
        star = {"name": str(top["player"]), "club": str(top["to"]), "fee": int(top["fee"]), "signed": record["month"],
                "goals": 0, "month": 0, "ours": top["to"] == club, "against": False}
    if star is None:
        return None
    n = sum(bool(a["goal"]) and a["team"] == star["club"] and a["shooter"] == star["name"]
            for m in record["matches"] for a in m["attacks"])
    against = not star["ours"] and any(
        club in (m["home"], m["away"]) and star["club"] in (m["home"], m["away"])
        and star["name"] in _played(m, star["club"]) for m in record["matches"])
    return {**star, "goals": star["goals"] + n, "month": n, "against": against}


def _injured(squad: list[Squad], month: int, week: int, returned: list[str],
             memo: CastMemo) -> tuple[Injured | None, dict[str, int]]:
    """Our core player out longest (a sealed absence too), or one who came back this month; and who is out."""
    out = {p["name"]: memo["out"].get(p["name"], month) for p in squad
           if p["core"] and (p["injured_weeks"] is None or p["injured_weeks"] > 0)}
    now = [p for p in squad if p["name"] in out]
    if now:
        p = min(now, key=lambda p: (out[p["name"]], p["name"]))
        weeks = p["injured_weeks"]
        back = week + weeks if weeks is not None else None
        return {"name": p["name"], "position": p["position"], "since": out[p["name"]], "weeks": weeks,
                "back": month_of(back) if back is not None and back <= SEASON_WEEKS else None,
                "returned": False}, out
    back_now = [p for p in squad if p["core"] and p["name"] in memo["out"] and p["name"] in returned]
    if back_now:
        p = min(back_now, key=lambda p: (memo["out"][p["name"]], p["name"]))
        return {"name": p["name"], "position": p["position"], "since": memo["out"][p["name"]], "weeks": 0,
                "back": month, "returned": True}, out
    return None, out


def _rival(record: Record, club: str, ms: list[Record], memo: CastMemo) -> Rival | None:
    """A club met again this month, else one that beat us this month, else our nearest neighbour in points."""
    rows = record.get("standings") or []
    place = {str(r["team"]): (i + 1, int(r["points"])) for i, r in enumerate(rows)}
    mine = place.get(club)
    now: dict[str, list[list[int]]] = {}
    for m in ms:
        now.setdefault(_opponent(m, club), []).append([record["month"], *_score(m, club)])
    team, why = None, ""
    again = [t for t in now if t in memo["met"] or len(now[t]) > 1]
    beat = [_opponent(m, club) for m in ms if _lost(m, club)]
    if again:
        team, why = again[-1], "again"
    elif beat:
        team, why = beat[-1], "beat_us"
    elif mine is not None and len(rows) > 1:
        i = mine[0] - 1
        near = [j for j in (i - 1, i + 1) if 0 <= j < len(rows)]
        j = min(near, key=lambda j: (abs(int(rows[j]["points"]) - mine[1]), j))
        team, why = str(rows[j]["team"]), "neighbour"
    if team is None:
        return None
    rank, points = place.get(team, (0, 0))
    last = memo["rival"]
    return {"team": team, "why": why, "rank": rank, "points": points,
            "gap": points - (mine[1] if mine else 0), "met": list(memo["met"].get(team, [])),
            "now": now.get(team, []), "months": int(last[1]) + 1 if last and last[0] == team and last[2] == why else 1}


def _pressure(record: Record, ms: list[Record], club: str, coach: CoachState | None,
              memo: CastMemo) -> tuple[Pressure | None, int, int]:
    """The coach if he is under pressure (defeats in a row, a conflict with the owner, the owner's regard low);
    and the run of defeats and the season's conflicts after this month."""
    run = memo["loss_run"]
    for m in ms:
        run = run + 1 if _lost(m, club) else 0
    conflict = (((record.get("life") or {}).get("coach") or {}).get("conflict")) or None
    conflicts = memo["conflicts"] + (1 if conflict else 0)
    if coach is None:
        return None, run, conflicts
    if run < LOSING and not conflict and coach["owner_to"] > COLD:
        return None, run, conflicts
    why = "conflict" if conflict else "losing" if run >= LOSING else "cold"
    return {"name": coach["name"], "why": why, "loss_run": run, "conflict": str(conflict["winner"]) if conflict else None,
            "conflicts": conflicts, "owner_to": coach["owner_to"], "to_owner": coach["to_owner"],
            "tier": coach["tier"]}, run, conflicts


def cast(record: Record, squad: list[Squad], coach: CoachState | None, memo: CastMemo,
         week: int = 1) -> tuple[Cast, CastMemo]:
    """The month's people from its ``record`` (matches, standings, window, the coach's conflict), our ``squad``
    and ``coach`` after the month, and the season ``week`` the next month starts in; and the next memo."""
    club = record["club"]
    ms = [record["matches"][i] for i in record["our_matches"]]
    scorer, goals = _scorer(ms, club, memo)
    star = _signing(record, club, memo["star"], ours=False)
    signing = _signing(record, club, memo["signing"], ours=True)
    returned = [str(r["player"]) for r in record.get("returns") or []]
    injured, out = _injured(squad, record["month"], week, returned, memo)
    pressure, run, conflicts = _pressure(record, ms, club, coach, memo)
    rival = _rival(record, club, ms, memo)
    met = {t: list(v) for t, v in memo["met"].items()}
    for m in ms:
        met.setdefault(_opponent(m, club), []).append([record["month"], *_score(m, club)])
    nxt: CastMemo = {"goals": goals, "top": [scorer["name"], scorer["goals"]] if scorer else memo["top"],
                     "star": star, "signing": signing, "out": out, "met": met,
                     "rival": [rival["team"], rival["months"], rival["why"]] if rival else None, "loss_run": run,
                     "conflicts": conflicts}
    return {"scorer": scorer, "signing": signing, "star": star if star is None or not star["ours"] else None,
            "injured": injured, "coach": pressure, "rival": rival}, nxt


@dataclass
class Casting:
    """The cast's memo for the season being played (kept on the world, so checkpoints carry it)."""

    memo: CastMemo = field(default_factory=fresh)

    def month(self, record: Record, squad: list[Squad], coach: CoachState | None, week: int) -> Cast:
        """Cast one month (in order) and remember what it carries on."""
        out, self.memo = cast(record, squad, coach, self.memo, week)
        return out


__all__ = ["COLD", "LOSING", "RECORD_FEE", "Cast", "CastMemo", "Casting", "CoachState", "Injured", "Pressure",
           "Rival", "Scorer", "Squad", "Star", "cast", "fresh"]
