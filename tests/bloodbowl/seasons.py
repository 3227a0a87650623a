"""Season 1 of a test league's campaign file played in memory once per worker, for the files that only read it."""

from __future__ import annotations

from pathlib import Path

from anko_writer import ruleset as registry
from anko_writer.chapters import ChapterKey, Run
from tests.contract.sealing import unforced

ALL = ChapterKey(1, 10)
"""The whole first season (arc 1, parts 1–10)."""


def season_run(path: Path) -> Run:
    """``play(bloodbowl, path, ALL)`` with the dice as they fall and the cache off, played once per worker for the
    same campaign text (:func:`tests.contract.sealing.unforced`, whose store the seal-secrecy sweep shares). Call
    it before forcing any die. Read it, never change it."""
    return unforced(registry.get("bloodbowl"), path, ALL)
