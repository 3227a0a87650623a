"""The league's 财政调节 (designed 000 ch.11; numbers in ``tables/purasbar/finance.yaml`` ``levy``).

After every club has paid its season bill (§4.4 steps 9–10), a club whose funds still exceed
``free_multiple`` × that bill (shipped: 1, i.e. it could pay the whole next season and has more) pays
``percent``% of the excess, rounded down to ``round_to``, into the league's 团结基金. The fund is shared
at once, in equal parts of at most ``share_max``, by the clubs whose funds are then below ``share_below``
× their own bill (R < 1: a season they cannot pay); what is left stays with the league. A winning club
stays rich but no longer without limit; a club that cannot pay its next season gets a hand, not a rescue.

>>> rules = {"free_multiple": 2, "percent": 50, "round_to": 10_000, "share_below": 1, "share_max": 500_000}
>>> levy_due(9_000_000, 3_000_000, rules)["levy"], levy_due(5_000_000, 3_000_000, rules)["levy"]
(1500000, 0)
>>> levy_due(6_019_999, 3_000_000, rules)["levy"], levy_due(100, 0, rules)["levy"]
(0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from ..competition.calendar import SETTLEMENT_MONTH
from .ledger import Ledger

LEVY_KIND, SHARE_KIND = "levy", "solidarity"
"""Ledger kinds of the payment and of the share."""


class LevyDue(TypedDict):
    """One club's levy: its funds and bill, the free part, the excess and what it pays."""

    club: str
    funds: int
    bill: int
    free_multiple: int
    free: int
    excess: int
    percent: int
    levy: int


class LevyRecord(TypedDict):
    """The league's levy of one settlement: who paid, the fund and each club's share."""

    paid: list[LevyDue]
    fund: int
    receivers: list[str]
    share: int
    kept: int


def levy_due(funds: int, bill: int, rules: Mapping[str, int], club: str = "") -> LevyDue:
    """A club's levy: ``percent``% of the funds above ``free_multiple`` × its season bill, rounded down.

    A club with no bill (nothing paid) pays nothing: the rule weighs funds against what running the
    club costs.
    """
    free = rules["free_multiple"] * bill
    excess = max(0, funds - free) if bill > 0 else 0
    step = rules["round_to"]
    levy = excess * rules["percent"] // 100 // step * step
    return {"club": club, "funds": funds, "bill": bill, "free_multiple": rules["free_multiple"], "free": free,
            "excess": excess, "percent": rules["percent"], "levy": levy}


def receivers(ledgers: Mapping[str, Ledger], bills: Mapping[str, int], rules: Mapping[str, int]) -> list[str]:
    """The clubs whose funds are below ``share_below`` × their season bill (R < 1 with the default 1)."""
    return [name for name, led in ledgers.items() if led.balance < rules["share_below"] * bills[name]]


def share_of(fund: int, count: int, rules: Mapping[str, int]) -> int:
    """Each receiver's part: the fund split equally, at most ``share_max``.

    >>> share_of(3_000_000, 4, {"share_max": 500_000}), share_of(900_001, 3, {"share_max": 500_000})
    (500000, 300000)
    >>> share_of(100, 0, {"share_max": 500_000})
    0
    """
    return min(rules["share_max"], fund // count) if count else 0


def collect_levy(ledgers: Mapping[str, Ledger], bills: Mapping[str, int], rules: Mapping[str, int],
                 labels: Mapping[str, str], season: int, month: int = SETTLEMENT_MONTH) -> LevyRecord:
    """Post every club's levy, then the receivers' shares; the record (payers only in ``paid``)."""
    paid = [levy_due(led.balance, bills[name], rules, name) for name, led in ledgers.items()]
    paid = [p for p in paid if p["levy"]]
    for p in paid:
        ledgers[p["club"]].post(season, month, LEVY_KIND, -p["levy"], labels["levy"])
    fund = sum(p["levy"] for p in paid)
    names = receivers(ledgers, bills, rules) if fund else []
    share = share_of(fund, len(names), rules)
    for name in names if share else []:
        ledgers[name].post(season, month, SHARE_KIND, share, labels["solidarity"])
    return {"paid": paid, "fund": fund, "receivers": names, "share": share, "kept": fund - share * len(names)}


__all__ = ["LEVY_KIND", "SHARE_KIND", "LevyDue", "LevyRecord", "levy_due", "receivers", "share_of", "collect_levy"]
