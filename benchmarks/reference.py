"""The reference loop every benchmark reports against: one million ``random.randint(1, 100)`` calls,
timed in the same session, so ratios compare across machines and loads (issue 14's targets are ratios)."""

from __future__ import annotations

import random
import time


def reference() -> float:
    """Seconds for one million ``random.randint(1, 100)`` calls."""
    rnd = random.Random(1)
    t = time.perf_counter()
    for _ in range(1_000_000):
        rnd.randint(1, 100)
    return time.perf_counter() - t


def cpu_reference() -> float:
    """CPU seconds of :func:`reference` (its own figure is wall time, which a loaded machine stretches)."""
    began = time.process_time()
    reference()
    return time.process_time() - began
