"""The season's world: 24 clubs (ours from the campaign, 23 by the dice), the schedule, and the
对阵档案 of what readers have been shown (000 §5.8)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ....dice import Dice
from ..club.fans import initial_fans, initial_reputation
from ..club.generation import allocate, build_squad, roll_core
from ..competition.schedule import Fixture, make_schedule
from ..competition.standings import Result
from ..match.abilities import team_abilities
from ..match.formations import STYLE_FORMATION
from ..match.injuries import Infirmary
from ..match.records import CoreProfile, CoreReveal, Disclosure
from ..match.tactics import STYLE_TENDENCY, Coach
from ..models import ABILITIES, MAIN, Club, Player, number
from ..money.finance import ai_opening_funds
from ..money.ledger import Ledger
from ..transfers.contracts import assign_contracts
from .cast import Casting
from .headlines import Told

if TYPE_CHECKING:
    from ..setup.tables import PurasbarTables

AI_STUBBORNNESS = "1D100"
"""Designed: an AI coach's stubbornness (固执, used by §7.4.3) is one D100 at the club's creation."""


SEALABLE = {
    "injury": "比赛中不利事件（核心重伤等）的主教练应对骰：球员伤停多久，到揭晓的那个月才公布",
    "shootout": "我方淘汰赛点球大战第五轮起的罚球与扑救骰：点球大战结束时揭晓",
}
"""The roll kinds a host may seal (``options.sealed``, 000 §5.8.4); both are sealed unless the campaign says."""


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
    reveals: dict[tuple[str, str], CoreProfile] = field(default_factory=dict)
    disclosed: set[tuple[str, str]] = field(default_factory=set)
    month: int = 0
    week: int = 1
    """The current season week (000 §5.7 absences count in weeks; see ``calendar``)."""
    played: dict[tuple[str, str], set[int]] = field(default_factory=dict)
    """(club, player) → the weeks he played in, for the weekly rest."""
    seals: list[dict[str, Any]] = field(default_factory=list)
    """Hidden rolls posted so far and the month each is due to be revealed in."""
    life: Any = None
    """Our club's people and fortunes (:class:`phases.Life`)."""
    market: list[Player] = field(default_factory=list)
    """The players on offer in the coming transfer window (Appendix D)."""
    told: Told = field(default_factory=Told)
    """What the months' headlines carry on (streaks, signings, what headed each month: :mod:`.headlines`)."""
    cast: Casting = field(default_factory=Casting)
    """Who the months' chapters follow and what they remember of them (:mod:`.cast`)."""
    sealed: frozenset[str] = frozenset(SEALABLE)
    """The roll kinds of :data:`SEALABLE` the campaign seals (``options.sealed``)."""
    lean: bool = False
    """An audit's season (``Season.lean``): the matches keep only what the audit and the season read."""


def club_from_campaign(data: dict[str, Any], total: int) -> Club:
    """Our club as the campaign file describes it."""
    from ..setup.state import player_from  # here: a month resumed from its checkpoint does without it (issue 29)

    c, coach = data["club"], data["coach"]
    players = [player_from(p) for p in data["players"]]
    club = Club(c["city"], c["name"], total, dict(c["initial_abilities"]), c["first_priority"],
                coach["formation"], players, ours=True, morale=c.get("morale", 0),
                facilities=dict(c["facilities"]))
    club.coach = Coach(coach["name"], coach["tendency"], coach["stubbornness"])
    club.doctor = data["staff"]["doctor"]["level"]
    club.infirmary = Infirmary()
    club.ledger = Ledger(c["funds"])
    club.fans = c.get("fans", 0)
    club.reputation = c.get("reputation", 0)
    return club


def ai_club_from_state(d: dict[str, Any]) -> Club:
    """An AI club as the previous season's ``state-end.yaml`` left it."""
    from ..setup.state import player_from

    club = Club(d["city"], d["name"], d["total"], dict(d["initial_abilities"]), d["first_priority"],
                d["formation"], [player_from(p) for p in d["players"]], morale=d["morale"],
                facilities=dict(d["facilities"]), slug=d["slug"], fans=d["fans"], reputation=d["reputation"])
    club.coach = Coach(d["coach"]["name"], d["coach"]["tendency"], d["coach"]["stubbornness"])
    club.doctor = d["doctor"]
    club.infirmary = Infirmary()
    club.ledger = Ledger(d["funds"])
    return club


def campaign_people(campaign: dict[str, Any]) -> set[str]:
    """Our club's people named in the campaign (head coach, owner, staff): no player may share a name."""
    out = {(campaign.get("coach") or {}).get("name"), (campaign.get("owner") or {}).get("name")}
    out |= {s.get("name") for s in (campaign.get("staff") or {}).values() if isinstance(s, dict)}
    return {n for n in out if isinstance(n, str)}


def create_ai_club(dice: Dice, key: str, row: dict[str, Any], names: dict[str, list[str]],
                   facility_table: Any, staff_table: Any, used: set[str] | None = None) -> tuple[Club, dict[str, Any]]:
    """An AI club: §2.2 allocation, facilities, squad plan, role players and coach; cores wait (§5.8.3)."""
    alloc = allocate(dice, f"{key}/alloc", row["total"])
    facilities = {}
    for fac in ("training", "youth", "medical"):
        r = dice.roll(f"{key}/facilities", facility_table.dice, f"{fac} 设施")
        facilities[fac] = facility_table.lookup(r.total).params["level"]
    players, squad = build_squad(dice, f"{key}/squad", alloc.result, names, roll_cores=False, used=used)
    style = alloc.order[0]
    club = Club(row["city"], row["club"], row["total"], alloc.result, style,
                STYLE_FORMATION[style], players, facilities=facilities, slug=row["slug"])
    club.ledger = Ledger(0)
    stub = dice.roll(f"{key}/coach", AI_STUBBORNNESS, "主教练固执")
    club.coach = Coach(f"{row['club']}主教练", STYLE_TENDENCY[style], stub.total)
    doc, hit = staff_table.roll(dice, f"{key}/staff", "队医等级")
    club.doctor = hit.params["level"]
    club.infirmary = Infirmary()
    return club, {"slug": key.rsplit("/", 1)[-1], "allocation": alloc.to_json(),
                  "facilities": facilities, "squad": squad, "coach_roll": stub.to_json(),
                  "tendency": club.coach.tendency, "doctor_roll": doc.to_json(), "doctor": club.doctor}


def open_books(world: World, campaign: dict[str, Any], tables: PurasbarTables) -> None:
    """Designed ch.10, 11, 13 for clubs new this season: opening fans and reputation (ours unless the
    campaign gives them), an AI club's opening funds and its players' contracts (rolled ones 1D3 + age)."""
    rows = {r["city"]: r for r in tables.cities}
    fans, finance, contracts = tables.fans, tables.finance, tables.contracts
    given = campaign["club"]
    for club in world.clubs.values():
        row = rows[club.city]
        if club.ours:
            club.fans = given["fans"] if "fans" in given else initial_fans(row["pbs"], fans)
            club.reputation = given["reputation"] if "reputation" in given else initial_reputation(row["total"], fans)
            continue
        if world.creations[club.name].get("kept"):
            continue
        club.fans = initial_fans(row["pbs"], fans)
        club.reputation = initial_reputation(row["total"], fans)
        club.ledger = Ledger(ai_opening_funds(row["total"], row["pbs"], finance)["funds"])
        key = f"s{world.season}/club/{club.slug}/contracts"
        assign_contracts(world.dice, key, club.players, contracts)


def new_world(campaign: dict[str, Any], seed: int, season: int, tables: PurasbarTables) -> World:
    """Season start: AI clubs created by the dice (or kept from last season), our club from the file
    (or last season's state), the schedule drawn."""
    dice = Dice(seed)
    cities = tables.cities
    ours_row = next(r for r in cities if r["city"] == campaign["club"]["city"])
    ours = club_from_campaign(campaign, ours_row["total"])
    ours.slug = ours_row["slug"]
    clubs: dict[str, Club] = {}
    creations: dict[str, dict[str, Any]] = {}
    kept = {d["city"]: d for d in campaign.get("league", [])}
    used = {p.name for p in ours.players} | {p["name"] for d in kept.values() for p in d.get("players", [])}
    used |= campaign_people(campaign)
    for row in cities:
        if row is ours_row:
            clubs[ours.name] = ours
        elif row["city"] in kept:
            club = ai_club_from_state(kept[row["city"]])
            clubs[club.name] = club
            creations[club.name] = {"slug": club.slug, "kept": True}
        else:
            club, rec = create_ai_club(dice, f"s{season}/club/{row['slug']}", row, tables.names,
                                       tables.facilities, tables.staff_levels, used)
            clubs[club.name] = club
            rec["index"] = {p.name: i for i, p in enumerate(club.players)}
            creations[club.name] = rec
    order = list(clubs)
    number((p for n in order for p in clubs[n].players), season)
    fixtures, draw = make_schedule(dice, f"s{season}/schedule", order)
    return World(season, seed, dice, clubs, order, ours, fixtures, draw, creations=creations)


def reveal_for(world: World, readers: bool) -> Callable[[Club, Player], CoreReveal | None]:
    """The §5.8.3 callback: roll an unrolled core once; in our matches, disclose each player once."""
    def reveal(club: Club, player: Player) -> CoreReveal | None:
        """Roll or disclose ``player`` of ``club``; the record to show, if any."""
        if player.attrs and (club.ours or not readers):  # rolled, and none to disclose: the path below's None
            return None
        k = (club.name, player.name)
        fresh = False
        if not player.rolled:
            created = world.creations[club.name]
            idx = created["index"][player.name]  # the squad index at creation: transfers may move others
            slug = created["slug"]
            steps = roll_core(world.dice, f"s{world.season}/club/{slug}/core{idx}", player, club.initial)
            world.reveals[k] = {"player": player.name, "position": player.position, "steps": steps,
                                "attrs": dict(player.attrs), "age": player.age, "month": world.month}
            fresh = True
        if readers and not club.ours and k in world.reveals and k not in world.disclosed:
            world.disclosed.add(k)
            return {**world.reveals[k], "fresh": fresh}
        if fresh:
            return {**world.reveals[k], "fresh": True}
        return None
    return reveal


def disclosed_abilities(club: Club) -> tuple[dict[str, int], list[str]]:
    """The four abilities §5.8.2 shows: §3.1.1's value of each, or the §2.2 initial value where a healthy
    core player of the carrying position has not been rolled yet (§5.8.3: his numbers do not exist until
    he first takes part in an attack, and §3.1.1 keeps the initial values until players exist); and the
    abilities that are initial values.

    >>> from ..models import Player
    >>> gk = Player("乙", "GK", True, {}, 25)
    >>> fw = Player("甲", "FW", False, {"ATK": 30, "DEF": 5, "MID": 9, "GK": 1, "STA": 50, "MNT": 20}, 25)
    >>> c = Club("纽斯号角", "纽斯", 100, {"ATK": 40, "DEF": 20, "MID": 25, "GK": 15}, "ATK", "4 4 2", [fw, gk])
    >>> disclosed_abilities(c)
    ({'ATK': 30, 'DEF': 1, 'MID': 1, 'GK': 15}, ['GK'])
    """
    now = team_abilities(club.players)
    waiting = {MAIN[p.position] for p in club.players if not p.rolled and p.healthy}
    initial: list[str] = [a for a in ABILITIES if a in waiting]
    return {a: club.initial[a] if a in waiting else now[a] for a in ABILITIES}, initial


def disclose_for(world: World) -> Callable[[Club], Disclosure | None]:
    """§5.8.2: the opponent's four abilities are shown at the first attack calculation."""
    def disclose(club: Club) -> Disclosure | None:
        """The current §3.1.1 abilities of ``club`` the first time readers meet it, with the §2.2
        allocation they grew from (every die of it)."""
        k = (club.name, "*abilities*")
        if club.ours or k in world.disclosed or "allocation" not in world.creations[club.name]:
            return None  # a club kept from last season was shown then
        world.disclosed.add(k)
        abilities, initial = disclosed_abilities(club)
        return {"team": club.name, "abilities": abilities, "initial": initial,
                "allocation": world.creations[club.name]["allocation"]}
    return disclose
