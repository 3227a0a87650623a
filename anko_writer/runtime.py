"""How a process that simulates is tuned: the garbage collector's thresholds."""

from __future__ import annotations

import gc

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


__all__ = ["GC_THRESHOLD", "tune_gc"]
