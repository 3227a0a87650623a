"""One writer for every state and new-campaign file (issue 23, ``anko_writer.statefile``): a value YAML would
read as something else, or not at all, is quoted; the JSON style is JSON; each ruleset's ``new`` writes a
campaign that reads back with the names it was given, comments and all; the keep-keys and the header are
shared."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anko_writer import ruleset as ruleset_registry
from anko_writer import statefile, yamlio
from anko_writer.campaign import validate_document
from anko_writer.cli import app
from anko_writer.errors import CampaignError
from anko_writer.resources import Resources
from anko_writer.rulesets.bloodbowl.setup import state as bb_state
from anko_writer.rulesets.purasbar.setup import state as pb_state
from anko_writer.rulesets.purasbar.setup.tables import PurasbarTables, load_purasbar_tables

AWKWARD = [
    "A, B", "A,B", "- A", "-A", "&x", "*x", "!x", "#1", "a #b", "a: b", "a:b", "[x]", "{x}", "x]", "'q'", '"q"',
    "a\\b", "%x", "@x", "`x", "|x", ">x", "?x", ":x", "yes", "No", "ON", "true", "False", "null", "Null", "~",
    "", " a", "a ", "12", "-3", "1.5", ".5", "1e5", "0x1F", "0o17", "0b101", "1_000", ".inf", "-.inf", ".nan",
    "2024-01-01", "1:30", "<<", "=", "卡尔·穆勒", "4 3 3", "雷希特竞技", "a\x7fb", "a\x85b", "a\u2028b",
    "a\u2029b", "\ufeffx", "tab\tx", "new\nline", "cr\rx", "bell\x07", "esc\x1b[31m", "\U0001f600", "全角　空格",
]
"""Strings each quoting style must write so that YAML reads them back unchanged."""


@pytest.mark.parametrize("style", ["plain", "json"])
@pytest.mark.parametrize("text", AWKWARD)
def test_every_string_reads_back_as_written(text: str, style: statefile.Style) -> None:
    doc = statefile.document([statefile.field("name", text, style=style),
                              statefile.field("club", {"name": text, "list": [text, 1]}, style=style),
                              *statefile.items("players", [{text: text}], style=style)])
    got = yamlio.to_plain(yamlio.load_yaml_text(doc, "state-end.yaml"))
    assert got == {"name": text, "club": {"name": text, "list": [text, 1]}, "players": [{text: text}]}


@pytest.mark.parametrize("value", [
    {"name": "卡尔·铁拳", "spp": 3, "skills": ["格挡", "闪避"], "lasting": [], "ok": True, "n": None, "k": 0.25},
    [{"id": "s1/h2#3", "at": [1, 2], "expr": "2D6", "dice": [3, 4]}, "说 \"好\"", "a\\b", "tab\tx", -7, 1e16],
])
def test_the_json_style_is_json(value: Any) -> None:
    """Blood Bowl's files were written by json.dumps: the JSON style keeps every byte of them."""
    assert statefile.flow(value, "json") == json.dumps(value, ensure_ascii=False)


def test_the_plain_style_writes_safe_names_bare_and_keeps_decimals() -> None:
    assert statefile.flow({"name": "卡尔·穆勒", "f": "4 4 2", "k": Decimal("0.500"), "id": "0x1F"}) == \
        '{name: 卡尔·穆勒, f: 4 4 2, k: 0.500, id: "0x1F"}'
    assert statefile.field("funds", 5, 1, note="资金", gap=8) == "  funds: 5        # 资金"
    assert statefile.scalar(float("inf")) == ".inf" and statefile.scalar(float("nan")) == ".nan"


def _odd_club(monkeypatch: pytest.MonkeyPatch, club: str, stadium: str) -> PurasbarTables:
    """The shipped tables, with 雷希特's club and stadium renamed (names the tables give ``new``)."""
    tables = load_purasbar_tables(Resources("purasbar", None))
    city = PurasbarTables.city

    def renamed(self: PurasbarTables, name: str) -> dict[str, Any]:
        row = dict(city(self, name))
        return {**row, "club": club, "stadium": stadium} if name == "雷希特" else row

    monkeypatch.setattr(PurasbarTables, "city", renamed)
    return tables


@pytest.mark.parametrize(("club", "stadium"), [("&铁拳", "A,B体育场"), ("null", "*主场"), ("123", "- 主场: 北")])
def test_purasbar_new_quotes_the_names_the_tables_give(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       club: str, stadium: str) -> None:
    """The old writer wrote ``name: &铁拳`` bare (an anchor: the name was lost) and ``stadium: - 主场: 北``
    (a YAML error); the campaign ``new`` writes now validates with the names as given."""
    from anko_writer.rulesets.purasbar.setup.newcampaign import new_campaign

    made = new_campaign("雷希特", 123456789012345678, _odd_club(monkeypatch, club, stadium))
    path = tmp_path / made.filename
    data = validate_document(path, yamlio.load_yaml_text(made.yaml_text, path, CampaignError))[1]
    assert (data["title"], data["club"]["name"], data["club"]["stadium"]) == (f"{club}的群英杯之路", club, stadium)


def _new(tmp_path: Path, ruleset: str, *options: str) -> dict[str, Any]:
    """``anko-writer new`` for ``ruleset`` with ``--option`` ``options``: the campaign it wrote, loaded."""
    res = CliRunner().invoke(app, ["new", str(tmp_path), "--ruleset", ruleset, "--seed", "123456789012345678",
                                   *[x for o in options for x in ("--option", o)]])
    assert res.exit_code == 0, res.output
    name = {"bloodbowl": "league.yaml", "ball": "ball.yaml"}[ruleset]
    return dict(yamlio.to_plain(yamlio.load_yaml_text((tmp_path / name).read_text(encoding="utf-8"), name)))


@pytest.mark.parametrize("team", ["A,B", "&铁拳", "null", "123", "'甲'", "yes"])
def test_bloodbowl_new_keeps_a_host_given_team_name(tmp_path: Path, team: str) -> None:
    data = _new(tmp_path, "bloodbowl", f"team={team}", "race=human", "coach=-老罗")
    assert (data["team"]["name"], data["team"]["coach"], data["title"]) == (team, "-老罗", f"{team}的血腥碗联赛")


@pytest.mark.parametrize("title", ["A, B: #x", '"引号" 标题', "null", "- 列表", "123"])
def test_ball_new_keeps_a_host_given_title(tmp_path: Path, title: str) -> None:
    assert _new(tmp_path, "ball", f"title={title}")["title"] == title


@pytest.mark.parametrize(("ruleset", "options"), [("purasbar", {"city": "雷希特"}),
                                                  ("bloodbowl", {"team": "铁拳", "race": "human"}), ("ball", {})])
def test_a_new_campaign_survives_the_round_trip_byte_for_byte(ruleset: str, options: dict[str, str]) -> None:
    """The commented campaign ``new`` writes goes through the round trip the tool rewrites host files with
    (``tally --write``) unchanged: every comment, and every quote (the old rewrite unquoted Blood Bowl's and
    BALL's strings)."""
    rs = ruleset_registry.get(ruleset)
    text = rs.new_campaign(options, 123456789012345678, rs.resources(None)).yaml_text
    assert sum("#" in line for line in text.splitlines()) >= 5
    assert yamlio.dump_yaml(yamlio.load_yaml_text(text, "campaign.yaml", keep_quotes=True)) == text


def test_keep_keys_and_start_data_are_shared() -> None:
    assert statefile.KEEP == ("title", "ruleset", "seed", "output", "options", "decisions")
    assert bb_state.KEEP is statefile.KEEP and bb_state.start_data is pb_state.start_data is statefile.start_data
    campaign = {"title": "t", "ruleset": "x", "seed": 1, "options": {}, "decisions": {}, "club": "old", "extra": 1}
    assert statefile.start_data(campaign, {"season": 2, "club": "new"}) == {
        "title": "t", "ruleset": "x", "seed": 1, "options": {}, "decisions": {}, "season": 2, "club": "new"}


def test_both_state_files_start_with_the_shared_header() -> None:
    text = bb_state.state_yaml(3, {"name": "甲", "race": "human", "coach": "乙", "rerolls": 1, "apothecary": False,
                                   "treasury": 0, "players": []}, [], [])
    head = text.splitlines()[:4]
    assert head[0] == "# 第 3 赛季结束时的存档（anko-writer 写出，私密：不要贴到论坛）。"
    assert head[2].startswith("# `anko-writer arc <战役文件> --arc 4`") and head[3] == statefile.KEPT_NOTE
