"""Season outputs of ``anko-writer season`` that several 群英杯 test files read: written once a run and shared
(:func:`tests.shared.shared`, across pytest-xdist's workers too). Read them; a test that writes copies first."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.cli import app
from tests.shared import shared
from tests.util import campaign_file


def season_one(tmp_path_factory: pytest.TempPathFactory, seed: int) -> Path:
    """The output folder of ``anko-writer season --season 1`` for :func:`tests.util.campaign_file`'s campaign of
    ``seed`` (its campaign file beside it, one level up)."""
    def build(tmp: Path) -> None:
        camp = campaign_file(tmp, seed=seed)
        res = CliRunner().invoke(app, ["season", str(camp), "--season", "1", "--out", str(tmp / "out")])
        assert res.exit_code == 0, res.output
    return shared(tmp_path_factory, f"season-{seed}-cli", build) / "out"
