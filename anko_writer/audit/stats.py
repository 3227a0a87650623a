"""The audit's statistics, none of them about a game: Wilson intervals, chi-square tests and the exact
distribution of a dice expression's totals (what each row of a table should get).

>>> [round(x, 4) for x in wilson(3, 10)]
[0.1078, 0.6032]
>>> round(chi2_sf(3.84, 1), 3)
0.05
>>> row_weights(DiceExpr.parse("2D6"), [(2, 6), (7, 7), (8, 12)])
[15, 6, 15]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from ..dice import DiceExpr

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""

MIN_EXPECTED = 5.0
"""Rows expected fewer times than this are pooled before a chi-square test (the usual rule of thumb)."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); ``(0, 1)`` with no trials.

    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson(0, 20)]
    [0.0, 0.1611]
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def odds(successes: int, trials: int) -> dict[str, float | int]:
    """A proportion with its Wilson interval: ``{n, k, p, lo, hi}`` (rounded to 4 places)."""
    lo, hi = wilson(successes, trials)
    return {"n": trials, "k": successes, "p": round(successes / trials, 4) if trials else 0.0,
            "lo": round(lo, 4), "hi": round(hi, 4)}


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x) (series below a + 1, continued fraction above)."""
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lg))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - lg) * h)


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for a chi-square variable with ``df`` degrees of freedom (1 when ``df`` < 1)."""
    if df < 1:
        return 1.0
    return _gamma_q(df / 2, x / 2)


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> dict[str, Any]:
    """Pearson's goodness of fit of ``observed`` counts to ``expected`` ones (same total).

    Cells expected fewer than :data:`MIN_EXPECTED` times are pooled (in order) into one cell first; a
    cell that can never happen (expected 0) but did makes the test fail outright (``p`` 0).

    >>> r = chi_square([30, 20, 50], [25, 25, 50])
    >>> r["statistic"], r["df"], round(r["p"], 4)
    (2.0, 2, 0.3679)
    """
    impossible = sum(o for o, e in zip(observed, expected, strict=False) if e <= 0)
    cells: list[tuple[float, float]] = []
    pool_o, pool_e = 0.0, 0.0
    for o, e in zip(observed, expected, strict=False):
        if e <= 0:
            continue
        if e < MIN_EXPECTED:
            pool_o, pool_e = pool_o + o, pool_e + e
        else:
            cells.append((o, e))
    if pool_e > 0:
        if pool_e >= MIN_EXPECTED or not cells:
            cells.append((pool_o, pool_e))
        else:  # too small on its own: merge into the smallest cell
            i = min(range(len(cells)), key=lambda j: cells[j][1])
            cells[i] = (cells[i][0] + pool_o, cells[i][1] + pool_e)
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    p = 0.0 if impossible else chi2_sf(stat, df)
    return {"statistic": round(stat, 4), "df": df, "p": round(p, 6), "impossible_hits": impossible}


def total_counts(expr: DiceExpr) -> dict[int, int]:
    """How many equally likely face combinations give each total of ``expr`` (D68: 48 codes, one each)."""
    sides = expr.die_sides()
    if expr.reading.name != "sum" or math.prod(sides) <= 10_000:  # the convolution below adds faces
        out: dict[int, int] = {}
        for faces in itertools.product(*(range(1, s + 1) for s in sides)):
            t = expr.total(faces)
            out[t] = out.get(t, 0) + 1
        return out
    dist = {0: 1}
    for s in sides:  # convolution, one die at a time
        nxt: dict[int, int] = {}
        for t, n in dist.items():
            for f in range(1, s + 1):
                nxt[t + f] = nxt.get(t + f, 0) + n
        dist = nxt
    return {t + expr.modifier: n for t, n in dist.items()}


def row_weights(expr: DiceExpr, spans: Sequence[tuple[int, int]]) -> list[int]:
    """Face combinations landing in each ``(lo, hi)`` span of totals: a row's share of the throws."""
    counts = total_counts(expr)
    return [sum(n for t, n in counts.items() if lo <= t <= hi) for lo, hi in spans]


def mean_sd(total: float, squares: float, n: int) -> tuple[float, float]:
    """Mean and sample standard deviation from a sum, a sum of squares and a count."""
    if n <= 0:
        return 0.0, 0.0
    mean = total / n
    var = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(max(0.0, var))


def z_score(observed: float, expected: float, variance: float) -> float | None:
    """``(observed - expected) / sqrt(variance)``; None without variance."""
    return round((observed - expected) / math.sqrt(variance), 3) if variance > 0 else None


__all__ = ["MIN_EXPECTED", "Z95", "chi2_sf", "chi_square", "mean_sd", "odds", "row_weights", "total_counts",
           "wilson", "z_score"]
