"""A 群英杯 season month by month (000 §4.1–4.2): the world, the schedule, each month's results.

The output of every month is a JSON-able record (DESIGN §5 plus what the chapter narrates). Month M
depends only on the campaign, the season's start and months before M, so a vote in month M cannot
change an earlier chapter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...dice import Dice
from .abilities import team_abilities
from .formations import FORMATIONS, STYLE_FORMATION, counter
from .generation import allocate, build_squad, roll_core
from .match import Side, pick_lineup, play, recovery
from .models import ABILITIES, Club, Player
from .schedule import ROUNDS_BY_MONTH, Fixture, make_schedule
from .standings import Result, table

LEAGUE_MONTHS = 11
"""000 §4.2.1: the league fills months 1–11; month 12 is the 群英杯 (a later issue)."""


@dataclass
class World:
    """Everything a season mutates: clubs, fixtures, results and what readers have been shown."""

    season: int
    seed: int
    dice: Dice
    clubs: dict[str, Club]
    order: list[str]
    ours: Club
    fixtures: list[Fixture]
    draw_order: list[str]
    results: list[Result] = field(default_factory=list)
    creations: dict[str, dict[str, Any]] = field(default_factory=dict)
    reveals: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    disclosed: set[tuple[str, str]] = field(default_factory=set)
    coach_default: str = "4 4 2"
    month: int = 0


def _club_from_campaign(data: dict[str, Any], total: int) -> Club:
    """Our club as the campaign file describes it."""
    c = data["club"]
    players = []
    for p in data["players"]:
        attrs = {a: p[a] for a in ("ATK", "DEF", "MID", "GK", "STA", "MNT")}
        players.append(Player(p["name"], p["position"], p["core"], attrs, p["age"], p.get("k")))
    return Club(c["city"], c["name"], total, dict(c["initial_abilities"]), c["first_priority"],
                data["coach"]["formation"], players, ours=True, morale=c.get("morale", 0),
                facilities=dict(c["facilities"]))


def create_ai_club(dice: Dice, key: str, row: dict[str, Any], names: dict[str, list[str]],
                   facility_table: Any) -> tuple[Club, dict[str, Any]]:
    """An AI club: §2.2 allocation, facilities, squad plan and role players; cores wait (§5.8.3)."""
    alloc = allocate(dice, f"{key}/alloc", row["total"])
    facilities = {}
    for fac in ("training", "youth", "medical"):
        r = dice.roll(f"{key}/facilities", facility_table.dice, f"{fac} 设施")
        facilities[fac] = facility_table.lookup(r.total).params["level"]
    players, squad = build_squad(dice, f"{key}/squad", alloc.result, names, roll_cores=False)
    club = Club(row["city"], row["club"], row["total"], alloc.result, alloc.order[0],
                STYLE_FORMATION[alloc.order[0]], players, facilities=facilities)
    return club, {"slug": key.rsplit("/", 1)[-1], "allocation": alloc.to_json(),
                  "facilities": facilities, "squad": squad}


def new_world(campaign: dict[str, Any], seed: int, season: int, tables: dict[str, Any]) -> World:
    """Season start: AI clubs created by the dice, our club from the file, the schedule drawn."""
    dice = Dice(seed)
    cities = tables["cities"]
    ours_row = next(r for r in cities if r["city"] == campaign["club"]["city"])
    ours = _club_from_campaign(campaign, ours_row["total"])
    clubs: dict[str, Club] = {}
    creations: dict[str, dict[str, Any]] = {}
    for row in cities:
        if row is ours_row:
            clubs[ours.name] = ours
            continue
        club, rec = create_ai_club(dice, f"s{season}/club/{row['slug']}", row, tables["names"],
                                   tables["facilities"])
        clubs[club.name] = club
        creations[club.name] = rec
    order = list(clubs)
    fixtures, draw = make_schedule(dice, f"s{season}/schedule", order)
    world = World(season, seed, dice, clubs, order, ours, fixtures, draw, creations=creations)
    world.coach_default = campaign["coach"]["formation"]
    return world


def _reveal_for(world: World, readers: bool):
    """The §5.8.3 callback: roll an unrolled core once; in our matches, disclose each player once."""
    def reveal(club: Club, player: Player) -> dict[str, Any] | None:
        k = (club.name, player.name)
        fresh = False
        if not player.rolled:
            idx = club.players.index(player)
            slug = world.creations[club.name]["slug"]
            steps = roll_core(world.dice, f"s{world.season}/club/{slug}/core{idx}", player,
                              club.initial)
            world.reveals[k] = {"player": player.name, "position": player.position,
                                "steps": steps, "attrs": dict(player.attrs), "age": player.age,
                                "month": world.month}
            fresh = True
        if readers and not club.ours and k in world.reveals and k not in world.disclosed:
            world.disclosed.add(k)
            return {**world.reveals[k], "fresh": fresh}
        if fresh:
            return {**world.reveals[k], "fresh": True}
        return None
    return reveal


def _disclose_for(world: World):
    """§5.8.2: the opponent's four abilities are shown at the first attack calculation."""
    def disclose(club: Club) -> dict[str, Any] | None:
        k = (club.name, "*abilities*")
        if club.ours or k in world.disclosed:
            return None
        world.disclosed.add(k)
        return {"team": club.name, "allocation": world.creations[club.name]["allocation"]}
    return disclose


def formation_for(world: World, club: Club, decisions: dict[str, Any]) -> tuple[str, str]:
    """Our formation: the readers' vote, else the coach's default; AI clubs play their style's."""
    if not club.ours:
        return club.formation, "style"
    if "formation" in decisions:
        return decisions["formation"], "vote"
    return world.coach_default, "coach"


def _play_fixture(world: World, fx: Fixture, month_counts: dict[str, int],
                  forms: dict[str, str]) -> dict[str, Any]:
    home, away = world.clubs[fx.home], world.clubs[fx.away]
    ours = home.ours or away.ours
    for c in (home, away):
        month_counts[c.name] = month_counts.get(c.name, 0) + 1
    hs = Side(home, forms[home.name], pick_lineup(home, forms[home.name]), +2)
    as_ = Side(away, forms[away.name], pick_lineup(away, forms[away.name]), -2)
    rec = play(world.dice, f"s{world.season}/league/r{fx.round:02d}/{fx.home}-{fx.away}", hs, as_,
               competition="league", round_no=fx.round, neutral=False,
               reveal=_reveal_for(world, ours), disclose=_disclose_for(world) if ours else None,
               match_no=(month_counts[home.name], month_counts[away.name]))
    rec["ours"] = ours
    rec["home_roll"] = {"id": fx.roll_id, "total": fx.home_roll, "a": fx.a, "b": fx.b}
    world.results.append((fx.home, fx.away, rec["score"][0], rec["score"][1]))
    return rec


def _month_end(world: World) -> list[dict[str, Any]]:
    """§4.1 phase 5 item 1: every healthy player of our club gets the §5.6 base recovery once.

    Choice: the text lists a month-end 体力恢复 besides the post-match one without saying who; here
    it is the whole healthy squad of every club, played or not, without the third-match halving.
    """
    out = []
    for club in world.clubs.values():
        for p in club.players:
            if p.healthy and p.rolled:
                before = p.stamina
                p.stamina = min(100, p.stamina + recovery(club, p, 1))
                if club.ours:
                    out.append({"name": p.name, "before": before, "after": p.stamina})
    return out


def play_month(world: World, month: int, decisions: dict[str, Any]) -> dict[str, Any]:
    """Play one league month and return its record (rolls are sliced by the caller)."""
    world.month = month
    forms = {n: formation_for(world, c, decisions)[0] for n, c in world.clubs.items()}
    source = formation_for(world, world.ours, decisions)[1]
    counts: dict[str, int] = {}
    rounds = []
    matches: list[dict[str, Any]] = []
    for r in ROUNDS_BY_MONTH[month]:
        idx = []
        for fx in (f for f in world.fixtures if f.round == r):
            matches.append(_play_fixture(world, fx, counts, forms))
            idx.append(len(matches) - 1)
        rounds.append({"round": r, "matches": idx})
    rest = _month_end(world)
    return {"formation": forms[world.ours.name], "formation_source": source,
            "formation_default": world.coach_default,
            "rounds": rounds, "matches": matches, "month_end_recovery": rest,
            "our_matches": [i for i, m in enumerate(matches) if m["ours"]]}


def clubs_json(world: World) -> list[dict[str, Any]]:
    """DESIGN §5 ``clubs``: unrolled core players (§5.8.3) are left out."""
    out = []
    for name in world.order:
        c = world.clubs[name]
        out.append({"name": c.name, "city": c.city, "total": c.total, "ours": c.ours,
                    "formation": c.formation, "initial_abilities": dict(c.initial),
                    "abilities": team_abilities(c.players), "morale": c.morale,
                    "facilities": dict(c.facilities),
                    "players": [p.to_json() for p in c.players if p.rolled]})
    return out


def next_vote(world: World, month: int) -> dict[str, Any]:
    """The next month's 安价: each formation against each next opponent's habitual formation."""
    nxt = month + 1
    opponents = []
    for r in ROUNDS_BY_MONTH.get(nxt, ()):
        for fx in world.fixtures:
            if fx.round == r and world.ours.name in (fx.home, fx.away):
                opp = world.clubs[fx.away if fx.home == world.ours.name else fx.home]
                opponents.append({"round": r, "team": opp.name, "total": opp.total,
                                  "home": fx.home == world.ours.name, "formation": opp.formation})
    options = []
    for name, f in FORMATIONS.items():
        options.append({"formation": name, "label": f.label, "bonus": dict(f.bonus),
                        "against": [counter(name, o["formation"]) for o in opponents]})
    return {"season": world.season, "month": nxt, "key": f"s{world.season}m{nxt}",
            "default": world.coach_default, "opponents": opponents, "options": options}


def tired(world: World) -> list[dict[str, Any]]:
    """Our players below 50 stamina (the §5.3.2 penalty line), for the vote's context."""
    return [{"name": p.name, "position": p.position, "stamina": p.stamina}
            for p in world.ours.players if p.stamina < 50]


ABILITY_ORDER = ABILITIES
