"""The money of 000 ch.11 (designed; numbers in ``tables/purasbar/finance.yaml`` and ``prizes.yaml``).

Gate money per home match (§11.1 with the §4.2.3 25% share), the monthly sponsor and broadcast income
(§11.2), prize money (§4.4 step 2), the season-end bill (§4.4 steps 9–10, §4.1 phase 5 item 6), the
month's cash flow with accrued items, the funding-pressure coefficient R (§6.2.3) and AI opening funds.
Every function returns plain records with each part of its arithmetic; money moves only through
:meth:`ledger.Ledger.post`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ....dice import Dice
from ....resources import Resources
from ....schema import Check, Field, Int, List, Map, Problem, Str
from ....tables import load_data
from ..competition.calendar import MONTHS, SETTLEMENT_MONTH
from ..events.environment import Environment, apply_percent
from ..events.environment import modifier as env_modifier
from ..models import Club, Player
from .ledger import Ledger
from .records import (
    AiFunds,
    Broadcast,
    CapacityRule,
    CashFlow,
    CoreWage,
    CrowdPull,
    FundingPressure,
    Gate,
    GateLine,
    GateSplit,
    LedgerLine,
    MaintenanceBill,
    MaintenanceLine,
    MaintenancePaid,
    MonthlyIncome,
    Prizes,
    Salaries,
    SalariesPaid,
    SeasonBill,
    SeatPrice,
    Sponsor,
    StaffSalary,
)

GATE_SHARE_PERCENT = 25
"""000 §4.2.3: in every league match the home club pays 25% of the gate to the away club."""
COMPETITIONS = ("league", "swiss", "knockout", "final")
"""Where a gate is taken: the league, the 群英杯 Swiss rounds, its knockout rounds, its neutral final."""
CUP_STAGES = ("swiss", "quarter", "semi", "runner_up", "champion")
"""How far a club went in the 群英杯: out in the Swiss rounds … champion (000 §4.3)."""
LEAGUE_CLUBS = 24
"""000 §4.2.1: 24 clubs, so league ranks 1–24."""
BILL_KINDS = ("wages", "staff", "maintenance")
"""Ledger kinds of the season bill (paid at the season's end, 000 §4.1 phase 5 item 6)."""

START = Map({"base": Field(Int(min=0)), "die": Field(Str()), "per_face": Field(Int(min=0))})
COMPETITION = Map({"demand_percent": Field(Int(min=0)), "price_add": Field(Int(min=0))})
TICKET = Map({
    "home_percent": Field(Int(min=0)), "home_rep_divisor": Field(Int(min=1)),
    "away_percent": Field(Int(min=0)), "away_rep_divisor": Field(Int(min=1)),
    "day_die": Field(Str()), "swing_per_face": Field(Int(min=0)), "swing_offset": Field(Int(min=0)),
    "price_base": Field(Int(min=0)), "price_rep_divisor": Field(Int(min=1)),
    "final_capacity": Field(Int(min=1)),
    "competitions": Field(Map({c: Field(COMPETITION) for c in COMPETITIONS})),
}, doc="11.1 gate money (designed).")
BANKRUPTCY = Map({
    "warning_months": Field(Int(min=1)), "emergency_months": Field(Int(min=1)), "owner_die": Field(Str()),
    "owner_base": Field(Int(min=0)), "owner_wealth_divisor": Field(Int(min=1)), "cushion": Field(Int(min=0)),
    "fire_sale_per_point": Field(Int(min=0)),
}, doc="11.3 bankruptcy chain (designed).")
LEVY = Map({"free_multiple": Field(Int(min=1)), "percent": Field(Int(min=0, max=100)),
            "round_to": Field(Int(min=1)), "share_below": Field(Int(min=0)), "share_max": Field(Int(min=0))},
           doc="The league's 财政调节 at the settlement (designed, money/levy.py).")
LABELS = ("gate_share_paid", "gate_share_received", "final_share", "sponsor", "broadcast", "league_prize",
          "cup_prize", "swiss_wins", "wages_core", "wages_role", "staff", "maintenance", "emergency_injection",
          "forced_sale", "levy", "solidarity")
"""Ledger line labels finance.yaml must give."""
FINANCE = Map({
    "source": Field(Str()),
    "start_funds": Field(START, doc="Opening funds: base + die × per_face."),
    "staff_salary_per_level": Field(Int(min=0)),
    "maintenance_per_level": Field(Int(min=0)),
    "stadium_per_total": Field(Int(min=1), doc="Home capacity = §2.1 total × this."),
    "ticket": Field(TICKET),
    "sponsor": Field(Map({"base": Field(Int(min=0)), "per_reputation": Field(Int(min=0)),
                          "per_thousand_fans": Field(Int(min=0))})),
    "broadcast": Field(Map({"base": Field(Int(min=0)), "per_place": Field(Int(min=0)),
                            "per_reputation": Field(Int(min=0)),
                            "default_rank": Field(Int(min=1, max=LEAGUE_CLUBS))})),
    "ai_funds": Field(Map({"base": Field(Int(min=0)), "per_total": Field(Int(min=0)), "per_pbs": Field(Int(min=0))})),
    "bankruptcy": Field(BANKRUPTCY),
    "levy": Field(LEVY),
    "ai_books": Field(Map({"sales_max": Field(Int(min=0))}, doc="An AI club's sales in the red (money/ai_books.py).")),
    "labels": Field(Map({k: Field(Str()) for k in LABELS})),
})
"""Schema of finance.yaml."""


@dataclass(frozen=True)
class FinanceRules:
    """The designed money numbers."""

    base: int
    die: str
    per_face: int
    staff_salary_per_level: int
    maintenance_per_level: int
    stadium_per_total: int = 180
    ticket: dict[str, Any] = field(default_factory=dict, hash=False)
    sponsor: dict[str, int] = field(default_factory=dict, hash=False)
    broadcast: dict[str, int] = field(default_factory=dict, hash=False)
    ai_funds: dict[str, int] = field(default_factory=dict, hash=False)
    bankruptcy: dict[str, Any] = field(default_factory=dict, hash=False)
    labels: dict[str, str] = field(default_factory=dict, hash=False)
    levy: dict[str, int] = field(default_factory=dict, hash=False)
    ai_books: dict[str, int] = field(default_factory=dict, hash=False)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> FinanceRules:
        """From the validated finance.yaml."""
        s = data["start_funds"]
        return cls(s["base"], s["die"], s["per_face"], data["staff_salary_per_level"], data["maintenance_per_level"],
                   data["stadium_per_total"], data["ticket"], data["sponsor"], data["broadcast"], data["ai_funds"],
                   data["bankruptcy"], data["labels"], data["levy"], data["ai_books"])


def load_finance(resources: Resources) -> FinanceRules:
    """The ruleset's finance.yaml (campaign folder first) as :class:`FinanceRules`."""
    return FinanceRules.from_data(load_data(resources.table_path("finance.yaml"), FINANCE))


def payroll(club: Club) -> list[Player]:
    """The club's players as they are now, frozen (their own attribute dicts): the squad whose wages the
    season's end pays, kept before ageing, promotions and departures change it."""
    return [_frozen(p) for p in club.players]


def _frozen(p: Player) -> Player:
    """A copy of ``p`` with its own attribute dict: ``dataclasses.replace(p, attrs=dict(p.attrs))`` (Player has
    no ``__post_init__``), without the field-by-field rebuild (a settlement copies every squad)."""
    q = copy.copy(p)
    q.attrs = dict(p.attrs)
    return q


def season_bill(club: Club, staff_levels: Iterable[int], rules: FinanceRules) -> SeasonBill:
    """Everything due at the season's end (000 §4.1 phase 5 item 6: wages and upkeep are paid then):
    player wages (§3.2.2, §3.3.1), staff salaries and facility maintenance (designed)."""
    wages = sum(p.wage for p in club.players if p.rolled)
    staff = sum(staff_levels) * rules.staff_salary_per_level
    upkeep = sum(club.facilities.values()) * rules.maintenance_per_level
    return {"wages": wages, "staff": staff, "maintenance": upkeep, "total": wages + staff + upkeep}


def r_coefficient(funds: int, bill: int) -> float:
    """000 §6.2.3: R = current funds / (the season's remaining spending + wages due), rounded to 2 places.

    >>> r_coefficient(3_000_000, 1_500_000), r_coefficient(0, 1)
    (2.0, 0.0)
    """
    return round(funds / bill, 2) if bill > 0 else 99.0


R_BANDS: dict[str, tuple[float | None, float | None]] = {
    "rich": (2.0, None), "balanced": (1.0, 2.0), "tight": (0.5, 1.0), "broke": (None, 0.5)}
"""000 §6.2.3's four bands of R, each ``(lowest, below)``: 充裕 R ≥ 2.0 … 极度缺钱 R < 0.5 (None: open)."""


def r_band(r: float) -> str:
    """000 §6.2.3's four bands: 充裕 (≥ 2.0), 平衡 (1.0–2.0), 偏紧 (0.5–1.0), 极度缺钱 (< 0.5).

    >>> [r_band(x) for x in (2.0, 1.99, 1.0, 0.5, 0.49)]
    ['rich', 'balanced', 'balanced', 'tight', 'broke']
    """
    return next(band for band, (lo, _) in R_BANDS.items() if lo is None or r >= lo)


# --------------------------------------------------------------------------------------- 11.1 gate


def stadium_capacity(total: int, rules: FinanceRules) -> int:
    """Designed §11.1 home capacity: the club's §2.1 total ability × ``stadium_per_total`` seats.

    >>> rules = load_finance(Resources("purasbar", None))
    >>> stadium_capacity(134, rules), stadium_capacity(36, rules)
    (24120, 6480)
    """
    return total * rules.stadium_per_total


def _pull(club: Club, side: str, base: int, divisor: int) -> CrowdPull:
    """The crowd one club draws: fans × (base + reputation ÷ divisor)%, rounded down."""
    bonus = club.reputation // divisor
    percent = base + bonus
    return {"club": club.name, "side": side, "fans": club.fans, "reputation": club.reputation,
            "percent_base": base, "rep_divisor": divisor, "rep_bonus": bonus, "percent": percent,
            "value": club.fans * percent // 100}


def _env_percent(env: Environment | None, target: str) -> int:
    """The season's environment percent for ``target`` (0 without an environment)."""
    return env_modifier(env, target) if env is not None else 0


def _scaled(amount: int, env: Environment | None, target: str) -> int:
    """``amount`` × (100 + environment percent)%, rounded down (§6.4.3)."""
    return apply_percent(amount, env, target) if env is not None else amount


def gate_share(gross: int) -> int:
    """000 §4.2.3: the away club's 25% of a league gate, rounded down (the home club keeps the odd P$).

    >>> gate_share(100_000), gate_share(119_698), gate_share(3)
    (25000, 29924, 0)
    """
    return gross * GATE_SHARE_PERCENT // 100


def _split(competition: str, gross: int) -> GateSplit:
    """Who takes the gate: league 75/25 (§4.2.3), cup rounds all home, the neutral final half each."""
    if competition == "league":
        share = gate_share(gross)
        return {"share_percent": GATE_SHARE_PERCENT, "home": gross - share, "away": share}
    if competition == "final":  # designed: neutral ground, the odd P$ to the first-named club
        return {"share_percent": 50, "home": gross - gross // 2, "away": gross // 2}
    return {"share_percent": 0, "home": gross, "away": 0}


def _pulls(home: Club, away: Club, t: dict[str, Any], neutral: bool) -> list[CrowdPull]:
    """Both crowds: the home club's, then the away club's (at the neutral final both draw as home fans)."""
    away_side = ("home_percent", "home_rep_divisor") if neutral else ("away_percent", "away_rep_divisor")
    return [_pull(home, "home", t["home_percent"], t["home_rep_divisor"]),
            _pull(away, "away", t[away_side[0]], t[away_side[1]])]


def _price(home: Club, away: Club, t: dict[str, Any], comp: dict[str, int], neutral: bool) -> SeatPrice:
    """Seat price: base + reputation ÷ divisor (the finalists' mean at the final) + the competition's extra."""
    rep = (home.reputation + away.reputation) // 2 if neutral else home.reputation
    rep_add = rep // t["price_rep_divisor"]
    return {"base": t["price_base"], "reputation": rep, "rep_divisor": t["price_rep_divisor"], "rep_add": rep_add,
            "competition_add": comp["price_add"], "value": t["price_base"] + rep_add + comp["price_add"]}


def ticket_income(dice: Dice, key: str, home: Club, away: Club, competition: str, rules: FinanceRules,
                  env: Environment | None = None) -> Gate:
    """Designed §11.1 gate of one match: crowd pulls, one visible 1D20 swing, capacity, price, gross, split.

    ``home`` is the home club (for the neutral final: the first-named finalist); the environment's
    ``ticket`` percent multiplies the gross (§6.4.3).
    """
    if competition not in COMPETITIONS:
        raise ValueError(f"unknown competition {competition!r} (expected one of {', '.join(COMPETITIONS)})")
    t = rules.ticket
    comp, neutral = t["competitions"][competition], competition == "final"
    pulls = _pulls(home, away, t, neutral)
    roll = dice.roll(f"{key}/gate", t["day_die"], "上座浮动")
    swing = roll.total * t["swing_per_face"] - t["swing_offset"]
    crowd = pulls[0]["value"] + pulls[1]["value"]
    demand = crowd * comp["demand_percent"] * (100 + swing) // 10_000
    capacity = t["final_capacity"] if neutral else stadium_capacity(home.total, rules)
    attendance = min(demand, capacity)
    price = _price(home, away, t, comp, neutral)
    base_gross = attendance * price["value"]
    gross = _scaled(base_gross, env, "ticket")
    rule: CapacityRule | None = None if neutral else {"total": home.total, "per_total": rules.stadium_per_total}
    return {
        "competition": competition, "neutral": neutral, "home": home.name, "away": away.name, "pulls": pulls,
        "crowd": crowd, "demand_percent": comp["demand_percent"], "roll": roll.ref(), "swing": swing,
        "demand": demand, "capacity": capacity, "capacity_rule": rule, "attendance": attendance,
        "sold_out": demand >= capacity, "price": price, "base_gross": base_gross,
        "env_percent": _env_percent(env, "ticket"), "gross": gross, "split": _split(competition, gross),
    }


def book_gate(home_ledger: Ledger | None, away_ledger: Ledger | None, rec: Gate, season: int,
              month: int, label: str, rules: FinanceRules, lines: bool = True) -> list[GateLine]:
    """Post a gate (:func:`ticket_income` record): the ticket line and any share; ``None`` ledgers are skipped.
    Returns the lines posted (none with ``lines=False``, an audit's match: the ledgers get them all the same)."""
    labels = rules.labels
    split, home, away = rec["split"], (home_ledger, rec["home"]), (away_ledger, rec["away"])
    if rec["competition"] == "league":  # 000 §4.2.3
        posts = [(home, "ticket", rec["gross"], label),
                 (home, "gate_share", -split["away"], f"{label}·{labels['gate_share_paid']}"),
                 (away, "gate_share", split["away"], f"{label}·{labels['gate_share_received']}")]
    elif rec["competition"] == "final":
        final = f"{label}·{labels['final_share']}"
        posts = [(home, "ticket", split["home"], final), (away, "ticket", split["away"], final)]
    else:
        posts = [(home, "ticket", rec["gross"], label)]
    if not lines:
        for (led, _), kind, amount, text in posts:
            if led is not None and amount:
                led.post(season, month, kind, amount, text)
        return []
    return [{"club": name, **led.post(season, month, kind, amount, text).to_json()}
            for (led, name), kind, amount, text in posts if led is not None and amount]


# ------------------------------------------------------------------------- 11.2 sponsor, broadcast


def monthly_income(club: Club, rank: int | None, rules: FinanceRules, env: Environment | None = None) -> MonthlyIncome:
    """Designed §11.2: a month's sponsor (reputation, fans) and broadcast money (league rank, reputation).

    ``rank`` is the league position after last month (``None`` before any table: the designed default);
    the environment's ``sponsor`` and ``broadcast`` percents multiply each (§6.4.3).
    """
    s, b = rules.sponsor, rules.broadcast
    thousands = club.fans // 1000
    sponsor_raw = s["base"] + club.reputation * s["per_reputation"] + thousands * s["per_thousand_fans"]
    used = rank if rank is not None else b["default_rank"]
    if not 1 <= used <= LEAGUE_CLUBS:
        raise ValueError(f"league rank {used} is not 1–{LEAGUE_CLUBS}")
    places = LEAGUE_CLUBS - used
    broadcast_raw = b["base"] + places * b["per_place"] + club.reputation * b["per_reputation"]
    sponsor: Sponsor = {"base": s["base"], "reputation": club.reputation, "per_reputation": s["per_reputation"],
               "rep_part": club.reputation * s["per_reputation"], "fans": club.fans, "fan_thousands": thousands,
               "per_thousand_fans": s["per_thousand_fans"], "fans_part": thousands * s["per_thousand_fans"],
               "raw": sponsor_raw, "env_percent": _env_percent(env, "sponsor"),
               "amount": _scaled(sponsor_raw, env, "sponsor")}
    broadcast: Broadcast = {"base": b["base"], "rank": rank, "rank_used": used, "places_below": places,
                 "per_place": b["per_place"], "place_part": places * b["per_place"],
                 "reputation": club.reputation, "per_reputation": b["per_reputation"],
                 "rep_part": club.reputation * b["per_reputation"], "raw": broadcast_raw,
                 "env_percent": _env_percent(env, "broadcast"), "amount": _scaled(broadcast_raw, env, "broadcast")}
    return {"club": club.name, "sponsor": sponsor, "broadcast": broadcast,
            "total": sponsor["amount"] + broadcast["amount"]}


def book_monthly(ledger: Ledger, rec: MonthlyIncome, season: int, month: int,
                 rules: FinanceRules) -> list[LedgerLine]:
    """Post a :func:`monthly_income` record: one sponsor line and one broadcast line."""
    labels = rules.labels
    return [ledger.post(season, month, kind, rec[kind]["amount"], labels[kind]).to_json()
            for kind in ("sponsor", "broadcast") if rec[kind]["amount"]]


# ------------------------------------------------------------------------------------ prize money


def _prizes_problem(data: dict[str, Any]) -> Problem:
    """The league prizes never rise from one place to the next (designed, tested)."""
    league = data["league"]
    for i in range(1, len(league)):
        if league[i] > league[i - 1]:
            return ("league", f"第 {i + 1} 名的奖金 {league[i]} 比第 {i} 名（{league[i - 1]}）还多")
    return None


PRIZES = Check(Map({
    "source": Field(Str()),
    "league": Field(List(Int(min=0), min_len=LEAGUE_CLUBS, max_len=LEAGUE_CLUBS), doc="Places 1–24."),
    "cup": Field(Map({s: Field(Int(min=0)) for s in CUP_STAGES}), doc="Prize by the 群英杯 stage reached."),
    "swiss_win": Field(Int(min=0), doc="Extra per Swiss-round win."),
}), _prizes_problem)
"""Schema of prizes.yaml."""


def load_prize_table(path: Path) -> dict[str, Any]:
    """``prizes.yaml`` checked against :data:`PRIZES` (TableError on a problem)."""
    table: dict[str, Any] = load_data(path, PRIZES)
    return table


def load_prizes(resources: Resources) -> dict[str, Any]:
    """The ruleset's prizes.yaml (campaign folder first)."""
    return load_prize_table(resources.table_path("prizes.yaml"))


def league_prize(rank: int, table: dict[str, Any]) -> int:
    """§4.4 step 2 league prize for a final rank 1–24 (designed prizes.yaml).

    >>> T = load_prizes(Resources("purasbar", None))
    >>> league_prize(1, T), league_prize(12, T), league_prize(24, T)
    (1200000, 300000, 100000)
    """
    if not 1 <= rank <= LEAGUE_CLUBS:
        raise ValueError(f"league rank {rank} is not 1–{LEAGUE_CLUBS}")
    return int(table["league"][rank - 1])


def cup_prize(stage: str, table: dict[str, Any]) -> int:
    """§4.4 step 2 群英杯 prize for the stage a club reached (designed prizes.yaml).

    >>> T = load_prizes(Resources("purasbar", None))
    >>> cup_prize("swiss", T), cup_prize("champion", T)
    (100000, 1500000)
    """
    if stage not in CUP_STAGES:
        raise ValueError(f"unknown cup stage {stage!r} (expected one of {', '.join(CUP_STAGES)})")
    return int(table["cup"][stage])


def prize_record(rank: int, stage: str, swiss_wins: int, table: dict[str, Any]) -> Prizes:
    """A club's season prizes: league place, cup stage and the designed bonus per Swiss win."""
    t = table
    if not 0 <= swiss_wins <= 5:  # 000 §4.3.1: five Swiss rounds
        raise ValueError(f"{swiss_wins} Swiss wins is not 0–5")
    league, cup, wins = league_prize(rank, t), cup_prize(stage, t), swiss_wins * t["swiss_win"]
    return {"rank": rank, "league": league, "stage": stage, "cup": cup, "swiss_wins": swiss_wins,
            "per_swiss_win": t["swiss_win"], "swiss_bonus": wins, "total": league + cup + wins}


def book_prizes(ledger: Ledger, rec: Prizes, season: int, month: int,
                rules: FinanceRules) -> list[LedgerLine]:
    """Post a :func:`prize_record` (§4.4 step 2: at the settlement, month 13 by default)."""
    labels = rules.labels
    parts: tuple[tuple[Literal["league", "cup", "swiss_bonus"], str], ...] = (
        ("league", "league_prize"), ("cup", "cup_prize"), ("swiss_bonus", "swiss_wins"))
    return [ledger.post(season, month, "prize", rec[part], labels[label]).to_json()
            for part, label in parts if rec[part]]


# ---------------------------------------------------------------------------- 4.4 steps 9 and 10


def maintenance_due(club: Club, rules: FinanceRules) -> MaintenanceBill:
    """§4.4 step 9: each facility's level × the designed maintenance per level."""
    lines: list[MaintenanceLine] = [{"facility": f, "level": lvl, "amount": lvl * rules.maintenance_per_level}
             for f, lvl in club.facilities.items()]
    return {"per_level": rules.maintenance_per_level, "lines": lines, "total": sum(x["amount"] for x in lines)}


def salaries_due(club: Club, staff: Mapping[str, int], rules: FinanceRules,
                 squad: Sequence[Player] | None = None) -> Salaries:
    """§4.4 step 10: staff salaries (designed) and player wages (§3.2.2 total × 2,500; §3.3.1 20,000).

    ``squad`` is who is paid (default: the club's players now); the settlement passes the squad that
    played the season, as it stood before anyone retired or left. Players not rolled yet (§5.8.3) have
    no total, so no wage, as in :func:`season_bill`.
    """
    players = club.players if squad is None else squad
    staff_lines: list[StaffSalary] = [{"role": r, "level": lvl, "amount": lvl * rules.staff_salary_per_level} for r, lvl in staff.items()]
    core: list[CoreWage] = [{"name": p.name, "total": p.total, "wage": p.wage} for p in players if p.core and p.rolled]
    roles = [p for p in players if not p.core and p.rolled]
    staff_total = sum(x["amount"] for x in staff_lines)
    core_total, role_total = sum(x["wage"] for x in core), sum(p.wage for p in roles)
    return {"per_level": rules.staff_salary_per_level, "staff": staff_lines, "staff_total": staff_total,
            "core": core, "core_total": core_total, "role_count": len(roles), "role_total": role_total,
            "wages_total": core_total + role_total, "total": staff_total + core_total + role_total}


def pay_maintenance(ledger: Ledger, club: Club, rules: FinanceRules, season: int,
                    month: int = SETTLEMENT_MONTH) -> MaintenancePaid:
    """§4.4 step 9: post the facility maintenance (one line) and return the bill with the line."""
    rec = maintenance_due(club, rules)
    entries = []
    if rec["total"]:
        entries.append(ledger.post(season, month, "maintenance", -rec["total"], rules.labels["maintenance"]).to_json())
    return {**rec, "entries": entries, "balance": ledger.balance}


def pay_salaries(ledger: Ledger, club: Club, staff: Mapping[str, int], rules: FinanceRules, season: int,
                 month: int = SETTLEMENT_MONTH, squad: Sequence[Player] | None = None) -> SalariesPaid:
    """§4.4 step 10 (with the §4.1 phase 5 wages): post staff, core and role wages and return the bill
    (``squad``: who is paid, see :func:`salaries_due`)."""
    rec = salaries_due(club, staff, rules, squad)
    parts = (("staff", rec["staff_total"], "staff"), ("wages", rec["core_total"], "wages_core"),
             ("wages", rec["role_total"], "wages_role"))
    entries = [ledger.post(season, month, kind, -amount, rules.labels[label]).to_json()
               for kind, amount, label in parts if amount]
    return {**rec, "entries": entries, "balance": ledger.balance}


# ----------------------------------------------------------------------- 4.1 phase 5 item 6, R


def accruals(bill_total: int, month: int) -> int:
    """§4.1 phase 5 item 6: the part of the season bill accrued by the end of month M, bill × M ÷ 12 (down).

    >>> [accruals(2_700_001, m) for m in (0, 1, 6, 12, 13)]
    [0, 225000, 1350000, 2700001, 2700001]
    """
    m = max(0, min(MONTHS, month))
    return bill_total * m // MONTHS


def month_cashflow(ledger: Ledger, season: int, month: int, bill_total: int) -> CashFlow:
    """The 月末结算 cash-flow record: the month's lines, opening and closing funds, and accrued items."""
    lines = ledger.lines(season, month)
    net = sum(e.amount for e in lines)
    later = sum(e.amount for e in ledger.entries if (e.season, e.month) >= (season, month))
    opening = ledger.balance - later
    accrued = accruals(bill_total, month)
    return {
        "season": season, "month": month, "lines": [e.to_json() for e in lines],
        "by_kind": ledger.by_kind(season, month), "income": sum(e.amount for e in lines if e.amount > 0),
        "expense": sum(e.amount for e in lines if e.amount < 0), "net": net,
        "opening": opening, "closing": opening + net, "bill": bill_total, "accrued": accrued,
        "accrued_month": accrued - accruals(bill_total, month - 1), "after_accrued": opening + net - accrued,
    }


def r_from_ledger(ledger: Ledger, bill_total: int, season: int, instalments_due: int = 0) -> FundingPressure:
    """§6.2.3 R = funds ÷ (season bill still to pay + transfer instalments still due), as :func:`r_coefficient`.

    The bill is paid at the season's end (§4.1 phase 5 item 6), so it is all still due until the
    settlement posts its ``wages`` / ``staff`` / ``maintenance`` lines.
    """
    paid = -sum(e.amount for e in ledger.entries if e.season == season and e.kind in BILL_KINDS)
    still = max(0, bill_total - paid)
    denominator = still + instalments_due
    r = r_coefficient(ledger.balance, denominator)
    return {"funds": ledger.balance, "bill": bill_total, "paid": paid, "still_due": still,
            "instalments": instalments_due, "denominator": denominator, "R": r, "band": r_band(r),
            "band_bounds": list(R_BANDS[r_band(r)])}


# ------------------------------------------------------------------------------- AI opening funds


def ai_opening_funds(total: int, pbs: int, rules: FinanceRules) -> AiFunds:
    """Designed §11.1: an AI club's opening funds, base + total × per_total + PBS × per_pbs (no dice).

    >>> rules = load_finance(Resources("purasbar", None))
    >>> ai_opening_funds(150, 15272, rules)["funds"], ai_opening_funds(36, 160, rules)["funds"]
    (4013600, 1548000)
    """
    a = rules.ai_funds
    total_part, pbs_part = total * a["per_total"], pbs * a["per_pbs"]
    return {"base": a["base"], "total": total, "per_total": a["per_total"], "total_part": total_part,
            "pbs": pbs, "per_pbs": a["per_pbs"], "pbs_part": pbs_part, "funds": a["base"] + total_part + pbs_part}


__all__ = [
    "GATE_SHARE_PERCENT", "COMPETITIONS", "CUP_STAGES", "LEAGUE_CLUBS", "BILL_KINDS",
    "FINANCE", "PRIZES", "FinanceRules", "load_finance", "season_bill", "r_coefficient", "r_band",
    "R_BANDS",
    "stadium_capacity", "gate_share", "ticket_income", "book_gate", "monthly_income", "book_monthly",
    "load_prize_table", "load_prizes", "league_prize", "cup_prize", "prize_record", "book_prizes",
    "maintenance_due", "payroll", "salaries_due", "pay_maintenance", "pay_salaries", "accruals", "month_cashflow",
    "r_from_ledger", "ai_opening_funds",
]
