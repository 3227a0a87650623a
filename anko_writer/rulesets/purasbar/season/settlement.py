"""000 §4.4: the season's settlement, its twelve steps in the rulebook's order.

Each step is a small procedure that changes the world and returns the record the settlement chapter
prints. The steps run for the whole league (every club ages, is paid its prize and pays its bills), and
the chapter tells our club's part in full and the others' in summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..club.achievements import check_season, rewards, season_facts
from ..club.ageing import age_squad, remove_retired
from ..club.fans import attendance_percent, season_fans, season_reputation
from ..club.fans import clamp as clamp_reputation
from ..club.morale import clamp as clamp_morale
from ..club.morale import offseason_adjustment, season_carry
from ..club.offseason import owner_retirement, poaching
from ..club.records import SeasonAchievements
from ..club.youth import promotions, top_up, youth_intake
from ..competition.calendar import SETTLEMENT_MONTH
from ..competition.standings import table
from ..events.environment import youth_bonus
from ..match.formations import FORMATIONS
from ..models import Player
from ..money.ai_books import ai_sales
from ..money.finance import book_prizes, pay_maintenance, pay_salaries, payroll, prize_record, stadium_capacity
from ..money.levy import collect_levy
from ..transfers.contracts import season_contracts
from ..transfers.transfers import summer_month
from .month_money import bankruptcy_check
from .windows import league_names, post_market, roll_everyone
from .world import World

if TYPE_CHECKING:
    from ..setup.tables import PurasbarTables

STEPS: tuple[str, ...] = ("ranking", "prizes", "fans", "reputation", "morale", "ageing", "achievements",
                          "contracts", "maintenance", "salaries", "depth", "next")
"""The twelve steps of §4.4 in order."""


def cup_stages(cup_month: dict[str, Any]) -> dict[str, str]:
    """How far each club went in the 群英杯, from month 12's record."""
    stages = {row["team"]: "swiss" for row in cup_month["swiss_table"]}
    names = {1: "quarter", 2: "semi", 3: "runner_up"}
    for m in cup_month["matches"]:
        if m["competition"] == "knockout":
            for side in ("home", "away"):
                stages[m[side]] = names[m["round"]]
    if cup_month.get("champion"):
        stages[cup_month["champion"]] = "champion"
    return stages


def ranking(world: World) -> dict[str, Any]:
    """Step 1: the final league table, 1 to 24 (points > GD > GF, 000 §4.4 step 1)."""
    rows = [r.to_json() for r in table(world.order, world.results)]
    ranks = {row["team"]: i + 1 for i, row in enumerate(rows)}
    return {"table": rows, "ranks": ranks, "ours": ranks[world.ours.name]}


def morale_carry(world: World, ranks: dict[str, int], stages: dict[str, str], morale_table: dict[str, Any]) -> dict[str, Any]:
    """Step 5: new morale = old × 0.5 + the off-season adjustment of the final rank (§13.3), every club."""
    out = {}
    for name, club in world.clubs.items():
        adj = offseason_adjustment(ranks[name], morale_table, cup_winner=stages.get(name) == "champion")
        before = club.morale
        club.morale = season_carry(before, adj)
        out[name] = {"before": before, "half": int(before / 2), "adjust": adj,
                     "after": club.morale}
    return {"clubs": out, "ours": out[world.ours.name]}


def depth_reset(world: World) -> dict[str, Any]:
    """Step 11: business depth back to 0; external depth is kept (000 §4.4 step 11)."""
    rec = world.life.depth["business"].reset()
    return {"business": rec, "external": world.life.depth["external"].value}


def swiss_wins(cup_month: dict[str, Any]) -> dict[str, int]:
    """Each club's wins in the five Swiss rounds (the designed per-win prize)."""
    out: dict[str, int] = {}
    for m in cup_month["matches"]:
        if m["competition"] == "swiss" and m["winner"]:
            out[m["winner"]] = out.get(m["winner"], 0) + 1
    return out


def prizes(world: World, ranks: dict[str, int], stages: dict[str, str], wins: dict[str, int],
           table: dict[str, Any]) -> dict[str, Any]:
    """Step 2: league prize money for all 24 places and the 群英杯 prize by stage, paid to every club."""
    out = {}
    for name, club in world.clubs.items():
        rec = prize_record(ranks[name], stages.get(name, "swiss"), wins.get(name, 0), table)
        rec["lines"] = book_prizes(club.ledger, rec, world.season, SETTLEMENT_MONTH, world.life.finance)
        out[name] = rec
    return {"clubs": out, "ours": out[world.ours.name]}


def gates(months: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every gate record of the season (the §13.1 attendance reads them)."""
    return [m["gate"] for rec in months for m in rec["matches"] if m.get("gate")]


def fans_update(world: World, ranks: dict[str, int], stages: dict[str, str], months: list[dict[str, Any]],
                table: dict[str, Any]) -> dict[str, Any]:
    """Step 3: each club's new fan base from its season's attendance, league place and cup run (§13.1)."""
    records = gates(months)
    out = {}
    for name, club in world.clubs.items():
        cap = stadium_capacity(club.total, world.life.finance)
        rec = season_fans(club.fans, attendance_percent(records, name), ranks[name], stages.get(name, "swiss"),
                          table, capacity=cap)
        club.fans = rec["fans"]
        out[name] = rec
    return {"clubs": out, "ours": out[world.ours.name]}


def reputation_update(world: World, ranks: dict[str, int], stages: dict[str, str], table: dict[str, Any]) -> dict[str, Any]:
    """Step 4: each club's reputation from its league place and cup run (§13.2)."""
    out = {}
    for name, club in world.clubs.items():
        rec = season_reputation(club.reputation, ranks[name], stages.get(name, "swiss"), table)
        club.reputation = rec["reputation"]
        out[name] = rec
    return {"clubs": out, "ours": out[world.ours.name]}


def growth(world: World, tables: PurasbarTables) -> dict[str, Any]:
    """Step 6: the §3.3.2 promotions (before the ageing; the AI clubs have no assistant, level 0), then
    every player a year older with the §8.4 decline, veterans' compensation, leaders and retirements."""
    key = f"s{world.season}/settle"
    life = world.life
    promos, ageing = {}, {}
    for name, club in world.clubs.items():
        level = life.level("assistant") if club.ours else 0
        bonus = youth_bonus(life.environment) if club.ours else 0
        promos[name] = promotions(world.dice, f"{key}/promo/{club.slug}", club, level, tables.youth, bonus=bonus)
    for name, club in world.clubs.items():
        ageing[name] = age_squad(world.dice, f"{key}/ageing/{club.slug}", club, tables.ageing)
        remove_retired(club, ageing[name])
    ai = [n for n in world.clubs if n != world.ours.name]
    return {"promotions": promos[world.ours.name], "ageing": ageing[world.ours.name],
            "ai_promoted": sum(len(promos[n]["promoted"]) for n in ai),
            "ai_retired": sum(len(ageing[n]["retired"]) for n in ai),
            "ai_declined": sum(len(ageing[n]["declined"]) for n in ai)}


def achievements(world: World, months: list[dict[str, Any]], extra: dict[str, Any], tables: PurasbarTables) -> SeasonAchievements:
    """Step 7: the in-season achievements confirmed, the season-end ones checked (some rolled), and
    their designed rewards applied to morale and reputation."""
    life, ours = world.life, world.ours
    facts = season_facts(months, ours.name, extra)
    rec = check_season(world.dice, f"s{world.season}/settle/achievements", facts, life.achievements,
                       tables.achievements, life.provisional)
    got = rewards(rec)
    ours.morale = clamp_morale(ours.morale + got["morale"])
    ours.reputation = clamp_reputation(ours.reputation + got["reputation"])
    rec["rewards"] = got
    rec["facts"] = facts
    return rec


def contracts(world: World, pool: list[Any], tables: PurasbarTables) -> dict[str, Any]:
    """Step 8: every contract that ends now is rolled for renewal (§10.4); the rest tick down."""
    rec = season_contracts(world.dice, f"s{world.season}/settle/contracts", world.clubs, tables.contracts,
                           season=world.season, free_pool=pool)
    ours = world.ours.name
    mine = [r for r in rec["renewals"] if r["club"] == ours]
    return {"ours": mine, "joined": [r for r in rec["renewals"] if r.get("to") == ours],
            "ai_renewed": sum(1 for r in rec["renewals"] if r["club"] != ours and r["renewed"]),
            "ai_left": sum(1 for r in rec["renewals"] if r["club"] != ours and not r["renewed"])}


def bills(world: World, squads: dict[str, list[Player]]) -> dict[str, Any]:
    """Steps 9 and 10: facility maintenance, then staff salaries and player wages, for every club;
    the §11.3 check on our funds once both are paid. ``squads`` are the players who played the season,
    as they stood before the settlement (:func:`~..money.finance.payroll`): a player who retires or whose
    contract ends at the season's end is still paid for the season he played."""
    life, s = world.life, world.season
    out: dict[str, Any] = {"bills": {}}
    for club in world.clubs.values():
        staff = {r: m.level for r, m in life.staff.items()} if club.ours else {}
        upkeep = pay_maintenance(club.ledger, club, life.finance, s)
        pay = pay_salaries(club.ledger, club, staff, life.finance, s, squad=squads[club.name])
        out["bills"][club.name] = upkeep["total"] + pay["total"]
        if club.ours:
            out["maintenance"], out["salaries"] = upkeep, pay
    return out


def league_levy(world: World, bills_paid: dict[str, int]) -> dict[str, Any]:
    """Designed step 10 (money/levy.py): the 财政调节 on funds above two season bills, shared by all."""
    ledgers = {name: club.ledger for name, club in world.clubs.items()}
    finance = world.life.finance
    rec = collect_levy(ledgers, bills_paid, finance.levy, finance.labels, world.season)
    ours = next((p for p in rec["paid"] if p["club"] == world.ours.name), None)
    sales = [sale for club in world.clubs.values() if not club.ours
             for sale in ai_sales(club, club.ledger, FORMATIONS[club.formation].counts(), finance.ai_books,
                                  finance.bankruptcy["fire_sale_per_point"], finance.labels["forced_sale"],
                                  world.season)]
    return {**rec, "ours": ours, "ai_sales": sales, "rules": dict(finance.levy)}


def league_money(world: World, bills_paid: dict[str, int]) -> list[dict[str, Any]]:
    """Every club's funds after the settlement's money and the season bill it paid (audit's R bands)."""
    return [{"club": name, "funds": club.ledger.balance, "bill": bills_paid[name]}
            for name, club in world.clubs.items()]


def settle(world: World, months: list[dict[str, Any]], tables: PurasbarTables,
           names: dict[str, list[str]]) -> dict[str, Any]:
    """000 §4.4 in order; the record of each step (our club in full, the league in summary)."""
    life, ours = world.life, world.ours
    world.month = SETTLEMENT_MONTH
    roll_everyone(world)  # the season's end needs every player's numbers (ageing, contracts, the state file)
    squads = {name: payroll(club) for name, club in world.clubs.items()}
    out: dict[str, Any] = {}
    out["ranking"] = ranking(world)
    ranks = out["ranking"]["ranks"]
    stages = cup_stages(months[-1]) if len(months) >= 12 else {}
    out["prizes"] = prizes(world, ranks, stages, swiss_wins(months[-1]) if stages else {}, tables.prizes)
    fans_before = ours.fans
    out["fans"] = fans_update(world, ranks, stages, months, tables.fans)
    out["reputation"] = reputation_update(world, ranks, stages, tables.fans)
    out["morale"] = morale_carry(world, ranks, stages, tables.morale)
    out["ageing"] = growth(world, tables)
    extra = {"promoted": len(out["ageing"]["promotions"]["promoted"]), "net": ours.ledger.net(world.season),
             "fans_before": fans_before, "fans_after": ours.fans,
             "leaders": sum(1 for p in ours.players if p.leader), "youth_players": sum(1 for p in ours.players if p.youth)}
    out["achievements"] = achievements(world, months, extra, tables)
    pool: list[Any] = []
    out["contracts"] = contracts(world, pool, tables)
    paid = bills(world, squads)
    out["maintenance"] = paid["maintenance"]
    out["salaries"] = paid["salaries"]
    out["levy"] = league_levy(world, paid["bills"])
    out["poaching"] = poaching(world.dice, f"s{world.season}/settle/poach", life.staff, life.affinity,
                               tables.people, names, league_names(world), tables.seasons)
    out["bankruptcy"] = bankruptcy_check(world, SETTLEMENT_MONTH)
    out["depth"] = depth_reset(world)
    out["next"] = next_season(world, pool, tables, names)
    out["season_money"] = {"by_kind": ours.ledger.by_kind(world.season), "net": ours.ledger.net(world.season),
                           "balance": ours.ledger.balance, "league": league_money(world, paid["bills"])}
    return out


def next_season(world: World, pool: list[Any], tables: PurasbarTables, names: dict[str, list[str]]) -> dict[str, Any]:
    """Step 12: the owner's retirement roll, the story's end if it came, the academy's intake, next
    summer's market (with the players who left on a free) and the marks that are cleared."""
    life = world.life
    key = f"s{world.season}/settle"
    retire = owner_retirement(world.dice, f"{key}/owner", life.owner, tables.seasons)
    ending = "bankruptcy" if life.bankruptcy.ended else "owner_retired" if retire["retires"] else "none"
    intake = {}
    called: dict[str, list[str]] = {}
    free: set[str] = {p.name for p in pool}  # left on a free: next summer's market, names still taken
    for name, club in world.clubs.items():
        intake[name] = youth_intake(world.dice, f"{key}/youth/{club.slug}", club, tables.youth, names,
                                    league_names(world) | free)
        extra = top_up(world.dice, f"{key}/floor/{club.slug}", club, tables.youth, names, league_names(world) | free)
        if extra:
            called[name] = [y["name"] for y in extra]
    market = None
    if ending == "none":
        world.market = [*world.market, *pool]  # the free agents' names are taken too: the new market's draw avoids them
        market = post_market(world, world.season + 1, summer_month(tables.transfers), tables, names)
        world.market += [p for p in pool if p.rolled]
    for club in world.clubs.values():
        for p in club.players:
            p.apps = p.goals = 0
            p.injured_weeks = 0  # designed: the off-season heals every injury
            p.stamina = 100
    life.boost, life.followup, life.scout_next, life.month_mods = {}, None, False, []
    life.provisional, life.facts, life.losing_streak = [], None, 0
    ai = [n for n in world.clubs if n != world.ours.name]
    retire["name"] = life.owner.name
    return {"owner": retire, "ending": ending, "intake": intake[world.ours.name],
            "ai_intake": sum(intake[n]["count"] for n in ai), "called_up": called, "market": market,
            "free_agents": [p.name for p in pool if p.rolled]}
