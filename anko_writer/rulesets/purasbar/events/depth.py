"""000 §6.1 depth: three pools, the ladder that moves them, and the multipliers they put on events."""

from __future__ import annotations

from dataclasses import dataclass

from .records import DepthReset, DepthStep

DEPTH_MIN, DEPTH_MAX = -3, 3
"""000 §6.1: depth is an integer from −3 to +3."""
LADDER = {0: (96, 5), 1: (98, 3), 2: (99, 2)}
"""000 §6.1.3, business and external pools: |depth| → (lowest D100 for +1, highest D100 for −1)."""
MATCH_LADDER = (99, 2)
"""000 §6.1.3 / §6.3.2: match depth moves on 99–100 (+1) and 1–2 (−1) whatever its value."""
POLARITIES = ("positive", "negative", "neutral")
"""Every event table row is one of these (000 §6.1.2 columns)."""


def ladder_step(pool: str, depth: int, face: int) -> int:
    """How a D100 event roll moves a pool: +1, −1 or 0 (000 §6.1.3). At ±3 nothing moves.

    >>> [ladder_step("business", 0, f) for f in (96, 95, 5, 6)]
    [1, 0, -1, 0]
    >>> [ladder_step("external", -1, f) for f in (98, 97, 3, 4)]
    [1, 0, -1, 0]
    >>> [ladder_step("business", 2, f) for f in (99, 98, 2, 3)], ladder_step("business", 3, 100)
    ([1, 0, -1, 0], 0)
    >>> [ladder_step("match", 2, f) for f in (99, 98, 2, 3)]
    [1, 0, -1, 0]
    """
    if abs(depth) >= DEPTH_MAX:
        return 0
    up, down = MATCH_LADDER if pool == "match" else LADDER[abs(depth)]
    if face >= up:
        return 1
    if face <= down:
        return -1
    return 0


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


MULTIPLIERS = {2: 2.0, 1: 1.5, 0: 1.0, -1: 0.5, -2: 0.25}
"""000 §6.1.2: a positive event's size multiplier by depth (a negative event's is the mirror); :func:`scale`
applies them with its rounding."""


def multiplier(polarity: str, depth: int) -> float:
    """The §6.1.2 multiplier :func:`scale` puts on an event of ``polarity`` at ``depth`` (1 for neutral).

    >>> [multiplier("positive", d) for d in (-2, -1, 0, 1, 2, 3)]
    [0.25, 0.5, 1.0, 1.5, 2.0, 2.0]
    >>> multiplier("negative", 1), multiplier("negative", -2), multiplier("neutral", 2)
    (0.5, 2.0, 1.0)
    """
    if polarity == "neutral":
        return 1.0
    d = max(-2, min(2, depth))
    return MULTIPLIERS[-d if polarity == "negative" else d]


def scale(amount: int, polarity: str, depth: int) -> tuple[int, str]:
    """000 §6.1.2: an effect's size at a depth, and the polarity it ends with.

    Positive: +1 × 1.5 (down), +2 × 2, −1 × 0.5 (up), −2 × 0.25 (at least 1). Negative: +1 × 0.5 (up),
    +2 × 0.25 (at least 1), −1 × 1.5 (down), −2 × 2. Neutral turns positive at +2 and negative at −2;
    its "slight lean" at ±1 is the row's own prose (the size does not change). ``amount`` is the
    magnitude (a negative effect's harm as a positive number).

    >>> [scale(10, "positive", d)[0] for d in (-2, -1, 0, 1, 2)]
    [2, 5, 10, 15, 20]
    >>> [scale(10, "negative", d)[0] for d in (-2, -1, 0, 1, 2)]
    [20, 15, 10, 5, 2]
    >>> scale(3, "positive", -2), scale(1, "negative", 2), scale(5, "neutral", 2), scale(5, "neutral", -2)
    ((1, 'positive'), (1, 'negative'), (5, 'positive'), (5, 'negative'))
    """
    a = abs(amount)
    d = max(-2, min(2, depth))
    if polarity == "neutral":
        return a, {2: "positive", -2: "negative"}.get(d, "neutral")
    if polarity == "negative":
        d = -d  # a negative event at +1 is treated like a positive one at −1
    return {2: a * 2, 1: a * 3 // 2, 0: a, -1: _ceil_div(a, 2), -2: max(1, a // 4)}[d], polarity


@dataclass
class Depth:
    """One pool's depth and the record of how it moved."""

    pool: str
    """business, match or external (000 §6.1.1)."""
    value: int = 0

    def exclusive(self) -> int:
        """+1 / −1 when the pool stands at ±3: the next event uses the exclusive table (§6.1.2)."""
        return 1 if self.value >= DEPTH_MAX else -1 if self.value <= DEPTH_MIN else 0

    def step(self, face: int) -> DepthStep | None:
        """Apply the ladder to one event roll; the record of the move, or None."""
        move = ladder_step(self.pool, self.value, face)
        if not move:
            return None
        before = self.value
        self.value = max(DEPTH_MIN, min(DEPTH_MAX, self.value + move))
        return {"pool": self.pool, "face": face, "before": before, "after": self.value}

    def reset(self) -> DepthReset:
        """After an exclusive event (or, for business, at season end): back to 0 (§6.1.1, §6.1.2)."""
        before, self.value = self.value, 0
        return {"pool": self.pool, "before": before, "after": 0, "reset": True}
