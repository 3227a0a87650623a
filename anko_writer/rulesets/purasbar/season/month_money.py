"""000 §4.1 phase 5 item 6 (designed ch.11): the month's money for the whole league and our 月末结算.

Every club is paid its sponsor and broadcast money and pays the transfer instalments due; players'
regard for their club moves with the month (ch.10); our club's cash-flow lines, accrued bill and the
§11.3 bankruptcy countdown are recorded for the chapter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..competition.standings import Row, table
from ..money.bankruptcy import bankruptcy_step, book_emergency, emergency
from ..money.finance import book_monthly, month_cashflow, monthly_income, season_bill
from ..money.records import BankruptcyStep, CashFlow, MonthlyIncome
from ..transfers.contracts import AFFINITY_MAX, AFFINITY_MIN, affinity_change, affinity_role, team_delta
from ..transfers.records import AffinityChange, InstalmentPaid
from .world import World

if TYPE_CHECKING:
    from typing import TypedDict

    from ..setup.tables import PurasbarTables
else:  # a shape is mypy's alone: no class is built (issue 29)
    from ..models import RecordShape as TypedDict


class MonthMoney(TypedDict):
    """The month's money record for the chapter (:func:`month_money`)."""

    income: MonthlyIncome | None
    instalments: list[InstalmentPaid]
    regard: list[AffinityChange]
    cashflow: CashFlow
    bankruptcy: BankruptcyStep


def club_results(played: dict[str, Any]) -> dict[str, list[str]]:
    """Each club's results this month, in order (win / draw / loss; a shoot-out decides a tie)."""
    out: dict[str, list[str]] = {}
    for m in played["matches"]:
        for side in ("home", "away"):
            name = m[side]
            res = "draw" if m["winner"] is None else "win" if m["winner"] == name else "loss"
            out.setdefault(name, []).append(res)
    return out


def apps_now(world: World) -> dict[int, int]:
    """Every player's appearances so far (taken at a month's start to see who played in it)."""
    return {id(p): p.apps for c in world.clubs.values() for p in c.players}


def player_regard(world: World, results: dict[str, list[str]], before: dict[int, int],
                  tables: dict[str, Any]) -> list[AffinityChange]:
    """Designed ch.10: each player's regard for his club moves with playing time and results;
    the records of our players."""
    ours = []
    moves = tables["affinity"]
    for club in world.clubs.values():
        res = results.get(club.name, [])
        if club.ours:
            for p in club.players:
                rec = affinity_change(p, p.apps > before.get(id(p), p.apps), res, tables, injured=not p.healthy)
                p.affinity = rec["after"]
                if rec["delta"]:
                    ours.append(rec)
            continue
        team = team_delta(res, tables)  # an AI club's players: the same move, no record (once a club)
        # each role's whole move worked out once a club (affinity_role's three; clamp_affinity inlined)
        played, hurt, benched = (moves[affinity_role(*k)] + team for k in ((True, False), (False, True), (False, False)))
        for p in club.players:
            apps = p.apps
            value = p.affinity + (played if apps > before.get(id(p), apps) else hurt if p.injured_weeks else benched)
            p.affinity = AFFINITY_MIN if value < AFFINITY_MIN else AFFINITY_MAX if value > AFFINITY_MAX else value
    return ours


def bankruptcy_check(world: World, month: int) -> BankruptcyStep:
    """§11.3: one step of our countdown; stage 2's emergency is carried out at once."""
    life, ours = world.life, world.ours
    rec = bankruptcy_step(life.bankruptcy, ours.ledger.balance, world.season, month, life.finance)
    if rec["action"]:
        em = emergency(world.dice, f"s{world.season}/m{month:02d}/bankruptcy", ours.ledger.balance,
                       life.owner.wealth, ours.players, life.finance)
        em["lines"] = book_emergency(ours.ledger, em, world.season, month, life.finance)
        if em["outcome"] == "forced_sale" and em["player"]:
            ours.players.remove(ours.player(em["player"]))
        rec["emergency"] = em
    return rec


def month_money(world: World, month: int, played: dict[str, Any], before: dict[int, int],
                tables: PurasbarTables, standing: list[Row] | None = None) -> MonthMoney:
    """The month's money and regard for the league; our club's record for the chapter (``standing``: the
    league table as the month's matches left it, when the caller has it)."""
    life, s = world.life, world.season
    rows = table(world.order, world.results) if standing is None else standing
    ranks = {row.team: i + 1 for i, row in enumerate(rows)}
    income: MonthlyIncome | None = None
    for club in world.clubs.values():
        rec = monthly_income(club, ranks[club.name], life.finance, life.environment)
        book_monthly(club.ledger, rec, s, month, life.finance)
        if club.ours:
            income = rec
    paid = life.book.pay(s, month, world.clubs)
    regard = player_regard(world, club_results(played), before, tables.contracts)
    bill = season_bill(world.ours, (m.level for m in life.staff.values()), life.finance)
    bank = bankruptcy_check(world, month)
    cash = month_cashflow(world.ours.ledger, s, month, bill["total"])
    ours = world.ours.name
    return {"income": income, "instalments": [p for p in paid if ours in (p["payer"], p["payee"])],
            "regard": regard, "cashflow": cash, "bankruptcy": bank}
