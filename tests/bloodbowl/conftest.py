"""The Blood Bowl tests run the ruleset on the fake engine and fake rosters (the real engine lands apart)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.rulesets.bloodbowl import Bloodbowl
from tests.bloodbowl.fake_engine import fake_play_half, fake_rosters

SEED = "730418526190374455"
"""The test league's seed (18 digits, so no weak-seed warning)."""


@pytest.fixture(scope="session", autouse=True)
def fake_engine() -> Iterator[None]:
    """Swap the engine and the roster table for the fakes for every test here."""
    mp = pytest.MonkeyPatch()
    mp.setattr(Bloodbowl, "play_half", staticmethod(fake_play_half))
    mp.setattr(Bloodbowl, "load_rosters", staticmethod(fake_rosters))
    yield
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
def league(tmp_path_factory: pytest.TempPathFactory, fake_engine: None) -> Path:
    """A new league's campaign file (shared: copy before editing)."""
    return new_league(tmp_path_factory.mktemp("league"))


@pytest.fixture(scope="session")
def season_one(tmp_path_factory: pytest.TempPathFactory, league: Path) -> Path:
    """Season 1 written by ``arc --arc 1`` (shared: copy before writing): the output folder."""
    out = tmp_path_factory.mktemp("s1") / "out"
    run("arc", league, "--arc", "1", "--out", out)
    return out
