"""The Blood Bowl league tests run the real match engine on the real roster table (``tables/bloodbowl``).

A played season is shared by the whole session (``season_one``): tests copy it before writing. Only
:data:`HALVES` is a test hook: the engine's ``play_half`` wrapped so a test can read the inputs (the plans
and line-ups the league passed); the half itself is the real engine's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.dice import Dice
from anko_writer.rulesets.bloodbowl import Bloodbowl
from anko_writer.rulesets.bloodbowl.match.api import HalfInput, HalfResult, play_half
from tests.shared import shared

SEED = "730418526190374455"
"""The test league's seed (18 digits, so no weak-seed warning). Its first season has a sealed casualty
of ours in chapter 4 and its reveal in chapter 5 (``test_seals_and_verify`` says so if that changes)."""

HALVES: list[HalfInput] = []
"""Every half the engine was asked to play while :func:`recorded_halves` is on."""


def _recording_play_half(given: HalfInput, dice: Dice) -> HalfResult:
    HALVES.append(given)
    return play_half(given, dice)


@pytest.fixture
def recorded_halves() -> Iterator[list[HalfInput]]:
    """The real engine, each half's input noted in :data:`HALVES` (cleared first)."""
    HALVES.clear()
    mp = pytest.MonkeyPatch()
    mp.setattr(Bloodbowl, "play_half", staticmethod(_recording_play_half))
    yield HALVES
    mp.undo()


def run(*args: str | Path) -> str:
    """``anko-writer ARGS`` through the real CLI; its output (asserting exit 0)."""
    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code == 0, (res.output, res.stderr_bytes and res.stderr, res.exception)
    return res.output


def new_league(folder: Path) -> Path:
    """A new league made by ``anko-writer new``: the campaign file."""
    run("new", folder, "--ruleset", "bloodbowl", "--option", "team=银鹰队", "--option", "race=human",
        "--option", "coach=老罗", "--seed", SEED)
    return folder / "league.yaml"


@pytest.fixture(scope="session")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new league's campaign file (shared: copy before editing)."""
    return shared(tmp_path_factory, "bb-league", new_league) / "league.yaml"


@pytest.fixture(scope="session")
def season_one(tmp_path_factory: pytest.TempPathFactory, league: Path) -> Path:
    """Season 1 written by ``arc --arc 1`` (shared: copy before writing): the output folder."""
    return shared(tmp_path_factory, "bb-s1", lambda tmp: run("arc", league, "--arc", "1", "--out", tmp / "out")) / "out"
