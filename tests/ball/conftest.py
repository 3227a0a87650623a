"""The BALL tests run the ruleset on the fake game (the real one lands apart)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from anko_writer.rulesets.ball import Ball
from tests.ball import fake_game

SEED = "604215938477120365"
"""The test campaign's seed (18 digits, so no weak-seed warning; BALL throws no dice)."""


@pytest.fixture(scope="session", autouse=True)
def fake() -> Iterator[None]:
    """Swap the game for the fake for every test here."""
    mp = pytest.MonkeyPatch()
    mp.setattr(Ball, "game", fake_game)
    yield
    mp.undo()


def run(*args: str | Path) -> str:
    """``anko-writer ARGS`` through the real CLI; its output (asserting exit 0)."""
    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code == 0, (res.output, res.exception)
    return res.output


def fails(*args: str | Path) -> str:
    """``anko-writer ARGS`` that must fail with exit 1; its output."""
    res = CliRunner().invoke(app, [str(a) for a in args])
    assert res.exit_code == 1, (res.output, res.exception)
    return res.output


def new_campaign(folder: Path, side: str = "ATK") -> Path:
    """A campaign made by ``anko-writer new``: the campaign file."""
    run("new", folder, "--ruleset", "ball", "--option", f"side={side}", "--seed", SEED)
    return folder / "ball.yaml"
