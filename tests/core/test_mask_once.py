"""The core masks a chapter's public JSON once (issue 29): what the arc loop masked at play time is not masked
again when the chapter is written, and the guarantee (nothing sealed is published, DESIGN §10) still holds."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from anko_writer import cli
from anko_writer import ruleset as registry
from anko_writer.arcs import Arc
from anko_writer.campaign import Campaign, load_campaign
from anko_writer.chapters import Chapter, ChapterKey, premasked
from anko_writer.dice import Dice
from anko_writer.seals import SealBook
from anko_writer.secrecy import SecretLeak, still_sealed

ROOT = Path(__file__).resolve().parents[2]
SEALING = ("campaigns/engage/river.yaml", "campaigns/sanguo/changshe.yaml")
"""Shipped campaigns whose first parts keep rolls sealed."""


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every chapter played here, none from a checkpoint."""
    monkeypatch.setenv("ANKO_WRITER_CACHE", "off")


def _played(path: str, parts: int = 3) -> tuple[Campaign, list[Chapter]]:
    """The campaign and the first ``parts`` chapters of its arc 1."""
    camp = load_campaign(ROOT / path)
    run = registry.get(camp.ruleset).play(camp, ChapterKey(1, parts), camp.resources())
    return camp, run.chapters


def _files(camp: Campaign, chapter: Chapter) -> dict[str, str]:
    """The chapter's files as the CLI writes them."""
    return cli.chapter_files(camp.resources(), chapter, camp)


def test_the_arc_loop_tells_what_it_masked() -> None:
    """A part's chapter is masked for the rolls sealed when it was played, until its record is built."""
    arc = Arc(1, Dice(7), SealBook(), delay=1)
    with arc.part(1) as part:
        toss = arc.dice.roll("d1/b1/toss", "1D2", "决胜币", hidden=True) if arc.dice else None
        assert toss is not None
        part.results = {"toss": toss.to_json()}
    chapter = arc.chapters[0]
    assert chapter.masked_for == frozenset({toss.id}) == premasked(chapter)
    assert chapter.json_record()["toss"]["total"] is None
    assert premasked(chapter) is None  # built: whatever changes it later is masked again
    assert premasked(Chapter(1, 1, {}, public={})) is None and premasked(Chapter(1, 1, {})) is None


@pytest.mark.parametrize("path", SEALING)
def test_masking_once_writes_what_masking_twice_wrote(path: str) -> None:
    """Every chapter's files are the same whether the core trusts the arc loop's mask or masks again."""
    camp, chapters = _played(path)
    sealed_somewhere = False
    for chapter in chapters:
        twice = _files(camp, replace(chapter, masked_for=None))
        assert premasked(chapter) is not None
        md = next(text for rel, text in twice.items() if rel.endswith(".md"))
        sealed_somewhere |= bool(still_sealed(md))
        assert _files(camp, chapter) == twice
    assert sealed_somewhere


def test_a_record_the_arc_loop_did_not_mask_is_masked_or_refused() -> None:
    """The guarantee stays the core's: a set that does not cover the chapter's seals means masking again, and
    a publish step that undid the mask is refused, never written."""
    camp, chapters = _played(SEALING[1])
    chapter = chapters[-1]
    careful = _files(camp, replace(chapter))
    assert _files(camp, replace(chapter, masked_for=frozenset())) == careful
    undone = replace(chapter, public_of=lambda: chapter.results)  # the private results, claimed masked
    with pytest.raises(SecretLeak):
        _files(camp, undone)
