"""The league's 财政调节 (designed 000 ch.11; numbers in ``tables/purasbar/finance.yaml`` ``levy``).

After every club has paid its season bill (§4.4 steps 9–10), a club whose funds still exceed
``free_multiple`` × that bill (R ≥ 2, 000 §6.2.3's 充裕 line, even after a whole season was paid) pays
``percent``% of the excess, rounded down to ``round_to``, into the league's 团结基金; the fund is shared
equally by all 24 clubs at once (the odd P$ stay with the league). A winning club stays rich but no
longer without limit; the clubs at the bottom get a share of the top's surplus.

>>> rules = {"free_multiple": 2, "percent": 50, "round_to": 10_000}
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
    clubs: int
    share: int


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


def collect_levy(ledgers: Mapping[str, Ledger], bills: Mapping[str, int], rules: Mapping[str, int],
                 labels: Mapping[str, str], season: int, month: int = SETTLEMENT_MONTH) -> LevyRecord:
    """Post every club's levy, then its equal share of the fund; the record (payers only in ``paid``)."""
    paid = [levy_due(led.balance, bills[name], rules, name) for name, led in ledgers.items()]
    paid = [p for p in paid if p["levy"]]
    for p in paid:
        ledgers[p["club"]].post(season, month, LEVY_KIND, -p["levy"], labels["levy"])
    fund = sum(p["levy"] for p in paid)
    share = fund // len(ledgers) if ledgers else 0
    if share:
        for led in ledgers.values():
            led.post(season, month, SHARE_KIND, share, labels["solidarity"])
    return {"paid": paid, "fund": fund, "clubs": len(ledgers), "share": share}


__all__ = ["LEVY_KIND", "SHARE_KIND", "LevyDue", "LevyRecord", "levy_due", "collect_levy"]
