"""Fixtures shared by several test files: the built-in campaign played for three seasons."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.campaign import load_campaign
from anko_writer.cli import app

BUILT_IN = Path(__file__).parent.parent / "campaigns" / "recht.yaml"


@pytest.fixture(scope="session")
def three(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The built-in campaign played for three seasons through the CLI, each from the last one's state
    file: the output folder and the campaign seed."""
    tmp = tmp_path_factory.mktemp("three")
    camp = tmp / "recht.yaml"
    shutil.copy(BUILT_IN, camp)
    out = tmp / "out"
    for s in (1, 2, 3):
        res = CliRunner().invoke(app, ["season", str(camp), "--season", str(s), "--out", str(out)])
        assert res.exit_code == 0, res.output
    return out, load_campaign(camp).seed
