"""Every ruleset ships a ready campaign with its chapter 0 in ``campaigns/``, and neither is stale: ``new`` with the
shipped seed and options writes both byte for byte, and the campaign plays its first chapter."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.campaign import load_campaign
from anko_writer.cli import app

CAMPAIGNS = Path(__file__).resolve().parents[2] / "campaigns"
SHIPPED = {
    "bloodbowl": ("bloodbowl/league.yaml", ["--option", "team=铁砧矮人", "--option", "race=dwarf"]),
    "ball": ("ball/ball.yaml", []),
    "sanguo": ("sanguo/changshe.yaml", []),
    "engage": ("engage/river.yaml", []),
}
"""ruleset → (its shipped campaign under campaigns/, the ``new`` options that made it)."""


@pytest.mark.parametrize("ruleset", sorted(SHIPPED))
def test_the_shipped_campaign_is_what_new_makes_of_its_seed(tmp_path: Path, ruleset: str) -> None:
    rel, options = SHIPPED[ruleset]
    shipped = CAMPAIGNS / rel
    camp = load_campaign(shipped)
    assert camp.ruleset == ruleset and camp.seed_warning() is None
    res = CliRunner().invoke(app, ["new", str(tmp_path / "made"), "--ruleset", ruleset, "--seed", str(camp.seed),
                                   *options])
    assert res.exit_code == 0, res.output
    for name in (shipped.name, shipped.stem + "-chapter0.md"):
        assert (tmp_path / "made" / name).read_bytes() == (shipped.parent / name).read_bytes(), name


@pytest.mark.parametrize("ruleset", sorted(SHIPPED))
def test_the_shipped_campaign_plays_its_first_chapter(tmp_path: Path, ruleset: str) -> None:
    shipped = CAMPAIGNS / SHIPPED[ruleset][0]
    res = CliRunner().invoke(app, ["chapter", str(shipped), "--arc", "1", "--part", "1", "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert list((tmp_path / "out").rglob("*01.md"))
