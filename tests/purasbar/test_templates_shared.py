"""Issue 29 round 5: a chapter makes macros.j2, life.j2 and money.j2 once and passes them down (``_macros_j2``,
``_life_j2``, ``_money_j2``) to the modules it imports, which would otherwise import them again with context.
Rendered without the hand-down (each module importing its own, as before), every chapter of a season is the
same text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anko_writer import cli
from anko_writer.campaign import load_campaign
from anko_writer.render import render_chapter
from anko_writer.resources import Resources
from tests.util import PINNED, RES, campaign_file, season_run

SHIPPED = Path(__file__).resolve().parents[2] / "templates" / "purasbar"
HAND_DOWN = re.compile(r"\{% set _(macros|life|money)_j2 = \w+ %\}")


def test_the_chapter_hands_its_three_modules_down() -> None:
    """The shipped chapter and settlement templates set the names the imported modules look for."""
    assert len(HAND_DOWN.findall((SHIPPED / "chapter.md.j2").read_text(encoding="utf-8"))) == 3
    assert len(HAND_DOWN.findall((SHIPPED / "settlement.md.j2").read_text(encoding="utf-8"))) == 1
    for name in ("match.j2", "life.j2", "money.j2", "transfers.j2", "people.j2"):
        assert "{% if _macros_j2 is defined %}" in (SHIPPED / name).read_text(encoding="utf-8"), name


@pytest.mark.parametrize("scenario", ["champion", "sealed_shootout"])
def test_chapters_read_the_same_without_the_hand_down(tmp_path: Path, scenario: str) -> None:
    seed = PINNED[scenario]
    run = season_run(seed)
    campaign = load_campaign(campaign_file(tmp_path, seed=seed))
    plain = tmp_path / "templates" / "purasbar"
    plain.mkdir(parents=True)
    for name in ("chapter.md.j2", "settlement.md.j2"):
        source = (SHIPPED / name).read_text(encoding="utf-8")
        stripped = HAND_DOWN.sub("", source)
        assert stripped != source
        (plain / name).write_text(stripped, encoding="utf-8")
    own = Resources("purasbar", tmp_path)
    assert own.search_path("templates")[0] == plain
    compared = 0
    for chapter in run.chapters:
        context = cli.chapter_context(chapter, campaign)
        assert render_chapter(RES, chapter.template, context, seed=campaign.seed) == \
            render_chapter(own, chapter.template, context, seed=campaign.seed), chapter.key
        compared += 1
    assert compared == 13  # months 1 to 12 and the settlement
