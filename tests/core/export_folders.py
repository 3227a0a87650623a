"""Export folders that ``test_export`` and ``test_export_browser`` both read, built once a run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.shared import shared

PROFILES = ("nga", "discuz", "tieba", "markdown", "html")
"""The shipped forum profiles."""

SEASON_ONE_EXPORTS = [*(["--forum", p] for p in PROFILES), ["--forum", "discuz", "--script", "hant"],
                      ["--forum", "nga", "--script", "hant", "--region", "hk"]]
"""The exports of :func:`season_one`: every profile, and twice in 繁體."""


def export(out: Path, *args: str) -> None:
    """``anko-writer export OUT ARGS`` in this process; it must succeed."""
    from typer.testing import CliRunner

    from anko_writer.cli import app
    res = CliRunner().invoke(app, ["export", str(out), *args])
    assert res.exit_code == 0, res.output


def season_one(three: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """OUT holding the first of the ``three`` seasons of the built-in campaign and the rules post, exported for
    every :data:`SEASON_ONE_EXPORTS` (``OUT/export/<folder>``). Built once a run, even across pytest-xdist's
    workers (:func:`tests.shared.shared`); read it, never change it."""
    def build(tmp: Path) -> None:
        out = tmp / "out"
        shutil.copytree(three[0] / "s01", out / "s01")
        shutil.copy(three[0] / "rules.md", out / "rules.md")
        for args in SEASON_ONE_EXPORTS:
            export(out, *args)
    return shared(tmp_path_factory, "export-season-one", build) / "out"
