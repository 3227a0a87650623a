"""The run's collector settings (:mod:`anko_writer.runtime`, issue 29 round 3)."""

from __future__ import annotations

import gc

from anko_writer.runtime import GC_THRESHOLD, tune_gc


def test_the_thresholds_are_pinned() -> None:
    assert GC_THRESHOLD == (1_000_000, 50, 100)


def test_tune_gc_sets_them_and_freezes_what_is_loaded() -> None:
    saved = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLD
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)
