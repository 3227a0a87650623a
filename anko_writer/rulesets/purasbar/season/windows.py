"""The transfer windows in the season (Appendix D, designed): the market posted before the vote and
the window itself, in the months of transfers.yaml ``windows`` (shipped: summer in month 1, winter in 7).

A window's market is generated once, a chapter before the window, so readers vote on the players they
were shown: the month before the winter window posts its market; the §4.4 settlement posts next summer's (kept in
``state-end.yaml``); the first season's summer market is posted at the season's start and shown in the
summer window's chapter (:func:`transfers.summer_month`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events.environment import modifier as env_modifier
from ..models import number
from ..transfers.market import city_bands, make_market, value_parts
from ..transfers.records import BudgetParts, Market, Window
from ..transfers.transfers import budget_parts, run_window, window_of
from .world import World, reveal_for

if TYPE_CHECKING:
    from ..setup.tables import PurasbarTables


def league_names(world: World) -> set[str]:
    """Every player name in the league and on the market, and our club's people (head coach, owner,
    staff): a new name must differ from all of them (designed, issue 26)."""
    out = {p.name for c in world.clubs.values() for p in c.players} | {p.name for p in world.market}
    coach = world.ours.coach
    out |= {coach.name} if coach is not None and getattr(coach, "name", None) else set()
    life = world.life
    if life is not None:
        out |= {n for n in (getattr(life.owner, "name", None), *(getattr(s, "name", None) for s in life.staff.values()))
                if isinstance(n, str)}
    return out


def post_market(world: World, season: int, month: int, tables: PurasbarTables, names: dict[str, list[str]]) -> Market:
    """Generate the market of the window in (``season``, ``month``) and keep it for that window."""
    rules = tables.transfers.rules["market"]
    players, rec = make_market(world.dice, f"s{season}/m{month:02d}/market", rules["size"],
                               city_bands(world.clubs.values()), names, league_names(world),
                               tables.transfers, extra=world.life.level("scout"),
                               env_percent=env_modifier(world.life.environment, "transfer"))
    world.market = players
    number([*(p for n in world.order for p in world.clubs[n].players), *players], world.season)
    return rec


def window_budget(world: World, tables: PurasbarTables) -> BudgetParts:
    """Our transfer budget from the funds as they stand (designed: funds × 30 % × the owner's wealth injection %).
    The window computes it when it opens; a market chapter shows it from the funds at its end, as a forecast."""
    people = tables.people
    injection = people.entry(people.wealth, world.life.owner.wealth_tier).params["injection_percent"]
    return budget_parts(world.ours.ledger.balance, injection, tables.transfers)


def market_list(world: World, tables: PurasbarTables) -> list[dict[str, Any]]:
    """The market as the vote and the state file show it: each player with his value."""
    from ..setup.state import player_data  # here: a month resumed from its checkpoint does without it (issue 29)

    env = env_modifier(world.life.environment, "transfer")
    return [{**player_data(p), "value": value_parts(p, tables.transfers, env)["value"]} for p in world.market]


def roll_everyone(world: World) -> None:
    """Roll every AI core player not rolled yet (000 §5.8.3 keeps them unrolled until met; a player
    who changes clubs or leaves needs his numbers). Nothing is disclosed to readers by this."""
    reveal = reveal_for(world, readers=False)
    for club in world.clubs.values():
        for p in list(club.players):
            if not p.rolled:
                reveal(club, p)


def window_phase(world: World, month: int, decisions: dict[str, Any], tables: PurasbarTables,
                 names: dict[str, list[str]]) -> Window | None:
    """Appendix D: the month's window, if it has one; the readers' ``transfers`` vote or the AI rule."""
    if window_of(month, tables.transfers) is None:
        return None
    life = world.life
    roll_everyone(world)
    budget = window_budget(world, tables)
    rec = run_window(world.dice, f"s{world.season}/m{month:02d}/window", world.season, month, world.clubs,
                     world.ours.name, world.market, decisions.get("transfers"), budget["budget"],
                     tables.transfers, book=life.book, names=names,
                     env_percent=env_modifier(life.environment, "transfer"))
    rec["budget_parts"] = budget
    world.market = []  # designed: whoever is not signed in the window signs elsewhere, outside the league
    return rec
