"""The shapes of the money records (000 ch.11, designed): ledger lines, gates, income, prizes, bills,
the month's cash flow and the §11.3 bankruptcy chain.

Records stay plain dicts at runtime (they go to JSON and the templates); these TypedDicts only say
which keys each producer writes and what their values are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypeAlias

if TYPE_CHECKING:
    from typing import TypedDict
else:  # the shapes are for mypy: none is built when this runs
    from ..models import RecordShape as TypedDict

RollJson: TypeAlias = dict[str, Any]
"""A :meth:`dice.Roll.to_json` / :meth:`dice.Roll.ref` record (the core types it as a plain dict)."""


class LedgerLine(TypedDict):
    """One ledger line (:meth:`ledger.Entry.to_json`): a signed amount in P$."""

    season: int
    month: int
    kind: str
    amount: int
    label: str


class GateLine(LedgerLine):
    """A gate's ledger line with the club whose ledger it is on (:func:`finance.book_gate`)."""

    club: str


class SeasonBill(TypedDict):
    """Everything due at the season's end (:func:`finance.season_bill`)."""

    wages: int
    staff: int
    maintenance: int
    total: int


class CrowdPull(TypedDict):
    """The crowd one club draws to a match (§11.1, designed)."""

    club: str
    side: str
    fans: int
    reputation: int
    percent_base: int
    rep_divisor: int
    rep_bonus: int
    percent: int
    value: int


class SeatPrice(TypedDict):
    """A match's seat price and its parts (§11.1, designed)."""

    base: int
    reputation: int
    rep_divisor: int
    rep_add: int
    competition_add: int
    value: int


class CapacityRule(TypedDict):
    """How a home stadium's capacity was computed: §2.1 total × seats per point."""

    total: int
    per_total: int


class GateSplit(TypedDict):
    """Who takes a gate: the share percent and each side's money (§4.2.3)."""

    share_percent: int
    home: int
    away: int


class Gate(TypedDict):
    """One match's gate (:func:`finance.ticket_income`), with its booked lines once posted."""

    competition: str
    neutral: bool
    home: str
    away: str
    pulls: list[CrowdPull]
    crowd: int
    demand_percent: int
    roll: RollJson
    swing: int
    demand: int
    capacity: int
    capacity_rule: CapacityRule | None
    attendance: int
    sold_out: bool
    price: SeatPrice
    base_gross: int
    env_percent: int
    gross: int
    split: GateSplit
    lines: NotRequired[list[GateLine]]
    """Added by the match day after :func:`finance.book_gate`."""


class Sponsor(TypedDict):
    """A month's sponsor money and its terms (§11.2, designed)."""

    base: int
    reputation: int
    per_reputation: int
    rep_part: int
    fans: int
    fan_thousands: int
    per_thousand_fans: int
    fans_part: int
    raw: int
    env_percent: int
    amount: int


class Broadcast(TypedDict):
    """A month's broadcast money and its terms (§11.2, designed)."""

    base: int
    rank: int | None
    rank_used: int
    places_below: int
    per_place: int
    place_part: int
    reputation: int
    per_reputation: int
    rep_part: int
    raw: int
    env_percent: int
    amount: int


class MonthlyIncome(TypedDict):
    """A club's sponsor and broadcast money for one month (:func:`finance.monthly_income`)."""

    club: str
    sponsor: Sponsor
    broadcast: Broadcast
    total: int


class Prizes(TypedDict):
    """A club's season prizes (:func:`finance.prize_record`), with its booked lines once posted."""

    rank: int
    league: int
    stage: str
    cup: int
    swiss_wins: int
    per_swiss_win: int
    swiss_bonus: int
    total: int
    lines: NotRequired[list[LedgerLine]]
    """Added by the settlement after :func:`finance.book_prizes`."""


class MaintenanceLine(TypedDict):
    """One facility's maintenance (§4.4 step 9)."""

    facility: str
    level: int
    amount: int


class MaintenanceBill(TypedDict):
    """The facility maintenance due (:func:`finance.maintenance_due`)."""

    per_level: int
    lines: list[MaintenanceLine]
    total: int


class MaintenancePaid(MaintenanceBill):
    """The maintenance bill as posted (:func:`finance.pay_maintenance`)."""

    entries: list[LedgerLine]
    balance: int


class StaffSalary(TypedDict):
    """One staff member's salary (§4.4 step 10, designed)."""

    role: str
    level: int
    amount: int


class CoreWage(TypedDict):
    """One core player's wage (§3.2.2)."""

    name: str
    total: int
    wage: int


class Salaries(TypedDict):
    """Staff salaries and player wages due (:func:`finance.salaries_due`)."""

    per_level: int
    staff: list[StaffSalary]
    staff_total: int
    core: list[CoreWage]
    core_total: int
    role_count: int
    role_total: int
    wages_total: int
    total: int


class SalariesPaid(Salaries):
    """The salaries as posted (:func:`finance.pay_salaries`)."""

    entries: list[LedgerLine]
    balance: int


class CashFlow(TypedDict):
    """The 月末结算 cash-flow record (:func:`finance.month_cashflow`)."""

    season: int
    month: int
    lines: list[LedgerLine]
    by_kind: dict[str, int]
    income: int
    expense: int
    net: int
    opening: int
    closing: int
    bill: int
    accrued: int
    accrued_month: int
    after_accrued: int


class FundingPressure(TypedDict):
    """The §6.2.3 R from the ledger (:func:`finance.r_from_ledger`)."""

    funds: int
    bill: int
    paid: int
    still_due: int
    instalments: int
    denominator: int
    R: float
    band: str
    band_bounds: list[float | None]


class AiFunds(TypedDict):
    """An AI club's opening funds and their terms (:func:`finance.ai_opening_funds`)."""

    base: int
    total: int
    per_total: int
    total_part: int
    pbs: int
    per_pbs: int
    pbs_part: int
    funds: int


class BankruptcyState(TypedDict):
    """A club's place on the §11.3 chain (:meth:`bankruptcy.Bankruptcy.to_json`)."""

    stage: int
    months_left: int


class Deadline(TypedDict):
    """A check's place in the calendar: season and month (13 = the settlement)."""

    season: int
    month: int


class EmergencyDue(TypedDict):
    """Stage 2's action, due at once (§11.3, designed)."""

    kind: str
    deficit: int


class EmergencyRoll(TypedDict):
    """The owner's emergency injection roll of stage 2 (§11.3, designed)."""

    balance: int
    deficit: int
    owner_wealth: int
    owner_base: int
    wealth_divisor: int
    wealth_bonus: int
    threshold: int
    roll: RollJson
    success: bool


class Emergency(EmergencyRoll):
    """Stage 2's action as carried out (:func:`bankruptcy.emergency`): an injection or a forced sale."""

    outcome: str
    """``injection`` or ``forced_sale``."""
    cushion: NotRequired[int]
    """Injection only."""
    player: NotRequired[str | None]
    """Forced sale only: the player sold (None when nobody could be)."""
    player_total: NotRequired[int]
    """Forced sale only."""
    per_point: NotRequired[int]
    """Forced sale only."""
    amount: int
    lines: NotRequired[list[LedgerLine]]
    """Added once :func:`bankruptcy.book_emergency` posted the money."""


class BankruptcyStep(TypedDict):
    """One month-end check of the chain (:func:`bankruptcy.bankruptcy_step`)."""

    season: int
    month: int
    balance: int
    stage_before: int
    months_left_before: int
    stage: int
    stage_name: str
    months_left: int
    event: str
    deadline: Deadline | None
    action: EmergencyDue | None
    ended: bool
    emergency: NotRequired[Emergency]
    """Added when stage 2's action was carried out (:func:`season.month_money.bankruptcy_check`)."""


# ---------------------------------------------------------------- transfer instalments (designed §10)


class InstalmentJson(TypedDict):
    """One promised transfer payment (:meth:`instalments.Instalment.to_json`)."""

    payer: str
    payee: str | None
    season: int
    month: int
    amount: int
    label: str


class InstalmentPaid(InstalmentJson):
    """An instalment as paid (:meth:`instalments.Instalments.pay`)."""

    paid_season: int
    paid_month: int


__all__ = [
    "RollJson", "LedgerLine", "GateLine", "SeasonBill", "CrowdPull", "SeatPrice", "CapacityRule", "GateSplit",
    "Gate", "Sponsor", "Broadcast", "MonthlyIncome", "Prizes", "MaintenanceLine", "MaintenanceBill",
    "MaintenancePaid", "StaffSalary", "CoreWage", "Salaries", "SalariesPaid", "CashFlow", "FundingPressure",
    "AiFunds", "BankruptcyState", "Deadline", "EmergencyDue", "EmergencyRoll", "Emergency", "BankruptcyStep",
    "InstalmentJson", "InstalmentPaid",
]
