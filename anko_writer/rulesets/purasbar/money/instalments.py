"""Transfer instalments (designed §10): the book of fees still to pay, league-wide, which the §6.2.3 R counts;
the transfer window plans them (``transfers.transfers``), the month pays what is due."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..models import Club
from .records import InstalmentJson, InstalmentPaid

KIND_INSTALMENT = "instalment"
"""The ledger kind of a paid instalment."""


@dataclass
class Instalment:
    """One payment still to make: ``payer`` owes ``amount`` in (season, month); payee None = outside."""

    payer: str
    payee: str | None
    season: int
    month: int
    amount: int
    label: str = ""

    def to_json(self) -> InstalmentJson:
        """A plain record."""
        return {"payer": self.payer, "payee": self.payee, "season": self.season, "month": self.month,
                "amount": self.amount, "label": self.label}


@dataclass
class Instalments:
    """The book of promised transfer instalments (000 §6.2.3 counts them in R); JSON round-trips.

    >>> book = Instalments()
    >>> [(i.month, i.amount) for i in book.plan("甲", "乙", 1, 1, 1_000_001, 4, "x")]
    [(2, 250000), (3, 250000), (4, 250000), (5, 250001)]
    >>> Instalments.from_json(book.to_json()) == book
    True
    """

    items: list[Instalment] = field(default_factory=list)

    def plan(self, payer: str, payee: str | None, season: int, month: int, rest: int, months: int,
             label: str) -> list[Instalment]:
        """Split ``rest`` over the ``months`` months after (season, month); the remainder goes last."""
        part = rest // months
        added = []
        for i in range(1, months + 1):
            m, s = month + i, season
            while m > 12:
                m, s = m - 12, s + 1
            amount = part if i < months else rest - part * (months - 1)
            added.append(Instalment(payer, payee, s, m, amount, label))
        self.items.extend(added)
        return added

    def due(self, season: int, month: int) -> list[Instalment]:
        """Instalments due in (season, month), and any earlier ones not paid yet."""
        return [i for i in self.items if (i.season, i.month) <= (season, month)]

    def pay(self, season: int, month: int, clubs: Mapping[str, Club]) -> list[InstalmentPaid]:
        """Post what is due (payer −, payee +, kind ``instalment``) and drop it from the book."""
        paid: list[InstalmentPaid] = []
        for inst in self.due(season, month):
            clubs[inst.payer].ledger.post(season, month, KIND_INSTALMENT, -inst.amount, inst.label)
            if inst.payee is not None:
                clubs[inst.payee].ledger.post(season, month, KIND_INSTALMENT, inst.amount, inst.label)
            self.items.remove(inst)
            paid.append({**inst.to_json(), "paid_season": season, "paid_month": month})
        return paid

    def outstanding(self, club: str) -> int:
        """What ``club`` still owes (for the §6.2.3 R)."""
        return sum(i.amount for i in self.items if i.payer == club)

    def receivable(self, club: str) -> int:
        """What ``club`` is still owed."""
        return sum(i.amount for i in self.items if i.payee == club)

    def to_json(self) -> list[InstalmentJson]:
        """The book as plain records."""
        return [i.to_json() for i in self.items]

    @classmethod
    def from_json(cls, data: Sequence[dict[str, Any]]) -> Instalments:
        """A book from :meth:`to_json` output."""
        return cls([Instalment(d["payer"], d["payee"], d["season"], d["month"], d["amount"], d.get("label", ""))
                    for d in data])


__all__ = ["KIND_INSTALMENT", "Instalment", "Instalments"]
