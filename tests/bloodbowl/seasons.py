"""Season 1 of a test league's campaign file played in memory once per worker, for the files that only read it."""

from __future__ import annotations

import os
from pathlib import Path
from unittest import mock

from anko_writer import cache
from anko_writer import ruleset as registry
from anko_writer.chapters import ChapterKey, Run
from tests.contract.sealing import play

ALL = ChapterKey(1, 10)
"""The whole first season (arc 1, parts 1–10)."""

_RUNS: dict[str, Run] = {}
"""The season each campaign text plays, kept for the worker (the tests read, never change it)."""


def season_run(path: Path) -> Run:
    """``play(bloodbowl, path, ALL)`` with the cache off (every chapter played from the start, no checkpoint of
    another run), played once per worker for the same campaign text. The campaign's name does not enter the
    run, and the tests' folders hold no overrides, so the text alone names it. Call it before forcing any die:
    the run kept is the unforced one. Read it, never change it."""
    text = path.read_text(encoding="utf-8")
    if text not in _RUNS:
        with mock.patch.dict(os.environ, {cache.ENV: "off"}):
            _RUNS[text] = play(registry.get("bloodbowl"), path, ALL)
    return _RUNS[text]
