"""An AI club's books at the settlement (designed 000 ch.11; ``finance.yaml`` ``ai_books``).

Our club runs the §11.3 chain; an AI club has no host to answer to, so a forum host balances its books
the way §11.3's emergency would: an AI club still in the red after the season's bill (and the levy's share)
sells its most valuable player abroad at the fire-sale price (``bankruptcy.fire_sale_per_point`` × his
total, i.e. one season of his §3.2.2 wage) until its funds are ≥ 0, at most ``sales_max`` players a
season, never one the formation needs to start (a surplus position first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from ..competition.calendar import SETTLEMENT_MONTH
from ..models import Club, Player
from .ledger import Ledger

SALE_KIND = "forced_sale"
"""Ledger kind of a sale (the same as §11.3's forced sale)."""


class AiSale(TypedDict):
    """One sale: who, his total, the price per point and the fee; funds before and after."""

    club: str
    player: str
    position: str
    total: int
    per_point: int
    fee: int
    before: int
    after: int


def sale_candidate(players: list[Player], starts: Mapping[str, int]) -> Player | None:
    """The most valuable rolled player at a position with more players than the formation starts there
    (the first listed on a tie), else None.

    >>> a = Player("甲", "FW", True, {"ATK": 30, "DEF": 5, "MID": 9, "GK": 1, "STA": 50, "MNT": 20}, 25)
    >>> b = Player("乙", "FW", False, {"ATK": 10, "DEF": 5, "MID": 9, "GK": 1, "STA": 50, "MNT": 20}, 25)
    >>> sale_candidate([a, b], {"FW": 1}).name, sale_candidate([a, b], {"FW": 2})
    ('甲', None)
    """
    count: dict[str, int] = {}
    for p in players:
        count[p.position] = count.get(p.position, 0) + 1
    spare = [p for p in players if p.rolled and count[p.position] > starts.get(p.position, 0)]
    return max(spare, key=lambda p: p.total, default=None)


def ai_sales(club: Club, ledger: Ledger, starts: Mapping[str, int], rules: Mapping[str, int], per_point: int,
             label: str, season: int, month: int = SETTLEMENT_MONTH) -> list[AiSale]:
    """Sell (remove from the squad and post the fee) while the club is in the red, at most ``sales_max``."""
    out: list[AiSale] = []
    while ledger.balance < 0 and len(out) < rules["sales_max"]:
        p = sale_candidate(club.players, starts)
        if p is None:
            break
        before, fee = ledger.balance, p.total * per_point
        ledger.post(season, month, SALE_KIND, fee, label)
        club.players.remove(p)
        out.append({"club": club.name, "player": p.name, "position": p.position, "total": p.total,
                    "per_point": per_point, "fee": fee, "before": before, "after": ledger.balance})
    return out


__all__ = ["SALE_KIND", "AiSale", "sale_candidate", "ai_sales"]
