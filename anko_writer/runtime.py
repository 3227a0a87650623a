"""How a process that simulates is tuned: the garbage collector's thresholds."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

GC_THRESHOLD = (1_000_000, 50, 100)
"""The collector's thresholds for a run (Python's default is (700, 10, 10)). A CLI season's net new objects stay
under the first: no collection while it plays (issue 29 round 3: at 100 000, three young-generation
collections of 13–39 ms CPU each walked live match records, about 80 ms of a 1.2 s season 1)."""


def tune_gc() -> None:
    """Collect garbage rarely: a season builds a few hundred thousand long-lived records and almost no
    cycles, and at the default thresholds the collector walked them all again and again, more than half
    of a season's simulation time once a process had played one (measured: 2.6 s → 1.0 s a season). What
    the process imported so far is frozen out of the collector's walks."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


_PAUSE = threading.Lock()
_PAUSED = [0, 1, 0]
"""Pauses open in this process now (threads may nest them), whether the collector was on before the first
began, and whether one of them asked for a young collection at the end."""


@contextmanager
def collector_paused(collect: bool = False) -> Iterator[None]:
    """The cyclic garbage collector paused while records without cycles are built, then on again as it was
    once the last pause in the process ends (threads may overlap them); ``collect``: that end also runs one
    young-generation collection, which frees any cycle made meanwhile (everything made is still young).

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    with _PAUSE:
        if _PAUSED[0] == 0:
            _PAUSED[1], _PAUSED[2] = int(gc.isenabled()), 0
        _PAUSED[0] += 1
        _PAUSED[2] |= collect
        gc.disable()
    try:
        yield
    finally:
        with _PAUSE:
            _PAUSED[0] -= 1
            if _PAUSED[0] == 0 and _PAUSED[1]:
                gc.enable()
                if _PAUSED[2]:
                    gc.collect(0)


__all__ = ["GC_THRESHOLD", "collector_paused", "tune_gc"]
