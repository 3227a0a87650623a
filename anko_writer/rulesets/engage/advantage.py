"""接战's advantages as named records: each source of an attack or defence advantage, each ignore and its
cause, and the count they leave (design engage.md §1.7 source names; 002 §3.4).

>>> t = tally((Adv("冲锋", 2), Adv("长型", 1)), cap=1)
>>> (t.total, t.capped)
(1, True)
>>> tally((Adv("受训", 1), Adv("盾牌", 2)), (Ignored("盾牌", 1, "规模"),)).total
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Adv:
    """One source of advantage and how many it gives (``Adv("冲锋", 2)``)."""

    source: str
    n: int


@dataclass(frozen=True)
class Ignored:
    """``n`` of the advantage ``source`` cancelled, and the cause (``by``: ``规模``, ``长矛``, ``破阵`` …)."""

    source: str
    n: int
    by: str


@dataclass(frozen=True)
class Tally:
    """The advantages, the ignores, a cap (None for none) and the count left (never below 0)."""

    advantages: tuple[Adv, ...]
    ignored: tuple[Ignored, ...]
    cap: int | None
    total: int
    capped: bool


def tally(advantages: Sequence[Adv], ignored: Sequence[Ignored] = (), cap: int | None = None) -> Tally:
    """The count of ``advantages`` after ``ignored`` (each ignore takes at most what its source gives) and
    ``cap`` (F4: attackers of a 稳固 unit get at most 1; a 稳固 unit itself gets none)."""
    given: dict[str, int] = {}
    for a in advantages:
        given[a.source] = given.get(a.source, 0) + a.n
    left = dict(given)
    for ig in ignored:
        left[ig.source] = left.get(ig.source, 0) - min(ig.n, max(0, left.get(ig.source, 0)))
    raw = max(0, sum(left.values()))
    total = raw if cap is None else min(raw, cap)
    return Tally(tuple(advantages), tuple(ignored), cap, total, total < raw)


def ignore_any(advantages: Sequence[Adv], n: int, by: str, order: Sequence[str] = ()) -> tuple[Ignored, ...]:
    """``n`` ignores of whichever of ``advantages`` come first in ``order`` (then as listed): E2's 'ignore one
    of the opponent's defence advantages', which the rule does not name.

    >>> ignore_any((Adv("受训", 1), Adv("盾牌", 2)), 2, "规模")
    (Ignored(source='受训', n=1, by='规模'), Ignored(source='盾牌', n=1, by='规模'))
    """
    ranked = sorted(advantages, key=lambda a: order.index(a.source) if a.source in order else len(order))
    out: list[Ignored] = []
    for a in ranked:
        if n <= 0:
            break
        take = min(n, a.n)
        if take > 0:
            out.append(Ignored(a.source, take, by))
            n -= take
    return tuple(out)
