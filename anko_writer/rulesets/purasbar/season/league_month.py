"""A 群英杯 season month by month (000 §4.1–4.2): each league month's record.

The output of every month is a JSON-able record (DESIGN §5 plus what the chapter narrates). Month M
depends only on the campaign, the season's start and months before M, so a vote in month M cannot
change an earlier chapter.
"""

from __future__ import annotations

from typing import Any

from ..competition.calendar import MONTHS, league_week, week_of
from ..competition.schedule import ROUNDS_BY_MONTH
from ..match.abilities import team_abilities
from ..match.formations import FORMATIONS, counter
from ..match.side import AI_SUB_STAMINA
from ..match.tactics import adaptation
from ..models import Club, Player, number
from .matchday import advance_week, play_fixture
from .phases import owner_forecast
from .world import World

LEAGUE_MONTHS = 11
"""000 §4.2.1: the league fills months 1–11; month 12 is the 群英杯."""


def tactics_formation(world: World, month: int) -> str | None:
    """调整战术体系 (designed §16.3): the formation that counters the month's first opponent's."""
    for r in ROUNDS_BY_MONTH.get(month, ()):
        for fx in world.fixtures:
            if fx.round == r and world.ours.name in (fx.home, fx.away):
                opp = world.clubs[fx.away if fx.home == world.ours.name else fx.home]
                return next(f for f, spec in FORMATIONS.items() if spec.beats == opp.formation)
    return None


def choose_formation(world: World, decisions: dict[str, Any], tactics: str | None = None) -> dict[str, Any]:
    """Our formation this month: the readers' vote, else the coach's 调整战术体系, else the current one.

    A voted change is an active change (000 §7.2.1, "赛前"): the adaptation roll of §7.2.2 with our
    coach's tendency and stubbornness, starting with the month's first match.
    """
    ours = world.ours
    before = ours.formation
    source = "vote" if "formation" in decisions else "tactics" if tactics else "coach"
    rec: dict[str, Any] = {"before": before, "source": source,
                           "formation": decisions.get("formation", tactics or before), "adaptation": None,
                           "adapt_left": ours.adapt_left}
    if rec["formation"] != before:
        rec["adaptation"] = adaptation(world.dice, f"s{world.season}/m{world.month:02d}/adapt", ours.coach,
                                       rec["formation"])
        ours.formation = rec["formation"]
        ours.adapt_left = rec["adaptation"]["matches"]
    rec["coach"] = {"name": ours.coach.name, "tendency": ours.coach.tendency,
                    "stubbornness": ours.coach.stubbornness}
    subs = decisions.get("subs")
    rec["sub_line"] = subs["stamina_below"] if subs else AI_SUB_STAMINA
    rec["sub_source"] = "vote" if subs else "ai"
    return rec


def month_end(world: World) -> dict[str, Any]:
    """§4.1 phase 5 items 1 and 3: the weeks after the month's last match rest, absences count down,
    and players whose absence is over come back for next month (000 §5.6, §5.7.4)."""
    moved = advance_week(world, week_of(world.month, 4) + 1)
    ours = world.ours.name
    return {"rest": moved["rest"], "returns": [r for r in moved["returns"] if r["team"] == ours],
            "injured": injured(world)}


def play_league_month(world: World, month: int, decisions: dict[str, Any], tactics: str | None = None) -> dict[str, Any]:
    """Play one league month (000 §4.1 phase 4) and return its record (rolls are sliced by the caller)."""
    world.month = month
    choice = choose_formation(world, decisions, tactics)
    counts: dict[str, int] = {}
    rounds, matches, rested, returns = [], [], [], []
    for r in ROUNDS_BY_MONTH[month]:
        week = league_week(r)
        moved = advance_week(world, week)
        rested += moved["rest"]
        returns += moved["returns"]
        idx = []
        for fx in (f for f in world.fixtures if f.round == r):
            key = f"s{world.season}/league/r{fx.round:02d}/{fx.home}-{fx.away}"
            rec = play_fixture(world, key, fx.home, fx.away, competition="league", round_no=r, week=week,
                               neutral=False, decisions=decisions, counts=counts)
            rec["home_roll"] = {"id": fx.roll_id, "total": fx.home_roll, "a": fx.a, "b": fx.b}
            world.results.append((fx.home, fx.away, rec["score"][0], rec["score"][1]))
            matches.append(rec)
            idx.append(len(matches) - 1)
        rounds.append({"round": r, "week": week, "matches": idx})
    end = month_end(world)
    return {"formation": world.ours.formation, "formation_source": choice["source"], "choice": choice,
            "formation_default": choice["before"], "rounds": rounds, "matches": matches,
            "rest": rested + end["rest"], "returns": [r for r in returns if r["team"] == world.ours.name]
            + end["returns"], "injured": end["injured"],
            "our_matches": [i for i, m in enumerate(matches) if m["ours"]]}


def injured(world: World) -> list[dict[str, Any]]:
    """Our players out injured at this moment, with the weeks still to miss."""
    sealed = world.ours.infirmary.sealed
    return [{"name": p.name, "position": p.position, "weeks": None if sealed(p.name) else p.injured_weeks,
             "sealed": sealed(p.name)} for p in world.ours.players if p.injured_weeks > 0]


def _player_json(club: Club, p: Player) -> dict[str, Any]:
    """A player's record; a sealed absence shows no length until its reveal (000 §5.8.4)."""
    rec = p.to_json()
    if club.infirmary is not None and club.infirmary.sealed(p.name):
        rec["injured_weeks"] = None
    return rec


def clubs_json(world: World, lean: bool = False) -> list[dict[str, Any]]:
    """DESIGN §5 ``clubs``: unrolled core players (§5.8.3) are left out; a player new to the world since
    the last snapshot (a signing, an academy player) is numbered first (:func:`models.number`). ``lean`` (an
    audit's month): only what the audit reads (:func:`lean_clubs`)."""
    number((p for n in world.order for p in world.clubs[n].players), world.season)
    if lean:
        return lean_clubs(world)
    out = []
    for name in world.order:
        c = world.clubs[name]
        out.append({"name": c.name, "city": c.city, "total": c.total, "ours": c.ours,
                    "formation": c.formation, "adapt_left": c.adapt_left, "initial_abilities": dict(c.initial),
                    "abilities": team_abilities(c.players), "morale": c.morale,
                    "facilities": dict(c.facilities),
                    "players": [_player_json(c, p) for p in c.players if p.rolled]})
    return out


LEAN_PLAYER = ("name", "position", "age", "ATK", "DEF", "MID", "GK")
"""What an audit reads of a player's record (besides the id): names shared, and the drift of each main ability."""


def lean_clubs(world: World) -> list[dict[str, Any]]:
    """The ``clubs`` of an audit's month: each club's name, city and ``ours``, our team abilities, and each
    rolled player's id (when numbered) and :data:`LEAN_PLAYER` values, as :meth:`Player.to_json` gives them."""
    out = []
    for name in world.order:
        c = world.clubs[name]
        rec: dict[str, Any] = {"name": c.name, "city": c.city, "ours": c.ours}
        if c.ours:
            rec["abilities"] = team_abilities(c.players)
        rec["players"] = [  # Player.to_json's keys, in its order (once a rolled player a month)
            {"id": p.id, "name": p.name, "position": p.position, "age": p.age,
             "ATK": a["ATK"], "DEF": a["DEF"], "MID": a["MID"], "GK": a["GK"]} if p.id else
            {"name": p.name, "position": p.position, "age": p.age,
             "ATK": a["ATK"], "DEF": a["DEF"], "MID": a["MID"], "GK": a["GK"]}
            for p in c.players if (a := p.attrs)]
        out.append(rec)
    return out


def next_vote(world: World, month: int) -> dict[str, Any]:
    """The next month's 安价: each formation against each next opponent's current formation, with the
    squad's state (tired, injured, adaptation) the readers need to decide."""
    nxt = month + 1
    opponents: list[dict[str, Any]] = []
    for r in ROUNDS_BY_MONTH.get(nxt, ()):
        for fx in world.fixtures:
            if fx.round == r and world.ours.name in (fx.home, fx.away):
                opp = world.clubs[fx.away if fx.home == world.ours.name else fx.home]
                opponents.append({"round": r, "team": opp.name, "total": opp.total,
                                  "home": fx.home == world.ours.name, "formation": opp.formation})
    options = []
    for name, f in FORMATIONS.items():
        options.append({"formation": name, "label": f.label, "bonus": dict(f.bonus),
                        "against": [counter(name, o["formation"]) for o in opponents],
                        "change": name != world.ours.formation})
    owner_options = []
    if world.life is not None:  # the ranges next month's D100 will use, weighted as the club stands now
        owner_options = [{"key": r["key"], "name": r["name"], "range": [r["lo"], r["hi"]]}
                         for r in owner_forecast(world, world.life, nxt)]
    return {"season": world.season, "month": nxt, "key": f"s{world.season}m{nxt}", "owner_options": owner_options,
            "default": world.ours.formation, "adapt_left": world.ours.adapt_left,
            "opponents": opponents, "options": options, "cup": nxt == MONTHS,
            "injured": injured(world), "tired": tired(world),
            "penalty_default": [p.name for p in sorted(
                (p for p in world.ours.players if p.healthy), key=lambda p: (-p.attrs["ATK"], p.name))[:5]]}


def tired(world: World) -> list[dict[str, Any]]:
    """Our players below 50 stamina (the §5.3.2 penalty line), for the vote's context."""
    return [{"name": p.name, "position": p.position, "stamina": p.stamina}
            for p in world.ours.players if p.stamina < 50]
