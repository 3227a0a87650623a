"""接战's casualty dice: the pool, the spread reading, the defence table and the men lost (002 §3.3–3.4;
design engage.md E6, E7 and choices E1–E3).

The result of a pool is the core's ``spread`` reading, ``(max − min) + (n − 2)`` (E1: a die equal to the
largest or the smallest counts as inside). Defence advantages change how *this round's* dice count (E2, the
cumulative table; E3, 「若更有利」 as the better of rewriting every eligible die and rewriting none).

>>> c = count_round((4, 6), (1,), defence=1)       # 002 §3.4's own example
>>> (c.counted, c.rewrite, c.pool_after, c.result_before, c.result_after)
((6,), True, (4, 6, 6), 2, 3)
>>> count_round((4, 6), (1,), defence=0).result_after   # 4,6,1 → 60 %
6
>>> SPREAD.value((2, 3, 5))                        # 002 §3.3's own example
4
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Literal

from anko_writer.dice import Dice, DiceExpr, Reading, Roll

SPREAD = Reading.parse("spread")
"""The core's spread reading (E1): the casualty result of a pool."""
FACES = 6
"""Casualty dice are always d6 (002 §3.4 '减员骰总是d6')."""
MIN_DICE = 2
"""A new pool throws at least two dice (002 §3.3 '至少两个d6')."""
PERCENT_PER_POINT = 10
"""Each point of the result is 10 % of the unit's start-of-battle men (002 §3.3)."""
REWRITE_TO = 6
"""Rewritten faces count as 6 (002 §3.4 table)."""
PERFECT = 9
"""Nine defence advantages or more: no casualties this round (002 §3.4 '9或更多 … 本轮没有减员')."""
Rounding = Literal["half_up", "floor"]
"""How men lost are rounded (design §3.2: half up, the alternative floor)."""


def rewritten_faces(defence: int) -> frozenset[int]:
    """E2: the faces this round's dice may count as 6 at ``defence`` advantages (cumulative: level N ≤ 4
    rewrites every face ≤ N; level 5–8 rewrites the faces above N − 4 up to 4; 9 or more none, all ignored).

    >>> [sorted(rewritten_faces(n)) for n in (0, 1, 2, 4, 5, 7, 8, 9)]
    [[], [1], [1, 2], [1, 2, 3, 4], [2, 3, 4], [4], [], []]
    """
    if defence <= 0 or defence >= PERFECT:
        return frozenset()
    if defence <= 4:
        return frozenset(range(1, defence + 1))
    return frozenset(range(defence - 4 + 1, 5))


def ignored_faces(defence: int) -> frozenset[int]:
    """E2: the faces this round's dice drop at ``defence`` advantages (5–8 drop faces ≤ N − 4; 9 or more drop
    every face, 002 §3.4 '本轮没有减员').

    >>> [sorted(ignored_faces(n)) for n in (4, 5, 6, 8, 9)]
    [[], [1], [1, 2], [1, 2, 3, 4], [1, 2, 3, 4, 5, 6]]
    """
    if defence >= PERFECT:
        return frozenset(range(1, FACES + 1))
    if defence >= 5:
        return frozenset(range(1, defence - 4 + 1))
    return frozenset()


def result(pool: Sequence[int]) -> int:
    """E6: a pool's casualty result, the core's spread reading (0 for fewer than two dice)."""
    return SPREAD.value(tuple(pool)) if len(pool) >= MIN_DICE else 0


@dataclass(frozen=True)
class Counted:
    """One round's dice on a pool as counted: the faces dropped, whether the rewrite was taken, this round's
    dice as they count, the pool before and after, and the result before and after."""

    pool_before: tuple[int, ...]
    thrown: tuple[int, ...]
    defence: int
    ignored: tuple[int, ...]
    rewrite: bool
    counted: tuple[int, ...]
    pool_after: tuple[int, ...]
    result_before: int
    result_after: int

    @property
    def steps(self) -> int:
        """This round's rise of the result (the cohesion check's casualty steps, E19)."""
        return self.result_after - self.result_before


def count_round(pool_before: Sequence[int], thrown: Sequence[int], defence: int) -> Counted:
    """E7: count this round's ``thrown`` faces onto ``pool_before`` under ``defence`` advantages.

    Ignored faces drop (never raising the result, so no choice); of the rest the eligible faces all count as 6
    or none do, whichever gives the lower result (E3: every partial rewrite is beaten by one of the two). A tie
    keeps the faces as thrown (DESIGNED: 「若更有利」, only if strictly better).

    >>> c = count_round((), (1, 3, 6), defence=5)      # 1 dropped; 3 → 6 gives 6,6: 0 rather than 3
    >>> (c.ignored, c.rewrite, c.counted, c.result_after)
    ((1,), True, (6, 6), 0)
    """
    before = tuple(pool_before)
    dropped = ignored_faces(defence)
    kept = tuple(f for f in thrown if f not in dropped)
    ignored = tuple(f for f in thrown if f in dropped)
    eligible = rewritten_faces(defence)
    as_thrown = result(before + kept)
    rewritten = tuple(REWRITE_TO if f in eligible else f for f in kept)
    rewrite = rewritten != kept and result(before + rewritten) < as_thrown
    counted = rewritten if rewrite else kept
    return Counted(before, tuple(thrown), defence, ignored, rewrite, counted, before + counted,
                   result(before), result(before + counted))


@dataclass(frozen=True)
class Throw:
    """One round's casualty roll on a pool: the core's roll record (read as a spread) and how it counted."""

    roll: Roll
    count: Counted


def throw(dice: Dice, key: str, pool_before: Sequence[int], n: int, defence: int,
          purpose: str = "减员骰") -> Throw:
    """E6–E7: throw ``n`` casualty dice under ``key`` and count them onto ``pool_before``.

    >>> d = Dice(1)
    >>> d.fix(1)
    >>> t = throw(d, "b1/r2/巨魔", (4, 6), 1, defence=1)
    >>> (t.roll.expr, t.roll.dice, t.count.pool_after, percent(t.count.result_after))
    ('1D6', (1,), (4, 6, 6), 30)
    """
    if n < 1:
        raise ValueError(f"a casualty roll throws at least one die, got {n}")
    roll = dice.roll(key, DiceExpr.parse(f"{n}D{FACES}").read_as(SPREAD), purpose)
    return Throw(roll, count_round(pool_before, roll.dice, defence))


def percent(points: int) -> int:
    """E6: a result as a percentage of the start-of-battle men, ×10 % (at most 100)."""
    return min(100, PERCENT_PER_POINT * max(0, points))


def losses(start_men: int, points: int, rounding: Rounding = "half_up") -> int:
    """E6: the men a pool's result takes from ``start_men`` (DESIGNED rounding: half up, or floor), at most
    all of them.

    >>> [losses(25, r) for r in (1, 2, 3, 4, 11)], losses(25, 1, "floor")
    ([3, 5, 8, 10, 25], 2)
    """
    exact = start_men * min(points, 100 // PERCENT_PER_POINT)
    lost = (exact + 5) // 10 if rounding == "half_up" else exact // 10
    return min(start_men, lost)


def new_losses(start_men: int, before: int, after: int, men_left: int, rounding: Rounding = "half_up") -> int:
    """E6: this round's men lost on one pool: the cumulative losses after minus before, capped by the men left.

    >>> new_losses(25, 2, 3, 20)                       # 5 → 8 cumulative: 3 more
    3
    """
    return max(0, min(men_left, losses(start_men, after, rounding) - losses(start_men, before, rounding)))


@lru_cache(maxsize=4096)
def _faces_weights(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every sorted multiset of ``n`` d6 faces with the number of ordered throws giving it."""
    out = []
    for faces in combinations_with_replacement(range(1, FACES + 1), n):
        w = factorial(n)
        for f in set(faces):
            w //= factorial(faces.count(f))
        out.append((faces, w))
    return tuple(out)


@lru_cache(maxsize=4096)
def _distribution(pool: tuple[int, ...], n: int, defence: int) -> tuple[tuple[int, Fraction], ...]:
    counts: dict[int, int] = {}
    for faces, w in _faces_weights(n):
        r = count_round(pool, faces, defence).result_after
        counts[r] = counts.get(r, 0) + w
    total = FACES ** n
    return tuple((r, Fraction(c, total)) for r, c in sorted(counts.items()))


def distribution(pool_before: Sequence[int], n: int, defence: int) -> dict[int, Fraction]:
    """The exact distribution of the result after throwing ``n`` dice onto ``pool_before`` (R-E6's preview).

    >>> distribution((), 2, 0) == {0: Fraction(1, 6), 1: Fraction(5, 18), 2: Fraction(2, 9),
    ...                            3: Fraction(1, 6), 4: Fraction(1, 9), 5: Fraction(1, 18)}
    True
    """
    return dict(_distribution(tuple(sorted(pool_before)), n, defence))


def expected_percent(pool_before: Sequence[int], n: int, defence: int) -> Fraction:
    """The expected casualty percentage (of the start men, 100 at most) after this round's ``n`` dice.

    >>> expected_percent((), 2, 0), expected_percent((), 3, 0)      # ≈ 19.4 % and ≈ 39.2 %
    (Fraction(175, 9), Fraction(235, 6))
    """
    return sum((p * percent(r) for r, p in distribution(pool_before, n, defence).items()), Fraction(0))
