"""A club's money (000 ch.11, designed): the balance and every line that moved it.

The balance only changes through :meth:`Ledger.post`, so the lines of any period sum exactly to the
change in funds over it.

>>> led = Ledger(1_000_000)
>>> _ = led.post(1, 3, "ticket", 120_000, "联赛第5轮门票")
>>> _ = led.post(1, 3, "gate_share", -30_000, "门票分成")
>>> led.balance, led.net(1, 3), led.balance - led.net(1, 3)
(1090000, 90000, 1000000)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .records import LedgerLine


@dataclass(frozen=True)
class Entry:
    """One line of the ledger: a signed amount in P$ (income > 0, expense < 0)."""

    season: int
    month: int
    """Month of the season (13 is the §4.4 settlement)."""
    kind: str
    """What kind of money: ticket, gate_share, sponsor, broadcast, prize, wages, staff, maintenance,
    transfer_in, transfer_out, instalment, event …"""
    amount: int
    label: str = ""
    """What the chapter prints for the line."""

    def to_json(self) -> LedgerLine:
        """A JSON record of the line."""
        return {"season": self.season, "month": self.month, "kind": self.kind, "amount": self.amount,
                "label": self.label}


@dataclass
class Ledger:
    """Funds and the lines that moved them."""

    balance: int
    """Current funds in P$ (may go negative: §11.3 bankruptcy reads it)."""
    entries: list[Entry] = field(default_factory=list)

    def post(self, season: int, month: int, kind: str, amount: int, label: str = "") -> Entry:
        """Book ``amount`` (signed) and return the line."""
        e = Entry(season, month, kind, int(amount), label)
        self.entries.append(e)
        self.balance += e.amount
        return e

    def lines(self, season: int, month: int) -> list[Entry]:
        """The lines booked in one month."""
        return [e for e in self.entries if e.season == season and e.month == month]

    def net(self, season: int, month: int | None = None) -> int:
        """Sum of the lines of a month (or of the whole season)."""
        return sum(e.amount for e in self.entries
                   if e.season == season and (month is None or e.month == month))

    def by_kind(self, season: int, month: int | None = None) -> dict[str, int]:
        """The lines of a month (or season) summed by kind, in first-seen order."""
        out: dict[str, int] = {}
        for e in self.entries:
            if e.season == season and (month is None or e.month == month):
                out[e.kind] = out.get(e.kind, 0) + e.amount
        return out

    def forget_before(self, season: int) -> None:
        """Drop the lines of earlier seasons (a new season starts from the balance alone)."""
        self.entries = [e for e in self.entries if e.season >= season]
