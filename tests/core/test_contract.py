"""The ruleset contract's core pieces: chapter keys and their paths, RulesetInfo, the SealBook, and the
群英杯 keeping its ``new --city`` next to the generic ``--option``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from anko_writer.chapters import Chapter, ChapterKey, KeyStyle, Run, SeasonRun
from anko_writer.cli import app
from anko_writer.dice import Roll
from anko_writer.info import Currency, NewOption, RulesetInfo
from anko_writer.resources import Resources, builtin_dir
from anko_writer.rulesets.purasbar import RULESET
from anko_writer.seals import SealBook


def test_default_style_is_the_qunyingbei_layout() -> None:
    style = KeyStyle()
    assert style.paths(ChapterKey(1, 3)) == ("s01/m03.md", "s01/m03.json")
    assert style.paths(ChapterKey(2, 13, "end")) == ("s02/end.md", "s02/end.json")
    assert (style.index_path(2), style.state_path(1)) == ("s02/index.md", "s01/state-end.yaml")
    assert KeyStyle(arc_prefix="m", part_prefix="h").paths(ChapterKey(3, 1))[0] == "m03/h01.md"
    with pytest.raises(ValueError):
        style.paths(ChapterKey(100, 1))


def test_chapter_keeps_its_season_words() -> None:
    ch = Chapter(1, 3, {"x": 1}, name=None)
    assert (ch.season, ch.month, ch.key) == (1, 3, ChapterKey(1, 3))
    run = Run([ch, Chapter(1, 13, {}, name="end")])
    assert run.months == run.parts == [ch] and SeasonRun is Run


def test_info_options_and_currency() -> None:
    info = RulesetInfo("x", new_options=(NewOption("name", "who"), NewOption("purse", "coins", False, "10")))
    assert info.options({"name": "甲"}) == {"name": "甲", "purse": "10"}
    with pytest.raises(ValueError, match="missing option 'name'"):
        info.options({})
    assert RULESET.info.currency.format(1250000) == "1,250,000 P$"
    assert Currency("gp", grouping=False).format(12000) == "12000 gp"


def test_resources_search_a_rulesets_own_roots(tmp_path: Path) -> None:
    (tmp_path / "templates" / "x").mkdir(parents=True)
    info = RulesetInfo("x", templates=tmp_path / "templates")
    assert Resources("x", None, info).candidates("templates") == [tmp_path / "templates" / "x"]
    assert Resources("x", None, info).candidates("tables") == [builtin_dir("tables") / "x"]
    assert RULESET.resources(None).candidates("templates") == [builtin_dir("templates") / "purasbar"]


def _roll(rid: str) -> Roll:
    return Roll(rid, "决胜", "D100", (42,), 42, True)


def test_sealbook_seals_carries_and_reveals_across_arcs() -> None:
    book = SealBook(arc_word="season")
    book.seal([_roll("a#1"), _roll("b#1"), Roll("c#1", "x", "1D6", (3,), 3)], ChapterKey(1, 12), delay=2,
              moments={"a#1": {"moment": {"m": 1}, "outcome": {"sealed_by": "a#1", "w": 3}}},
              revealed_here={"b#1"})
    assert [s.id for s in book.pending()] == ["a#1"] and book.sealed_at(ChapterKey(1, 12))[0]["id"] == "a#1"
    assert book.due(ChapterKey(1, 13), lambda o: None) == []
    carried = SealBook.carried_in(book.carry(13), arc_word="season")
    applied: list[object] = []
    assert carried.due(ChapterKey(2, 0), applied.append) == []
    (rec,) = carried.due(ChapterKey(2, 1), lambda o: applied.append(o) or "back")
    assert (rec["id"], rec["sealed_in"], rec["sealed_season"], rec["back"]) == ("a#1", 12, 1, "back")
    assert applied == [{"sealed_by": "a#1", "w": 3}] and carried.pending() == []


def test_sealbook_masks_what_is_sealed() -> None:
    book = SealBook()
    book.seal([_roll("a#1")], ChapterKey(1, 1), delay=1)
    public = book.public({"rolls": [_roll("a#1").to_json()], "r": {"sealed_by": "a#1", "w": 3}})
    assert public == {"rolls": [{**_roll("a#1").to_json(), "dice": None, "total": None}], "r": {"sealed_by": "a#1"}}


def test_new_city_is_short_for_option_city(tmp_path: Path) -> None:
    runner = CliRunner()
    a = runner.invoke(app, ["new", str(tmp_path / "a"), "--city", "雷希特", "--seed", "123456789012345678"])
    b = runner.invoke(app, ["new", str(tmp_path / "b"), "--option", "city=雷希特", "--seed", "123456789012345678"])
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    made = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(made) == 2 and made == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert all((tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes() for n in made)
    none = runner.invoke(app, ["new", str(tmp_path / "c")])
    assert none.exit_code == 2 and none.stderr.startswith("错误：缺少选项 '--city'")
