"""Test data built from one draw of Hypothesis's bytes: each choice reads a byte, the first option once they run out.

Hypothesis drawing a large structure value by value spends most of the test in its own bookkeeping (issue 29: 90 %
of ``test_fast_located``'s 11.6 s, and of the chapter records' tests). One ``st.binary`` draw explores the same
grammar, replays from its database and shrinks: bytes shrink towards zeros, so a failing example shrinks towards the fewest
repeats and the first options.

>>> ch = Choices(bytes([3, 1, 250]))
>>> ch.pick("abc"), ch.flip(), ch.integer(0, 9), ch.integer(0, 9)
('a', True, 0, 0)
>>> Choices(bytes([30])).integer(3, 7), Choices(bytes([47])).integer(3, 7)
(7, 5)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

ENDS = (24, 40)
"""A byte below the first reads as an integer's lowest value, below the second as its highest."""


class Choices:
    """The choices of one example, read from its bytes in order."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def number(self, count: int) -> int:
        """A number in ``range(count)`` (0 once the bytes run out)."""
        if self.at >= len(self.data) or count <= 1:
            return 0
        self.at += 1
        return self.data[self.at - 1] % count

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options``."""
        return options[self.number(len(options))]

    def flip(self) -> bool:
        """Yes or no (no once the bytes run out)."""
        return self.number(2) == 1

    def integer(self, low: int, high: int) -> int:
        """An integer from ``low`` to ``high``, the two ends more often (as Hypothesis's own integers: about one
        in ten is ``low``, one in sixteen ``high``), the rest evenly (at most 216 values apart)."""
        if self.at >= len(self.data):
            return low
        byte = self.data[self.at]
        self.at += 1
        if byte < ENDS[0]:
            return low
        if byte < ENDS[1]:
            return high
        return low + (byte - ENDS[1]) % (high - low + 1)

    def half_float(self) -> float:
        """A finite half-precision float (every one two bytes can spell, NaN and infinities read as 0.0)."""
        value: float = struct.unpack("<e", bytes((self.number(256), self.number(256))))[0]
        return value if value == value and abs(value) != float("inf") else 0.0


def built(make: Callable[[Choices], T], size: int = 400) -> st.SearchStrategy[T]:
    """The strategy of what ``make`` builds from one draw of ``size`` bytes (a fixed size: Hypothesis's own sizes
    are mostly a few bytes, which build almost nothing; zeros still shrink towards the first options)."""
    return st.binary(min_size=size, max_size=size).map(lambda data: make(Choices(data)))


__all__ = ["Choices", "built"]
